// CUDA bf16 names (hipified on a ROCm runner): aliases of the emulator's HIP bf16.
#pragma once
#include <hip/hip_bf16.h>
typedef __hip_bfloat16 __nv_bfloat16;
