#!POPCORN leaderboard amd-fp8-mm
#!POPCORN gpu MI300
# Test submission (predicted method): each work-item keeps 128 partial sums in a private array
# indexed at run time, so the kernel's private segment (512 bytes a lane) is over what ROCm
# 6.3's runtime keeps on a queue; the prediction must say so. One workgroup computes the first
# 64 outputs of row 0 only (quick to time): the predicted method checks no output.
import torch
from task import input_t, output_t
from torch.utils.cpp_extension import load_inline

CPP_WRAPPER = "void fp8_mm(torch::Tensor a, torch::Tensor b, torch::Tensor as, torch::Tensor bs, torch::Tensor c);"

CUDA_SRC = r"""
#include <hip/hip_runtime.h>
#include <hip/hip_fp8.h>
#include <hip/hip_bf16.h>

__global__ void private_sums(const __hip_fp8_e4m3_fnuz* a, const __hip_fp8_e4m3_fnuz* b, __hip_bfloat16* c,
                             int m, int n, int k) {
  const int col = threadIdx.x, row = 0;
  float sums[128];
  for (int i = 0; i < 128; ++i) sums[i] = 0.f;
  for (int kx = 0; kx < k; ++kx) sums[kx & 127] += float(a[row + kx * m]) * float(b[col + kx * n]);
  float total = 0.f;
  for (int i = 0; i < 128; ++i) total += sums[(i * 5 + col) & 127];
  c[row * n + col] = __float2bfloat16(total);
}

void fp8_mm(torch::Tensor a, torch::Tensor b, torch::Tensor as, torch::Tensor bs, torch::Tensor c) {
  const int m = a.size(0), n = b.size(0), k = a.size(1);
  private_sums<<<1, 64>>>(reinterpret_cast<const __hip_fp8_e4m3_fnuz*>(a.data_ptr()),
      reinterpret_cast<const __hip_fp8_e4m3_fnuz*>(b.data_ptr()), reinterpret_cast<__hip_bfloat16*>(c.data_ptr()),
      m, n, k);
}
"""

module = load_inline(name="predict_private_array", cpp_sources=[CPP_WRAPPER], cuda_sources=[CUDA_SRC],
                     functions=["fp8_mm"], extra_cuda_cflags=["--offload-arch=gfx942", "-O3"])


def custom_kernel(data: input_t) -> output_t:
    a, b, a_scale, b_scale, c = data
    module.fp8_mm(a, b, a_scale, b_scale, c)
    return c
