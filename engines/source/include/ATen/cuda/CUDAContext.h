// The emulator's stand-in for torch's <ATen/cuda/CUDAContext.h>: streams and device guards of one emulated
// device (defined in <hip/hip_runtime.h>).
#pragma once
#include <hip/hip_runtime.h>
