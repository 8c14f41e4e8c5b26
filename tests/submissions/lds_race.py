#!POPCORN leaderboard amd-fp8-mm
#!POPCORN gpu MI300
# Corpus style, a submission that must FAIL: a producer wave stages one row of A in
# LDS per 128-deep block, a consumer wave computes 64 columns from it, and the barrier at the end
# of the loop is forgotten. On hardware the producer can overwrite the stage while the consumer
# still reads it; run in wave order (the source engine's first schedule) the result happens to be
# right, so only another schedule (or the ISA engine's LDS race check) exposes it.
from task import input_t, output_t
from torch.utils.cpp_extension import load_inline

HIP_SRC = r"""
#include <hip/hip_runtime.h>
#include <hip/hip_bf16.h>
#include <hip/hip_fp8.h>

// One row of C, 64 columns per workgroup: wave 1 stages A, wave 0 computes.
__global__ __launch_bounds__(128) void staged_row_kernel(const __hip_fp8_e4m3_fnuz* a,
    const __hip_fp8_e4m3_fnuz* b, const float* as, const float* bs, __hip_bfloat16* c, int m, int n, int k) {
  __shared__ float a_stage[128];
  const int row = blockIdx.y, wave = threadIdx.x / 64, lane = threadIdx.x % 64, col = blockIdx.x * 64 + lane;
  float total = 0.f;
  for (int kb = 0; kb < k / 128; ++kb) {
    if (wave == 1) {  // stage A[row][kb*128 .. +128), scaled
      for (int i = lane; i < 128; i += 64) a_stage[i] = float(a[row + (kb * 128 + i) * m]) * as[row + kb * m];
    }
    __syncthreads();
    if (wave == 0) {
      float block = 0.f;
      for (int i = 0; i < 128; ++i) block += a_stage[i] * float(b[col + (kb * 128 + i) * n]);
      total += block * bs[col / 128 + kb * ((n + 127) / 128)];
    }
    // missing: __syncthreads() before the next stage overwrites a_stage
  }
  if (wave == 0) c[row * n + col] = __float2bfloat16(total);
}

void fp8_mm(torch::Tensor a, torch::Tensor b, torch::Tensor as, torch::Tensor bs, torch::Tensor c) {
  const int m = a.size(0), n = b.size(0), k = a.size(1);
  TORCH_CHECK(n % 64 == 0, "n must be a multiple of 64");
  staged_row_kernel<<<dim3(n / 64, m), dim3(128)>>>((const __hip_fp8_e4m3_fnuz*)a.data_ptr(),
      (const __hip_fp8_e4m3_fnuz*)b.data_ptr(), as.data_ptr<float>(), bs.data_ptr<float>(),
      (__hip_bfloat16*)c.data_ptr(), m, n, k);
}
"""

module = load_inline(name="corpus_lds_race", cpp_sources="void fp8_mm(torch::Tensor a, torch::Tensor b, "
                     "torch::Tensor as, torch::Tensor bs, torch::Tensor c);", cuda_sources=HIP_SRC,
                     functions=["fp8_mm"], extra_cuda_cflags=["--offload-arch=gfx942", "-std=c++20"])


def custom_kernel(data: input_t) -> output_t:
    module.fp8_mm(*data)
    return data[4]
