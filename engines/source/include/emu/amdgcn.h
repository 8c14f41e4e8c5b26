// The `__builtin_amdgcn_*` builtins a gfx942 HIP kernel may call, as host functions with the
// same names and signatures (clang 19 for x86-64 lets user code define them). Cross-lane
// builtins take a trailing defaulted call-site argument used to detect divergence.
#pragma once
#include <cmath>
#include <cstdint>
#include <cstring>
#include <ctime>

#include "emu/cross_lane.h"
#include "emu/mfma.h"
#include "emu/numeric.h"

typedef float emu_f32x2 __attribute__((ext_vector_type(2)));
typedef float emu_f32x4 __attribute__((ext_vector_type(4)));
typedef float emu_f32x16 __attribute__((ext_vector_type(16)));
typedef short emu_i16x4 __attribute__((ext_vector_type(4)));
typedef __fp16 emu_fp16x4 __attribute__((ext_vector_type(4)));
typedef _Float16 emu_float16x4 __attribute__((ext_vector_type(4)));
typedef unsigned int emu_u32x2 __attribute__((ext_vector_type(2)));
typedef unsigned int emu_u32x3 __attribute__((ext_vector_type(3)));
typedef unsigned int emu_u32x4 __attribute__((ext_vector_type(4)));

// ---- work-item and workgroup ids -------------------------------------------------------------
#define EMU_LANE (::emu::current_lane())
inline unsigned __builtin_amdgcn_workitem_id_x() { return EMU_LANE.thread_idx.x; }
inline unsigned __builtin_amdgcn_workitem_id_y() { return EMU_LANE.thread_idx.y; }
inline unsigned __builtin_amdgcn_workitem_id_z() { return EMU_LANE.thread_idx.z; }
inline unsigned __builtin_amdgcn_workgroup_id_x() { return EMU_LANE.group->block_idx.x; }
inline unsigned __builtin_amdgcn_workgroup_id_y() { return EMU_LANE.group->block_idx.y; }
inline unsigned __builtin_amdgcn_workgroup_id_z() { return EMU_LANE.group->block_idx.z; }
inline unsigned short __builtin_amdgcn_workgroup_size_x() { return EMU_LANE.group->launch->block.x; }
inline unsigned short __builtin_amdgcn_workgroup_size_y() { return EMU_LANE.group->launch->block.y; }
inline unsigned short __builtin_amdgcn_workgroup_size_z() { return EMU_LANE.group->launch->block.z; }
inline unsigned __builtin_amdgcn_grid_size_x() { return EMU_LANE.group->launch->grid.x * EMU_LANE.group->launch->block.x; }
inline unsigned __builtin_amdgcn_grid_size_y() { return EMU_LANE.group->launch->grid.y * EMU_LANE.group->launch->block.y; }
inline unsigned __builtin_amdgcn_grid_size_z() { return EMU_LANE.group->launch->grid.z * EMU_LANE.group->launch->block.z; }
inline unsigned __builtin_amdgcn_wavefrontsize() { return 64; }
inline unsigned __builtin_amdgcn_mbcnt_lo(unsigned mask, unsigned add) {
  unsigned l = EMU_LANE.lane_id;
  unsigned below = l >= 32 ? 0xFFFFFFFFu : ((1u << l) - 1);
  return add + unsigned(__builtin_popcount(mask & below));
}
inline unsigned __builtin_amdgcn_mbcnt_hi(unsigned mask, unsigned add) {
  unsigned l = EMU_LANE.lane_id;
  unsigned below = l < 32 ? 0 : (l == 32 ? 0 : ((1u << (l - 32)) - 1));
  return add + unsigned(__builtin_popcount(mask & below));
}

// ---- barriers, waits and scheduling hints ---------------------------------------------------
inline void __builtin_amdgcn_s_barrier(::emu::Loc site = ::emu::Loc::current()) {
  ::emu::workgroup_barrier("__syncthreads/s_barrier", site);
}
inline void __builtin_amdgcn_wave_barrier(::emu::Loc site = ::emu::Loc::current()) {
  ::emu::cross_lane<::emu::WaveSyncOp>(0, site);
}
// A sequentially consistent emulator needs none of these.
inline void __builtin_amdgcn_s_waitcnt(int) {}
inline void __builtin_amdgcn_sched_barrier(int) {}
inline void __builtin_amdgcn_sched_group_barrier(int, int, int) {}
inline void __builtin_amdgcn_iglp_opt(int) {}
inline void __builtin_amdgcn_s_setprio(short) {}
inline void __builtin_amdgcn_s_sleep(int) {}
inline void __builtin_amdgcn_fence(int, const char*) {}
inline void __builtin_amdgcn_fence(int, const char*, const char*) {}
inline void __builtin_amdgcn_buffer_wbinvl1() {}
inline void __builtin_amdgcn_s_dcache_wb() {}
// Counters for debug timing: the host's cycle counter and a 100 MHz clock (gfx942's
// s_memrealtime rate). Their values mean nothing about MI300X time.
inline unsigned long long __builtin_amdgcn_s_memtime() { return __builtin_readcyclecounter(); }
inline unsigned long long __builtin_amdgcn_s_memrealtime() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (unsigned long long)ts.tv_sec * 100000000ull + (unsigned long long)ts.tv_nsec / 10;
}

// ---- cross-lane data movement ---------------------------------------------------------------
inline int __builtin_amdgcn_update_dpp(int old, int src, int ctrl, int row_mask, int bank_mask, bool bound_ctrl,
                                       ::emu::Loc site = ::emu::Loc::current()) {
  return ::emu::cross_lane<::emu::DppOp>({old, src, ctrl, row_mask, bank_mask, bound_ctrl}, site);
}
inline int __builtin_amdgcn_mov_dpp(int src, int ctrl, int row_mask, int bank_mask, bool bound_ctrl,
                                    ::emu::Loc site = ::emu::Loc::current()) {
  return ::emu::cross_lane<::emu::DppOp>({::emu::kDppPoison, src, ctrl, row_mask, bank_mask, bound_ctrl}, site);
}
inline int __builtin_amdgcn_ds_swizzle(int data, int pattern, ::emu::Loc site = ::emu::Loc::current()) {
  return ::emu::cross_lane<::emu::SwizzleOp>({data, pattern}, site);
}
inline int __builtin_amdgcn_ds_bpermute(int addr, int data, ::emu::Loc site = ::emu::Loc::current()) {
  return int(::emu::cross_lane<::emu::BpermuteOp>({addr, uint64_t(uint32_t(data))}, site));
}
inline int __builtin_amdgcn_ds_permute(int addr, int data, ::emu::Loc site = ::emu::Loc::current()) {
  return ::emu::cross_lane<::emu::PermuteOp>({addr, data}, site);
}
inline int __builtin_amdgcn_readlane(int v, int lane, ::emu::Loc site = ::emu::Loc::current()) {
  return int(::emu::cross_lane<::emu::ReadlaneOp>({uint64_t(uint32_t(v)), lane}, site));
}
inline int __builtin_amdgcn_readfirstlane(int v, ::emu::Loc site = ::emu::Loc::current()) {
  return int(::emu::cross_lane<::emu::ReadfirstlaneOp>(uint64_t(uint32_t(v)), site));
}
inline unsigned long __builtin_amdgcn_ballot_w64(bool p, ::emu::Loc site = ::emu::Loc::current()) {
  return ::emu::cross_lane<::emu::BallotOp>(p, site);
}
inline unsigned long __builtin_amdgcn_read_exec(::emu::Loc site = ::emu::Loc::current()) {
  return ::emu::cross_lane<::emu::BallotOp>(true, site);
}
inline unsigned __builtin_amdgcn_read_exec_lo(::emu::Loc site = ::emu::Loc::current()) {
  return unsigned(__builtin_amdgcn_read_exec(site));
}
inline unsigned __builtin_amdgcn_read_exec_hi(::emu::Loc site = ::emu::Loc::current()) {
  return unsigned(__builtin_amdgcn_read_exec(site) >> 32);
}

namespace emu {
// LLVM CmpInst predicate codes: integer 32..41, floating 0..15.
template <class T>
inline bool int_predicate(T a, T b, int pred) {
  using S = std::make_signed_t<T>;
  using U = std::make_unsigned_t<T>;
  switch (pred) {
    case 32: return a == b;
    case 33: return a != b;
    case 34: return U(a) > U(b);
    case 35: return U(a) >= U(b);
    case 36: return U(a) < U(b);
    case 37: return U(a) <= U(b);
    case 38: return S(a) > S(b);
    case 39: return S(a) >= S(b);
    case 40: return S(a) < S(b);
    case 41: return S(a) <= S(b);
  }
  lane_fail("icmp: predicate " + std::to_string(pred) + " is not an integer CmpInst code (32..41)");
}
inline bool float_predicate(double a, double b, int pred) {
  bool unordered = std::isnan(a) || std::isnan(b);
  switch (pred) {
    case 0: return false;
    case 1: return !unordered && a == b;
    case 2: return !unordered && a > b;
    case 3: return !unordered && a >= b;
    case 4: return !unordered && a < b;
    case 5: return !unordered && a <= b;
    case 6: return !unordered && a != b;
    case 7: return !unordered;
    case 8: return unordered;
    case 9: return unordered || a == b;
    case 10: return unordered || a > b;
    case 11: return unordered || a >= b;
    case 12: return unordered || a < b;
    case 13: return unordered || a <= b;
    case 14: return unordered || a != b;
    case 15: return true;
  }
  lane_fail("fcmp: predicate " + std::to_string(pred) + " is not a floating CmpInst code (0..15)");
}
}  // namespace emu

inline unsigned long __builtin_amdgcn_uicmp(unsigned a, unsigned b, int pred, ::emu::Loc s = ::emu::Loc::current()) {
  return __builtin_amdgcn_ballot_w64(::emu::int_predicate(a, b, pred), s);
}
inline unsigned long __builtin_amdgcn_sicmp(int a, int b, int pred, ::emu::Loc s = ::emu::Loc::current()) {
  return __builtin_amdgcn_ballot_w64(::emu::int_predicate(a, b, pred), s);
}
inline unsigned long __builtin_amdgcn_uicmpl(unsigned long a, unsigned long b, int pred,
                                             ::emu::Loc s = ::emu::Loc::current()) {
  return __builtin_amdgcn_ballot_w64(::emu::int_predicate(a, b, pred), s);
}
inline unsigned long __builtin_amdgcn_sicmpl(long a, long b, int pred, ::emu::Loc s = ::emu::Loc::current()) {
  return __builtin_amdgcn_ballot_w64(::emu::int_predicate(a, b, pred), s);
}
inline unsigned long __builtin_amdgcn_fcmpf(float a, float b, int pred, ::emu::Loc s = ::emu::Loc::current()) {
  return __builtin_amdgcn_ballot_w64(::emu::float_predicate(a, b, pred), s);
}
inline unsigned long __builtin_amdgcn_fcmp(double a, double b, int pred, ::emu::Loc s = ::emu::Loc::current()) {
  return __builtin_amdgcn_ballot_w64(::emu::float_predicate(a, b, pred), s);
}

// ---- byte permute, funnel shifts, misc ALU (§3.5) -------------------------------------------
inline unsigned __builtin_amdgcn_perm(unsigned s0, unsigned s1, unsigned sel) {
  uint64_t bytes = (uint64_t(s0) << 32) | s1;
  unsigned result = 0;
  for (int i = 0; i < 4; ++i) {
    unsigned s = (sel >> (8 * i)) & 0xFF, b;
    if (s < 8) b = unsigned(bytes >> (8 * s)) & 0xFF;
    else if (s < 12) b = ((bytes >> (16 * (s - 8) + 15)) & 1) ? 0xFF : 0x00;  // sign of byte 1,3,5,7
    else if (s == 12) b = 0x00;
    else b = 0xFF;
    result |= b << (8 * i);
  }
  return result;
}
inline unsigned __builtin_amdgcn_alignbyte(unsigned s0, unsigned s1, unsigned s2) {
  return unsigned(((uint64_t(s0) << 32) | s1) >> (8 * (s2 & 3)));
}
inline unsigned __builtin_amdgcn_alignbit(unsigned s0, unsigned s1, unsigned s2) {
  return unsigned(((uint64_t(s0) << 32) | s1) >> (s2 & 31));
}
inline float __builtin_amdgcn_fmed3f(float a, float b, float c) {
  return std::fmax(std::fmin(a, b), std::fmin(std::fmax(a, b), c));
}
inline float __builtin_amdgcn_rcpf(float x) { return 1.0f / x; }
inline float __builtin_amdgcn_rsqf(float x) { return 1.0f / std::sqrt(x); }
inline float __builtin_amdgcn_sqrtf(float x) { return std::sqrt(x); }
inline float __builtin_amdgcn_exp2f(float x) { return std::exp2(x); }
inline float __builtin_amdgcn_logf(float x) { return std::log2(x); }
inline float __builtin_amdgcn_ldexpf(float x, int e) { return std::ldexp(x, e); }
inline float __builtin_amdgcn_fractf(float x) { return x - std::floor(x); }
inline unsigned __builtin_amdgcn_ubfe(unsigned v, unsigned off, unsigned w) {
  off &= 31;
  w &= 31;
  return w == 0 ? 0 : (v >> off) & ((1u << w) - 1);
}

// ---- fp8 conversions (§2.2-2.5) -------------------------------------------------------------
namespace emu {
// NOTE: MODE.FP16_OVFL is 0 for clang-built kernels: overflow converts to NaN (0x80).
inline int cvt_pk_f8(const Fp8Format& f, float a, float b, int old, bool word_sel) {
  unsigned pair = unsigned(f32_to_fp8_hw(f, a, false)) | (unsigned(f32_to_fp8_hw(f, b, false)) << 8);
  unsigned o = unsigned(old);
  return int(word_sel ? ((o & 0x0000FFFFu) | (pair << 16)) : ((o & 0xFFFF0000u) | pair));
}
inline int cvt_sr_f8(const Fp8Format& f, float x, int rng, int old, int byte_sel) {
  unsigned char code;
  if (std::isnan(x) || std::isinf(x)) {
    code = f32_to_fp8_hw(f, x, false);
  } else {
    int dropped = 23 - f.mantissa_bits;  // f32 mantissa bits below the fp8 mantissa
    uint32_t u = bit_cast<uint32_t>(x);
    uint32_t noisy = ((u & 0x7FFFFFFFu) + (uint32_t(rng) >> (32 - dropped))) & ~((1u << dropped) - 1);
    float truncated = bit_cast<float>(noisy | (u & 0x80000000u));
    code = f32_to_fp8_hw(f, truncated, false);
  }
  unsigned shift = 8 * unsigned(byte_sel & 3);
  return int((unsigned(old) & ~(0xFFu << shift)) | (unsigned(code) << shift));
}
}  // namespace emu
inline int __builtin_amdgcn_cvt_pk_fp8_f32(float a, float b, int old, bool word_sel) {
  return ::emu::cvt_pk_f8(::emu::kFp8, a, b, old, word_sel);
}
inline int __builtin_amdgcn_cvt_pk_bf8_f32(float a, float b, int old, bool word_sel) {
  return ::emu::cvt_pk_f8(::emu::kBf8, a, b, old, word_sel);
}
inline int __builtin_amdgcn_cvt_sr_fp8_f32(float x, int rng, int old, int byte_sel) {
  return ::emu::cvt_sr_f8(::emu::kFp8, x, rng, old, byte_sel);
}
inline int __builtin_amdgcn_cvt_sr_bf8_f32(float x, int rng, int old, int byte_sel) {
  return ::emu::cvt_sr_f8(::emu::kBf8, x, rng, old, byte_sel);
}
inline float __builtin_amdgcn_cvt_f32_fp8(int src, int byte_sel) {
  return ::emu::fp8_to_f32(uint8_t(unsigned(src) >> (8 * (byte_sel & 3))));
}
inline float __builtin_amdgcn_cvt_f32_bf8(int src, int byte_sel) {
  return ::emu::bf8_to_f32(uint8_t(unsigned(src) >> (8 * (byte_sel & 3))));
}
inline emu_f32x2 __builtin_amdgcn_cvt_pk_f32_fp8(int src, bool word_sel) {
  unsigned w = unsigned(src) >> (word_sel ? 16 : 0);
  return emu_f32x2{::emu::fp8_to_f32(uint8_t(w)), ::emu::fp8_to_f32(uint8_t(w >> 8))};
}
inline emu_f32x2 __builtin_amdgcn_cvt_pk_f32_bf8(int src, bool word_sel) {
  unsigned w = unsigned(src) >> (word_sel ? 16 : 0);
  return emu_f32x2{::emu::bf8_to_f32(uint8_t(w)), ::emu::bf8_to_f32(uint8_t(w >> 8))};
}

// ---- MFMA (§1) ------------------------------------------------------------------------------
#define EMU_MFMA_F8(M, KK, NA, NB, TA, TB, ACC)                                                          \
  inline ACC __builtin_amdgcn_mfma_f32_##M##x##M##x##KK##_##NA##_##NB(                                  \
      long a, long b, ACC c, int cbsz, int abid, int blgp, ::emu::Loc site = ::emu::Loc::current()) {     \
    return ::emu::MfmaOp<M, ::emu::MfmaInput::TA, ::emu::MfmaInput::TB>::run(uint64_t(a), uint64_t(b), c, \
                                                                             cbsz, abid, blgp, site);     \
  }
EMU_MFMA_F8(16, 32, fp8, fp8, Fp8, Fp8, emu_f32x4)
EMU_MFMA_F8(16, 32, fp8, bf8, Fp8, Bf8, emu_f32x4)
EMU_MFMA_F8(16, 32, bf8, fp8, Bf8, Fp8, emu_f32x4)
EMU_MFMA_F8(16, 32, bf8, bf8, Bf8, Bf8, emu_f32x4)
EMU_MFMA_F8(32, 16, fp8, fp8, Fp8, Fp8, emu_f32x16)
EMU_MFMA_F8(32, 16, fp8, bf8, Fp8, Bf8, emu_f32x16)
EMU_MFMA_F8(32, 16, bf8, fp8, Bf8, Fp8, emu_f32x16)
EMU_MFMA_F8(32, 16, bf8, bf8, Bf8, Bf8, emu_f32x16)
#undef EMU_MFMA_F8

#define EMU_MFMA_16BIT(NAME, M, T, VEC, ACC)                                                                 \
  inline ACC __builtin_amdgcn_##NAME(VEC a, VEC b, ACC c, int cbsz, int abid, int blgp,                      \
                                     ::emu::Loc site = ::emu::Loc::current()) {                              \
    return ::emu::MfmaOp<M, ::emu::MfmaInput::T, ::emu::MfmaInput::T>::run(                                   \
        ::emu::bit_cast<uint64_t>(a), ::emu::bit_cast<uint64_t>(b), c, cbsz, abid, blgp, site);               \
  }
EMU_MFMA_16BIT(mfma_f32_16x16x16bf16_1k, 16, Bf16, emu_i16x4, emu_f32x4)
EMU_MFMA_16BIT(mfma_f32_32x32x8bf16_1k, 32, Bf16, emu_i16x4, emu_f32x16)
EMU_MFMA_16BIT(mfma_f32_16x16x16f16, 16, F16, emu_fp16x4, emu_f32x4)
EMU_MFMA_16BIT(mfma_f32_32x32x8f16, 32, F16, emu_fp16x4, emu_f32x16)
EMU_MFMA_16BIT(mfma_f32_16x16x16f16, 16, F16, emu_float16x4, emu_f32x4)
EMU_MFMA_16BIT(mfma_f32_32x32x8f16, 32, F16, emu_float16x4, emu_f32x16)
#undef EMU_MFMA_16BIT
// Single-block f32 MFMAs (same layout rule: lane l holds A[l % M][l / M] and B[l / M][l % M]).
inline emu_f32x4 __builtin_amdgcn_mfma_f32_16x16x4f32(float a, float b, emu_f32x4 c, int cbsz, int abid, int blgp,
                                                      ::emu::Loc site = ::emu::Loc::current()) {
  return ::emu::MfmaOp<16, ::emu::MfmaInput::F32, ::emu::MfmaInput::F32>::run(
      ::emu::bit_cast<uint32_t>(a), ::emu::bit_cast<uint32_t>(b), c, cbsz, abid, blgp, site);
}
inline emu_f32x16 __builtin_amdgcn_mfma_f32_32x32x2f32(float a, float b, emu_f32x16 c, int cbsz, int abid, int blgp,
                                                       ::emu::Loc site = ::emu::Loc::current()) {
  return ::emu::MfmaOp<32, ::emu::MfmaInput::F32, ::emu::MfmaInput::F32>::run(
      ::emu::bit_cast<uint32_t>(a), ::emu::bit_cast<uint32_t>(b), c, cbsz, abid, blgp, site);
}

// A __builtin_amdgcn_* the emulator does not implement: engines/source/preprocess.py rewrites its name to
// ::emu::NotEmulated{name, file, line}, so the source builds and the call fails when it runs.
namespace emu {
struct NotEmulatedResult {
  template <class T>
  operator T() const { __builtin_trap(); }
};
struct NotEmulated {
  const char* name;
  const char* file;
  int line;
  template <class... Args>
  NotEmulatedResult operator()(Args&&...) const {
    lane_fail(std::string(name) + " (" + file + ":" + std::to_string(line) +
              ") was called, but the emulator does not implement this builtin (see engines/source/README.md)");
  }
};
}  // namespace emu

// ---- buffer resources and raw buffer access (§4.1, §4.2) ------------------------------------
struct __amdgpu_buffer_rsrc_t {
  uint32_t dword[4];
};
inline __amdgpu_buffer_rsrc_t __builtin_amdgcn_make_buffer_rsrc(void* base, short stride, int num_records,
                                                                 int flags) {
  auto addr = reinterpret_cast<uintptr_t>(base);
  if (addr >> 48) ::emu::lane_fail("make_buffer_rsrc: base address does not fit in 48 bits");
  return {{uint32_t(addr), uint32_t((addr >> 32) & 0xFFFF) | (uint32_t(uint16_t(stride) & 0x3FFF) << 16),
           uint32_t(num_records), uint32_t(flags)}};
}

namespace emu {
inline unsigned char* buffer_base(const __amdgpu_buffer_rsrc_t& r) {
  return reinterpret_cast<unsigned char*>(uintptr_t(r.dword[0]) | (uintptr_t(r.dword[1] & 0xFFFF) << 32));
}
// NOTE: raw access range rule: element e (a dword of a multi-dword access, else the whole
// access) is in range iff offset + soffset + (e+1)*size <= num_records; out-of-range loads
// read 0, out-of-range stores are dropped.
template <class T, unsigned kBytes>
T buffer_load(const __amdgpu_buffer_rsrc_t& r, int voffset, int soffset) {
  uint64_t byte_offset = uint64_t(uint32_t(voffset)) + uint64_t(uint32_t(soffset));
  unsigned elem = kBytes > 4 ? 4 : kBytes;
  unsigned char bytes[16] = {};
  for (unsigned e = 0; e < kBytes / elem; ++e)
    if (byte_offset + (e + 1) * elem <= r.dword[2])
      std::memcpy(bytes + e * elem, buffer_base(r) + byte_offset + e * elem, elem);
  T out;
  std::memcpy(&out, bytes, sizeof(T));
  return out;
}
template <class T, unsigned kBytes>
void buffer_store(const T& data, const __amdgpu_buffer_rsrc_t& r, int voffset, int soffset) {
  uint64_t byte_offset = uint64_t(uint32_t(voffset)) + uint64_t(uint32_t(soffset));
  unsigned elem = kBytes > 4 ? 4 : kBytes;
  unsigned char bytes[16];
  std::memcpy(bytes, &data, kBytes);
  for (unsigned e = 0; e < kBytes / elem; ++e)
    if (byte_offset + (e + 1) * elem <= r.dword[2])
      std::memcpy(buffer_base(r) + byte_offset + e * elem, bytes + e * elem, elem);
}
}  // namespace emu

#define EMU_BUFFER_OPS(BITS, T)                                                                     \
  inline T __builtin_amdgcn_raw_buffer_load_b##BITS(__amdgpu_buffer_rsrc_t r, int voffset, int soffset, \
                                                    int) {                                          \
    return ::emu::buffer_load<T, BITS / 8>(r, voffset, soffset);                                    \
  }                                                                                                 \
  inline void __builtin_amdgcn_raw_buffer_store_b##BITS(T data, __amdgpu_buffer_rsrc_t r, int voffset, \
                                                        int soffset, int) {                         \
    ::emu::buffer_store<T, BITS / 8>(data, r, voffset, soffset);                                    \
  }
EMU_BUFFER_OPS(8, unsigned char)
EMU_BUFFER_OPS(16, unsigned short)
EMU_BUFFER_OPS(32, unsigned int)
EMU_BUFFER_OPS(64, emu_u32x2)
EMU_BUFFER_OPS(96, emu_u32x3)
EMU_BUFFER_OPS(128, emu_u32x4)
#undef EMU_BUFFER_OPS

// ---- global -> LDS (§4.3) -------------------------------------------------------------------
inline void __builtin_amdgcn_global_load_lds(const void* src, void* lds_base, unsigned size, int offset, unsigned,
                                             ::emu::Loc site = ::emu::Loc::current()) {
  ::emu::cross_lane<::emu::GlobalLoadLdsOp>(
      {static_cast<const unsigned char*>(src), static_cast<unsigned char*>(lds_base), size, offset}, site);
}
