// fp8_mm sweep: one templated kernel whose instances span what real configuration sweeps of
// amd-fp8-mm kernels span, so the engines and the predictor are tested on the kinds of
// kernel such sweeps launch. kernels/sweep/__init__.py names the instances.
//
// Design
// - Template parameters: the BLOCK_M x BLOCK_N output tile (64x64 .. 256x128), BLOCK_K (64 or
//   128 k per K-tile), WAVES_M x WAVES_N waves (64 .. 512 threads), the MFMA (32:
//   v_mfma_f32_32x32x16_fp8_fp8, 16: v_mfma_f32_16x16x32_fp8_fp8) and the pipeline depth:
//     0  load the K-tile, write it to LDS, barrier, MFMAs, barrier          (no prefetch)
//     1  as 0, but the next K-tile's global loads are issued before this tile's MFMAs
//        (register prefetch; one LDS stage, two barriers per K-tile)
//     2  two LDS stages: MFMAs read one while the next K-tile, loaded before them, is written
//        into the other after them; one barrier per K-tile
// - Roles swapped in the MFMA: B is the MFMA's A operand and A its B operand, so an MFMA
//   computes a block of C transposed. A lane's column of D is one row of C (one a_scale per
//   lane and fragment) and its elements come in runs of 4 adjacent columns of C, each run one
//   8-byte bf16 store.
// - Scaling: a fragment's sum over one K-tile is a chain of MFMAs from zero, multiplied by
//   a_scale[row, kb] * b_scale[n0/128, kb] and added to its fp32 accumulator. BLOCK_K divides
//   128 (a K-tile never spans two scale blocks) and BLOCK_N divides 128 (one b_scale per block).
//   Fragments are finished one at a time (with 256 accumulators the scheduler is held to
//   that), so one fresh sum is live at once: 256 accumulator floats per lane fit (128x128 on
//   64 threads, 256x128 on 128 threads), mostly in AGPRs.
// - Staging unit = 16 rows x 8 k of one operand: eight 16-byte buffer loads (one per k;
//   adjacent lanes take adjacent 16-row groups, so a load instruction reads whole lines), two
//   in-register 8x8 byte transposes (common/fp8_mm_tile.h) give 16 rows of 8 k-bytes, written
//   as 128 contiguous LDS bytes. Without prefetch (depth 0) a thread stages unit by unit.
// - Bounds: m and n multiples of 16 (every published shape), k of 128; a 16-row group past m
//   or n reads zeros (its buffer offset is out of range) and stores nothing. The launcher
//   refuses (returns false) any other shape or layout.
//
// LDS layout of one operand of R rows in a stage (A, then B): 8-byte k-groups outer, rows
// inner, one pad slot after every 16 rows:
//
//   k-group g: | r0 | r1 | ... | r15 | pad | r16 | ... | r31 | pad | ... |   (8-byte slots)
//   slot(g, r) = g * (R + R/16) + r + r/16
//
//   MFMA reads (ds_read_b64): lane l reads row r0 + l % kMfma of k-group
//     kGroupsPerStep * step + l / kMfma: consecutive slots, conflict-free.
//   staging writes (ds_write_b64 x 16): lane L starts at slot 17 * L (+ a constant), i.e.
//     34 banks apart: 16 lanes hit 32 distinct banks.
#include "../common/fp8_mm_args.h"
#include "../common/fp8_mm_tile.h"

using floatx16 = float __attribute__((ext_vector_type(16)));

// NOTE: both dense fp8 MFMAs of gfx942 (the calculator's tables, tests/data/spec/mfma): lane l
// supplies row l % kSize of each operand with k-bytes 8 * (l / kSize) .. +7 of the step, and
// holds column l % kSize of D, element e at row 8 * (e / 4) + 4 * (l / kSize) + e % 4.
template <int kSize>
struct SweepMfma;

template <>
struct SweepMfma<32> {
  using Acc = floatx16;
  static constexpr int kStepK = 16;  // v_mfma_f32_32x32x16_fp8_fp8 (32 cycles per k-step of 16)
  __device__ static Acc run(uint64_t a, uint64_t b, Acc c) {
    return __builtin_amdgcn_mfma_f32_32x32x16_fp8_fp8(static_cast<long>(a), static_cast<long>(b), c,
                                                      0, 0, 0);
  }
};

template <>
struct SweepMfma<16> {
  using Acc = floatx4;
  static constexpr int kStepK = 32;  // v_mfma_f32_16x16x32_fp8_fp8
  __device__ static Acc run(uint64_t a, uint64_t b, Acc c) { return mfma_16x16x32_fp8(a, b, c); }
};

// ---- config -------------------------------------------------------------------------------
template <int BLOCK_M_, int BLOCK_N_, int BLOCK_K_, int WAVES_M_, int WAVES_N_, int MFMA_, int DEPTH_>
struct SweepConfig {
  static constexpr int BLOCK_M = BLOCK_M_, BLOCK_N = BLOCK_N_, BLOCK_K = BLOCK_K_;
  static constexpr int WAVES_M = WAVES_M_, WAVES_N = WAVES_N_;
  static constexpr int kMfma = MFMA_, kDepth = DEPTH_;
  using Mfma = SweepMfma<kMfma>;
  using Acc = typename Mfma::Acc;
  static constexpr int kThreads = 64 * WAVES_M * WAVES_N;
  static constexpr int kWaveM = BLOCK_M / WAVES_M, kWaveN = BLOCK_N / WAVES_N;
  static constexpr int kFragsM = kWaveM / kMfma, kFragsN = kWaveN / kMfma;
  static constexpr int kSteps = BLOCK_K / Mfma::kStepK;   // MFMAs per fragment and K-tile
  static constexpr int kGroupsPerStep = Mfma::kStepK / 8;  // 8-byte k-groups per MFMA step
  static constexpr int kRunsPerFragment = kMfma / 8;       // runs of 4 columns per lane
  static constexpr int kAccFloats = kFragsM * kFragsN * kMfma * kMfma / 64;  // per lane
  static constexpr int kSlotsA = BLOCK_K / 8 * (BLOCK_M + BLOCK_M / 16);
  static constexpr int kSlotsB = BLOCK_K / 8 * (BLOCK_N + BLOCK_N / 16);
  static constexpr int kStageBytes = 8 * (kSlotsA + kSlotsB);
  static constexpr int kLdsBytes = (kDepth == 2 ? 2 : 1) * kStageBytes;
  static constexpr int kUnitsA = BLOCK_M / 16 * (BLOCK_K / 8);  // 16 rows x 8 k staging units
  static constexpr int kUnitsB = BLOCK_N / 16 * (BLOCK_K / 8);
  static constexpr int kUnitsPerThreadA = ceil_div(kUnitsA, kThreads);
  static constexpr int kUnitsPerThread = kUnitsPerThreadA + ceil_div(kUnitsB, kThreads);

  static_assert(kMfma == 32 || kMfma == 16, "the two fp8 MFMAs: 32x32x16 and 16x16x32");
  static_assert(kDepth >= 0 && kDepth <= 2, "pipeline depth 0, 1 or 2");
  static_assert(kThreads == 64 || kThreads == 128 || kThreads == 256 || kThreads == 512,
                "workgroups of 1, 2, 4 or 8 waves");
  static_assert(kScaleBlock % BLOCK_K == 0 && BLOCK_K % Mfma::kStepK == 0,
                "a K-tile lies in one scale block and is whole MFMA steps");
  static_assert(kScaleBlock % BLOCK_N == 0, "a block lies in one b_scale column block");
  static_assert(kWaveM % kMfma == 0 && kWaveN % kMfma == 0, "waves own whole MFMA outputs");
  static_assert(kAccFloats <= 256,
                "NOTE: at most 256 accumulator floats per lane (the AGPR file)");
  static_assert(kLdsBytes <= 65536, "NOTE: gfx942 allows 64 KiB of LDS per workgroup");
};

// ---- kernel -------------------------------------------------------------------------------
// A column-major fp8 operand as a buffer resource; num_records is its exact extent.
// NOTE: raw buffer loads read zeros at offsets past num_records (CDNA3 ISA, buffer range
// checking); 0x80000000 is past every operand (m * k < 2^31) and, plus a soffset below 2^31,
// does not wrap.
constexpr int kOutOfRange = int(0x80000000u);
__device__ inline __amdgpu_buffer_rsrc_t operand_rsrc(const uint8_t* base, int ld, int k, int rows) {
  return __builtin_amdgcn_make_buffer_rsrc(const_cast<uint8_t*>(base), 0, ld * (k - 1) + rows, 0x00020000);
}

// Global -> registers -> LDS: the staging units of one K-tile. A thread's units are A's first,
// then B's, so the operand of unit u is known at compile time; a unit's 8 buffer loads share
// one lane offset (VGPR) and differ in the uniform k offset (SGPR).
template <class Cfg>
struct SweepStage {
  using u32x4 = unsigned int __attribute__((ext_vector_type(4)));
  u32x4 units[Cfg::kUnitsPerThread][8];
  __amdgpu_buffer_rsrc_t rsrc_a, rsrc_b;

  __device__ explicit SweepStage(const Fp8MmArgs& args)
      : rsrc_a(operand_rsrc(args.a, args.lda, args.k, args.m)), rsrc_b(operand_rsrc(args.b, args.ldb, args.k, args.n)) {}

  struct Unit {
    bool is_a, valid;
    int tile_rows, row_group, k_group;
    __device__ explicit Unit(int u) {
      is_a = u < Cfg::kUnitsPerThreadA;
      const int index = threadIdx.x + (is_a ? u : u - Cfg::kUnitsPerThreadA) * Cfg::kThreads;
      valid = index < (is_a ? Cfg::kUnitsA : Cfg::kUnitsB);
      tile_rows = is_a ? Cfg::BLOCK_M : Cfg::BLOCK_N;
      row_group = index % (tile_rows / 16);  // adjacent lanes: adjacent row groups, whole lines
      k_group = index / (tile_rows / 16);
    }
  };

  // 16 rows x 8 k; a group past the operand's last row reads zeros (offset out of range).
  __device__ void load_unit(const Fp8MmArgs& args, int m0, int n0, int kt, int u) {
    const Unit unit(u);
    if (!unit.valid) return;
    const int rows = unit.is_a ? args.m : args.n, ld = unit.is_a ? args.lda : args.ldb;
    const int row0 = (unit.is_a ? m0 : n0) + 16 * unit.row_group;
    const int lane_offset = row0 < rows ? row0 + 8 * unit.k_group * ld : kOutOfRange;
#pragma unroll
    for (int j = 0; j < 8; ++j) {
      units[u][j] = __builtin_amdgcn_raw_buffer_load_b128(unit.is_a ? rsrc_a : rsrc_b, lane_offset,
                                                          (kt * Cfg::BLOCK_K + j) * ld, 0);
    }
  }

  __device__ void store_unit(uint8_t* stage, int u) const {
    const Unit unit(u);
    if (!unit.valid) return;
    uint64_t* slots = reinterpret_cast<uint64_t*>(stage) + (unit.is_a ? 0 : Cfg::kSlotsA) +
                      unit.k_group * (unit.tile_rows + unit.tile_rows / 16) + 17 * unit.row_group;
#pragma unroll
    for (int half = 0; half < 2; ++half) {  // rows 0-7, then rows 8-15 of the unit
      uint64_t x[8];
#pragma unroll
      for (int j = 0; j < 8; ++j) {
        const u32x4 v = units[u][j];
        x[j] = half == 0 ? (uint64_t(v.y) << 32 | v.x) : (uint64_t(v.w) << 32 | v.z);
      }
      transpose_8x8_bytes(x);  // x[r]: the 8 k-bytes of row 8 * half + r
#pragma unroll
      for (int r = 0; r < 8; ++r) slots[8 * half + r] = x[r];
    }
  }

  // The whole K-tile into registers (prefetch), then into LDS.
  __device__ void load(const Fp8MmArgs& args, int m0, int n0, int kt) {
#pragma unroll
    for (int u = 0; u < Cfg::kUnitsPerThread; ++u) load_unit(args, m0, n0, kt, u);
  }
  __device__ void store(uint8_t* stage) const {
#pragma unroll
    for (int u = 0; u < Cfg::kUnitsPerThread; ++u) store_unit(stage, u);
  }
  // Unit by unit (no prefetch): one unit's registers live at a time.
  __device__ void copy(const Fp8MmArgs& args, int m0, int n0, int kt, uint8_t* stage) {
#pragma unroll
    for (int u = 0; u < Cfg::kUnitsPerThread; ++u) {
      load_unit(args, m0, n0, kt, u);
      store_unit(stage, u);
    }
  }
};

// The 8 k-bytes of tile row `row` in k-group `group` of an operand with `rows` rows.
__device__ inline uint64_t sweep_slot(const uint64_t* slots, int rows, int row, int group) {
  return slots[group * (rows + rows / 16) + row + row / 16];
}

// MFMAs of one staged K-tile, fragment by fragment, scaled into the accumulators.
template <class Cfg>
__device__ inline void multiply_tile(const Fp8MmArgs& args, const uint8_t* stage, int m0, int n0, int kt,
                                     int wave_m, int wave_n, int lane,
                                     typename Cfg::Acc (&acc)[Cfg::kFragsM][Cfg::kFragsN]) {
  const uint64_t* slots_a = reinterpret_cast<const uint64_t*>(stage);
  const uint64_t* slots_b = slots_a + Cfg::kSlotsA;
  const int kb = kt * Cfg::BLOCK_K / kScaleBlock;
  const float b_scale = args.b_scale[n0 / kScaleBlock + kb * args.ldb_scale];
  const int lane_row = lane % Cfg::kMfma, lane_group = lane / Cfg::kMfma;
#pragma unroll
  for (int fm = 0; fm < Cfg::kFragsM; ++fm) {
    const int row_a = wave_m * Cfg::kWaveM + fm * Cfg::kMfma + lane_row;
    // rows past m have zero A and are never stored: any valid scale will do
    const float scale = args.a_scale[min(m0 + row_a, args.m - 1) + kb * args.lda_scale] * b_scale;
    uint64_t frag_a[Cfg::kSteps];
#pragma unroll
    for (int s = 0; s < Cfg::kSteps; ++s) {
      frag_a[s] = sweep_slot(slots_a, Cfg::BLOCK_M, row_a, Cfg::kGroupsPerStep * s + lane_group);
    }
#pragma unroll
    for (int fn = 0; fn < Cfg::kFragsN; ++fn) {
      const int row_b = wave_n * Cfg::kWaveN + fn * Cfg::kMfma + lane_row;
      typename Cfg::Acc sum = {};
#pragma unroll
      for (int s = 0; s < Cfg::kSteps; ++s) {
        const uint64_t b = sweep_slot(slots_b, Cfg::BLOCK_N, row_b, Cfg::kGroupsPerStep * s + lane_group);
        sum = Cfg::Mfma::run(b, frag_a[s], sum);  // B as the MFMA's A: D = C^T
      }
      acc[fm][fn] += scale * sum;
      // NOTE: with 256 accumulator floats the AGPR file is full: keep the scheduler from
      // interleaving the next fragment's MFMA chain (a second live sum) with this one.
      if constexpr (Cfg::kAccFloats == 256) __builtin_amdgcn_sched_barrier(0);
    }
  }
}

// Lane l holds row l % kMfma of each fragment; element 4 * run + i is column
// 8 * run + 4 * (l / kMfma) + i: each run of 4 columns is one 8-byte store.
template <class Cfg>
__device__ inline void store_tile(const Fp8MmArgs& args, int m0, int n0, int wave_m, int wave_n, int lane,
                                  const typename Cfg::Acc (&acc)[Cfg::kFragsM][Cfg::kFragsN]) {
#pragma unroll
  for (int fm = 0; fm < Cfg::kFragsM; ++fm) {
    const int row = m0 + wave_m * Cfg::kWaveM + fm * Cfg::kMfma + lane % Cfg::kMfma;
    if (row >= args.m) continue;
#pragma unroll
    for (int fn = 0; fn < Cfg::kFragsN; ++fn) {
#pragma unroll
      for (int run = 0; run < Cfg::kRunsPerFragment; ++run) {
        const int col = n0 + wave_n * Cfg::kWaveN + fn * Cfg::kMfma + 8 * run + 4 * (lane / Cfg::kMfma);
        if (col >= args.n) continue;  // n % 4 == 0: a run is all in or all out
        uint64_t packed = 0;
#pragma unroll
        for (int i = 0; i < 4; ++i) packed |= uint64_t(float_to_bf16_bits(acc[fm][fn][4 * run + i])) << (16 * i);
        *reinterpret_cast<uint64_t*>(args.c + (size_t)row * args.ldc + col) = packed;
      }
    }
  }
}

template <class Cfg>
__global__ void __launch_bounds__(Cfg::kThreads) fp8_mm_sweep_kernel(Fp8MmArgs args) {
  __shared__ __attribute__((aligned(16))) uint8_t lds[Cfg::kLdsBytes];
  const int tiles_n = ceil_div(args.n, Cfg::BLOCK_N);
  const int m0 = (blockIdx.x / tiles_n) * Cfg::BLOCK_M;
  const int n0 = (blockIdx.x % tiles_n) * Cfg::BLOCK_N;
  const int lane = threadIdx.x % 64, wave = threadIdx.x / 64;
  const int wave_m = wave % Cfg::WAVES_M, wave_n = wave / Cfg::WAVES_M;
  const int k_tiles = args.k / Cfg::BLOCK_K;

  typename Cfg::Acc acc[Cfg::kFragsM][Cfg::kFragsN];
#pragma unroll
  for (int fm = 0; fm < Cfg::kFragsM; ++fm)
#pragma unroll
    for (int fn = 0; fn < Cfg::kFragsN; ++fn) acc[fm][fn] = typename Cfg::Acc{};

  SweepStage<Cfg> stage(args);
  if constexpr (Cfg::kDepth == 0) {
    for (int kt = 0; kt < k_tiles; ++kt) {
      stage.copy(args, m0, n0, kt, lds);
      __syncthreads();
      multiply_tile<Cfg>(args, lds, m0, n0, kt, wave_m, wave_n, lane, acc);
      __syncthreads();
    }
  } else if constexpr (Cfg::kDepth == 1) {
    stage.load(args, m0, n0, 0);
    for (int kt = 0; kt < k_tiles; ++kt) {
      stage.store(lds);
      __syncthreads();
      if (kt + 1 < k_tiles) stage.load(args, m0, n0, kt + 1);  // in flight during the MFMAs
      multiply_tile<Cfg>(args, lds, m0, n0, kt, wave_m, wave_n, lane, acc);
      __syncthreads();
    }
  } else {
    stage.load(args, m0, n0, 0);
    stage.store(lds);
    __syncthreads();
    for (int kt = 0; kt < k_tiles; ++kt) {
      // stage kt % 2 is read; stage (kt + 1) % 2 was last read in K-tile kt - 1, before the barrier
      if (kt + 1 < k_tiles) stage.load(args, m0, n0, kt + 1);
      multiply_tile<Cfg>(args, lds + (kt % 2) * Cfg::kStageBytes, m0, n0, kt, wave_m, wave_n, lane, acc);
      if (kt + 1 < k_tiles) stage.store(lds + ((kt + 1) % 2) * Cfg::kStageBytes);
      __syncthreads();
    }
  }
  store_tile<Cfg>(args, m0, n0, wave_m, wave_n, lane, acc);
}

// ---- launcher -----------------------------------------------------------------------------
// The layouts the kernel relies on: whole 16-row groups and 16-byte aligned operand columns,
// operands below 2 GiB (32-bit buffer offsets, kOutOfRange past them), 8-byte aligned runs of
// 4 output columns, whole K-tiles, one launch (no split-K).
inline bool fp8_mm_sweep_is_supported(const Fp8MmArgs& args, int block_k) {
  const auto aligned = [](const void* p, int bytes) { return reinterpret_cast<uintptr_t>(p) % bytes == 0; };
  return args.m >= 16 && args.n >= 16 && args.k >= kScaleBlock && args.m % 16 == 0 && args.n % 16 == 0 &&
         args.k % kScaleBlock == 0 && args.k % block_k == 0 && args.lda % 16 == 0 && args.ldb % 16 == 0 &&
         args.ldc % 4 == 0 && aligned(args.a, 16) && aligned(args.b, 16) && aligned(args.c, 8) &&
         int64_t(args.lda) * args.k < (1ll << 31) && int64_t(args.ldb) * args.k < (1ll << 31) &&
         args.split_k == 1;
}

// Returns false (and launches nothing) for a shape or layout the kernel cannot handle.
template <int BLOCK_M, int BLOCK_N, int BLOCK_K, int WAVES_M, int WAVES_N, int MFMA, int DEPTH>
bool launch_fp8_mm_sweep(const Fp8MmArgs& args) {
  using Cfg = SweepConfig<BLOCK_M, BLOCK_N, BLOCK_K, WAVES_M, WAVES_N, MFMA, DEPTH>;
  if (!fp8_mm_sweep_is_supported(args, BLOCK_K)) return false;
  const dim3 grid(ceil_div(args.m, BLOCK_M) * ceil_div(args.n, BLOCK_N));
  fp8_mm_sweep_kernel<Cfg><<<grid, dim3(Cfg::kThreads)>>>(args);  // the null queue, as kernels/binding.hip says
  return true;
}
