// VOP1 / VOP2 / VOP3: the vector ALU, one Op at a time over all 64 lanes (the encoding-specific
// forms _e32 / _e64 / _sdwa / _dpp share one Op; src() and wv() apply their modifiers).
#include <algorithm>
#include <cmath>
#include <cstdint>

#include "exec.h"

namespace isa::detail {
namespace {

inline float fmin_hw(float a, float b) {  // IEEE mode: NaN operands lose to numbers
  if (std::isnan(a)) return b;
  if (std::isnan(b)) return a;
  return a < b || (a == b && std::signbit(a)) ? a : b;
}
inline float fmax_hw(float a, float b) {
  if (std::isnan(a)) return b;
  if (std::isnan(b)) return a;
  return a > b || (a == b && !std::signbit(a)) ? a : b;
}
inline uint32_t cvt_u32(float f) {
  if (std::isnan(f) || f <= 0) return 0;
  if (f >= 4294967296.0f) return 0xffffffffu;
  return uint32_t(f);
}
inline int32_t cvt_i32(double f) {
  if (std::isnan(f)) return 0;
  if (f <= -2147483648.0) return INT32_MIN;
  if (f >= 2147483647.0) return INT32_MAX;
  return int32_t(f);
}
inline uint32_t bfe(uint32_t x, uint32_t off, uint32_t width, bool sign) {
  off &= 31;
  width &= 31;
  if (width == 0) return 0;
  uint32_t r = (x >> off) & ((1u << width) - 1);
  if (off + width > 32) r = x >> off;
  if (sign) r = uint32_t(int32_t(r << (32 - width)) >> (32 - width));
  return r;
}
inline uint32_t perm_byte(uint64_t v, uint32_t sel) {
  if (sel <= 7) return (v >> (8 * sel)) & 0xff;
  if (sel == 8) return ((v >> 15) & 1) ? 0xff : 0;
  if (sel == 9) return ((v >> 31) & 1) ? 0xff : 0;
  if (sel == 10) return ((v >> 47) & 1) ? 0xff : 0;
  if (sel == 11) return ((v >> 63) & 1) ? 0xff : 0;
  if (sel == 12) return 0;
  return 0xff;
}

}  // namespace

// The VALU's lane-map shorthand, used by the valu_* families below (each holds `const Inst& i`
// and a result array `r`): A32 / AB32 / ABC32 read sources 0, 0-1, 0-2 as `a`, `b`, `c`;
// MAPn(EXPR) computes EXPR on every lane from x = a[l] (y = b[l], z = c[l]), writes it to the
// destination and ends the case; FMAPn stores an f32 EXPR's bits; F(x) reads a dword as f32.
#define A32 Src a = src(0);
#define AB32 Src a = src(0), b = src(1);
#define ABC32 Src a = src(0), b = src(1), c = src(2);
#define F(x) as_f(x)
#define MAP1(EXPR) { A32 LANES { uint32_t x = a[l]; r[l] = (EXPR); } wv(r); break; }
#define MAP2(EXPR) { AB32 LANES { uint32_t x = a[l], y = b[l]; r[l] = (EXPR); } wv(r); break; }
#define MAP3(EXPR) { ABC32 LANES { uint32_t x = a[l], y = b[l], z = c[l]; r[l] = (EXPR); } wv(r); break; }
#define FMAP1(EXPR) MAP1(as_u(EXPR))
#define FMAP2(EXPR) MAP2(as_u(EXPR))
#define FMAP3(EXPR) MAP3(as_u(EXPR))

// Moves, lane reads and writes, v_cndmask, v_swap.
bool Exec::valu_move() {
  const Inst& i = *in;
  uint32_t r[64];
  uint64_t r64[64];
  switch (i.op) {
    case OP_v_nop: break;
    case OP_v_mov_b32: case OP_v_accvgpr_mov_b32: case OP_v_accvgpr_read: case OP_v_accvgpr_write: MAP1(x)
    case OP_v_mov_b64: {
      Src64 a = src64(0);
      LANES r64[l] = a[l];
      wv64(r64);
      break;
    }
    case OP_v_readfirstlane_b32: {
      check_v(i.src[0], 1);
      const uint64_t e = w.exec();
      const int lane = e ? __builtin_ctzll(e) : 0;
      swrite(i.dst, i.src[0] >= 256 ? w.v[i.src[0] - 256][lane] : sread(i.src[0]));
      break;
    }
    case OP_v_readlane_b32: {
      check_v(i.src[0], 1);
      const int lane = sread(i.src[1]) & 63;
      swrite(i.dst, i.src[0] >= 256 ? w.v[i.src[0] - 256][lane] : sread(i.src[0]));
      break;
    }
    case OP_v_writelane_b32: {
      const uint32_t v = sread(i.src[0]);
      const int lane = sread(i.src[1]) & 63;
      w.v[i.dst - 256][lane] = v;
      break;
    }
    case OP_v_cndmask_b32: {
      AB32;
      const uint64_t m = sread64(i.src[2]);
      LANES r[l] = ((m >> l) & 1) ? b[l] : a[l];
      wv(r);
      break;
    }
    case OP_v_swap_b32: {
      check_v(i.src[0], 1);
      const uint64_t m = w.exec();
      uint32_t* x = w.v[i.dst - 256];
      uint32_t* y = w.v[i.src[0] - 256];
      LANES if ((m >> l) & 1) std::swap(x[l], y[l]);
      break;
    }
    default: return false;
  }
  return true;
}

// f32 arithmetic (v_dot2c_f32_bf16: bf16 products into an f32 sum).
bool Exec::valu_f32() {
  const Inst& i = *in;
  uint32_t r[64];
  switch (i.op) {
    case OP_v_add_f32: FMAP2(F(x) + F(y))
    case OP_v_sub_f32: FMAP2(F(x) - F(y))
    case OP_v_subrev_f32: FMAP2(F(y) - F(x))
    case OP_v_mul_f32: FMAP2(F(x) * F(y))
    case OP_v_min_f32: FMAP2(fmin_hw(F(x), F(y)))
    case OP_v_max_f32: FMAP2(fmax_hw(F(x), F(y)))
    case OP_v_fma_f32: case OP_v_fmac_f32: FMAP3(std::fma(F(x), F(y), F(z)))
    case OP_v_mac_f32: case OP_v_mad_f32: FMAP3(F(x) * F(y) + F(z))
    case OP_v_min3_f32: FMAP3(fmin_hw(fmin_hw(F(x), F(y)), F(z)))
    case OP_v_max3_f32: FMAP3(fmax_hw(fmax_hw(F(x), F(y)), F(z)))
    case OP_v_med3_f32: FMAP3(fmax_hw(fmin_hw(F(x), F(y)), fmin_hw(fmax_hw(F(x), F(y)), F(z))))
    case OP_v_ldexp_f32: FMAP2(std::ldexp(F(x), int32_t(y)))
    case OP_v_trunc_f32: FMAP1(std::trunc(F(x)))
    case OP_v_ceil_f32: FMAP1(std::ceil(F(x)))
    case OP_v_rndne_f32: FMAP1(std::nearbyint(F(x)))
    case OP_v_floor_f32: FMAP1(std::floor(F(x)))
    case OP_v_fract_f32: FMAP1(std::isinf(F(x)) ? std::nanf("") : std::fmin(F(x) - std::floor(F(x)), 0x1.fffffep-1f))
    case OP_v_exp_f32: FMAP1(std::exp2(F(x)))
    case OP_v_log_f32: FMAP1(std::log2(F(x)))
    case OP_v_rcp_f32: case OP_v_rcp_iflag_f32: FMAP1(1.0f / F(x))
    case OP_v_rsq_f32: FMAP1(1.0f / std::sqrt(F(x)))
    case OP_v_sqrt_f32: FMAP1(std::sqrt(F(x)))
    case OP_v_frexp_exp_i32_f32: MAP1(std::isfinite(F(x)) && F(x) != 0 ? uint32_t(std::ilogb(F(x)) + 1) : 0u)
    case OP_v_frexp_mant_f32: FMAP1(std::isfinite(F(x)) ? [](float f) { int e; return std::frexp(f, &e); }(F(x)) : F(x))
    case OP_v_div_scale_f32: {
      // Scales nothing (S0 is returned as is, VCC says "no scaling"): v_div_fixup then
      // returns the correctly rounded quotient of its unscaled operands, which is what the
      // whole scale/fmas/fixup sequence computes.
      A32;
      LANES r[l] = a[l];
      wv(r);
      wmask(i.sdst, 0);
      break;
    }
    case OP_v_div_fmas_f32: FMAP3(std::fma(F(x), F(y), F(z)))
    case OP_v_div_fixup_f32: FMAP3(F(z) / F(y))
    case OP_v_dot2c_f32_bf16: FMAP3(std::fma(bf16_to_f32(uint16_t(x >> 16)), bf16_to_f32(uint16_t(y >> 16)),
                                             std::fma(bf16_to_f32(uint16_t(x)), bf16_to_f32(uint16_t(y)), F(z))))
    default: return false;
  }
  return true;
}

// 32- and 16-bit integer and bit operations.
bool Exec::valu_int() {
  const Inst& i = *in;
  uint32_t r[64];
  uint64_t r64[64];
  switch (i.op) {
    case OP_v_mul_i32_i24: MAP2(uint32_t(int32_t(x << 8) >> 8) * uint32_t(int32_t(y << 8) >> 8))
    case OP_v_mul_hi_i32_i24: MAP2(uint32_t((int64_t(int32_t(x << 8) >> 8) * int64_t(int32_t(y << 8) >> 8)) >> 32))
    case OP_v_mul_u32_u24: MAP2((x & 0xffffff) * (y & 0xffffff))
    case OP_v_mul_hi_u32_u24: MAP2(uint32_t((uint64_t(x & 0xffffff) * (y & 0xffffff)) >> 32))
    case OP_v_mad_i32_i24: MAP3(uint32_t(int32_t(x << 8) >> 8) * uint32_t(int32_t(y << 8) >> 8) + z)
    case OP_v_mad_u32_u24: MAP3((x & 0xffffff) * (y & 0xffffff) + z)
    case OP_v_min_i32: MAP2(uint32_t(std::min(int32_t(x), int32_t(y))))
    case OP_v_max_i32: MAP2(uint32_t(std::max(int32_t(x), int32_t(y))))
    case OP_v_min_u32: MAP2(std::min(x, y))
    case OP_v_max_u32: MAP2(std::max(x, y))
    case OP_v_min3_i32: MAP3(uint32_t(std::min({int32_t(x), int32_t(y), int32_t(z)})))
    case OP_v_max3_i32: MAP3(uint32_t(std::max({int32_t(x), int32_t(y), int32_t(z)})))
    case OP_v_med3_i32: MAP3(uint32_t(std::max(std::min(int32_t(x), int32_t(y)), std::min(std::max(int32_t(x), int32_t(y)), int32_t(z)))))
    case OP_v_min3_u32: MAP3(std::min({x, y, z}))
    case OP_v_max3_u32: MAP3(std::max({x, y, z}))
    case OP_v_med3_u32: MAP3(std::max(std::min(x, y), std::min(std::max(x, y), z)))
    case OP_v_lshrrev_b32: MAP2(y >> (x & 31))
    case OP_v_ashrrev_i32: MAP2(uint32_t(int32_t(y) >> (x & 31)))
    case OP_v_lshlrev_b32: MAP2(y << (x & 31))
    case OP_v_and_b32: MAP2(x & y)
    case OP_v_or_b32: MAP2(x | y)
    case OP_v_xor_b32: MAP2(x ^ y)
    case OP_v_xnor_b32: MAP2(~(x ^ y))
    case OP_v_not_b32: MAP1(~x)
    case OP_v_bfrev_b32: MAP1([](uint32_t v) { uint32_t o = 0; for (int b = 0; b < 32; ++b) o |= ((v >> b) & 1) << (31 - b); return o; }(x))
    case OP_v_ffbh_u32: MAP1(x ? uint32_t(__builtin_clz(x)) : 0xffffffffu)
    case OP_v_ffbl_b32: MAP1(x ? uint32_t(__builtin_ctz(x)) : 0xffffffffu)
    case OP_v_ffbh_i32: MAP1((x == 0 || x == 0xffffffffu) ? 0xffffffffu : uint32_t(__builtin_clz(int32_t(x) < 0 ? ~x : x) - 1))
    case OP_v_add_u32: case OP_v_add_i32: {
      if (i.clamp) MAP2(uint64_t(x) + y > 0xffffffffu ? 0xffffffffu : x + y)
      MAP2(x + y)
    }
    case OP_v_sub_u32: case OP_v_sub_i32: MAP2(x - y)
    case OP_v_subrev_u32: MAP2(y - x)
    case OP_v_add_co_u32: case OP_v_sub_co_u32: case OP_v_subrev_co_u32:
    case OP_v_addc_co_u32: case OP_v_subb_co_u32: case OP_v_subbrev_co_u32: {
      AB32;
      const uint64_t cin = (i.op == OP_v_addc_co_u32 || i.op == OP_v_subb_co_u32 || i.op == OP_v_subbrev_co_u32)
                               ? sread64(i.src[2]) : 0;
      uint64_t carry = 0;
      const uint64_t m = lanes_to_write();
      LANES {
        uint64_t x = a[l], y = b[l], ci = (cin >> l) & 1, res;
        bool co;
        switch (i.op) {
          case OP_v_add_co_u32: res = x + y; co = res >> 32; break;
          case OP_v_addc_co_u32: res = x + y + ci; co = res >> 32; break;
          case OP_v_sub_co_u32: res = x - y; co = y > x; break;
          case OP_v_subb_co_u32: res = x - y - ci; co = y + ci > x; break;
          case OP_v_subrev_co_u32: res = y - x; co = x > y; break;
          default: res = y - x - ci; co = x + ci > y; break;
        }
        r[l] = uint32_t(res);
        if (co && ((m >> l) & 1)) carry |= 1ull << l;
      }
      wv(r);
      wmask(i.sdst, carry);
      break;
    }
    case OP_v_mul_lo_u32: MAP2(x * y)
    case OP_v_mul_hi_u32: MAP2(uint32_t((uint64_t(x) * y) >> 32))
    case OP_v_mul_hi_i32: MAP2(uint32_t((int64_t(int32_t(x)) * int32_t(y)) >> 32))
    case OP_v_mad_u64_u32: case OP_v_mad_i64_i32: {
      AB32;
      Src64 c = src64(2);
      uint64_t carry = 0;
      const uint64_t m = lanes_to_write();
      LANES {
        if (i.op == OP_v_mad_u64_u32) {
          unsigned __int128 p = (unsigned __int128)(uint64_t(a[l]) * b[l]) + c[l];
          r64[l] = uint64_t(p);
          if ((p >> 64) && ((m >> l) & 1)) carry |= 1ull << l;
        } else {
          __int128 p = (__int128)(int64_t(int32_t(a[l])) * int64_t(int32_t(b[l]))) + (__int128)int64_t(c[l]);
          r64[l] = uint64_t(p);
          if ((p != (__int128)int64_t(r64[l])) && ((m >> l) & 1)) carry |= 1ull << l;
        }
      }
      wv64(r64);
      if (i.sdst != 0xffff && i.sdst < 128) wmask(i.sdst, carry);
      break;
    }
    case OP_v_bfe_u32: MAP3(bfe(x, y, z, false))
    case OP_v_bfe_i32: MAP3(bfe(x, y, z, true))
    case OP_v_bfi_b32: MAP3((x & y) | (~x & z))
    case OP_v_bfm_b32: MAP2(((1u << (x & 31)) - 1) << (y & 31))
    case OP_v_alignbit_b32: MAP3(uint32_t(((uint64_t(x) << 32) | y) >> (z & 31)))
    case OP_v_alignbyte_b32: MAP3(uint32_t(((uint64_t(x) << 32) | y) >> (8 * (z & 3))))
    case OP_v_perm_b32: MAP3(perm_byte((uint64_t(x) << 32) | y, z & 0xff) | (perm_byte((uint64_t(x) << 32) | y, (z >> 8) & 0xff) << 8) |
                             (perm_byte((uint64_t(x) << 32) | y, (z >> 16) & 0xff) << 16) | (perm_byte((uint64_t(x) << 32) | y, z >> 24) << 24))
    case OP_v_lshl_add_u32: MAP3((x << (y & 31)) + z)
    case OP_v_add_lshl_u32: MAP3((x + y) << (z & 31))
    case OP_v_add3_u32: MAP3(x + y + z)
    case OP_v_lshl_or_b32: MAP3((x << (y & 31)) | z)
    case OP_v_and_or_b32: MAP3((x & y) | z)
    case OP_v_or3_b32: MAP3(x | y | z)
    case OP_v_xad_u32: MAP3((x ^ y) + z)
    case OP_v_bcnt_u32_b32: MAP2(uint32_t(__builtin_popcount(x)) + y)
    case OP_v_mbcnt_lo_u32_b32: { AB32 LANES r[l] = uint32_t(__builtin_popcount(a[l] & uint32_t((1ull << std::min(l, 32)) - 1))) + b[l]; wv(r); break; }
    case OP_v_mbcnt_hi_u32_b32: { AB32 LANES r[l] = uint32_t(__builtin_popcount(a[l] & uint32_t(l <= 32 ? 0 : (1ull << (l - 32)) - 1))) + b[l]; wv(r); break; }
    case OP_v_add_u16: MAP2((x + y) & 0xffff)
    case OP_v_sub_u16: MAP2((x - y) & 0xffff)
    case OP_v_mul_lo_u16: MAP2((x * y) & 0xffff)
    case OP_v_lshlrev_b16: MAP2((y << (x & 15)) & 0xffff)
    case OP_v_lshrrev_b16: MAP2((y & 0xffff) >> (x & 15))
    case OP_v_ashrrev_i16: MAP2(uint32_t(int16_t(y) >> (x & 15)) & 0xffff)
    case OP_v_max_u16: MAP2(std::max(x & 0xffff, y & 0xffff))
    case OP_v_min_u16: MAP2(std::min(x & 0xffff, y & 0xffff))
    case OP_v_max_i16: MAP2(uint32_t(uint16_t(std::max(int16_t(x), int16_t(y)))))
    case OP_v_min_i16: MAP2(uint32_t(uint16_t(std::min(int16_t(x), int16_t(y)))))
    case OP_v_mad_u32_u16: MAP3((x & 0xffff) * (y & 0xffff) + z)
    case OP_v_mad_i32_i16: MAP3(uint32_t(int32_t(int16_t(x)) * int32_t(int16_t(y))) + z)
    case OP_v_sat_pk_u8_i16: MAP1(uint32_t(std::clamp(int32_t(int16_t(x)), 0, 255)) | (uint32_t(std::clamp(int32_t(int16_t(x >> 16)), 0, 255)) << 8))
    default: return false;
  }
  return true;
}

// f64 arithmetic and 64-bit shifts.
bool Exec::valu_64() {
  const Inst& i = *in;
  uint64_t r64[64];
  switch (i.op) {
    case OP_v_lshl_add_u64: {
      Src64 a = src64(0), c = src64(2);
      Src b = src(1);
      LANES r64[l] = (a[l] << (b[l] & 7)) + c[l];
      wv64(r64);
      break;
    }
    case OP_v_lshlrev_b64: case OP_v_lshrrev_b64: case OP_v_ashrrev_i64: {
      Src a = src(0);
      Src64 b = src64(1);
      LANES {
        const uint32_t sh = a[l] & 63;
        r64[l] = i.op == OP_v_lshlrev_b64 ? b[l] << sh : i.op == OP_v_lshrrev_b64 ? b[l] >> sh : uint64_t(int64_t(b[l]) >> sh);
      }
      wv64(r64);
      break;
    }
    case OP_v_add_f64: case OP_v_mul_f64: case OP_v_min_f64: case OP_v_max_f64: case OP_v_ldexp_f64: {
      Src64 a = src64(0);
      if (i.op == OP_v_ldexp_f64) {
        Src b = src(1);
        LANES r64[l] = as_u64(std::ldexp(as_d(a[l]), int32_t(b[l])));
      } else {
        Src64 b = src64(1);
        LANES {
          double x = as_d(a[l]), y = as_d(b[l]);
          double v = i.op == OP_v_add_f64 ? x + y : i.op == OP_v_mul_f64 ? x * y
                   : i.op == OP_v_min_f64 ? (std::isnan(x) ? y : std::isnan(y) ? x : std::fmin(x, y))
                                          : (std::isnan(x) ? y : std::isnan(y) ? x : std::fmax(x, y));
          r64[l] = as_u64(v);
        }
      }
      wv64(r64);
      break;
    }
    case OP_v_fma_f64: {
      Src64 a = src64(0), b = src64(1), c = src64(2);
      LANES r64[l] = as_u64(std::fma(as_d(a[l]), as_d(b[l]), as_d(c[l])));
      wv64(r64);
      break;
    }
    case OP_v_rcp_f64: case OP_v_sqrt_f64: case OP_v_rsq_f64: case OP_v_trunc_f64: case OP_v_floor_f64:
    case OP_v_ceil_f64: case OP_v_rndne_f64: case OP_v_fract_f64: {
      Src64 a = src64(0);
      LANES {
        double d = as_d(a[l]), v;
        switch (i.op) {
          case OP_v_rcp_f64: v = 1.0 / d; break;
          case OP_v_sqrt_f64: v = std::sqrt(d); break;
          case OP_v_rsq_f64: v = 1.0 / std::sqrt(d); break;
          case OP_v_trunc_f64: v = std::trunc(d); break;
          case OP_v_floor_f64: v = std::floor(d); break;
          case OP_v_ceil_f64: v = std::ceil(d); break;
          case OP_v_rndne_f64: v = std::nearbyint(d); break;
          default: v = std::fmin(d - std::floor(d), 0x1.fffffffffffffp-1); break;
        }
        r64[l] = as_u64(v);
      }
      wv64(r64);
      break;
    }
    default: return false;
  }
  return true;
}

// Conversions between number formats, and packing.
bool Exec::valu_convert() {
  const Inst& i = *in;
  uint32_t r[64];
  uint64_t r64[64];
  switch (i.op) {
    case OP_v_cvt_f32_i32: FMAP1(float(int32_t(x)))
    case OP_v_cvt_f32_u32: FMAP1(float(x))
    case OP_v_cvt_u32_f32: MAP1(cvt_u32(F(x)))
    case OP_v_cvt_i32_f32: MAP1(uint32_t(cvt_i32(F(x))))
    case OP_v_cvt_rpi_i32_f32: MAP1(uint32_t(cvt_i32(std::floor(double(F(x)) + 0.5))))
    case OP_v_cvt_flr_i32_f32: MAP1(uint32_t(cvt_i32(std::floor(F(x)))))
    case OP_v_cvt_f32_ubyte0: FMAP1(float(x & 0xff))
    case OP_v_cvt_f32_ubyte1: FMAP1(float((x >> 8) & 0xff))
    case OP_v_cvt_f32_ubyte2: FMAP1(float((x >> 16) & 0xff))
    case OP_v_cvt_f32_ubyte3: FMAP1(float(x >> 24))
    case OP_v_cvt_f32_bf16: FMAP1(bf16_to_f32(uint16_t(x)))
    case OP_v_cvt_f16_f32: { A32 const uint32_t* d = w.v[i.dst - 256];
      LANES r[l] = (i.opsel & 8) ? ((d[l] & 0xffff) | (uint32_t(f32_to_f16(F(a[l]))) << 16)) : ((d[l] & 0xffff0000u) | f32_to_f16(F(a[l])));
      wv(r); break; }
    case OP_v_cvt_f32_f16: FMAP1(f16_to_f32(uint16_t((i.opsel & 1) ? x >> 16 : x)))
    case OP_v_cvt_f32_f64: { Src64 a = src64(0); LANES r[l] = as_u(float(as_d(a[l]))); wv(r); break; }
    case OP_v_cvt_i32_f64: { Src64 a = src64(0); LANES r[l] = uint32_t(cvt_i32(as_d(a[l]))); wv(r); break; }
    case OP_v_cvt_u32_f64: { Src64 a = src64(0); LANES { double d = as_d(a[l]); r[l] = std::isnan(d) || d <= 0 ? 0 : d >= 4294967295.0 ? 0xffffffffu : uint32_t(d); } wv(r); break; }
    case OP_v_cvt_f64_f32: { A32 LANES r64[l] = as_u64(double(F(a[l]))); wv64(r64); break; }
    case OP_v_cvt_f64_i32: { A32 LANES r64[l] = as_u64(double(int32_t(a[l]))); wv64(r64); break; }
    case OP_v_cvt_f64_u32: { A32 LANES r64[l] = as_u64(double(a[l])); wv64(r64); break; }
    case OP_v_cvt_pkrtz_f16_f32: {
      AB32;
      LANES {
        // round toward zero: convert, then step back when the rounding went away from zero
        auto rtz = [](float f) {
          uint16_t h = f32_to_f16(f);
          float back = f16_to_f32(h);
          if (std::isfinite(f) && std::fabs(back) > std::fabs(f)) h = uint16_t(h - 1);
          return uint32_t(h);
        };
        r[l] = rtz(F(a[l])) | (rtz(F(b[l])) << 16);
      }
      wv(r);
      break;
    }
    case OP_v_cvt_pk_u16_u32: MAP2(std::min(x, 0xffffu) | (std::min(y, 0xffffu) << 16))
    case OP_v_cvt_pk_i16_i32: MAP2(uint32_t(uint16_t(std::clamp(int32_t(x), -32768, 32767))) | (uint32_t(uint16_t(std::clamp(int32_t(y), -32768, 32767))) << 16))
    case OP_v_pack_b32_f16: MAP2(((i.opsel & 1) ? x >> 16 : x & 0xffff) | (((i.opsel & 2) ? y >> 16 : y & 0xffff) << 16))
    case OP_v_cvt_pk_u8_f32: {
      ABC32;
      LANES {
        const uint32_t byte = b[l] & 3;
        float f = F(a[l]);
        uint32_t v = std::isnan(f) ? 0 : uint32_t(std::clamp(std::nearbyint(f), 0.0f, 255.0f));
        r[l] = (c[l] & ~(0xffu << (8 * byte))) | (v << (8 * byte));
      }
      wv(r);
      break;
    }
    case OP_v_cvt_f32_fp8: case OP_v_cvt_f32_bf8: {
      A32;
      const float* table = i.op == OP_v_cvt_f32_fp8 ? fp8_tables().fp8 : fp8_tables().bf8;
      const int byte = i.fmt == F_VOP3 ? (i.opsel & 3) : 0;
      LANES r[l] = as_u(table[(a[l] >> (8 * byte)) & 0xff]);
      wv(r);
      break;
    }
    case OP_v_cvt_pk_f32_fp8: case OP_v_cvt_pk_f32_bf8: {
      A32;
      const float* table = i.op == OP_v_cvt_pk_f32_fp8 ? fp8_tables().fp8 : fp8_tables().bf8;
      const int word = i.fmt == F_VOP3 ? (i.opsel & 1) : (in->ext == 2 && in->src_sel[0] == 5 ? 0 : 0);
      LANES {
        const uint32_t h = (a[l] >> (16 * word)) & 0xffff;
        r64[l] = as_u(table[h & 0xff]) | (uint64_t(as_u(table[h >> 8])) << 32);
      }
      wv64(r64);
      break;
    }
    case OP_v_cvt_pk_fp8_f32: case OP_v_cvt_pk_bf8_f32: {
      AB32;
      const Fp8Spec f = i.op == OP_v_cvt_pk_fp8_f32 ? kFp8 : kBf8;
      const uint32_t* d = w.v[i.dst - 256];
      const bool hi = (i.opsel >> 3) & 1;
      const bool saturate = (w.mode >> 23) & 1;  // MODE.FP16_OVFL
      LANES {
        const uint32_t pk = f32_to_fp8(f, F(a[l]), saturate) | (uint32_t(f32_to_fp8(f, F(b[l]), saturate)) << 8);
        r[l] = hi ? ((d[l] & 0xffff) | (pk << 16)) : ((d[l] & 0xffff0000u) | pk);
      }
      wv(r);
      break;
    }
    default: return false;
  }
  return true;
}

void Exec::valu() {
  if (valu_move() || valu_f32() || valu_int() || valu_64() || valu_convert()) return;
  die("instruction not implemented");
}

#undef A32
#undef AB32
#undef ABC32
#undef MAP1
#undef MAP2
#undef MAP3
#undef FMAP1
#undef FMAP2
#undef FMAP3
#undef F

}  // namespace isa::detail
