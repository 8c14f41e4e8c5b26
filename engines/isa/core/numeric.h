// Number formats of gfx942 the engine converts between: fp8 e4m3fnuz / bf8 e5m2fnuz, f16, bf16.
// NOTE: the FNUZ formats have one NaN (0x80), no infinity and no negative zero; fp8 has bias 8
// (max 240), bf8 bias 16 (max 57344).
#pragma once
#include <cmath>
#include <cstdint>
#include <cstring>

#include "gfx942_numeric.h"

namespace isa::detail {

inline float as_f(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }
inline uint32_t as_u(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }
inline double as_d(uint64_t u) { double f; memcpy(&f, &u, 8); return f; }
inline uint64_t as_u64(double f) { uint64_t u; memcpy(&u, &f, 8); return u; }

// The conversions are the one codec every build shares (toolchain/include/types, on the core's
// include path); the engine decodes through tables of it.
using Fp8Spec = gfx942::Fp8Format;
using gfx942::kBf8;
using gfx942::kFp8;

struct Fp8Tables {
  float fp8[256], bf8[256];
  double fp8d[256], bf8d[256];
  Fp8Tables() {
    for (unsigned c = 0; c < 256; ++c) {
      fp8[c] = gfx942::fp8_to_float(kFp8, (unsigned char)c);
      bf8[c] = gfx942::fp8_to_float(kBf8, (unsigned char)c);
      fp8d[c] = fp8[c];
      bf8d[c] = bf8[c];
    }
  }
};
inline const Fp8Tables& fp8_tables() {
  static const Fp8Tables t;
  return t;
}

// v_cvt_pk_{fp8,bf8}_f32 on one value: NaN code (0x80) on overflow unless `saturate` (MODE.FP16_OVFL).
inline uint8_t f32_to_fp8(Fp8Spec f, float x, bool saturate) { return gfx942::float_to_fp8(f, x, saturate); }

inline float bf16_to_f32(uint16_t b) { return gfx942::bf16_to_float(b); }

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
