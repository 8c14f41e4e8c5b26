// fp8_mm v2 (swizzle + split-K): the tuned variant.
//
// Design
// - One block computes a BLOCK_M x BLOCK_N tile of C over a range of 128-wide K-tiles (one
//   scale block each). WAVES_M x WAVES_N waves split the tile; each wave owns kSubM x kSubN
//   16x16 outputs and runs v_mfma_f32_16x16x32_fp8_fp8 with fp32 accumulation.
// - Transpose choice: in registers, while staging. A and B arrive column-major (k outer),
//   the MFMA wants 8 consecutive k per lane. A separate transpose pass would cost a launch
//   and a full HBM round trip of A and B per call, which at these sizes is several us; the
//   in-register 8x8 byte transpose costs ~4 VALU ops per dword and overlaps with MFMA work.
// - Staging unit = 16 rows x 8 k of one operand: eight 16-byte global loads (kk .. kk+7),
//   consecutive lanes take consecutive 16-row groups, so each load instruction covers whole
//   128-byte lines. Two 8x8 byte transposes turn it into 16 row pieces of 8 k-bytes.
// - Register prefetch: the next K-tile's units (and scales) are loaded while the MFMAs of
//   the current tile run from LDS; one LDS buffer, two barriers per K-tile.
// - Scales: per K-tile, s[i] = a_scale[i,kb] * b_scale[n0/128,kb] is staged in LDS; the wave
//   multiplies its fresh fp32 tile sums by s (a float4 per lane: rows 4*(l/16)+0..3) and adds
//   them into the master accumulator. BLOCK_N divides 128, so one b_scale per block.
// - Output columns are permuted inside a wave: N-subtile t, MFMA column j holds local column
//   kSubN*j + t, so a lane ends with kSubN adjacent columns of each row and writes them as
//   one non-temporal store of kSubN bf16, once.
// - Split-K (split_k > 1): block (tile, s) sums its K range, stores the fp32 accumulator in
//   register order to the workspace, and the last block to arrive at the tile (atomic
//   counter, reset to zero by that block) adds the split_k slices in order and writes bf16.
//   One launch per call either way.
//
// LDS layout (K-contiguous rows of 128 bytes, 16-byte chunks XOR-swizzled):
//
//   row r of A or B:  | chunk 0 | chunk 1 | ... | chunk 7 |   chunk c holds k = 16c .. 16c+15
//   stored at chunk   c ^ swz(r),   swz(r) = ((r >> s) ^ (r >> 4)) & 7
//   s = 0 for A; s = log2(kSubN) for B (B rows are read in strides of kSubN).
//
//   reads  (ds_read_b128, 8 lanes per clock): 8 rows r0..r0+7 (A) or r0 + kSubN*i (B) at one
//          chunk -> 8 different chunks = all 32 banks.
//   writes (ds_write_b64, 16 lanes per clock): rows 16*g + j for 8 row groups g, two k-halves
//          of one chunk -> swz differs in g, halves differ -> 16 distinct 8-byte slots.
//   after A and B: BLOCK_M floats of combined scale s[i].
//
// MFMA k order inside a K-tile: lane group q = l/16 reads chunks 2q and 2q+1 (32 k-bytes);
// step (h, e) feeds bytes 8e..8e+7 of chunk 2q+h. A and B use the same order, so the sum
// over the K-tile is exact whatever the order.
#include "common/fp8_mm_args.h"
#include "common/fp8_mm_stage.h"

// ---- config -------------------------------------------------------------------------------
template <int BLOCK_M_, int BLOCK_N_, int BLOCK_K_, int WAVES_M_, int WAVES_N_>
struct SwizzleSplitKConfig {
  static constexpr int BLOCK_M = BLOCK_M_, BLOCK_N = BLOCK_N_, BLOCK_K = BLOCK_K_;
  static constexpr int WAVES_M = WAVES_M_, WAVES_N = WAVES_N_;
  static constexpr int kThreads = 64 * WAVES_M * WAVES_N;
  static constexpr int kSubM = BLOCK_M / WAVES_M / 16;  // 16x16 outputs per wave along m
  static constexpr int kSubN = BLOCK_N / WAVES_N / 16;  // ... along n
  static constexpr int kSwizzleShiftB = kSubN == 4 ? 2 : kSubN == 2 ? 1 : 0;
  static constexpr int kUnitsA = BLOCK_M / 16 * (BLOCK_K / 8);  // 16 rows x 8 k staging units
  static constexpr int kUnitsB = BLOCK_N / 16 * (BLOCK_K / 8);
  static constexpr int kUnitsPerThread = ceil_div(kUnitsA + kUnitsB, kThreads);
  static constexpr int kLdsA = BLOCK_M * BLOCK_K;
  static constexpr int kLdsB = BLOCK_N * BLOCK_K;
  static constexpr int kLdsBytes = kLdsA + kLdsB + BLOCK_M * 4;

  static_assert(BLOCK_K == kScaleBlock, "a K-tile is one scale block: scales apply per tile");
  static_assert(kScaleBlock % BLOCK_N == 0, "a block must sit inside one b_scale column block");
  static_assert(BLOCK_M % (16 * WAVES_M) == 0 && BLOCK_N % (16 * WAVES_N) == 0,
                "waves own whole 16x16 MFMA outputs");
  static_assert(kSubN == 1 || kSubN == 2 || kSubN == 4, "stores pack 1, 2 or 4 bf16");
  static_assert(BLOCK_M <= kThreads, "one thread stages each row's scale");
  static_assert(kLdsBytes <= 65536, "NOTE: gfx942 allows 64 KiB of LDS per block");
};

// ---- kernel -------------------------------------------------------------------------------
// Global -> registers: the staging units of one K-tile (k0) and this thread's row scale.
template <class Cfg, bool kAligned>
struct Stage : TileStage<Cfg, kAligned> {
  float scale;

  __device__ void load(const Fp8MmArgs& args, int m0, int n0, int k0, int kb) {
    TileStage<Cfg, kAligned>::load(args, m0, n0, k0);
    const int row = m0 + threadIdx.x;
    const float b_scale = args.b_scale[n0 / kScaleBlock + kb * args.ldb_scale];
    scale = (threadIdx.x < Cfg::BLOCK_M && row < args.m)
                ? args.a_scale[row + kb * args.lda_scale] * b_scale
                : 0.0f;
  }

  // Registers -> LDS: the tiles, then the row scales after them.
  __device__ void store(uint8_t* lds) const {
    TileStage<Cfg, kAligned>::store(lds);
    if (threadIdx.x < Cfg::BLOCK_M) {
      reinterpret_cast<float*>(lds + Cfg::kLdsA + Cfg::kLdsB)[threadIdx.x] = scale;
    }
  }
};

template <class Cfg>
__device__ inline void store_outputs(const Fp8MmArgs& args, int m0, int n0, int wave_m,
                                     int wave_n, int lane,
                                     const floatx4 (&acc)[Cfg::kSubM][Cfg::kSubN]) {
  constexpr int kRun = Cfg::kSubN;  // adjacent columns per lane and row
  const int col = n0 + wave_n * 16 * kRun + kRun * (lane % 16);
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

// kAligned: m and n are multiples of 16 and A, B columns are 16-byte aligned (every ranked
// shape); otherwise operands are staged byte by byte with bounds checks.
template <class Cfg, bool kAligned>
__global__ void __launch_bounds__(Cfg::kThreads)
    fp8_mm_v2_swizzle_splitk_kernel(Fp8MmArgs args) {
  __shared__ __attribute__((aligned(16))) uint8_t lds[Cfg::kLdsBytes];
  __shared__ int last_to_arrive;

  const int tiles_n = ceil_div(args.n, Cfg::BLOCK_N);
  const int tile = blockIdx.x;
  const int split = blockIdx.y;
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

  Stage<Cfg, kAligned> stage;
  if (kt_begin < kt_end) {
    stage.load(args, m0, n0, kt_begin * Cfg::BLOCK_K, kt_begin);
  }
  const uint8_t* tile_a = lds;
  const uint8_t* tile_b = lds + Cfg::kLdsA;
  const float* tile_scale = reinterpret_cast<const float*>(lds + Cfg::kLdsA + Cfg::kLdsB);
  const int q = lane / 16;  // lane group: k-bytes 32q .. 32q+31 of every K-tile

  for (int kt = kt_begin; kt < kt_end; ++kt) {
    // stage the K-tile into LDS, then prefetch the next one into registers
    stage.store(lds);
    __syncthreads();
    if (kt + 1 < kt_end) {
      stage.load(args, m0, n0, (kt + 1) * Cfg::BLOCK_K, kt + 1);
    }

    // MFMA over the K-tile into fresh fp32 sums
    floatx4 part[Cfg::kSubM][Cfg::kSubN];
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
        const int row = wave_n * 16 * Cfg::kSubN + Cfg::kSubN * (lane % 16) + t;
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

    // apply a_scale (per row) * b_scale (per block) in fp32 into the master accumulator
#pragma unroll
    for (int mi = 0; mi < Cfg::kSubM; ++mi) {
      const floatx4 scale = *reinterpret_cast<const floatx4*>(
          tile_scale + wave_m * 16 * Cfg::kSubM + 16 * mi + 4 * q);
#pragma unroll
      for (int t = 0; t < Cfg::kSubN; ++t) acc[mi][t] += scale * part[mi][t];
    }
    __syncthreads();
  }

  if (args.split_k > 1) {
    // publish this split's sums; the last block of the tile reduces them in split order
    constexpr int kFrags = Cfg::kSubM * Cfg::kSubN;
    floatx4* slices = reinterpret_cast<floatx4*>(args.workspace) + (size_t)tile * args.split_k * kFrags * Cfg::kThreads;
#pragma unroll
    for (int mi = 0; mi < Cfg::kSubM; ++mi)
#pragma unroll
      for (int t = 0; t < Cfg::kSubN; ++t)
        __builtin_nontemporal_store(
            acc[mi][t], slices + ((size_t)split * kFrags + mi * Cfg::kSubN + t) * Cfg::kThreads + threadIdx.x);
    __threadfence();
    __syncthreads();
    if (threadIdx.x == 0) {
      const int arrived = atomicAdd(&args.tile_counters[tile], 1);
      last_to_arrive = arrived == args.split_k - 1;
      if (last_to_arrive) args.tile_counters[tile] = 0;  // ready for the next call
    }
    __syncthreads();
    if (!last_to_arrive) return;
    __threadfence();
#pragma unroll
    for (int mi = 0; mi < Cfg::kSubM; ++mi)
#pragma unroll
      for (int t = 0; t < Cfg::kSubN; ++t) {
        floatx4 sum = floatx4{0.f, 0.f, 0.f, 0.f};
        for (int s = 0; s < args.split_k; ++s) {
          sum += __builtin_nontemporal_load(
              slices + ((size_t)s * kFrags + mi * Cfg::kSubN + t) * Cfg::kThreads + threadIdx.x);
        }
        acc[mi][t] = sum;
      }
  }
  store_outputs<Cfg>(args, m0, n0, wave_m, wave_n, lane, acc);
}

// ---- launcher -----------------------------------------------------------------------------
inline bool fp8_mm_v2_swizzle_splitk_is_supported(int m, int n, int k, int split_k) {
  return m >= 1 && n >= 1 && k >= kScaleBlock && k % kScaleBlock == 0 && split_k >= 1;
}

// Returns false (and launches nothing) for a shape or split the kernel cannot handle.
template <int BLOCK_M, int BLOCK_N, int BLOCK_K, int WAVES_M, int WAVES_N>
bool launch_fp8_mm_v2_swizzle_splitk(const Fp8MmArgs& args) {
  using Cfg = SwizzleSplitKConfig<BLOCK_M, BLOCK_N, BLOCK_K, WAVES_M, WAVES_N>;
  if (!fp8_mm_v2_swizzle_splitk_is_supported(args.m, args.n, args.k, args.split_k)) return false;
  if (args.split_k > 1 && (args.workspace == nullptr || args.tile_counters == nullptr)) return false;
  const int tiles = ceil_div(args.m, BLOCK_M) * ceil_div(args.n, BLOCK_N);
  const dim3 grid(tiles, args.split_k);
  const bool aligned = args.m % 16 == 0 && args.n % 16 == 0 && args.lda % 16 == 0 &&
                       args.ldb % 16 == 0 && reinterpret_cast<uintptr_t>(args.a) % 16 == 0 &&
                       reinterpret_cast<uintptr_t>(args.b) % 16 == 0;
  if (aligned) {
    fp8_mm_v2_swizzle_splitk_kernel<Cfg, true><<<grid, dim3(Cfg::kThreads)>>>(args);
  } else {
    fp8_mm_v2_swizzle_splitk_kernel<Cfg, false><<<grid, dim3(Cfg::kThreads)>>>(args);
  }
  return true;
}
