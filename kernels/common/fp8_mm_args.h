// Shared by every amd-fp8-mm variant: the problem arguments and the fast bf16 cast. Layout letters: A is [m,k] column-major (a[i,kk] at i + kk*lda),
// B is [n,k] column-major, scales are [rows, k/128] column-major, C is [m,n] row-major.
#pragma once

#include <hip/hip_runtime.h>
#include <stdint.h>

// NOTE: both scales cover 128 consecutive k values (1x128 on A, 128x128 on B).
constexpr int kScaleBlock = 128;

struct Fp8MmArgs {
  const uint8_t* a;        // fp8 e4m3fnuz bytes, a[i,kk] at i + kk*lda
  const uint8_t* b;        // fp8 e4m3fnuz bytes, b[j,kk] at j + kk*ldb
  const float* a_scale;    // a_scale[i,kb] at i + kb*lda_scale
  const float* b_scale;    // b_scale[j/128,kb] at j/128 + kb*ldb_scale
  uint16_t* c;             // bf16 bits, c[i,j] at i*ldc + j
  float* workspace;        // split-K partial sums (variants that split K), else unused
  int* tile_counters;      // split-K arrival counters, all zero between calls
  int m, n, k;
  int lda, ldb, lda_scale, ldb_scale, ldc;
  int split_k;
};

__host__ __device__ constexpr int ceil_div(int x, int y) { return (x + y - 1) / y; }

// Round-to-nearest-even float -> bf16 bits, the same rounding torch's .to(bfloat16) uses.
__device__ inline uint16_t float_to_bf16_bits(float value) {
  uint32_t bits = __float_as_uint(value);
  if ((bits & 0x7fffffffu) > 0x7f800000u) return 0x7fc0u;  // keep NaN a NaN
  bits += 0x7fffu + ((bits >> 16) & 1u);
  return static_cast<uint16_t>(bits >> 16);
}
