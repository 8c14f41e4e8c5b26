// gfx942 fp8 types for the emulator: FNUZ formats (e4m3 bias 8, e5m2 bias 16). Conversion
// from float saturates to the finite range (HIP's __HIP_SATFINITE default).
#pragma once
#include <cstdint>

#include "hip/hip_runtime.h"
#include "hip/amd_detail/amd_hip_bf16.h"  // as ROCm's amd_hip_fp8.h
#include "hip/hip_fp16.h"
#include "emu/numeric.h"

typedef unsigned char __hip_fp8_storage_t;
typedef unsigned short __hip_fp8x2_storage_t;
typedef unsigned int __hip_fp8x4_storage_t;
enum __hip_saturation_t { __HIP_NOSAT = 0, __HIP_SATFINITE = 1 };
enum __hip_fp8_interpretation_t { __HIP_E4M3_FNUZ = 0, __HIP_E5M2_FNUZ = 1, __HIP_E4M3 = 2, __HIP_E5M2 = 3 };
#define HIP_FP8_TYPE_FNUZ 1
#define HIP_FP8_TYPE_OCP 0

namespace emu {
inline const Fp8Format& fp8_format(__hip_fp8_interpretation_t t) {
  if (t == __HIP_E4M3_FNUZ) return kFp8;
  if (t == __HIP_E5M2_FNUZ) return kBf8;
  lane_fail("OCP fp8 formats are gfx950/gfx12 only; gfx942 uses FNUZ");
}
template <const Fp8Format& F>
struct Fp8Value {
  __hip_fp8_storage_t __x;
  Fp8Value() = default;
  Fp8Value(float f) : __x(f32_to_fp8_satfinite(F, f)) {}
  Fp8Value(double f) : __x(f32_to_fp8_satfinite(F, float(f))) {}
  Fp8Value(int i) : __x(f32_to_fp8_satfinite(F, float(i))) {}
  operator float() const { return &F == &kFp8 ? fp8_to_f32(__x) : bf8_to_f32(__x); }
};
}  // namespace emu

typedef ::emu::Fp8Value<::emu::kFp8> __hip_fp8_e4m3_fnuz;
typedef ::emu::Fp8Value<::emu::kBf8> __hip_fp8_e5m2_fnuz;
// Vectors of 2 and 4 (the public HIP API: constructors from float2/float4, double2/double4,
// __hip_bfloat162 and __half2; operator float2/float4); element i in byte i of __x.
namespace emu {
template <const Fp8Format& F>
inline unsigned fp8_pack(const float* f, int n) {
  unsigned x = 0;
  for (int i = 0; i < n; ++i) x |= unsigned(f32_to_fp8_satfinite(F, f[i])) << (8 * i);
  return x;
}
template <const Fp8Format& F>
inline float fp8_unpack(unsigned x, int i) {
  unsigned char b = (x >> (8 * i)) & 0xFF;
  return &F == &kFp8 ? fp8_to_f32(b) : bf8_to_f32(b);
}
template <const Fp8Format& F>
struct Fp8x2Value {
  __hip_fp8x2_storage_t __x;
  Fp8x2Value() = default;
  Fp8x2Value(__hip_fp8x2_storage_t x) : __x(x) {}
  Fp8x2Value(int x) : __x(__hip_fp8x2_storage_t(x)) {}
  Fp8x2Value(float2 v) { float f[2] = {v.x, v.y}; __x = fp8_pack<F>(f, 2); }
  Fp8x2Value(double2 v) { float f[2] = {float(v.x), float(v.y)}; __x = fp8_pack<F>(f, 2); }
  Fp8x2Value(__hip_bfloat162 v) { float f[2] = {float(v.x), float(v.y)}; __x = fp8_pack<F>(f, 2); }
  Fp8x2Value(__half2 v) { float f[2] = {float(v.x), float(v.y)}; __x = fp8_pack<F>(f, 2); }
  operator float2() const { return float2{fp8_unpack<F>(__x, 0), fp8_unpack<F>(__x, 1)}; }
};
template <const Fp8Format& F>
struct Fp8x4Value {
  __hip_fp8x4_storage_t __x;
  Fp8x4Value() = default;
  Fp8x4Value(__hip_fp8x4_storage_t x) : __x(x) {}
  Fp8x4Value(int x) : __x(__hip_fp8x4_storage_t(x)) {}
  Fp8x4Value(float4 v) { float f[4] = {v.x, v.y, v.z, v.w}; __x = fp8_pack<F>(f, 4); }
  Fp8x4Value(double4 v) { float f[4] = {float(v.x), float(v.y), float(v.z), float(v.w)}; __x = fp8_pack<F>(f, 4); }
  Fp8x4Value(__hip_bfloat162 lo, __hip_bfloat162 hi) {
    float f[4] = {float(lo.x), float(lo.y), float(hi.x), float(hi.y)};
    __x = fp8_pack<F>(f, 4);
  }
  Fp8x4Value(__half2 lo, __half2 hi) {
    float f[4] = {float(lo.x), float(lo.y), float(hi.x), float(hi.y)};
    __x = fp8_pack<F>(f, 4);
  }
  operator float4() const {
    return float4{fp8_unpack<F>(__x, 0), fp8_unpack<F>(__x, 1), fp8_unpack<F>(__x, 2), fp8_unpack<F>(__x, 3)};
  }
};
}  // namespace emu
typedef ::emu::Fp8x2Value<::emu::kFp8> __hip_fp8x2_e4m3_fnuz;
typedef ::emu::Fp8x4Value<::emu::kFp8> __hip_fp8x4_e4m3_fnuz;
typedef ::emu::Fp8x2Value<::emu::kBf8> __hip_fp8x2_e5m2_fnuz;
typedef ::emu::Fp8x4Value<::emu::kBf8> __hip_fp8x4_e5m2_fnuz;

inline __hip_fp8_storage_t __hip_cvt_float_to_fp8(float f, __hip_saturation_t sat, __hip_fp8_interpretation_t t) {
  const auto& fmt = ::emu::fp8_format(t);
  return sat == __HIP_SATFINITE ? ::emu::f32_to_fp8_satfinite(fmt, f) : ::emu::f32_to_fp8_hw(fmt, f, false);
}
inline float __hip_cvt_fp8_to_float(__hip_fp8_storage_t x, __hip_fp8_interpretation_t t) {
  return &::emu::fp8_format(t) == &::emu::kFp8 ? ::emu::fp8_to_f32(x) : ::emu::bf8_to_f32(x);
}
