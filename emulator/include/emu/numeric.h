// Number formats of gfx942: fp8 e4m3fnuz / bf8 e5m2fnuz (decode tables and the hardware's
// f32 -> fp8 conversion), bf16 and f16 bit conversions.
#pragma once
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>

namespace emu {

template <class To, class From>
inline To bit_cast(const From& from) {
  static_assert(sizeof(To) == sizeof(From));
  To to;
  std::memcpy(&to, &from, sizeof(To));
  return to;
}

// NOTE: gfx942 uses the FNUZ fp8 formats: fp8 = e4m3 bias 8 (max 240), bf8 = e5m2 bias 16
// (max 57344); 0x80 is the only NaN, there is no infinity and no negative zero.
struct Fp8Format {
  int mantissa_bits;
  int bias;
  unsigned char max_code;  // 0x7F in both
};
constexpr Fp8Format kFp8{3, 8, 0x7F};
constexpr Fp8Format kBf8{2, 16, 0x7F};

inline float fp8_decode_formula(const Fp8Format& f, unsigned code) {
  if (code == 0x80) return std::numeric_limits<float>::quiet_NaN();
  int sign = code >> 7, exp_field = (code & 0x7F) >> f.mantissa_bits;
  int mant = code & ((1 << f.mantissa_bits) - 1);
  float mag = exp_field == 0 ? std::ldexp(float(mant), 1 - f.bias - f.mantissa_bits)
                             : std::ldexp(float(mant + (1 << f.mantissa_bits)), exp_field - f.bias - f.mantissa_bits);
  return sign ? -mag : mag;
}

struct Fp8Table {
  float value[256];
  explicit Fp8Table(const Fp8Format& f) {
    for (unsigned c = 0; c < 256; ++c) value[c] = fp8_decode_formula(f, c);
  }
};
inline const Fp8Table g_fp8_table{kFp8};
inline const Fp8Table g_bf8_table{kBf8};

inline float fp8_to_f32(unsigned char code) { return g_fp8_table.value[code]; }
inline float bf8_to_f32(unsigned char code) { return g_bf8_table.value[code]; }

// v_cvt_pk_{fp8,bf8}_f32 on one value: round to nearest even at the target precision
// (subnormals kept), overflow judged after rounding. NOTE: with MODE.FP16_OVFL = 0 (clang's
// default) overflow and ±inf give 0x80 (NaN); with FP16_OVFL = 1 they saturate to ±max.
inline unsigned char f32_to_fp8_hw(const Fp8Format& f, float x, bool saturate_overflow) {
  if (std::isnan(x)) return 0x80;
  unsigned char sign = std::signbit(x) ? 0x80 : 0x00;
  if (std::isinf(x)) return saturate_overflow ? (sign | f.max_code) : 0x80;
  double a = std::fabs(double(x));
  if (a == 0) return 0x00;
  int min_normal_exp = 1 - f.bias;
  int e;
  std::frexp(a, &e);
  --e;  // a = 1.m * 2^e
  int quantum_exp = (e < min_normal_exp ? min_normal_exp : e) - f.mantissa_bits;
  double r = std::nearbyint(std::ldexp(a, -quantum_exp));  // default FP env rounds to even
  if (r == 0) return 0x00;
  double v = std::ldexp(r, quantum_exp);
  double max_value = fp8_decode_formula(f, f.max_code);
  if (v > max_value) return saturate_overflow ? (sign | f.max_code) : 0x80;
  if (v < std::ldexp(1.0, min_normal_exp)) return sign | (unsigned char)r;  // subnormal: mantissa = r
  std::frexp(v, &e);
  --e;
  unsigned mant = unsigned(std::ldexp(v, f.mantissa_bits - e)) - (1u << f.mantissa_bits);
  return sign | (unsigned char)(((e + f.bias) << f.mantissa_bits) | mant);
}

// HIP's __hip_fp8_e4m3_fnuz(float) conversion: clamp to ±max first (__HIP_SATFINITE).
inline unsigned char f32_to_fp8_satfinite(const Fp8Format& f, float x) {
  if (std::isnan(x)) return 0x80;
  float max_value = fp8_decode_formula(f, f.max_code);
  x = std::fmin(std::fmax(x, -max_value), max_value);
  return f32_to_fp8_hw(f, x, true);
}

inline float bf16_bits_to_f32(uint16_t b) { return bit_cast<float>(uint32_t(b) << 16); }
inline uint16_t f32_to_bf16_bits(float f) {
  uint32_t u = bit_cast<uint32_t>(f);
  if (std::isnan(f)) return uint16_t((u >> 16) | 0x40);
  return uint16_t((u + 0x7FFF + ((u >> 16) & 1)) >> 16);
}

}  // namespace emu
