// Empty stand-in: see <hipblaslt/hipblaslt.h>.
#pragma once
#include <hipblaslt/hipblaslt.h>
