#!POPCORN leaderboard amd-fp8-mm
#!POPCORN gpu MI300
# Corpus style: no_implicit_headers=True with the source's own includes and PYBIND11_MODULE,
# `functions` omitted, empty cpp_sources; kernel attributes amdgpu_flat_work_group_size and
# amdgpu_waves_per_eu.
from torch.utils.cpp_extension import load_inline

HIP_SRC = r"""
#include <torch/extension.h>
#include <pybind11/pybind11.h>
#include <hip/hip_runtime.h>
#include <hip/hip_fp8.h>
#include <hip/hip_bf16.h>

// 2-D workgroups of 32 x 8; each work-item owns one output element
__global__ __attribute__((amdgpu_flat_work_group_size(1, 256))) __attribute__((amdgpu_waves_per_eu(2)))
void fp8_mm_own_module_kernel(const uint8_t* a, const uint8_t* b, const float* as, const float* bs,
                              __hip_bfloat16* c, int m, int n, int k) {
  const int col = blockIdx.x * 32 + threadIdx.x, row = blockIdx.y * 8 + threadIdx.y;
  if (row >= m || col >= n) return;
  const int sn = (n + 127) / 128;
  float acc = 0.f;
  for (int kb = 0; kb < k / 128; ++kb) {
    float part = 0.f;
    for (int kk = kb * 128; kk < kb * 128 + 128; ++kk) {
      __hip_fp8_e4m3_fnuz x, y;
      x.__x = a[row + kk * m];
      y.__x = b[col + kk * n];
      part += float(x) * float(y);
    }
    acc += part * as[row + kb * m] * bs[col / 128 + kb * sn];
  }
  c[row * n + col] = __float2bfloat16(acc);
}

torch::Tensor run(torch::Tensor a, torch::Tensor b, torch::Tensor as, torch::Tensor bs, torch::Tensor c) {
  const int m = a.size(0), n = b.size(0), k = a.size(1);
  fp8_mm_own_module_kernel<<<dim3((n + 31) / 32, (m + 7) / 8), dim3(32, 8)>>>(
      (const uint8_t*)a.data_ptr(), (const uint8_t*)b.data_ptr(), as.data_ptr<float>(), bs.data_ptr<float>(),
      (__hip_bfloat16*)c.data_ptr(), m, n, k);
  return c;
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
  m.def("run", &run, "fp8 block-scaled GEMM (naive)");
}
"""

module = load_inline(name="corpus_own_module", cpp_sources="", cuda_sources=HIP_SRC, no_implicit_headers=True,
                     extra_cuda_cflags=["--offload-arch=gfx942", "-O3"])


def custom_kernel(data):
    return module.run(*data)
