// Stand-in for ROCm torch's ATen/hip/Exceptions.h (from ATen/cuda/Exceptions.h).
#pragma once

#include <c10/hip/HIPException.h>

#define AT_HIP_CHECK(EXPR) C10_HIP_CHECK(EXPR)
#define AT_CUDA_CHECK(EXPR) C10_HIP_CHECK(EXPR)
