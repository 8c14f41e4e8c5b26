// fp8_mm v1 (LDS + MFMA): the plain tiled MFMA kernel, the rung between v0 and v2.
//
// Design
// - One block of WAVES_M x WAVES_N waves computes a BLOCK_M x BLOCK_N tile of C; each wave
//   owns kSubM x kSubN 16x16 outputs of v_mfma_f32_16x16x32_fp8_fp8 (fp32 accumulation).
// - Per 128-wide K-tile (one scale block): every thread loads 16-row column pieces with
//   16-byte global loads and scatters their bytes into LDS one by one, transposed to
//   K-contiguous rows; barrier; MFMA from LDS; scale the tile sums by a_scale (per row, read
//   from global) * b_scale (per block) into the master accumulator; barrier. No prefetch,
//   no split-K, 2-byte bf16 stores: v2 adds those.
//
// LDS layout: K-contiguous rows padded by 8 bytes (row stride 136 B = 34 banks):
//
//   row r: | k 0..127 (128 B) | pad 8 B |      A rows 0..BLOCK_M-1, then B rows 0..BLOCK_N-1
//
//   an 8-byte MFMA read by 16 lanes (rows r..r+15, same k) starts at bank 2r mod 32, so the
//   16 lanes cover all 32 banks once: conflict-free reads. The byte-wise writes conflict;
//   that is the cost v2's in-register transpose removes.
#include "common/fp8_mm_args.h"
#include "common/fp8_mm_tile.h"

// ---- config -------------------------------------------------------------------------------
template <int BLOCK_M_, int BLOCK_N_, int BLOCK_K_, int WAVES_M_, int WAVES_N_>
struct LdsMfmaConfig {
  static constexpr int BLOCK_M = BLOCK_M_, BLOCK_N = BLOCK_N_, BLOCK_K = BLOCK_K_;
  static constexpr int WAVES_M = WAVES_M_, WAVES_N = WAVES_N_;
  static constexpr int kThreads = 64 * WAVES_M * WAVES_N;
  static constexpr int kSubM = BLOCK_M / WAVES_M / 16;
  static constexpr int kSubN = BLOCK_N / WAVES_N / 16;
  static constexpr int kRowBytes = BLOCK_K + 8;  // padded row, see the diagram
  static constexpr int kLdsBytes = (BLOCK_M + BLOCK_N) * kRowBytes;
  static constexpr int kPieces = (BLOCK_M + BLOCK_N) / 16 * BLOCK_K;  // 16-row column pieces

  static_assert(BLOCK_K == kScaleBlock, "a K-tile is one scale block: scales apply per tile");
  static_assert(kScaleBlock % BLOCK_N == 0, "a block must sit inside one b_scale column block");
  static_assert(BLOCK_M % (16 * WAVES_M) == 0 && BLOCK_N % (16 * WAVES_N) == 0,
                "waves own whole 16x16 MFMA outputs");
  static_assert(kLdsBytes <= 65536, "NOTE: gfx942 allows 64 KiB of LDS per block");
};

// ---- kernel -------------------------------------------------------------------------------
template <class Cfg>
__global__ void __launch_bounds__(Cfg::kThreads) fp8_mm_v1_lds_mfma_kernel(Fp8MmArgs args) {
  __shared__ __attribute__((aligned(16))) uint8_t lds[Cfg::kLdsBytes];
  const int tiles_n = ceil_div(args.n, Cfg::BLOCK_N);
  const int m0 = (blockIdx.x / tiles_n) * Cfg::BLOCK_M;
  const int n0 = (blockIdx.x % tiles_n) * Cfg::BLOCK_N;
  const int lane = threadIdx.x % 64, wave = threadIdx.x / 64;
  const int wave_m = wave % Cfg::WAVES_M, wave_n = wave / Cfg::WAVES_M;

  floatx4 acc[Cfg::kSubM][Cfg::kSubN];
  for (int mi = 0; mi < Cfg::kSubM; ++mi)
    for (int t = 0; t < Cfg::kSubN; ++t) acc[mi][t] = floatx4{0.f, 0.f, 0.f, 0.f};

  for (int kb = 0; kb < args.k / Cfg::BLOCK_K; ++kb) {
    // stage A and B: each piece is 16 rows of one k column, bytes scattered to K-rows
    for (int piece = threadIdx.x; piece < Cfg::kPieces; piece += Cfg::kThreads) {
      const int kk = piece % Cfg::BLOCK_K;
      const int group = piece / Cfg::BLOCK_K;  // 16-row group, A groups first
      const bool is_a = group < Cfg::BLOCK_M / 16;
      const int row = is_a ? 16 * group : 16 * group - Cfg::BLOCK_M;
      const uint8_t* column = (is_a ? args.a : args.b) +
                              (size_t)(kb * Cfg::BLOCK_K + kk) * (is_a ? args.lda : args.ldb);
      const uint4 v = load_rows16<false>(column, (is_a ? m0 : n0) + row, is_a ? args.m : args.n);
      const uint32_t words[4] = {v.x, v.y, v.z, v.w};
      uint8_t* dst = lds + ((is_a ? 0 : Cfg::BLOCK_M) + row) * Cfg::kRowBytes + kk;
      for (int e = 0; e < 16; ++e) dst[e * Cfg::kRowBytes] = uint8_t(words[e / 4] >> (8 * (e % 4)));
    }
    __syncthreads();

    // MFMA over the K-tile: lane group q = l/16 supplies k = 32*step + 8q .. +7
    floatx4 part[Cfg::kSubM][Cfg::kSubN];
    for (int mi = 0; mi < Cfg::kSubM; ++mi)
      for (int t = 0; t < Cfg::kSubN; ++t) part[mi][t] = floatx4{0.f, 0.f, 0.f, 0.f};
    for (int step = 0; step < Cfg::BLOCK_K / 32; ++step) {
      const int k_off = 32 * step + 8 * (lane / 16);
      for (int mi = 0; mi < Cfg::kSubM; ++mi) {
        const int row_a = (wave_m * Cfg::kSubM + mi) * 16 + lane % 16;
        const uint64_t a = *reinterpret_cast<const uint64_t*>(lds + row_a * Cfg::kRowBytes + k_off);
        for (int t = 0; t < Cfg::kSubN; ++t) {
          const int row_b = Cfg::BLOCK_M + (wave_n * Cfg::kSubN + t) * 16 + lane % 16;
          const uint64_t b = *reinterpret_cast<const uint64_t*>(lds + row_b * Cfg::kRowBytes + k_off);
          part[mi][t] = mfma_16x16x32_fp8(a, b, part[mi][t]);
        }
      }
    }

    // scale the tile sums: a_scale per output row, one b_scale for the whole block
    const float b_scale = args.b_scale[n0 / kScaleBlock + kb * args.ldb_scale];
    for (int mi = 0; mi < Cfg::kSubM; ++mi) {
      for (int g = 0; g < 4; ++g) {
        const int row = m0 + (wave_m * Cfg::kSubM + mi) * 16 + 4 * (lane / 16) + g;
        const float scale = row < args.m ? args.a_scale[row + kb * args.lda_scale] * b_scale : 0.f;
        for (int t = 0; t < Cfg::kSubN; ++t) acc[mi][t][g] += scale * part[mi][t][g];
      }
    }
    __syncthreads();
  }

  // write bf16: lane holds rows 4*(l/16)+g of column l%16 of each 16x16 output
  for (int mi = 0; mi < Cfg::kSubM; ++mi)
    for (int t = 0; t < Cfg::kSubN; ++t)
      for (int g = 0; g < 4; ++g) {
        const int row = m0 + (wave_m * Cfg::kSubM + mi) * 16 + 4 * (lane / 16) + g;
        const int col = n0 + (wave_n * Cfg::kSubN + t) * 16 + lane % 16;
        if (row < args.m && col < args.n) {
          args.c[(size_t)row * args.ldc + col] = float_to_bf16_bits(acc[mi][t][g]);
        }
      }
}

// ---- launcher -----------------------------------------------------------------------------
inline bool fp8_mm_v1_lds_mfma_is_supported(int m, int n, int k) {
  return m >= 1 && n >= 1 && k >= kScaleBlock && k % kScaleBlock == 0;
}

// Returns false (and launches nothing) for a shape the kernel cannot handle.
template <int BLOCK_M, int BLOCK_N, int BLOCK_K, int WAVES_M, int WAVES_N>
bool launch_fp8_mm_v1_lds_mfma(const Fp8MmArgs& args) {
  using Cfg = LdsMfmaConfig<BLOCK_M, BLOCK_N, BLOCK_K, WAVES_M, WAVES_N>;
  if (!fp8_mm_v1_lds_mfma_is_supported(args.m, args.n, args.k) || args.split_k != 1) return false;
  const dim3 grid(ceil_div(args.m, BLOCK_M) * ceil_div(args.n, BLOCK_N));
  fp8_mm_v1_lds_mfma_kernel<Cfg><<<grid, dim3(Cfg::kThreads)>>>(args);
  return true;
}
