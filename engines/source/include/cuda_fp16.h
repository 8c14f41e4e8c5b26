// CUDA f16 names (hipified on a ROCm runner): aliases of the emulator's HIP f16.
#pragma once
#include <hip/hip_fp16.h>
