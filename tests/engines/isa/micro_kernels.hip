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

// Every wave writes the same value to word 0 between barriers (benign: the same bytes either
// way), then each reads it back; `differ` makes wave w write w instead (a race).
extern "C" __global__ void same_value_writes(int* out, int differ) {
  __shared__ int word[1];
  const int wave = threadIdx.x / 64;
  if (threadIdx.x % 64 == 0) word[0] = differ ? wave : 42;
  __syncthreads();
  out[threadIdx.x] = word[0];
}

// Reads LDS `past` dwords beyond a 512-byte array (one granule): gfx942 returns 0 there.
extern "C" __global__ void lds_read_past(int* out, int past) {
  __shared__ int tile[128];
  tile[threadIdx.x] = threadIdx.x + 1;
  tile[threadIdx.x + 64] = threadIdx.x + 65;
  __syncthreads();
  out[threadIdx.x] = ((volatile int*)tile)[threadIdx.x + past];
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

// 16-byte loads running past the end of `in` (as a tile's rows past m do), copied to `out`.
extern "C" __global__ void load_past_end(const int4* in, int4* out) { out[threadIdx.x] = in[threadIdx.x]; }

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

// Scratch addressed by the instruction offset alone (SVE = 0, saddr off), as clang emits for a
// private slot at a fixed place: the VGPR field (here v0 = threadIdx.x) must not count.
extern "C" __global__ void scratch_offset_only(const int* in, int* out) {
  volatile int slot[2];  // the kernel's 8 bytes of scratch per lane
  slot[threadIdx.x & 1] = 0;
  int loaded;
  asm volatile("scratch_store_dword off, %1, off offset:4\n\ts_waitcnt vmcnt(0)\n\t"
               "scratch_load_dword %0, off, off offset:4\n\ts_waitcnt vmcnt(0)"
               : "=v"(loaded) : "v"(in[threadIdx.x]) : "memory");
  out[threadIdx.x] = loaded;
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

// ---- AGPRs as operands ----------------------------------------------------------------------------
// NOTE: on gfx90a+ the AGPRs a0..a255 are operands of more than MFMA: v_accvgpr_read/write/mov,
// and the data and destination of DS, FLAT, GLOBAL, SCRATCH and MUBUF instructions (their acc
// bit). Per lane t (one wave; see test_core.py for the expected values):
//   out[8t+0..3] = x row 63-t      global_load_dwordx4 a, ds_write_b128 a, ds_read_b128 a, global_store_dwordx4 a
//   out[8t+4]    = t + x[4t+3]     v_accvgpr_write, v_accvgpr_mov of a10 (v10 has a load outstanding), v_accvgpr_read
//   out[8t+5]    = x[4t]           flat_load_dword a, ds_add_rtn_u32 with AGPR data and return, global_store_dword a
//   out[8t+6]    = x[4t] + x[4t+1] ds_read_b32 a, buffer_store_dword a
//   out[8t+7]    = x[4t+2]         buffer_load_dword a, scratch_store/scratch_load a, flat_store_dword a
// and d[0] = A B + C with A, C, D in AGPRs, d[1] the same with B in AGPRs and C, D in VGPRs,
// d[2] = A B into AGPRs (C = 0); A, B, C as in mfma_16x16x32.
extern "C" __global__ void agpr_operands(const int* x, int* out, const uint8_t* a, const uint8_t* b, const float* c,
                                         float* d) {
  __shared__ int lds[256];
  volatile int slot[2];  // 8 bytes of scratch per lane (see scratch_offset_only)
  slot[threadIdx.x & 1] = 0;
  const int t = threadIdx.x;
  const int mine = int(size_t(lds)) + 16 * t, theirs = int(size_t(lds)) + 16 * (63 - t);
  __amdgpu_buffer_rsrc_t rx = __builtin_amdgcn_make_buffer_rsrc(const_cast<int*>(x), 0, 256 * 4, 0x00020000);
  __amdgpu_buffer_rsrc_t ro = __builtin_amdgcn_make_buffer_rsrc(out, 0, 512 * 4, 0x00020000);
  asm volatile(
      "global_load_dwordx4 a[4:7], %[x], off\n\t"
      "v_accvgpr_write_b32 a10, %[t]\n\t"
      "s_waitcnt vmcnt(0)\n\t"
      "ds_write_b128 %[mine], a[4:7]\n\t"
      "s_waitcnt lgkmcnt(0)\n\t"
      "ds_read_b128 a[0:3], %[theirs]\n\t"
      "flat_load_dword a8, %[x] offset:4\n\t"
      "s_waitcnt vmcnt(0) lgkmcnt(0)\n\t"
      "global_store_dwordx4 %[out], a[0:3], off\n\t"
      "ds_add_rtn_u32 a9, %[mine], a8\n\t"
      "global_load_dword v10, %[x], off offset:12\n\t"
      "v_accvgpr_mov_b32 a11, a10\n\t"
      "s_waitcnt vmcnt(0) lgkmcnt(0)\n\t"
      "v_accvgpr_read_b32 v11, a11\n\t"
      "v_add_u32 v11, v11, v10\n\t"
      "v_accvgpr_write_b32 a12, v11\n\t"
      "global_store_dword %[out], a12, off offset:16\n\t"
      "global_store_dword %[out], a9, off offset:20\n\t"
      "ds_read_b32 a13, %[mine]\n\t"
      "buffer_load_dword a14, %[x_at], %[rx], 0 offen offset:8\n\t"
      "s_waitcnt vmcnt(0) lgkmcnt(0)\n\t"
      "buffer_store_dword a13, %[out_at], %[ro], 0 offen offset:24\n\t"
      "scratch_store_dword off, a14, off offset:4\n\t"
      "s_waitcnt vmcnt(0)\n\t"
      "scratch_load_dword a15, off, off offset:4\n\t"
      "s_waitcnt vmcnt(0)\n\t"
      "flat_store_dword %[out], a15 offset:28\n\t"
      "s_waitcnt vmcnt(0)"
      :
      : [x] "v"(x + 4 * t), [out] "v"(out + 8 * t), [t] "v"(t), [mine] "v"(mine), [theirs] "v"(theirs),
        [x_at] "v"(16 * t), [out_at] "v"(32 * t), [rx] "s"(rx), [ro] "s"(ro)
      : "memory", "v10", "v11", "a0", "a1", "a2", "a3", "a4", "a5", "a6", "a7", "a8", "a9", "a10", "a11", "a12",
        "a13", "a14", "a15");
  long av = 0, bv = 0;
  for (int e = 0; e < 8; ++e) {
    int k = 8 * (t / 16) + e;
    av |= long(a[(t % 16) * 32 + k]) << (8 * e);
    bv |= long(b[k * 16 + t % 16]) << (8 * e);
  }
  floatx4 cv;
  for (int g = 0; g < 4; ++g) cv[g] = c[(4 * (t / 16) + g) * 16 + t % 16];
  floatx4 in_agprs = cv, in_vgprs = cv, no_c;
  // NOTE: s_nop: the hardware reads an MFMA's result only after its passes (the engine needs none)
  asm volatile("v_mfma_f32_16x16x32_fp8_fp8 %0, %1, %2, %0\n\ts_nop 7\n\ts_nop 7\n\ts_nop 2"
               : "+a"(in_agprs) : "a"(av), "v"(bv));
  asm volatile("v_mfma_f32_16x16x32_fp8_fp8 %0, %1, %2, %0\n\ts_nop 7\n\ts_nop 7\n\ts_nop 2"
               : "+v"(in_vgprs) : "v"(av), "a"(bv));
  asm volatile("v_mfma_f32_16x16x32_fp8_fp8 %0, %1, %2, 0\n\ts_nop 7\n\ts_nop 7\n\ts_nop 2"
               : "=a"(no_c) : "v"(av), "v"(bv));
  for (int g = 0; g < 4; ++g) {
    const int at = (4 * (t / 16) + g) * 16 + t % 16;
    d[at] = in_agprs[g];
    d[256 + at] = in_vgprs[g];
    d[512 + at] = no_c[g];
  }
}

// An AGPR read while its load is outstanding (a missing s_waitcnt, named by its AGPR).
extern "C" __global__ void agpr_missing_wait(const int* in, int* out) {
  int v;
  asm volatile("global_load_dword a3, %1, off\n\tv_accvgpr_read_b32 %0, a3\n\ts_waitcnt vmcnt(0)"
               : "=v"(v) : "v"(in + threadIdx.x) : "memory", "a3");
  out[threadIdx.x] = v;
}

// ---- matrix instructions: register images in and out -------------------------------------------
// Dword r of an operand in lane l lives at [r * 64 + l] of its image. The test places matrix
// elements with the calculator's layouts and reads D back the same way; one kernel per
// instruction and modifier set (CBSZ/ABID/BLGP must be constants). Kernel names:
// <instruction>_c<CBSZ>a<ABID>b<BLGP> (SMFMAC: BLGP 0; its index VGPR comes from `index`), and
// _agpr / _vgpr after it where inline asm pins the operands to one register file.
typedef float v2f __attribute__((__vector_size__(2 * sizeof(float))));
typedef float v4f __attribute__((__vector_size__(4 * sizeof(float))));
typedef float v16f __attribute__((__vector_size__(16 * sizeof(float))));
typedef float v32f __attribute__((__vector_size__(32 * sizeof(float))));
typedef int v2i __attribute__((__vector_size__(2 * sizeof(int))));
typedef int v4i __attribute__((__vector_size__(4 * sizeof(int))));
typedef int v16i __attribute__((__vector_size__(16 * sizeof(int))));
typedef int v32i __attribute__((__vector_size__(32 * sizeof(int))));
typedef double v4d __attribute__((__vector_size__(4 * sizeof(double))));
typedef __fp16 v4h __attribute__((__vector_size__(4 * sizeof(__fp16))));
typedef __fp16 v8h __attribute__((__vector_size__(8 * sizeof(__fp16))));
typedef short v4s __attribute__((__vector_size__(4 * sizeof(short))));
typedef short v8s __attribute__((__vector_size__(8 * sizeof(short))));

template <typename T>
__device__ T load_image(const uint32_t* image) {
  T value;
  uint32_t* words = reinterpret_cast<uint32_t*>(&value);
  for (int r = 0; r < int(sizeof(T) / 4); ++r) words[r] = image[r * 64 + threadIdx.x];
  return value;
}

template <typename T>
__device__ void store_image(uint32_t* image, T value) {
  const uint32_t* words = reinterpret_cast<const uint32_t*>(&value);
  for (int r = 0; r < int(sizeof(T) / 4); ++r) image[r * 64 + threadIdx.x] = words[r];
}

#define MATRIX_KERNEL(NAME, TA, TB, TC, RESULT)                                                               \
  extern "C" __global__ void NAME(const uint32_t* a, const uint32_t* b, const uint32_t* c,                    \
                                  const uint32_t* index, uint32_t* d) {                                       \
    const TA av = load_image<TA>(a);                                                                          \
    const TB bv = load_image<TB>(b);                                                                          \
    const TC cv = load_image<TC>(c);                                                                          \
    store_image(d, RESULT);                                                                                   \
  }
#define DENSE(INST, CBSZ, ABID, BLGP, TA, TC, BUILTIN)                                                        \
  MATRIX_KERNEL(INST##_c##CBSZ##a##ABID##b##BLGP, TA, TA, TC, BUILTIN(av, bv, cv, CBSZ, ABID, BLGP))
#define SPARSE(INST, CBSZ, ABID, TA, TB, TC, BUILTIN)                                                         \
  MATRIX_KERNEL(INST##_c##CBSZ##a##ABID##b0, TA, TB, TC,                                                      \
                BUILTIN(av, bv, cv, int(index[threadIdx.x]), CBSZ, ABID))
// The same instructions in inline asm with their operands in one register file, FILE = a or v
// (kernel name ..._agpr or ..._vgpr): with a, C and D are AGPRs (ACC_CD) and so are A and B
// (the acc bits); SMFMAC's index is a VGPR either way. NOTE: the s_nops stand for the hardware's
// wait before an MFMA's result is read; the engine needs none.
#define MFMA_ASM(INST, MODIFIERS, FILE, TC, ...)                                                              \
  ({                                                                                                          \
    TC acc = cv;                                                                                              \
    asm volatile(#INST " %0, %1, %2, %3 " MODIFIERS "\n\ts_nop 7\n\ts_nop 7\n\ts_nop 7"                       \
                 : "+" #FILE(acc) : #FILE(av), #FILE(bv), __VA_ARGS__);                                       \
    acc;                                                                                                      \
  })
#define DENSE_ASM(INST, CBSZ, ABID, BLGP, FILE, TA, TC)                                                       \
  MATRIX_KERNEL(INST##_c##CBSZ##a##ABID##b##BLGP##_##FILE##gpr, TA, TA, TC,                                   \
                MFMA_ASM(INST, "cbsz:" #CBSZ " abid:" #ABID " blgp:" #BLGP, FILE, TC, #FILE(cv)))
#define SPARSE_ASM(INST, CBSZ, ABID, FILE, TA, TB, TC)                                                        \
  MATRIX_KERNEL(INST##_c##CBSZ##a##ABID##b0_##FILE##gpr, TA, TB, TC,                                          \
                MFMA_ASM(INST, "cbsz:" #CBSZ " abid:" #ABID, FILE, TC, "v"(int(index[threadIdx.x]))))

DENSE(v_mfma_f32_32x32x1_2b_f32, 0, 0, 0, float, v32f, __builtin_amdgcn_mfma_f32_32x32x1f32)
DENSE(v_mfma_f32_32x32x1_2b_f32, 1, 1, 3, float, v32f, __builtin_amdgcn_mfma_f32_32x32x1f32)
DENSE(v_mfma_f32_16x16x1_4b_f32, 0, 0, 0, float, v16f, __builtin_amdgcn_mfma_f32_16x16x1f32)
DENSE(v_mfma_f32_16x16x1_4b_f32, 2, 3, 5, float, v16f, __builtin_amdgcn_mfma_f32_16x16x1f32)
DENSE(v_mfma_f32_4x4x1_16b_f32, 0, 0, 0, float, v4f, __builtin_amdgcn_mfma_f32_4x4x1f32)
DENSE(v_mfma_f32_4x4x1_16b_f32, 3, 5, 7, float, v4f, __builtin_amdgcn_mfma_f32_4x4x1f32)
DENSE(v_mfma_f32_4x4x4_16b_f16, 4, 9, 6, v4h, v4f, __builtin_amdgcn_mfma_f32_4x4x4f16)
DENSE(v_mfma_f32_16x16x4_4b_f16, 0, 0, 0, v4h, v16f, __builtin_amdgcn_mfma_f32_16x16x4f16)
DENSE(v_mfma_f32_32x32x4_2b_f16, 1, 0, 2, v4h, v32f, __builtin_amdgcn_mfma_f32_32x32x4f16)
DENSE(v_mfma_f32_4x4x4_16b_bf16, 0, 0, 0, v4s, v4f, __builtin_amdgcn_mfma_f32_4x4x4bf16_1k)
DENSE(v_mfma_f32_16x16x4_4b_bf16, 1, 1, 1, v4s, v16f, __builtin_amdgcn_mfma_f32_16x16x4bf16_1k)
DENSE(v_mfma_f32_32x32x4_2b_bf16, 0, 0, 0, v4s, v32f, __builtin_amdgcn_mfma_f32_32x32x4bf16_1k)
DENSE(v_mfma_i32_4x4x4_16b_i8, 2, 1, 4, int, v4i, __builtin_amdgcn_mfma_i32_4x4x4i8)
DENSE(v_mfma_i32_16x16x4_4b_i8, 0, 0, 0, int, v16i, __builtin_amdgcn_mfma_i32_16x16x4i8)
DENSE(v_mfma_i32_32x32x4_2b_i8, 0, 0, 0, int, v32i, __builtin_amdgcn_mfma_i32_32x32x4i8)
DENSE(v_mfma_f32_32x32x2_f32, 0, 0, 6, float, v16f, __builtin_amdgcn_mfma_f32_32x32x2f32)
DENSE(v_mfma_f32_16x16x4_f32, 0, 0, 0, float, v4f, __builtin_amdgcn_mfma_f32_16x16x4f32)
DENSE(v_mfma_f32_16x16x4_f32, 0, 0, 3, float, v4f, __builtin_amdgcn_mfma_f32_16x16x4f32)
DENSE(v_mfma_f32_16x16x8_xf32, 0, 0, 0, v2f, v4f, __builtin_amdgcn_mfma_f32_16x16x8_xf32)
DENSE(v_mfma_f32_32x32x4_xf32, 0, 0, 0, v2f, v16f, __builtin_amdgcn_mfma_f32_32x32x4_xf32)
DENSE(v_mfma_f64_16x16x4_f64, 0, 0, 0, double, v4d, __builtin_amdgcn_mfma_f64_16x16x4f64)
DENSE(v_mfma_f64_16x16x4_f64, 0, 0, 5, double, v4d, __builtin_amdgcn_mfma_f64_16x16x4f64)
DENSE(v_mfma_f64_4x4x4_4b_f64, 0, 0, 2, double, double, __builtin_amdgcn_mfma_f64_4x4x4f64)
SPARSE(v_smfmac_f32_16x16x32_f16, 0, 0, v4h, v8h, v4f, __builtin_amdgcn_smfmac_f32_16x16x32_f16)
SPARSE(v_smfmac_f32_16x16x32_bf16, 0, 0, v4s, v8s, v4f, __builtin_amdgcn_smfmac_f32_16x16x32_bf16)
SPARSE(v_smfmac_f32_32x32x16_f16, 0, 0, v4h, v8h, v16f, __builtin_amdgcn_smfmac_f32_32x32x16_f16)
SPARSE(v_smfmac_f32_16x16x64_fp8_fp8, 0, 1, v2i, v4i, v4f, __builtin_amdgcn_smfmac_f32_16x16x64_fp8_fp8)
SPARSE(v_smfmac_f32_16x16x64_fp8_fp8, 1, 1, v2i, v4i, v4f, __builtin_amdgcn_smfmac_f32_16x16x64_fp8_fp8)
SPARSE(v_smfmac_f32_16x16x64_bf8_fp8, 0, 0, v2i, v4i, v4f, __builtin_amdgcn_smfmac_f32_16x16x64_bf8_fp8)
SPARSE(v_smfmac_f32_32x32x32_fp8_fp8, 0, 1, v2i, v4i, v16f, __builtin_amdgcn_smfmac_f32_32x32x32_fp8_fp8)
SPARSE(v_smfmac_i32_16x16x64_i8, 0, 0, v2i, v4i, v4i, __builtin_amdgcn_smfmac_i32_16x16x64_i8)
SPARSE(v_smfmac_i32_32x32x32_i8, 0, 1, v2i, v4i, v16i, __builtin_amdgcn_smfmac_i32_32x32x32_i8)
DENSE_ASM(v_mfma_f32_16x16x32_fp8_fp8, 0, 0, 0, a, long, v4f)
DENSE_ASM(v_mfma_f32_16x16x32_fp8_fp8, 0, 0, 0, v, long, v4f)
DENSE_ASM(v_mfma_f32_32x32x1_2b_f32, 1, 1, 3, a, float, v32f)
DENSE_ASM(v_mfma_i32_16x16x4_4b_i8, 0, 0, 0, a, int, v16i)
SPARSE_ASM(v_smfmac_f32_16x16x64_fp8_fp8, 0, 1, a, v2i, v4i, v4f)
SPARSE_ASM(v_smfmac_f32_16x16x64_fp8_fp8, 0, 1, v, v2i, v4i, v4f)
SPARSE_ASM(v_smfmac_f32_32x32x16_f16, 0, 0, a, v4h, v8h, v16f)
// A broadcast to 2^3 blocks of an instruction with 4: undefined on gfx942, the engine faults.
MATRIX_KERNEL(v_mfma_f32_16x16x1_4b_f32_c3a0b0, float, float, v16f,
              __builtin_amdgcn_mfma_f32_16x16x1f32(av, bv, cv, 3, 0, 0))
