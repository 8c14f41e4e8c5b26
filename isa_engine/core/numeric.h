// Number formats of gfx942 the engine converts between: fp8 e4m3fnuz / bf8 e5m2fnuz, f16, bf16.
// NOTE: the FNUZ formats have one NaN (0x80), no infinity and no negative zero; fp8 has bias 8
// (max 240), bf8 bias 16 (max 57344).
#pragma once
#include <cmath>
#include <cstdint>
#include <cstring>

namespace isa::detail {

inline float as_f(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }
inline uint32_t as_u(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }
inline double as_d(uint64_t u) { double f; memcpy(&f, &u, 8); return f; }
inline uint64_t as_u64(double f) { uint64_t u; memcpy(&u, &f, 8); return u; }

struct Fp8Spec { int mant, bias; };
constexpr Fp8Spec kFp8{3, 8}, kBf8{2, 16};

inline float fp8_value(Fp8Spec f, unsigned code) {
  if (code == 0x80) return std::nanf("");
  int exp = (code & 0x7f) >> f.mant, mant = code & ((1 << f.mant) - 1);
  float mag = exp == 0 ? std::ldexp(float(mant), 1 - f.bias - f.mant)
                       : std::ldexp(float(mant | (1 << f.mant)), exp - f.bias - f.mant);
  return (code & 0x80) ? -mag : mag;
}

struct Fp8Tables {
  float fp8[256], bf8[256];
  double fp8d[256], bf8d[256];
  Fp8Tables() {
    for (unsigned c = 0; c < 256; ++c) {
      fp8[c] = fp8_value(kFp8, c);
      bf8[c] = fp8_value(kBf8, c);
      fp8d[c] = fp8[c];
      bf8d[c] = bf8[c];
    }
  }
};
inline const Fp8Tables& fp8_tables() {
  static const Fp8Tables t;
  return t;
}

// v_cvt_pk_{fp8,bf8}_f32 on one value: round to nearest even at the target precision (keeping
// subnormals), overflow judged after rounding: NaN code (0x80) unless `saturate` (MODE.FP16_OVFL).
inline uint8_t f32_to_fp8(Fp8Spec f, float x, bool saturate) {
  if (std::isnan(x)) return 0x80;
  const uint8_t sign = std::signbit(x) ? 0x80 : 0;
  const uint8_t max_code = 0x7f;
  const double max_value = fp8_value(f, max_code);
  if (std::isinf(x)) return saturate ? uint8_t(sign | max_code) : 0x80;
  double a = std::fabs(double(x));
  if (a == 0) return 0;
  int e = std::ilogb(a);
  const int emin = 1 - f.bias;
  const int q = (e < emin ? emin : e) - f.mant;     // exponent of one unit in the last place
  double units = std::nearbyint(std::ldexp(a, -q));  // RNE (default environment)
  if (units == 0) return 0;                          // rounds to zero: +0 (no -0 in FNUZ)
  double v = std::ldexp(units, q);
  if (v > max_value) return saturate ? uint8_t(sign | max_code) : 0x80;
  e = std::ilogb(v);
  if (e < emin) return uint8_t(sign | unsigned(units));  // subnormal: exponent field 0
  unsigned mant = unsigned(std::ldexp(v, f.mant - e)) - (1u << f.mant);
  return uint8_t(sign | ((e + f.bias) << f.mant) | mant);
}

inline float bf16_to_f32(uint16_t b) { return as_f(uint32_t(b) << 16); }

inline float f16_to_f32(uint16_t h) {
  _Float16 v;
  memcpy(&v, &h, 2);
  return float(v);
}
inline uint16_t f32_to_f16(float f) {
  _Float16 v = _Float16(f);
  uint16_t h;
  memcpy(&h, &v, 2);
  return h;
}

}  // namespace isa::detail
