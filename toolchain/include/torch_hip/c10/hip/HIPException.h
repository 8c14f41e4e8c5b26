// Stand-in for ROCm torch's c10/hip/HIPException.h (hipify maps c10/cuda/CUDAException.h here):
// the error-check macros under both hipify generations' names, on torch's real TORCH_CHECK.
#pragma once

#include <hip/hip_runtime.h>

#include <c10/util/Exception.h>

#define C10_HIP_CHECK(EXPR)                                                          \
    do {                                                                             \
        const hipError_t isa_hip_status = (EXPR);                                    \
        TORCH_CHECK(isa_hip_status == hipSuccess, hipGetErrorString(isa_hip_status)); \
    } while (0)
#define C10_HIP_CHECK_WARN(EXPR) ((void)(EXPR))
#define C10_HIP_KERNEL_LAUNCH_CHECK() C10_HIP_CHECK(hipGetLastError())
#define C10_CUDA_CHECK(EXPR) C10_HIP_CHECK(EXPR)
#define C10_CUDA_CHECK_WARN(EXPR) C10_HIP_CHECK_WARN(EXPR)
#define C10_CUDA_KERNEL_LAUNCH_CHECK() C10_HIP_KERNEL_LAUNCH_CHECK()
