// Staging of one K-tile shared by the swizzled MFMA variants (v2, v3): global memory ->
// registers (16-byte loads of 16 rows of one k-column) -> in-register 8x8 byte transpose ->
// K-contiguous, XOR-swizzled LDS rows. A Cfg provides BLOCK_M/N, kThreads, kUnitsA/B,
// kUnitsPerThread, kLdsA and kSwizzleShiftB; the swizzle is drawn in the variants' headers.
#pragma once

#include "fp8_mm_tile.h"

// 16-byte chunk `chunk` (of 8) of LDS row `row` holds k-bytes 16*chunk .. 16*chunk+15.
template <int kShift>
__device__ inline int swizzled_chunk(int row, int chunk) {
  return chunk ^ (((row >> kShift) ^ (row >> 4)) & 7);
}

// Which staging unit a thread moves: A or B, its 16-row group and its 8-wide k group.
template <class Cfg>
struct UnitCoords {
  bool is_a;
  int row_group, k_group;

  __device__ explicit UnitCoords(int unit) {
    is_a = unit < Cfg::kUnitsA;
    const int local = is_a ? unit : unit - Cfg::kUnitsA;
    const int groups = (is_a ? Cfg::BLOCK_M : Cfg::BLOCK_N) / 16;
    // unit bit 0 = k half of a chunk, so 16 neighbouring lanes write 16 distinct LDS slots
    row_group = (local >> 1) % groups;
    k_group = 2 * ((local >> 1) / groups) + (local & 1);
  }
};

// Global -> registers: the staging units of one K-tile (k0).
template <class Cfg, bool kAligned>
struct TileStage {
  uint4 units[Cfg::kUnitsPerThread][8];

  __device__ void load(const Fp8MmArgs& args, int m0, int n0, int k0) {
#pragma unroll
    for (int u = 0; u < Cfg::kUnitsPerThread; ++u) {
      const int unit = threadIdx.x + u * Cfg::kThreads;
      if (unit >= Cfg::kUnitsA + Cfg::kUnitsB) continue;
      const UnitCoords<Cfg> c(unit);
      const bool is_a = c.is_a;
      const int row_group = c.row_group, k_group = c.k_group;
      const uint8_t* base = is_a ? args.a : args.b;
      const int ld = is_a ? args.lda : args.ldb;
      const int rows = is_a ? args.m : args.n;
      const int row0 = (is_a ? m0 : n0) + 16 * row_group;
#pragma unroll
      for (int j = 0; j < 8; ++j) {
        const uint8_t* column = base + (size_t)(k0 + 8 * k_group + j) * ld;
        units[u][j] = load_rows16<kAligned>(column, row0, rows);
      }
    }
  }

  // Registers -> LDS: transpose each unit to 16 row pieces of 8 k-bytes, swizzled.
  __device__ void store(uint8_t* lds) const {
#pragma unroll
    for (int u = 0; u < Cfg::kUnitsPerThread; ++u) {
      const int unit = threadIdx.x + u * Cfg::kThreads;
      if (unit >= Cfg::kUnitsA + Cfg::kUnitsB) continue;
      const UnitCoords<Cfg> c(unit);
      const bool is_a = c.is_a;
      const int row_group = c.row_group, k_group = c.k_group;
      uint8_t* tile = is_a ? lds : lds + Cfg::kLdsA;
#pragma unroll
      for (int half = 0; half < 2; ++half) {  // rows 0-7, then rows 8-15 of the unit
        uint64_t x[8];
#pragma unroll
        for (int j = 0; j < 8; ++j) {
          const uint4 v = units[u][j];
          x[j] = half == 0 ? (uint64_t(v.y) << 32 | v.x) : (uint64_t(v.w) << 32 | v.z);
        }
        transpose_8x8_bytes(x);
#pragma unroll
        for (int r = 0; r < 8; ++r) {
          const int row = 16 * row_group + 8 * half + r;
          const int chunk = is_a ? swizzled_chunk<0>(row, k_group >> 1)
                                 : swizzled_chunk<Cfg::kSwizzleShiftB>(row, k_group >> 1);
          *reinterpret_cast<uint64_t*>(tile + row * 128 + chunk * 16 + (k_group & 1) * 8) = x[r];
        }
      }
    }
  }
};
