#!POPCORN leaderboard amd-fp8-mm
#!POPCORN gpu MI300
# The emulator's naive end-to-end test kernel: one work-item per output element.
from torch.utils.cpp_extension import load_inline

CPP_SOURCE = "void fp8_mm_naive(torch::Tensor a, torch::Tensor b, torch::Tensor as, torch::Tensor bs, torch::Tensor c);"

HIP_SOURCE = r"""
#include <hip/hip_runtime.h>
#include <hip/amd_detail/amd_hip_fp8.h>
#include <hip/amd_detail/amd_hip_bf16.h>

constexpr int kBlockK = 128;  // k-width of one scale block

// a [m,k] strides (1,m); b [n,k] strides (1,n); a_scale [m,k/128] strides (1,m);
// b_scale [ceil(n/128),k/128] strides (1,sn); c [m,n] row-major.
__global__ void fp8_mm_naive_kernel(const __hip_fp8_e4m3_fnuz* a, const __hip_fp8_e4m3_fnuz* b,
                                    const float* a_scale, const float* b_scale, __hip_bfloat16* c,
                                    int m, int n, int k) {
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= m || col >= n) return;
  int sn = (n + kBlockK - 1) / kBlockK;
  float acc = 0.0f;
  for (int kb = 0; kb < k / kBlockK; ++kb) {
    float block = 0.0f;
    for (int kk = kb * kBlockK; kk < (kb + 1) * kBlockK; ++kk)
      block += float(a[row + kk * m]) * float(b[col + kk * n]);
    acc += block * a_scale[row + kb * m] * b_scale[col / kBlockK + kb * sn];
  }
  c[row * n + col] = __hip_bfloat16(acc);
}

void fp8_mm_naive(torch::Tensor a, torch::Tensor b, torch::Tensor as, torch::Tensor bs, torch::Tensor c) {
  int m = a.size(0), n = b.size(0), k = a.size(1);
  dim3 block(64, 4);
  dim3 grid((n + 63) / 64, (m + 3) / 4);
  hipLaunchKernelGGL(fp8_mm_naive_kernel, grid, block, 0, 0,
                     (const __hip_fp8_e4m3_fnuz*)a.data_ptr(), (const __hip_fp8_e4m3_fnuz*)b.data_ptr(),
                     as.data_ptr<float>(), bs.data_ptr<float>(), (__hip_bfloat16*)c.data_ptr(), m, n, k);
}
"""

module = load_inline(name="fp8_mm_naive", cpp_sources=[CPP_SOURCE], cuda_sources=[HIP_SOURCE],
                     functions=["fp8_mm_naive"], verbose=False,
                     extra_cuda_cflags=["--offload-arch=gfx942", "-std=c++20"])


def custom_kernel(data):
    a, b, a_scale, b_scale, c = data
    module.fp8_mm_naive(a, b, a_scale, b_scale, c)
    return c
