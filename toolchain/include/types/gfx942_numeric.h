// gfx942's number formats, converted in one place for every build: the stand-in fp8 and bf16
// types (hip/amd_detail/amd_hip_fp8.h, amd_hip_bf16.h: the offline report, both engines), the
// emulator's builtins (engines/source/include/emu/numeric.h) and the ISA engine's instructions
// (engines/isa/core/numeric.h). Plain C++ with clang builtins, constexpr, no includes: it
// compiles as HIP device code, as host C++ and in the engines' own builds.
//
// NOTE: gfx942 uses the FNUZ fp8 formats: fp8 = e4m3 bias 8 (max 240), bf8 = e5m2 bias 16
// (max 57344); 0x80 is the only NaN, there is no infinity and no negative zero.
#pragma once

#if defined(__HIP__) || defined(__CUDA__)
#define GFX942_NUMERIC_HD __host__ __device__
#else
#define GFX942_NUMERIC_HD
#endif

namespace gfx942 {

struct Fp8Format {
  int mantissa_bits;
  int bias;
};
constexpr Fp8Format kFp8{3, 8};   // e4m3 FNUZ, torch.float8_e4m3fnuz
constexpr Fp8Format kBf8{2, 16};  // e5m2 FNUZ, torch.float8_e5m2fnuz
constexpr unsigned char kFp8Nan = 0x80;
constexpr unsigned char kFp8MaxCode = 0x7f;  // the largest finite magnitude, in both formats

// fp8 code -> float, exact: every fp8 value is a normal float or zero.
GFX942_NUMERIC_HD constexpr float fp8_to_float(Fp8Format f, unsigned char code) {
  if (code == kFp8Nan) return __builtin_nanf("");
  const unsigned sign = unsigned(code & 0x80) << 24;
  const unsigned field = (code & 0x7f) >> f.mantissa_bits;
  unsigned mantissa = code & ((1u << f.mantissa_bits) - 1);
  if (field == 0 && mantissa == 0) return 0.0f;
  int exponent = int(field) - f.bias;  // of the value 1.mantissa * 2^exponent
  if (field == 0) {                    // subnormal: mantissa * 2^(1 - bias - mantissa_bits), normalised
    exponent = 1 - f.bias;
    while (!(mantissa & (1u << f.mantissa_bits))) {
      mantissa <<= 1;
      --exponent;
    }
    mantissa &= (1u << f.mantissa_bits) - 1;
  }
  return __builtin_bit_cast(float, sign | (unsigned(exponent + 127) << 23) | (mantissa << (23 - f.mantissa_bits)));
}

// float -> fp8 code, as v_cvt_pk_{fp8,bf8}_f32 converts one value: round to nearest even at the
// target precision (subnormals kept), overflow judged after rounding. An overflow or an infinity
// gives NaN (0x80), or with `saturate` (MODE.FP16_OVFL = 1; HIP's __HIP_SATFINITE) the largest
// finite value of its sign. NaN gives NaN; a value that rounds to zero gives +0.
GFX942_NUMERIC_HD constexpr unsigned char float_to_fp8(Fp8Format f, float x, bool saturate) {
  const unsigned bits = __builtin_bit_cast(unsigned, x);
  const unsigned char sign = (bits >> 24) & 0x80;
  const unsigned magnitude = bits & 0x7fffffffu;
  const unsigned char overflow = saturate ? (unsigned char)(sign | kFp8MaxCode) : kFp8Nan;
  if (magnitude > 0x7f800000u) return kFp8Nan;
  if (magnitude == 0x7f800000u) return overflow;
  if (magnitude < 0x00800000u) return 0;  // zero or a float subnormal: rounds to +0
  const int exponent = int(magnitude >> 23) - 127;  // x = 1.m * 2^exponent
  const unsigned significand = (magnitude & 0x7fffffu) | 0x800000u;
  const int min_exponent = 1 - f.bias;  // of a normal fp8 value; below it the quantum stays fixed
  const int kept = exponent > min_exponent ? exponent : min_exponent;
  // Bits of the 24-bit significand below the fp8 value's last place.
  const int shift = 23 - f.mantissa_bits + (kept - exponent);
  if (shift > 24) return 0;  // under half the smallest subnormal
  unsigned units = significand >> shift;
  const unsigned rest = significand & ((1u << shift) - 1), half = 1u << (shift - 1);
  if (rest > half || (rest == half && (units & 1u))) ++units;
  if (units == 0) return 0;
  // units of 2^(kept - mantissa_bits): the code counts them from the binade of `kept` (a carry
  // out of the mantissa moves into the exponent field, as it should).
  const unsigned code = (unsigned(kept - min_exponent) << f.mantissa_bits) + units;
  return code > kFp8MaxCode ? overflow : (unsigned char)(sign | code);
}

// float -> bf16 bits, round to nearest even; a NaN stays a quiet NaN (torch's .to(bfloat16)).
// NOTE: gfx942 has no f32 -> bf16 convert instruction (gfx950 adds one); integer RNE is what
// compilers emit for it.
GFX942_NUMERIC_HD constexpr unsigned short float_to_bf16(float x) {
  const unsigned bits = __builtin_bit_cast(unsigned, x);
  if ((bits & 0x7fffffffu) > 0x7f800000u) return (unsigned short)((bits >> 16) | 0x40u);
  return (unsigned short)((bits + 0x7fffu + ((bits >> 16) & 1u)) >> 16);
}

GFX942_NUMERIC_HD constexpr float bf16_to_float(unsigned short bits) {
  return __builtin_bit_cast(float, unsigned(bits) << 16);
}

}  // namespace gfx942
