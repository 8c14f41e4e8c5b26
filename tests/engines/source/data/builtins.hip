// Kernels that run one builtin per call on one wave, for tests/engines/source/test_builtins.py.
#include <hip/hip_runtime.h>
#include <cstring>

typedef float floatx4 __attribute__((ext_vector_type(4)));
typedef float floatx16 __attribute__((ext_vector_type(16)));
typedef short shortx4 __attribute__((ext_vector_type(4)));
typedef _Float16 halfx4 __attribute__((ext_vector_type(4)));

template <class Acc, int G, class F>
__device__ void mfma_lane(F op, const long* a, const long* b, const float* c, float* d) {
  int l = threadIdx.x;
  Acc acc;
  for (int g = 0; g < G; ++g) acc[g] = c[l * 16 + g];
  acc = op(a[l], b[l], acc);
  for (int g = 0; g < G; ++g) d[l * 16 + g] = acc[g];
}

template <class V>
V as_vec(long x) {
  V v;
  std::memcpy(&v, &x, 8);
  return v;
}

__global__ void mfma_kernel(int which, const long* a, const long* b, const float* c, float* d) {
  switch (which) {
#define F8(N, M, K, A, B, ACC, G)                                                                    \
  case N:                                                                                           \
    mfma_lane<ACC, G>([](long x, long y, ACC z) {                                                   \
      return __builtin_amdgcn_mfma_f32_##M##x##M##x##K##_##A##_##B(x, y, z, 0, 0, 0); }, a, b, c, d); \
    break;
    F8(0, 16, 32, fp8, fp8, floatx4, 4)
    F8(1, 16, 32, fp8, bf8, floatx4, 4)
    F8(2, 16, 32, bf8, fp8, floatx4, 4)
    F8(3, 16, 32, bf8, bf8, floatx4, 4)
    F8(4, 32, 16, fp8, fp8, floatx16, 16)
    F8(5, 32, 16, fp8, bf8, floatx16, 16)
    F8(6, 32, 16, bf8, fp8, floatx16, 16)
    F8(7, 32, 16, bf8, bf8, floatx16, 16)
#undef F8
    case 8:
      mfma_lane<floatx4, 4>([](long x, long y, floatx4 z) {
        return __builtin_amdgcn_mfma_f32_16x16x16bf16_1k(as_vec<shortx4>(x), as_vec<shortx4>(y), z, 0, 0, 0); }, a, b, c, d);
      break;
    case 9:
      mfma_lane<floatx16, 16>([](long x, long y, floatx16 z) {
        return __builtin_amdgcn_mfma_f32_32x32x8bf16_1k(as_vec<shortx4>(x), as_vec<shortx4>(y), z, 0, 0, 0); }, a, b, c, d);
      break;
    case 10:
      mfma_lane<floatx4, 4>([](long x, long y, floatx4 z) {
        return __builtin_amdgcn_mfma_f32_16x16x16f16(as_vec<halfx4>(x), as_vec<halfx4>(y), z, 0, 0, 0); }, a, b, c, d);
      break;
    case 11:
      mfma_lane<floatx16, 16>([](long x, long y, floatx16 z) {
        return __builtin_amdgcn_mfma_f32_32x32x8f16(as_vec<halfx4>(x), as_vec<halfx4>(y), z, 0, 0, 0); }, a, b, c, d);
      break;
  }
}

void run_mfma(int64_t which, torch::Tensor a, torch::Tensor b, torch::Tensor c, torch::Tensor d) {
  hipLaunchKernelGGL(mfma_kernel, dim3(1), dim3(64), 0, 0, int(which), (const long*)a.data_ptr(),
                     (const long*)b.data_ptr(), c.data_ptr<float>(), d.data_ptr<float>());
}

// One cross-lane builtin on one wave; lanes outside `active` end before the call.
__global__ void cross_lane_kernel(int which, int param, unsigned long long active, const int* src, const int* old,
                                  int* out) {
  int l = threadIdx.x;
  if (!((active >> l) & 1)) return;
  int ctrl = param & 0xFFF, row_mask = (param >> 12) & 0xF, bank_mask = (param >> 16) & 0xF;
  bool bound = (param >> 20) & 1;
  int r = 0;
  switch (which) {
    case 0: r = __builtin_amdgcn_update_dpp(old[l], src[l], ctrl, row_mask, bank_mask, bound); break;
    case 1: r = __builtin_amdgcn_mov_dpp(src[l], ctrl, row_mask, bank_mask, bound); break;
    case 2: r = __builtin_amdgcn_ds_swizzle(src[l], param); break;
    case 3: r = __builtin_amdgcn_ds_bpermute(old[l], src[l]); break;
    case 4: r = __builtin_amdgcn_ds_permute(old[l], src[l]); break;
    case 5: r = __builtin_amdgcn_readlane(src[l], param); break;
    case 6: r = __builtin_amdgcn_readfirstlane(src[l]); break;
    case 7: { unsigned long long m = __builtin_amdgcn_ballot_w64(src[l] != 0); r = int(m >> (param ? 32 : 0)); } break;
    case 8: r = __shfl(src[l], param); break;
    case 9: r = __shfl_up(src[l], param); break;
    case 10: r = __shfl_down(src[l], param); break;
    case 11: r = __shfl_xor(src[l], param); break;
    case 12: r = int(__builtin_amdgcn_mbcnt_hi(~0u, __builtin_amdgcn_mbcnt_lo(~0u, 0))); break;
    case 13: r = __shfl(src[l], old[l], param); break;
  }
  out[l] = r;
}

void run_cross_lane(int64_t which, int64_t param, int64_t active, torch::Tensor src, torch::Tensor old,
                    torch::Tensor out) {
  cross_lane_kernel<<<1, 64>>>(int(which), int(param), (unsigned long long)active, src.data_ptr<int>(),
                               old.data_ptr<int>(), out.data_ptr<int>());
}

// Conversions: fp8/bf8 decode of 256 codes, f32 -> fp8/bf8 of arbitrary values.
__global__ void convert_kernel(int n, bool bf8, const float* x, const int* codes, float* decoded, int* encoded) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  decoded[i] = bf8 ? __builtin_amdgcn_cvt_f32_bf8(codes[i] << 16, 2) : __builtin_amdgcn_cvt_f32_fp8(codes[i] << 16, 2);
  int packed = bf8 ? __builtin_amdgcn_cvt_pk_bf8_f32(x[i], 1.0f, 0x12345678, true)
                   : __builtin_amdgcn_cvt_pk_fp8_f32(x[i], 1.0f, 0x12345678, true);
  encoded[i] = packed;
}

void run_convert(bool bf8, torch::Tensor x, torch::Tensor codes, torch::Tensor decoded, torch::Tensor encoded) {
  int n = x.numel();
  convert_kernel<<<(n + 63) / 64, 64>>>(n, bf8, x.data_ptr<float>(), codes.data_ptr<int>(), decoded.data_ptr<float>(),
                                        encoded.data_ptr<int>());
}

// Scalar ALU builtins: rows of (s0, s1, s2) -> (perm, alignbyte, alignbit).
__global__ void alu_kernel(int n, const unsigned* in, unsigned* out) {
  int i = threadIdx.x;
  if (i >= n) return;
  out[3 * i] = __builtin_amdgcn_perm(in[3 * i], in[3 * i + 1], in[3 * i + 2]);
  out[3 * i + 1] = __builtin_amdgcn_alignbyte(in[3 * i], in[3 * i + 1], in[3 * i + 2]);
  out[3 * i + 2] = __builtin_amdgcn_alignbit(in[3 * i], in[3 * i + 1], in[3 * i + 2]);
}

void run_alu(torch::Tensor in, torch::Tensor out) {
  alu_kernel<<<1, 64>>>(in.size(0), (const unsigned*)in.data_ptr(), (unsigned*)out.data_ptr());
}

// Raw buffer access: lane l loads 16 bytes at byte offset 4*l, then stores them 4 bytes on.
__global__ void buffer_kernel(unsigned char* mem, int num_records, unsigned* loaded, int store) {
  int l = threadIdx.x;
  auto rsrc = __builtin_amdgcn_make_buffer_rsrc(mem, 0, num_records, 0x00020000);
  auto v = __builtin_amdgcn_raw_buffer_load_b128(rsrc, 4 * l, 0, 0);
  for (int e = 0; e < 4; ++e) loaded[4 * l + e] = v[e];
  loaded[256 + l] = __builtin_amdgcn_raw_buffer_load_b8(rsrc, l, 0, 0);
  if (store && l == 0) __builtin_amdgcn_raw_buffer_store_b64(v.xy, rsrc, num_records - 4, 0, 0);
}

void run_buffer(torch::Tensor mem, int64_t num_records, torch::Tensor loaded, bool store) {
  buffer_kernel<<<1, 64>>>((unsigned char*)mem.data_ptr(), int(num_records), (unsigned*)loaded.data_ptr(), store);
}

// Static and dynamic LDS, 2-D block ids, a barrier between waves.
__global__ void lds_kernel(int* out) {
  __shared__ int table[256];
  extern __shared__ int dynamic[];
  int t = threadIdx.x + threadIdx.y * blockDim.x;
  table[t] = t * 10 + blockIdx.x;
  dynamic[t] = t;
  __syncthreads();
  out[blockIdx.x * 256 + t] = table[255 - t] + dynamic[(t + 64) % 256] * 100000;
}

void run_lds(torch::Tensor out) {
  lds_kernel<<<dim3(2), dim3(64, 4), 256 * sizeof(int)>>>(out.data_ptr<int>());
}
