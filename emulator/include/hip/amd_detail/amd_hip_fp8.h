// gfx942 fp8 types for the emulator: FNUZ formats (e4m3 bias 8, e5m2 bias 16). Conversion
// from float saturates to the finite range (HIP's __HIP_SATFINITE default).
#pragma once
#include <cstdint>

#include "hip/hip_runtime.h"
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
struct __hip_fp8x2_e4m3_fnuz {
  __hip_fp8x2_storage_t __x;
};
struct __hip_fp8x4_e4m3_fnuz {
  __hip_fp8x4_storage_t __x;
};

inline __hip_fp8_storage_t __hip_cvt_float_to_fp8(float f, __hip_saturation_t sat, __hip_fp8_interpretation_t t) {
  const auto& fmt = ::emu::fp8_format(t);
  return sat == __HIP_SATFINITE ? ::emu::f32_to_fp8_satfinite(fmt, f) : ::emu::f32_to_fp8_hw(fmt, f, false);
}
inline float __hip_cvt_fp8_to_float(__hip_fp8_storage_t x, __hip_fp8_interpretation_t t) {
  return &::emu::fp8_format(t) == &::emu::kFp8 ? ::emu::fp8_to_f32(x) : ::emu::bf8_to_f32(x);
}
