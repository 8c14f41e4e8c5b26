// The emulator's <hip/hip_vector_types.h>: everything lives in <hip/hip_runtime.h>.
#pragma once
#include "hip/hip_runtime.h"
