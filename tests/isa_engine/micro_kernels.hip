// Small kernels whose results the tests know exactly: each exercises a few instruction classes
// of the ISA engine (see test_core.py for what each expects).
#include <hip/hip_runtime.h>
#include <hip/amd_detail/amd_hip_fp8.h>
#include <stdint.h>

typedef float floatx4 __attribute__((ext_vector_type(4)));

// fp8 e4m3fnuz bytes -> float, one per thread (v_cvt_f32_fp8 with SDWA byte selects).
extern "C" __global__ void fp8_decode(const uint8_t* in, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    __hip_fp8_e4m3_fnuz v;
    v.__x = in[i];
    out[i] = static_cast<float>(v);
  }
}

// Integer and float lane arithmetic, with divergent branches.
extern "C" __global__ void lane_math(const int* x, int* out_i, float* out_f, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  int v = x[i];
  int r = (v * 7 + 3) ^ (v >> 2);
  if (v & 1) r += v / 5;
  else r -= v % 3;
  out_i[i] = r;
  out_f[i] = __fsqrt_rn(float(v & 1023)) * 0.5f + float(v) / 3.0f;
}

// One 16x16x32 fp8 MFMA: A, B as 16x32 / 32x16 row-major bytes, D 16x16 row-major floats.
extern "C" __global__ void mfma_16x16x32(const uint8_t* a, const uint8_t* b, float* d) {
  int lane = threadIdx.x;
  long av = 0, bv = 0;
  for (int e = 0; e < 8; ++e) {
    int k = 8 * (lane / 16) + e;
    av |= long(a[(lane % 16) * 32 + k]) << (8 * e);
    bv |= long(b[k * 16 + lane % 16]) << (8 * e);
  }
  floatx4 acc = {0, 0, 0, 0};
  acc = __builtin_amdgcn_mfma_f32_16x16x32_fp8_fp8(av, bv, acc, 0, 0, 0);
  for (int g = 0; g < 4; ++g) d[(4 * (lane / 16) + g) * 16 + lane % 16] = acc[g];
}

// The same MFMA with A packed k-major across lanes (a plausible mistake): wrong products.
extern "C" __global__ void mfma_wrong_layout(const uint8_t* a, const uint8_t* b, float* d) {
  int lane = threadIdx.x;
  long av = 0, bv = 0;
  for (int e = 0; e < 8; ++e) {
    int k = 8 * (lane / 16) + e;
    av |= long(a[(lane % 16) * 32 + 4 * e + lane / 16]) << (8 * e);
    bv |= long(b[k * 16 + lane % 16]) << (8 * e);
  }
  floatx4 acc = {0, 0, 0, 0};
  acc = __builtin_amdgcn_mfma_f32_16x16x32_fp8_fp8(av, bv, acc, 0, 0, 0);
  for (int g = 0; g < 4; ++g) d[(4 * (lane / 16) + g) * 16 + lane % 16] = acc[g];
}

// LDS exchange between waves with a barrier (a reversal across the whole block).
extern "C" __global__ void lds_reverse(const int* in, int* out) {
  __shared__ int buf[256];
  int t = threadIdx.x;
  buf[t] = in[blockIdx.x * 256 + t];
  __syncthreads();
  out[blockIdx.x * 256 + t] = buf[255 - t];
}

// The same without the barrier: waves read what other waves write (an LDS race).
extern "C" __global__ void lds_race(const int* in, int* out) {
  __shared__ int buf[256];
  int t = threadIdx.x;
  buf[t] = in[t];
  out[t] = buf[255 - t];
}

// A missing s_waitcnt: the load's destination is read before any wait (inline asm).
extern "C" __global__ void missing_wait(const int* in, int* out) {
  int v;
  asm volatile("global_load_dword %0, %1, off\n\tv_add_u32 %0, %0, 1" : "=v"(v) : "v"(in + threadIdx.x) : "memory");
  out[threadIdx.x] = v;
}

// Cross-lane: DPP row shift, ds_swizzle and bpermute, ballot, readfirstlane.
extern "C" __global__ void cross_lane(const int* in, int* out) {
  int t = threadIdx.x;
  int v = in[t];
  int shl = __builtin_amdgcn_update_dpp(0, v, 0x101, 0xf, 0xf, true);   // row_shl:1, bound_ctrl
  int bperm = __builtin_amdgcn_ds_bpermute(((t + 5) % 64) * 4, v);
  int swz = __builtin_amdgcn_ds_swizzle(v, 0x041f);                      // xor 1 within 32
  unsigned long long ballot = __ballot(v & 1);
  int first = __builtin_amdgcn_readfirstlane(v);
  out[t * 5 + 0] = shl;
  out[t * 5 + 1] = bperm;
  out[t * 5 + 2] = swz;
  out[t * 5 + 3] = int(ballot >> (t % 2 ? 32 : 0));
  out[t * 5 + 4] = first;
}

// Buffer loads/stores with the out-of-range rule: loads past num_records read 0, stores drop.
extern "C" __global__ void buffer_oob(int* data, int* out, int records) {
  int t = threadIdx.x;
  __amdgpu_buffer_rsrc_t r = __builtin_amdgcn_make_buffer_rsrc(data, 0, records, 0x00020000);
  int v = __builtin_amdgcn_raw_buffer_load_b32(r, t * 4, 0, 0);
  out[t] = v;
  __builtin_amdgcn_raw_buffer_store_b32(v + 100, r, t * 4, 0, 0);
}

// Stores one element past the end of `out` (an out-of-allocation access).
extern "C" __global__ void out_of_bounds(int* out, int n) { out[threadIdx.x + n - 64] = 1; }

// f32 -> fp8 conversion (v_cvt_pk_fp8_f32) and bf16 packing through HIP's types.
extern "C" __global__ void fp8_encode(const float* in, uint8_t* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = __builtin_amdgcn_cvt_pk_fp8_f32(in[i], 0.0f, 0, false) & 0xff;
}

// An instruction the engine has no semantics for (v_sad_u8): a fault naming it.
extern "C" __global__ void unimplemented(int* out) {
  int v;
  asm volatile("v_sad_u8 %0, %1, %1, %1" : "=v"(v) : "v"(out[threadIdx.x]));
  out[threadIdx.x] = v;
}

// A private array indexed by data: lives in per-lane scratch (scratch_store/scratch_load).
extern "C" __global__ void private_array(const int* in, int* out) {
  int buf[48];
  int t = threadIdx.x;
  for (int i = 0; i < 48; ++i) buf[(i * 7 + t) % 48] = i * 1000 + t;
  out[t] = buf[in[t] % 48] + buf[(in[t] + 5) % 48];
}

// fp8 conversion builtins with every byte/word selector.
typedef float floatx2 __attribute__((ext_vector_type(2)));
extern "C" __global__ void fp8_selectors(const int* in, const float* f, float* out, int* packed) {
  int t = threadIdx.x;
  int v = in[t];
  out[t * 8 + 0] = __builtin_amdgcn_cvt_f32_fp8(v, 0);
  out[t * 8 + 1] = __builtin_amdgcn_cvt_f32_fp8(v, 1);
  out[t * 8 + 2] = __builtin_amdgcn_cvt_f32_fp8(v, 2);
  out[t * 8 + 3] = __builtin_amdgcn_cvt_f32_fp8(v, 3);
  floatx2 lo = __builtin_amdgcn_cvt_pk_f32_fp8(v, false), hi = __builtin_amdgcn_cvt_pk_f32_fp8(v, true);
  out[t * 8 + 4] = lo.x;
  out[t * 8 + 5] = lo.y;
  out[t * 8 + 6] = hi.x;
  out[t * 8 + 7] = hi.y;
  int p = __builtin_amdgcn_cvt_pk_fp8_f32(f[2 * t], f[2 * t + 1], 0x5a5a5a5a, false);
  packed[t * 2] = p;
  packed[t * 2 + 1] = __builtin_amdgcn_cvt_pk_fp8_f32(f[2 * t], f[2 * t + 1], p, true);
}

// buffer_load_dword ... lds (inline asm: no clang 19 builtin): global data straight into LDS.
extern "C" __global__ void buffer_to_lds(int* data, int* out) {
  __shared__ int buf[64];
  int t = threadIdx.x;
  __amdgpu_buffer_rsrc_t r = __builtin_amdgcn_make_buffer_rsrc(data, 0, 64 * 4, 0x00020000);
  asm volatile("s_mov_b32 m0, %0\n\tbuffer_load_dword %1, %2, 0 offen lds\n\ts_waitcnt vmcnt(0)"
               :: "s"((int)(size_t)buf), "v"(t * 4), "s"(r) : "memory");
  __syncthreads();
  out[t] = buf[63 - t];
}
