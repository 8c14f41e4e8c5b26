// The emulator's <hip/math_functions.h>: everything lives in <hip/hip_runtime.h>.
#pragma once
#include "hip/hip_runtime.h"
