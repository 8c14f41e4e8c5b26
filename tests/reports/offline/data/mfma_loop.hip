// Test kernel: the K loop issues exactly 8 MFMAs per iteration (4 unrolled steps x 2 tiles)
// and stages 4096 bytes through LDS; tests/reports/offline/test_report.py checks those numbers.
#include <hip/hip_runtime.h>

typedef float floatx4 __attribute__((ext_vector_type(4)));

constexpr int kLdsBytes = 4096;
constexpr int kStepsPerIteration = 4;

__global__ __launch_bounds__(256) void mfma_loop_kernel(const long* a, const long* b, float* c, int k_iters) {
    __shared__ long staged[kLdsBytes / sizeof(long)];
    floatx4 acc0 = {0, 0, 0, 0};
    floatx4 acc1 = {0, 0, 0, 0};
    for (int it = 0; it < k_iters; ++it) {
        staged[threadIdx.x] = a[it * 256 + threadIdx.x];
        __syncthreads();
#pragma unroll
        for (int s = 0; s < kStepsPerIteration; ++s) {
            long av = staged[(threadIdx.x + 64 * s) % 512];
            long bv = b[it * 1024 + s * 256 + threadIdx.x];
            acc0 = __builtin_amdgcn_mfma_f32_16x16x32_fp8_fp8(av, bv, acc0, 0, 0, 0);
            acc1 = __builtin_amdgcn_mfma_f32_16x16x32_fp8_fp8(bv, av, acc1, 0, 0, 0);
        }
        __syncthreads();
    }
    for (int g = 0; g < 4; ++g) c[threadIdx.x * 8 + g] = acc0[g];
    for (int g = 0; g < 4; ++g) c[threadIdx.x * 8 + 4 + g] = acc1[g];
}
