// Device helpers shared by the MFMA variants: the fp8 MFMA, bounds-checked 16-row loads of a
// column-major operand, and the in-register 8x8 byte transpose.
#pragma once

#include "fp8_mm_args.h"

using floatx4 = float __attribute__((ext_vector_type(4)));

// NOTE: v_mfma_f32_16x16x32_fp8_fp8 (16 cycles). Lane l supplies A[l%16][8*(l/16) + 0..7]
// and B[8*(l/16) + 0..7][l%16] as 8 fp8 bytes; it gets D[4*(l/16) + g][l%16] in element g.
__device__ inline floatx4 mfma_16x16x32_fp8(uint64_t a, uint64_t b, floatx4 acc) {
  return __builtin_amdgcn_mfma_f32_16x16x32_fp8_fp8(static_cast<long>(a), static_cast<long>(b),
                                                    acc, 0, 0, 0);
}

// 16 consecutive rows (row0 .. row0+15) of one k-column of a column-major fp8 operand with
// `rows` valid rows; rows past the end read as zero. kAligned promises rows % 16 == 0 and a
// 16-byte aligned column, so a 16-row group is all in or all out and takes one 16-byte load.
template <bool kAligned>
__device__ inline uint4 load_rows16(const uint8_t* column, int row0, int rows) {
  if constexpr (kAligned) {
    if (row0 >= rows) return make_uint4(0u, 0u, 0u, 0u);
    return *reinterpret_cast<const uint4*>(column + row0);
  } else {
    uint32_t words[4] = {0u, 0u, 0u, 0u};
    for (int e = 0; e < 16; ++e) {
      if (row0 + e < rows) words[e / 4] |= uint32_t(column[row0 + e]) << (8 * (e % 4));
    }
    return make_uint4(words[0], words[1], words[2], words[3]);
  }
}

// Transpose an 8x8 byte matrix held as 8 little-endian uint64: on entry byte c of x[r] is
// M[r][c]; on exit byte r of x[c] is M[r][c]. Three rounds swap 1-, 2- and 4-byte blocks;
// the 4-byte round only renames 32-bit halves, so the cost is the first two rounds.
__device__ inline void transpose_8x8_bytes(uint64_t (&x)[8]) {
  constexpr uint64_t kBytes = 0x00ff00ff00ff00ffull;
  constexpr uint64_t kPairs = 0x0000ffff0000ffffull;
  constexpr uint64_t kQuads = 0x00000000ffffffffull;
#pragma unroll
  for (int r = 0; r < 8; r += 2) {
    const uint64_t t = ((x[r] >> 8) ^ x[r + 1]) & kBytes;
    x[r + 1] ^= t;
    x[r] ^= t << 8;
  }
#pragma unroll
  for (int r = 0; r < 8; r = (r % 2 == 1) ? r + 3 : r + 1) {  // r = 0, 1, 4, 5
    const uint64_t t = ((x[r] >> 16) ^ x[r + 2]) & kPairs;
    x[r + 2] ^= t;
    x[r] ^= t << 16;
  }
#pragma unroll
  for (int r = 0; r < 4; ++r) {
    const uint64_t t = ((x[r] >> 32) ^ x[r + 4]) & kQuads;
    x[r + 4] ^= t;
    x[r] ^= t << 32;
  }
}
