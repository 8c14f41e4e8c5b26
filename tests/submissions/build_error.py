#!POPCORN leaderboard amd-fp8-mm
#!POPCORN gpu MI300
# Corpus style, a submission that must FAIL to build, as it fails on the runner: a
# kernel ported from CUDA, its source a template specialised with str.replace, built with
# -Wall -Wextra so that pages of warnings (unused parameters, signed/unsigned comparisons in every
# instantiation) come before the one error: a warp reduction with CUDA's 32-bit mask 0xffffffff,
# which HIP 6.3's __shfl_xor_sync refuses (its mask must be 64-bit). The failed row must show
# that error with its file and line, not the warnings.
from task import input_t, output_t
from torch.utils.cpp_extension import load_inline

TEMPLATE = r"""
#include <hip/hip_runtime.h>
#include <hip/hip_bf16.h>
#include <hip/hip_fp8.h>

template <int COLS_PER_BLOCK>
__global__ void rowdot_kernel(const __hip_fp8_e4m3_fnuz* a, const __hip_fp8_e4m3_fnuz* b, const float* as,
                              const float* bs, __hip_bfloat16* c, int m, int n, int k, int unused_flags) {
  const int row = blockIdx.y, col = blockIdx.x * COLS_PER_BLOCK + threadIdx.x / 64, lane = threadIdx.x % 64;
  float sum = 0.f;
  for (int kk = lane; kk < k; kk += 64) {
    const unsigned scale_col = kk / 128;
    if (scale_col < k) sum += float(a[row + kk * m]) * float(b[col + kk * n]) * as[row + scale_col * m] *
                              bs[col / 128 + scale_col * ((n + 127) / 128)];
  }
  for (int offset = 32; offset > 0; offset /= 2)
    sum += __shfl_xor_sync(0xffffffff, sum, offset);
  if (lane == 0) c[row * n + col] = __float2bfloat16(sum);
}

void fp8_mm(torch::Tensor a, torch::Tensor b, torch::Tensor as, torch::Tensor bs, torch::Tensor c) {
  const int m = a.size(0), n = b.size(0), k = a.size(1);
  rowdot_kernel<{{COLS}}><<<dim3(n / {{COLS}}, m), dim3(64 * {{COLS}})>>>(
      (const __hip_fp8_e4m3_fnuz*)a.data_ptr(), (const __hip_fp8_e4m3_fnuz*)b.data_ptr(), as.data_ptr<float>(),
      bs.data_ptr<float>(), (__hip_bfloat16*)c.data_ptr(), m, n, k, 0);
}
"""

module = load_inline(
    name="corpus_build_error",
    cpp_sources="void fp8_mm(torch::Tensor a, torch::Tensor b, torch::Tensor as, torch::Tensor bs, torch::Tensor c);",
    cuda_sources=TEMPLATE.replace("{{COLS}}", "4"),
    functions=["fp8_mm"],
    extra_cuda_cflags=["--offload-arch=gfx942", "-std=c++20", "-Wall", "-Wextra"],
)


def custom_kernel(data: input_t) -> output_t:
    module.fp8_mm(*data)
    return data[4]
