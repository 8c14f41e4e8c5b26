#!POPCORN leaderboard amd-fp8-mm
#!POPCORN gpu MI300
# Corpus style: rocWMMA fragments (fill_fragment, load_matrix_sync, mma_sync, store_matrix_sync)
# on fp8 at 16x16x32, one wave per 16x16 output tile; the scales are applied per 128-deep block
# through an LDS copy of the block's accumulator. Unused hipCUB / CK headers are included too.
from task import input_t, output_t
from torch.utils.cpp_extension import load_inline

CPP_SRC = "void fp8_mm(torch::Tensor a, torch::Tensor b, torch::Tensor as, torch::Tensor bs, torch::Tensor c);"

HIP_SRC = r"""
#include <hip/hip_runtime.h>
#include <hip/hip_bf16.h>
#include <rocwmma/rocwmma.hpp>
#include <hipcub/hipcub.hpp>
#include <ck/ck.hpp>

using namespace rocwmma;
constexpr int kTile = 16, kStepK = 32, kScaleBlock = 128;

__global__ __launch_bounds__(64) void fp8_mm_wmma_kernel(const float8_t* a, const float8_t* b, const float* as,
                                                         const float* bs, __hip_bfloat16* c, int m, int n, int k) {
  const int row0 = blockIdx.y * kTile, col0 = blockIdx.x * kTile, lane = threadIdx.x;
  const int sn = (n + kScaleBlock - 1) / kScaleBlock;
  __shared__ float block_result[kTile * kTile];
  float acc[4] = {0.f, 0.f, 0.f, 0.f};  // element e = lane + 64 * i of the tile, row-major
  for (int kb = 0; kb < k / kScaleBlock; ++kb) {
    fragment<accumulator, kTile, kTile, kStepK, float> f;
    fill_fragment(f, 0.f);
    for (int s = 0; s < kScaleBlock / kStepK; ++s) {
      const int k0 = kb * kScaleBlock + s * kStepK;
      // A [m,k] is stored k-major (element (r, kk) at r + kk*m): column-major with ldm = m
      fragment<matrix_a, kTile, kTile, kStepK, float8_t, col_major> fa;
      fragment<matrix_b, kTile, kTile, kStepK, float8_t, row_major> fb;
      load_matrix_sync(fa, a + row0 + k0 * m, m);
      load_matrix_sync(fb, b + col0 + k0 * n, n);
      mma_sync(f, fa, fb, f);
    }
    store_matrix_sync(block_result, f, kTile, mem_row_major);
    __syncthreads();
    for (int i = 0; i < 4; ++i) {
      const int e = lane + 64 * i, r = e / kTile, col = col0 + e % kTile;
      acc[i] += block_result[e] * as[row0 + r + kb * m] * bs[col / kScaleBlock + kb * sn];
    }
    __syncthreads();
  }
  for (int i = 0; i < 4; ++i) {
    const int e = lane + 64 * i;
    c[(row0 + e / kTile) * n + col0 + e % kTile] = __float2bfloat16(acc[i]);
  }
}

void fp8_mm(torch::Tensor a, torch::Tensor b, torch::Tensor as, torch::Tensor bs, torch::Tensor c) {
  const int m = a.size(0), n = b.size(0), k = a.size(1);
  TORCH_CHECK(m % kTile == 0 && n % kTile == 0, "m and n must be multiples of 16");
  fp8_mm_wmma_kernel<<<dim3(n / kTile, m / kTile), dim3(64)>>>(
      (const float8_t*)a.data_ptr(), (const float8_t*)b.data_ptr(), as.data_ptr<float>(), bs.data_ptr<float>(),
      (__hip_bfloat16*)c.data_ptr(), m, n, k);
}
"""

module = load_inline(name="corpus_rocwmma", cpp_sources=CPP_SRC, cuda_sources=HIP_SRC, functions=["fp8_mm"],
                     extra_cuda_cflags=["--offload-arch=gfx942", "-std=c++20", "-O3"])


def custom_kernel(data: input_t) -> output_t:
    module.fp8_mm(*data)
    return data[4]
