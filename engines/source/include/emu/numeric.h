// Number formats of gfx942 for the emulator's builtins: fp8 e4m3fnuz / bf8 e5m2fnuz decode
// tables and the hardware's f32 -> fp8 conversion, bf16 bits. The conversions themselves are the
// one codec every build shares (toolchain/include/types/gfx942_numeric.h).
#pragma once
#include <cstdint>
#include <cstring>

#include <gfx942_numeric.h>

namespace emu {

template <class To, class From>
inline To bit_cast(const From& from) {
  static_assert(sizeof(To) == sizeof(From));
  To to;
  std::memcpy(&to, &from, sizeof(To));
  return to;
}

using ::gfx942::Fp8Format;
using ::gfx942::kBf8;
using ::gfx942::kFp8;

struct Fp8Table {
  float value[256];
  explicit Fp8Table(const Fp8Format& f) {
    for (unsigned c = 0; c < 256; ++c) value[c] = ::gfx942::fp8_to_float(f, (unsigned char)c);
  }
};
inline const Fp8Table g_fp8_table{kFp8};
inline const Fp8Table g_bf8_table{kBf8};

inline float fp8_to_f32(unsigned char code) { return g_fp8_table.value[code]; }
inline float bf8_to_f32(unsigned char code) { return g_bf8_table.value[code]; }

// v_cvt_pk_{fp8,bf8}_f32 on one value. NOTE: with MODE.FP16_OVFL = 0 (clang's default)
// overflow and ±inf give 0x80 (NaN); with FP16_OVFL = 1 they saturate to ±max.
inline unsigned char f32_to_fp8_hw(const Fp8Format& f, float x, bool saturate_overflow) {
  return ::gfx942::float_to_fp8(f, x, saturate_overflow);
}

inline float bf16_bits_to_f32(uint16_t b) { return ::gfx942::bf16_to_float(b); }
inline uint16_t f32_to_bf16_bits(float f) { return ::gfx942::float_to_bf16(f); }

}  // namespace emu
