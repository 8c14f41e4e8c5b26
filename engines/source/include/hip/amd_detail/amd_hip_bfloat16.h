// See <hip/hip_bfloat16.h>.
#pragma once
#include "hip/hip_bfloat16.h"
