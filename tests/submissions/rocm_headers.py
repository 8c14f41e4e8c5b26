#!POPCORN leaderboard amd-fp8-mm
# Corpus style: the header block of the winning submission's generator, every header
# the runner's ROCm 6.3 has for HIP and the libraries it links against, most of them never used:
# amd_warp_sync_functions.h (its __shfl_sync with a 64-bit mask is used), CK's buffer addressing
# and data types, hipCUB, rocPRIM, hipblas-common (its enums are used), hipBLASLt, rocWMMA
# (fragments on HIP's own fp8 type, make_vector for the bf16 stores); the runner's flags
# (-U__HIP_NO_HALF_*, host -Ofast -ffast-math -march=native), verbose=True, the current HIP stream.
import os

from task import input_t, output_t
from torch.utils.cpp_extension import load_inline

os.environ["PYTORCH_ROCM_ARCH"] = "gfx942"
os.environ["CXX"] = "clang++"

CPP_WRAPPER = "void fp8_mm(torch::Tensor a, torch::Tensor b, torch::Tensor as, torch::Tensor bs, torch::Tensor c);"

CUDA_SRC = r"""
#include <stdio.h>
#include <hip/hip_runtime.h>
#include <hip/hip_fp8.h>
#include <hip/hip_fp16.h>
#include <hip/hip_math_constants.h>
#include <hip/amd_detail/amd_warp_sync_functions.h>
#include <ck/utility/amd_buffer_addressing.hpp>
#include <ck/utility/data_type.hpp>
#include <hipcub/hipcub.hpp>
#include <rocprim/rocprim.hpp>
#include <hipblas-common/hipblas-common.h>
#include <hipblaslt/hipblaslt-ext.hpp>
#include <hipblaslt/hipblaslt.h>
#include <rocwmma/rocwmma.hpp>
#include <rocwmma/rocwmma_coop.hpp>
#include <ATen/hip/HIPContext.h>

namespace wmma = rocwmma;
using fp8 = __hip_fp8_e4m3_fnuz;
constexpr int TILE = 16, STEP_K = 32, QUANT = 128;

// One wave per 16x16 tile of C; a 128-deep block of K at a time, its partial sum scaled as a whole.
__global__ __launch_bounds__(64) void tile_kernel(const fp8* a, const fp8* b, const float* as, const float* bs,
                                                  __hip_bfloat16* c, int m, int n, int k) {
  const int row0 = blockIdx.y * TILE, col0 = blockIdx.x * TILE, lane = threadIdx.x;
  __shared__ float partial[TILE][TILE];
  float sum[4] = {};  // C[row0 + lane / 4][col0 + 4 * (lane % 4) + j]
  for (int kb = 0; kb < k / QUANT; ++kb) {
    wmma::fragment<wmma::accumulator, TILE, TILE, STEP_K, float> acc;
    wmma::fill_fragment(acc, 0.0f);
    for (int s = 0; s < QUANT / STEP_K; ++s) {
      const int k0 = kb * QUANT + s * STEP_K;
      wmma::fragment<wmma::matrix_a, TILE, TILE, STEP_K, fp8, wmma::col_major> fa;  // a is k-major: ldm m
      wmma::fragment<wmma::matrix_b, TILE, TILE, STEP_K, fp8, wmma::row_major> fb;  // b too: ldm n
      wmma::load_matrix_sync(fa, a + row0 + k0 * m, m);
      wmma::load_matrix_sync(fb, b + col0 + k0 * n, n);
      wmma::mma_sync(acc, fa, fb, acc);
    }
    wmma::store_matrix_sync(&partial[0][0], acc, TILE, wmma::mem_row_major);
    __syncthreads();
    // lane 0 reads the block's b scale (one per 128 columns), every lane gets it
    const float b_scale = __shfl_sync(~0ull, lane == 0 ? bs[col0 / QUANT + kb * ((n + QUANT - 1) / QUANT)] : 0.f, 0);
    const float a_scale = as[row0 + lane / 4 + kb * m];
    for (int j = 0; j < 4; ++j) sum[j] += partial[lane / 4][4 * (lane % 4) + j] * a_scale * b_scale;
    __syncthreads();
  }
  auto out = wmma::make_vector(__float2bfloat16(sum[0]), __float2bfloat16(sum[1]), __float2bfloat16(sum[2]),
                               __float2bfloat16(sum[3]));
  *reinterpret_cast<decltype(out)*>(&c[(row0 + lane / 4) * n + col0 + 4 * (lane % 4)]) = out;
}

void fp8_mm(torch::Tensor a, torch::Tensor b, torch::Tensor as, torch::Tensor bs, torch::Tensor c) {
  const int m = a.size(0), n = b.size(0), k = a.size(1);
  const hipblasOperation_t layout = a.stride(0) == 1 ? HIPBLAS_OP_T : HIPBLAS_OP_N;
  TORCH_CHECK(layout == HIPBLAS_OP_T, "a must be k-major (column-major [m, k])");
  TORCH_CHECK(m % TILE == 0 && n % TILE == 0 && k % QUANT == 0, "unsupported shape");
  hipStream_t stream = at::hip::getCurrentHIPStream().stream();
  hipLaunchKernelGGL(tile_kernel, dim3(n / TILE, m / TILE), dim3(64), 0, stream, (const fp8*)a.data_ptr(),
                     (const fp8*)b.data_ptr(), as.data_ptr<float>(), bs.data_ptr<float>(),
                     (__hip_bfloat16*)c.data_ptr(), m, n, k);
}
"""

module = load_inline(
    name="corpus_rocm_headers",
    cpp_sources=[CPP_WRAPPER],
    cuda_sources=[CUDA_SRC],
    functions=["fp8_mm"],
    verbose=True,
    extra_cuda_cflags=["--offload-arch=gfx942", "-std=c++20", "-U__HIP_NO_HALF_OPERATORS__",
                       "-U__HIP_NO_HALF_CONVERSIONS__"],
    extra_cflags=["-Ofast", "-ffast-math", "-march=native", "-funroll-loops", "-fomit-frame-pointer"],
)


def custom_kernel(data: input_t) -> output_t:
    a, b, a_scale, b_scale, c = data
    module.fp8_mm(a, b, a_scale, b_scale, c)
    return c
