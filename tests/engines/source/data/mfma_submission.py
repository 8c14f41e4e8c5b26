#!POPCORN leaderboard amd-fp8-mm
#!POPCORN gpu MI300
# The emulator's MFMA end-to-end test kernel: 64x64 output tile per workgroup of 4 waves
# (2x2, each 32x32 = 2x2 tiles of v_mfma_f32_16x16x32_fp8_fp8), A and B staged in LDS one
# 128-wide scale block at a time.
from torch.utils.cpp_extension import load_inline

CPP_SOURCE = "void fp8_mm_mfma(torch::Tensor a, torch::Tensor b, torch::Tensor as, torch::Tensor bs, torch::Tensor c);"

HIP_SOURCE = r"""
#include <hip/hip_runtime.h>
#include <hip/amd_detail/amd_hip_fp8.h>
#include <hip/amd_detail/amd_hip_bf16.h>
#include <cstring>

typedef float floatx4 __attribute__((ext_vector_type(4)));

constexpr int BLOCK_M = 64, BLOCK_N = 64, BLOCK_K = 128, kThreads = 256;

// LDS tiles are K-contiguous: tile[row][k], so a lane's 8 consecutive k bytes are one load.
__global__ __launch_bounds__(kThreads) void fp8_mm_mfma_kernel(
    const uint8_t* a, const uint8_t* b, const float* a_scale, const float* b_scale,
    __hip_bfloat16* c, int m, int n, int k) {
  __shared__ uint8_t a_tile[BLOCK_M][BLOCK_K];
  __shared__ uint8_t b_tile[BLOCK_N][BLOCK_K];
  const int tid = threadIdx.x, lane = tid % 64, wave = tid / 64;
  const int row0 = blockIdx.y * BLOCK_M, col0 = blockIdx.x * BLOCK_N;
  const int wave_row = (wave / 2) * 32, wave_col = (wave % 2) * 32;
  const int sn = (n + BLOCK_K - 1) / BLOCK_K;
  floatx4 acc[2][2] = {};

  for (int kb = 0; kb < k / BLOCK_K; ++kb) {
    // stage A and B tiles into LDS (consecutive threads read consecutive m / n)
    for (int idx = tid; idx < BLOCK_M * BLOCK_K; idx += kThreads) {
      int r = idx % BLOCK_M, kk = idx / BLOCK_M;
      a_tile[r][kk] = row0 + r < m ? a[(row0 + r) + size_t(kb * BLOCK_K + kk) * m] : 0;
      b_tile[r][kk] = col0 + r < n ? b[(col0 + r) + size_t(kb * BLOCK_K + kk) * n] : 0;
    }
    __syncthreads();

    floatx4 block[2][2] = {};
    for (int ks = 0; ks < BLOCK_K; ks += 32) {
      // NOTE: 16x16x32 operand layout: lane l holds row l%16, k = 8*(l/16) .. +7.
      for (int ti = 0; ti < 2; ++ti)
        for (int tj = 0; tj < 2; ++tj) {
          long a_op, b_op;
          std::memcpy(&a_op, &a_tile[wave_row + ti * 16 + lane % 16][ks + 8 * (lane / 16)], 8);
          std::memcpy(&b_op, &b_tile[wave_col + tj * 16 + lane % 16][ks + 8 * (lane / 16)], 8);
          block[ti][tj] = __builtin_amdgcn_mfma_f32_16x16x32_fp8_fp8(a_op, b_op, block[ti][tj], 0, 0, 0);
        }
    }
    // NOTE: accumulator element g of lane l is D[4*(l/16) + g][l%16].
    for (int ti = 0; ti < 2; ++ti)
      for (int tj = 0; tj < 2; ++tj) {
        int col = col0 + wave_col + tj * 16 + lane % 16;
        float bs = col < n ? b_scale[col / BLOCK_K + kb * sn] : 0.0f;
        for (int g = 0; g < 4; ++g) {
          int row = row0 + wave_row + ti * 16 + 4 * (lane / 16) + g;
          float as = row < m ? a_scale[row + size_t(kb) * m] : 0.0f;
          acc[ti][tj][g] += block[ti][tj][g] * as * bs;
        }
      }
    __syncthreads();
  }
  for (int ti = 0; ti < 2; ++ti)
    for (int tj = 0; tj < 2; ++tj)
      for (int g = 0; g < 4; ++g) {
        int row = row0 + wave_row + ti * 16 + 4 * (lane / 16) + g;
        int col = col0 + wave_col + tj * 16 + lane % 16;
        if (row < m && col < n) c[size_t(row) * n + col] = __float2bfloat16(acc[ti][tj][g]);
      }
}

void fp8_mm_mfma(torch::Tensor a, torch::Tensor b, torch::Tensor as, torch::Tensor bs, torch::Tensor c) {
  int m = a.size(0), n = b.size(0), k = a.size(1);
  dim3 grid((n + BLOCK_N - 1) / BLOCK_N, (m + BLOCK_M - 1) / BLOCK_M);
  fp8_mm_mfma_kernel<<<grid, kThreads, 0, at::cuda::getCurrentCUDAStream()>>>(
      (const uint8_t*)a.data_ptr(), (const uint8_t*)b.data_ptr(), as.data_ptr<float>(), bs.data_ptr<float>(),
      (__hip_bfloat16*)c.data_ptr(), m, n, k);
}
"""

module = load_inline(name="fp8_mm_mfma", cpp_sources=[CPP_SOURCE], cuda_sources=[HIP_SOURCE],
                     functions=["fp8_mm_mfma"], verbose=False,
                     extra_cuda_cflags=["--offload-arch=gfx942", "-std=c++20"])


def custom_kernel(data):
    a, b, a_scale, b_scale, c = data
    module.fp8_mm_mfma(a, b, a_scale, b_scale, c)
    return c
