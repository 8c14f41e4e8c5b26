// fp8_mm v0 (naive): one thread per output element, fp32 accumulation.
//
// Thread (i, j) walks k in 128-wide scale blocks, decodes each fp8 byte with HIP's own
// __hip_fp8_e4m3_fnuz type, sums the block's products in fp32, multiplies the block sum by
// a_scale[i,kb] * b_scale[j/128,kb] and adds it to the total, then writes one bf16.
// No LDS, no tiling: it is the correctness baseline every faster variant is checked against.
//
//   block = 16 x 16 threads                 C [m, n] row-major
//   threadIdx.x -> column j (16 per block)  +----------------+
//   threadIdx.y -> row i    (16 per block)  | 16x16 per block|
//                                           +----------------+
#include "common/fp8_mm_args.h"

#include <hip/amd_detail/amd_hip_bf16.h>
#include <hip/amd_detail/amd_hip_fp8.h>

// ---- config -------------------------------------------------------------------------------
// Every variant takes the same five numbers (kernels/config.py emits them); here BLOCK_K
// only names the scale block and the waves tile the block as WAVES_M x WAVES_N rows of 64.
template <int BLOCK_M_, int BLOCK_N_, int BLOCK_K_, int WAVES_M_, int WAVES_N_>
struct NaiveConfig {
  static constexpr int BLOCK_M = BLOCK_M_;
  static constexpr int BLOCK_N = BLOCK_N_;
  static constexpr int kThreads = BLOCK_M * BLOCK_N;
  static_assert(BLOCK_K_ == kScaleBlock, "k walks whole scale blocks");
  static_assert(kThreads == WAVES_M_ * WAVES_N_ * 64, "one thread per output element");
  static_assert(kThreads <= 1024, "at most 1024 threads per block");
};

// ---- kernel -------------------------------------------------------------------------------
__device__ inline float fp8_to_float(uint8_t byte) {
  __hip_fp8_e4m3_fnuz value;
  value.__x = byte;
  return static_cast<float>(value);
}

template <class Config>
__global__ void __launch_bounds__(Config::kThreads) fp8_mm_v0_naive_kernel(Fp8MmArgs args) {
  const int j = blockIdx.x * Config::BLOCK_N + threadIdx.x;
  const int i = blockIdx.y * Config::BLOCK_M + threadIdx.y;
  if (i >= args.m || j >= args.n) return;

  float total = 0.0f;
  for (int kb = 0; kb < args.k / kScaleBlock; ++kb) {
    float block_sum = 0.0f;
    for (int kk = kb * kScaleBlock; kk < (kb + 1) * kScaleBlock; ++kk) {
      const float a = fp8_to_float(args.a[i + (size_t)kk * args.lda]);
      const float b = fp8_to_float(args.b[j + (size_t)kk * args.ldb]);
      block_sum += a * b;
    }
    const float scale = args.a_scale[i + kb * args.lda_scale] *
                        args.b_scale[j / kScaleBlock + kb * args.ldb_scale];
    total += scale * block_sum;
  }
  reinterpret_cast<__hip_bfloat16*>(args.c)[(size_t)i * args.ldc + j] = __float2bfloat16(total);
}

// ---- launcher -----------------------------------------------------------------------------
inline bool fp8_mm_v0_naive_is_supported(int m, int n, int k) {
  return m >= 1 && n >= 1 && k >= kScaleBlock && k % kScaleBlock == 0;
}

// Returns false (and launches nothing) for a shape the kernel cannot handle.
template <int BLOCK_M, int BLOCK_N, int BLOCK_K, int WAVES_M, int WAVES_N>
bool launch_fp8_mm_v0_naive(const Fp8MmArgs& args) {
  using Config = NaiveConfig<BLOCK_M, BLOCK_N, BLOCK_K, WAVES_M, WAVES_N>;
  if (!fp8_mm_v0_naive_is_supported(args.m, args.n, args.k)) return false;
  const dim3 block(Config::BLOCK_N, Config::BLOCK_M);
  const dim3 grid(ceil_div(args.n, Config::BLOCK_N), ceil_div(args.m, Config::BLOCK_M));
  fp8_mm_v0_naive_kernel<Config><<<grid, block>>>(args);
  return true;
}
