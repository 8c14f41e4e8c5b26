// fp8_mm v3 (two blocks per CU + XCD order): v2's pipeline with 64x64 wave tiles, a 32 KiB
// LDS footprint and an L2-friendly workgroup order.
//
// Design (what changed from v2; staging, transpose and split-K are v2's)
// - Wave tile 64x64 (16 MFMA outputs of 16x16): a 128x128 block is 4 waves (WAVES 2x2), a
//   64x128 block 4 waves of 64x32. Per k-slice a wave reads 4 + 4 fragments for 16 MFMAs.
// - Two blocks per CU: the 128x128 block's LDS is exactly A + B (32 KiB), so two blocks are
//   resident and one's staging and barriers overlap the other's MFMAs. For that the scales
//   left the LDS: each lane loads the a_scale of its 16 accumulator rows (four 16-byte loads
//   when aligned) and its wave's b_scale straight from global memory, before the prefetch,
//   so waiting for them never waits for the prefetch. The split-K arrival flag reuses LDS.
// - Registers: fragments are read one 32-wide k-slice at a time (not a whole K-tile), so
//   master + per-K-tile fp32 sums (2 x 64), one staging unit of prefetch (32), fragments and
//   scales fit the 256 VGPRs of 2 waves per SIMD; __launch_bounds__ holds the fast path to it.
// - Workgroup order: MI300X hands consecutive workgroup ids to its 8 XCDs in turn, and each
//   XCD has its own L2. The kernel renumbers ids so each XCD gets a contiguous run of tiles
//   (row-major, n fastest): the blocks resident on one XCD share A rows in its L2.
// - The template also builds 256x128 (WAVES 4x2) and 128x256 (2x4) blocks of 8 waves without
//   spills (48 KiB LDS, one block per CU); b_scale is then chosen per wave's column block.
//
// LDS layout (v2's swizzle; rows K-contiguous, 128 bytes, 16-byte chunks XOR-swizzled):
//
//   [ A: BLOCK_M rows x 128 B ][ B: BLOCK_N rows x 128 B ]          (no scales, no padding)
//
//   row r:  | chunk 0 | chunk 1 | ... | chunk 7 |   chunk c holds k = 16c .. 16c+15
//   stored at chunk   c ^ swz(r),   swz(r) = ((r >> s) ^ (r >> 4)) & 7
//   s = 0 for A; s = log2(kSubN) for B (B rows are read in strides of kSubN).
//
//   reads  (ds_read_b128): 8 lanes at a time take rows r0..r0+7 (A) or r0 + kSubN*i (B) at
//          one logical chunk -> 8 different physical chunks = all 32 banks.
//   writes (ds_write_b64, 16 lanes at a time): 8 row groups x 2 k-halves -> 16 distinct slots.
//
// MFMA k order inside a K-tile: lane group q = l/16 owns chunks 2q, 2q+1; k-slice (h, e)
// feeds bytes 8e..8e+7 of chunk 2q+h. A and B use the same order, so the K-tile sum is the
// same set of products as the reference's (summed in a different order).
#include "common/fp8_mm_args.h"
#include "common/fp8_mm_stage.h"

// ---- config -------------------------------------------------------------------------------
template <int BLOCK_M_, int BLOCK_N_, int BLOCK_K_, int WAVES_M_, int WAVES_N_>
struct TwoBlockConfig {
  static constexpr int BLOCK_M = BLOCK_M_, BLOCK_N = BLOCK_N_, BLOCK_K = BLOCK_K_;
  static constexpr int WAVES_M = WAVES_M_, WAVES_N = WAVES_N_;
  static constexpr int kThreads = 64 * WAVES_M * WAVES_N;
  static constexpr int kSubM = BLOCK_M / WAVES_M / 16;  // 16x16 outputs per wave along m
  static constexpr int kSubN = BLOCK_N / WAVES_N / 16;  // ... along n
  static constexpr int kWaveCols = 16 * kSubN;
  static constexpr int kSwizzleShiftB = kSubN == 4 ? 2 : kSubN == 2 ? 1 : 0;
  static constexpr int kUnitsA = BLOCK_M / 16 * (BLOCK_K / 8);  // 16 rows x 8 k staging units
  static constexpr int kUnitsB = BLOCK_N / 16 * (BLOCK_K / 8);
  static constexpr int kUnitsPerThread = ceil_div(kUnitsA + kUnitsB, kThreads);
  static constexpr int kLdsA = BLOCK_M * BLOCK_K;
  static constexpr int kLdsB = BLOCK_N * BLOCK_K;
  static constexpr int kLdsBytes = kLdsA + kLdsB;

  static_assert(BLOCK_K == kScaleBlock, "a K-tile is one scale block: scales apply per tile");
  static_assert(BLOCK_N <= kScaleBlock ? kScaleBlock % BLOCK_N == 0 : BLOCK_N % kScaleBlock == 0,
                "column blocks of a tile line up with b_scale blocks");
  static_assert(kScaleBlock % kWaveCols == 0, "a wave's columns share one b_scale");
  static_assert(BLOCK_M % (16 * WAVES_M) == 0 && BLOCK_N % (16 * WAVES_N) == 0,
                "waves own whole 16x16 MFMA outputs");
  static_assert(kSubN == 1 || kSubN == 2 || kSubN == 4, "stores pack 1, 2 or 4 bf16");
  static_assert(kLdsBytes <= 65536, "NOTE: gfx942 allows 64 KiB of LDS per block");
};

// ---- kernel -------------------------------------------------------------------------------
// Workgroup id -> work id such that XCD x (which runs ids x, x+8, x+16, ...) gets one
// contiguous run of work ids. A bijection on [0, total) for any total.
__device__ inline int xcd_contiguous_id(int id, int total) {
  constexpr int kXcds = 8;  // NOTE: MI300X dispatches workgroup ids round-robin over 8 XCDs
  const int xcd = id % kXcds, slot = id / kXcds;
  const int per_xcd = total / kXcds, larger = total % kXcds;  // first `larger` XCDs get one more
  const int start = xcd < larger ? xcd * (per_xcd + 1) : larger * (per_xcd + 1) + (xcd - larger) * per_xcd;
  return start + slot;
}

// The combined scales a_scale[row, kb] * b_scale[col block, kb] of the accumulator rows this
// lane holds (rows 16*mi + 4q + g of the wave, one column block per wave), straight from
// global memory: keeping them out of LDS lets a 128x128 tile fit in 32 KiB. kAligned adds
// that the four rows of a lane group are one 16-byte load.
template <class Cfg, bool kAligned>
__device__ inline void load_scales(const Fp8MmArgs& args, int m0, int n0, int wave_m, int wave_n,
                                   int lane, int kb, floatx4 (&scale)[Cfg::kSubM]) {
  const int col_block = (n0 + wave_n * Cfg::kWaveCols) / kScaleBlock;
  const float b_scale =
      col_block * kScaleBlock < args.n ? args.b_scale[col_block + kb * args.ldb_scale] : 0.0f;
  const float* a_scale = args.a_scale + (size_t)kb * args.lda_scale;
#pragma unroll
  for (int mi = 0; mi < Cfg::kSubM; ++mi) {
    const int row = m0 + wave_m * 16 * Cfg::kSubM + 16 * mi + 4 * (lane / 16);
    if constexpr (kAligned) {
      scale[mi] = row < args.m ? *reinterpret_cast<const floatx4*>(a_scale + row) * b_scale
                               : floatx4{0.f, 0.f, 0.f, 0.f};
    } else {
      // rows past m read row m-1's scale: their A rows are staged as zeros and their
      // outputs are never stored, and an unmasked value holds no mask register across the MFMAs
#pragma unroll
      for (int g = 0; g < 4; ++g) scale[mi][g] = a_scale[min(row + g, args.m - 1)] * b_scale;
    }
  }
}

// One K-tile of MFMAs for one wave, k-slice by k-slice straight from LDS, into fresh sums.
template <class Cfg>
__device__ inline void mfma_k_tile(const uint8_t* tile_a, const uint8_t* tile_b, int wave_m,
                                   int wave_n, int lane,
                                   floatx4 (&part)[Cfg::kSubM][Cfg::kSubN]) {
  const int q = lane / 16;  // lane group: k-bytes 32q .. 32q+31 of the K-tile
#pragma unroll
  for (int mi = 0; mi < Cfg::kSubM; ++mi)
#pragma unroll
    for (int t = 0; t < Cfg::kSubN; ++t) part[mi][t] = floatx4{0.f, 0.f, 0.f, 0.f};
#pragma unroll
  for (int h = 0; h < 2; ++h) {
    uint4 frag_a[Cfg::kSubM], frag_b[Cfg::kSubN];
#pragma unroll
    for (int mi = 0; mi < Cfg::kSubM; ++mi) {
      const int row = wave_m * 16 * Cfg::kSubM + 16 * mi + lane % 16;
      frag_a[mi] = *reinterpret_cast<const uint4*>(
          tile_a + row * 128 + swizzled_chunk<0>(row, 2 * q + h) * 16);
    }
#pragma unroll
    for (int t = 0; t < Cfg::kSubN; ++t) {
      const int row = wave_n * Cfg::kWaveCols + Cfg::kSubN * (lane % 16) + t;
      frag_b[t] = *reinterpret_cast<const uint4*>(
          tile_b + row * 128 + swizzled_chunk<Cfg::kSwizzleShiftB>(row, 2 * q + h) * 16);
    }
#pragma unroll
    for (int e = 0; e < 2; ++e) {
#pragma unroll
      for (int mi = 0; mi < Cfg::kSubM; ++mi) {
        const uint64_t a = e == 0 ? (uint64_t(frag_a[mi].y) << 32 | frag_a[mi].x)
                                  : (uint64_t(frag_a[mi].w) << 32 | frag_a[mi].z);
#pragma unroll
        for (int t = 0; t < Cfg::kSubN; ++t) {
          const uint64_t b = e == 0 ? (uint64_t(frag_b[t].y) << 32 | frag_b[t].x)
                                    : (uint64_t(frag_b[t].w) << 32 | frag_b[t].z);
          part[mi][t] = mfma_16x16x32_fp8(a, b, part[mi][t]);
        }
      }
    }
  }
}

template <class Cfg>
__device__ inline void store_outputs(const Fp8MmArgs& args, int m0, int n0, int wave_m,
                                     int wave_n, int lane,
                                     const floatx4 (&acc)[Cfg::kSubM][Cfg::kSubN]) {
  constexpr int kRun = Cfg::kSubN;  // adjacent columns per lane and row
  const int col = n0 + wave_n * Cfg::kWaveCols + kRun * (lane % 16);
  const bool vector_ok = col + kRun <= args.n && args.ldc % kRun == 0 &&
                         reinterpret_cast<uintptr_t>(args.c) % (2 * kRun) == 0;
#pragma unroll
  for (int mi = 0; mi < Cfg::kSubM; ++mi) {
#pragma unroll
    for (int g = 0; g < 4; ++g) {
      const int row = m0 + wave_m * 16 * Cfg::kSubM + 16 * mi + 4 * (lane / 16) + g;
      if (row >= args.m) continue;
      uint16_t* out = args.c + (size_t)row * args.ldc + col;
      uint16_t bits[kRun];
#pragma unroll
      for (int t = 0; t < kRun; ++t) bits[t] = float_to_bf16_bits(acc[mi][t][g]);
      if (vector_ok) {
        if constexpr (kRun == 4) {
          const uint64_t packed = bits[0] | uint64_t(bits[1]) << 16 | uint64_t(bits[2]) << 32 |
                                  uint64_t(bits[3]) << 48;
          __builtin_nontemporal_store(packed, reinterpret_cast<uint64_t*>(out));
        } else if constexpr (kRun == 2) {
          __builtin_nontemporal_store(bits[0] | uint32_t(bits[1]) << 16,
                                      reinterpret_cast<uint32_t*>(out));
        } else {
          __builtin_nontemporal_store(bits[0], out);
        }
      } else {
#pragma unroll
        for (int t = 0; t < kRun; ++t) {
          if (col + t < args.n) out[t] = bits[t];
        }
      }
    }
  }
}

// Split-K: publish this split's sums; the last block of the tile to arrive adds all slices in
// split order into acc and returns true, the others return false (and write nothing).
template <class Cfg>
__device__ inline bool reduce_split_k(const Fp8MmArgs& args, int tile, int split,
                                      floatx4 (&acc)[Cfg::kSubM][Cfg::kSubN], int* last_to_arrive) {
  // last_to_arrive is LDS the main loop no longer reads (it ends with a barrier)
  constexpr int kFrags = Cfg::kSubM * Cfg::kSubN;
  floatx4* slices = reinterpret_cast<floatx4*>(args.workspace) +
                    (size_t)tile * args.split_k * kFrags * Cfg::kThreads;
#pragma unroll
  for (int f = 0; f < kFrags; ++f)
    __builtin_nontemporal_store(acc[f / Cfg::kSubN][f % Cfg::kSubN],
                                slices + ((size_t)split * kFrags + f) * Cfg::kThreads + threadIdx.x);
  __threadfence();
  __syncthreads();
  if (threadIdx.x == 0) {
    const int arrived = atomicAdd(&args.tile_counters[tile], 1);
    *last_to_arrive = arrived == args.split_k - 1;
    if (*last_to_arrive) args.tile_counters[tile] = 0;  // ready for the next call
  }
  __syncthreads();
  if (!*last_to_arrive) return false;
  __threadfence();
#pragma unroll
  for (int f = 0; f < kFrags; ++f) {
    floatx4 sum = floatx4{0.f, 0.f, 0.f, 0.f};
    for (int s = 0; s < args.split_k; ++s)
      sum += __builtin_nontemporal_load(slices + ((size_t)s * kFrags + f) * Cfg::kThreads + threadIdx.x);
    acc[f / Cfg::kSubN][f % Cfg::kSubN] = sum;
  }
  return true;
}

// kAligned: m and n are multiples of 16 and A, B columns are 16-byte aligned (every ranked
// shape); otherwise operands are staged byte by byte with bounds checks.
// NOTE: HIP's second __launch_bounds__ argument is amdgpu_waves_per_eu: 2 caps VGPRs + AGPRs
// at 256 per lane, so two 4-wave blocks (or one 8-wave block) fit a CU. The byte-wise path
// (off-grid shapes only) needs more than 256 for 128x128 and is allowed one wave per SIMD.
template <class Cfg, bool kAligned>
__global__ void __launch_bounds__(Cfg::kThreads, kAligned ? 2 : 1)
    fp8_mm_v3_twoblock_xcd_kernel(Fp8MmArgs args) {
  __shared__ __attribute__((aligned(16))) uint8_t lds[Cfg::kLdsBytes];

  const int tiles_n = ceil_div(args.n, Cfg::BLOCK_N);
  const int tiles = ceil_div(args.m, Cfg::BLOCK_M) * tiles_n;
  const int work = xcd_contiguous_id(blockIdx.x, tiles * args.split_k);
  const int tile = work % tiles;
  const int split = work / tiles;
  const int m0 = (tile / tiles_n) * Cfg::BLOCK_M;
  const int n0 = (tile % tiles_n) * Cfg::BLOCK_N;
  const int k_tiles = args.k / Cfg::BLOCK_K;
  const int per_split = ceil_div(k_tiles, args.split_k);
  const int kt_begin = min(k_tiles, split * per_split);
  const int kt_end = min(k_tiles, kt_begin + per_split);

  const int lane = threadIdx.x % 64;
  const int wave = threadIdx.x / 64;
  const int wave_m = wave % Cfg::WAVES_M;
  const int wave_n = wave / Cfg::WAVES_M;

  floatx4 acc[Cfg::kSubM][Cfg::kSubN];
#pragma unroll
  for (int mi = 0; mi < Cfg::kSubM; ++mi)
#pragma unroll
    for (int t = 0; t < Cfg::kSubN; ++t) acc[mi][t] = floatx4{0.f, 0.f, 0.f, 0.f};

  TileStage<Cfg, kAligned> stage;
  if (kt_begin < kt_end) {
    stage.load(args, m0, n0, kt_begin * Cfg::BLOCK_K);
  }
  const uint8_t* tile_a = lds;
  const uint8_t* tile_b = lds + Cfg::kLdsA;

  for (int kt = kt_begin; kt < kt_end; ++kt) {
    // this K-tile's scales first: loads complete in order, so the wait for them after the
    // MFMAs does not also wait for the prefetch issued below
    floatx4 scale[Cfg::kSubM];
    load_scales<Cfg, kAligned>(args, m0, n0, wave_m, wave_n, lane, kt, scale);
    // stage the K-tile into LDS, then prefetch the next one into registers
    stage.store(lds);
    __syncthreads();
    if (kt + 1 < kt_end) {
      stage.load(args, m0, n0, (kt + 1) * Cfg::BLOCK_K);
    }

    floatx4 part[Cfg::kSubM][Cfg::kSubN];
    mfma_k_tile<Cfg>(tile_a, tile_b, wave_m, wave_n, lane, part);

    // apply a_scale (per row) * b_scale (per column block) in fp32 into the master sums
#pragma unroll
    for (int mi = 0; mi < Cfg::kSubM; ++mi)
#pragma unroll
      for (int t = 0; t < Cfg::kSubN; ++t) acc[mi][t] += scale[mi] * part[mi][t];
    __syncthreads();
  }

  if (args.split_k > 1 &&
      !reduce_split_k<Cfg>(args, tile, split, acc, reinterpret_cast<int*>(lds))) {
    return;
  }
  store_outputs<Cfg>(args, m0, n0, wave_m, wave_n, lane, acc);
}

// ---- launcher -----------------------------------------------------------------------------
inline bool fp8_mm_v3_twoblock_xcd_is_supported(int m, int n, int k, int split_k) {
  return m >= 1 && n >= 1 && k >= kScaleBlock && k % kScaleBlock == 0 && split_k >= 1;
}

// Returns false (and launches nothing) for a shape or split the kernel cannot handle.
template <int BLOCK_M, int BLOCK_N, int BLOCK_K, int WAVES_M, int WAVES_N>
bool launch_fp8_mm_v3_twoblock_xcd(const Fp8MmArgs& args) {
  using Cfg = TwoBlockConfig<BLOCK_M, BLOCK_N, BLOCK_K, WAVES_M, WAVES_N>;
  if (!fp8_mm_v3_twoblock_xcd_is_supported(args.m, args.n, args.k, args.split_k)) return false;
  if (args.split_k > 1 && (args.workspace == nullptr || args.tile_counters == nullptr)) return false;
  const int tiles = ceil_div(args.m, BLOCK_M) * ceil_div(args.n, BLOCK_N);
  const dim3 grid(tiles * args.split_k);  // one dimension: the kernel renumbers ids per XCD
  const bool aligned = args.m % 16 == 0 && args.n % 16 == 0 && args.lda % 16 == 0 &&
                       args.ldb % 16 == 0 && reinterpret_cast<uintptr_t>(args.a) % 16 == 0 &&
                       reinterpret_cast<uintptr_t>(args.b) % 16 == 0 && args.lda_scale % 4 == 0 &&
                       reinterpret_cast<uintptr_t>(args.a_scale) % 16 == 0;
  if (aligned) {
    fp8_mm_v3_twoblock_xcd_kernel<Cfg, true><<<grid, dim3(Cfg::kThreads)>>>(args);
  } else {
    fp8_mm_v3_twoblock_xcd_kernel<Cfg, false><<<grid, dim3(Cfg::kThreads)>>>(args);
  }
  return true;
}
