// __hip_bfloat16 for the emulator: 16-bit storage, float arithmetic, round-to-nearest-even
// conversion (as HIP's __float2bfloat16).
#pragma once
#include <cstdint>

#include "emu/numeric.h"
#include "hip/hip_runtime.h"

struct __hip_bfloat16 {
  unsigned short data;
  __hip_bfloat16() = default;
  __hip_bfloat16(float f) : data(::emu::f32_to_bf16_bits(f)) {}
  __hip_bfloat16(double f) : data(::emu::f32_to_bf16_bits(float(f))) {}
  __hip_bfloat16(int i) : data(::emu::f32_to_bf16_bits(float(i))) {}
  operator float() const { return ::emu::bf16_bits_to_f32(data); }
  __hip_bfloat16& operator+=(float o) { return *this = float(*this) + o; }
  __hip_bfloat16& operator*=(float o) { return *this = float(*this) * o; }
};
typedef __hip_bfloat16 hip_bfloat16;
struct __hip_bfloat162 {
  __hip_bfloat16 x, y;
};
inline __hip_bfloat16 __float2bfloat16(float f) { return __hip_bfloat16(f); }
inline __hip_bfloat16 __float2bfloat16_rn(float f) { return __hip_bfloat16(f); }
inline float __bfloat162float(__hip_bfloat16 b) { return float(b); }
inline __hip_bfloat162 __float22bfloat162_rn(float2 f) { return {__hip_bfloat16(f.x), __hip_bfloat16(f.y)}; }
inline __hip_bfloat162 __floats2bfloat162_rn(float a, float b) { return {__hip_bfloat16(a), __hip_bfloat16(b)}; }
inline __hip_bfloat16 __ushort_as_bfloat16(unsigned short u) {
  __hip_bfloat16 b;
  b.data = u;
  return b;
}
inline unsigned short __bfloat16_as_ushort(__hip_bfloat16 b) { return b.data; }
