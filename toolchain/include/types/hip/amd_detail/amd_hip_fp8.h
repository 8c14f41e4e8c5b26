// Offline stand-in for ROCm's <hip/amd_detail/amd_hip_fp8.h> (absent from Debian's HIP 5.2
// headers): the e4m3 FNUZ type the official amd-fp8-mm template uses, with the same names,
// so a submission compiles unchanged for the offline gfx942 ISA report and the emulator.
//
// Format: 1 sign, 4 exponent (bias 8), 3 mantissa bits; 0x80 is the only NaN; no infinities,
// no negative zero; largest finite 240 (decode table: tests/data/spec/fp8/).
#pragma once

#include <hip/hip_runtime.h>

#include "amd_hip_bf16.h"

typedef unsigned char __hip_fp8_storage_t;
typedef unsigned short __hip_fp8x2_storage_t;
typedef unsigned int __hip_fp8x4_storage_t;

enum __hip_saturation_t { __HIP_NOSAT = 0, __HIP_SATFINITE = 1 };
// Only e4m3 FNUZ is provided: a submission naming another format fails to compile here rather
// than silently converting with the wrong one.
enum __hip_fp8_interpretation_t { __HIP_E4M3_FNUZ = 0 };

namespace hip_fp8_detail {

constexpr float kE4m3FnuzMax = 240.0f;
constexpr __hip_fp8_storage_t kE4m3FnuzNan = 0x80;

#if defined(__HIP_DEVICE_COMPILE__) && (defined(__gfx940__) || defined(__gfx941__) || defined(__gfx942__))
#define HIP_FP8_DETAIL_HW_CVT 1
#endif

// Round-to-nearest-even float -> e4m3 FNUZ in software (host, and devices without the cvt
// instructions). Overflow after rounding gives NaN, like v_cvt_pk_fp8_f32 with the clang
// default MODE.FP16_OVFL = 0; callers that want saturation clamp first.
__host__ __device__ inline __hip_fp8_storage_t encode_e4m3_fnuz_soft(float value) {
    const unsigned bits = __builtin_bit_cast(unsigned, value);
    const unsigned sign = (bits >> 24) & 0x80u;
    const unsigned magnitude = bits & 0x7fffffffu;
    if (magnitude > 0x7f800000u) return kE4m3FnuzNan;  // NaN
    if (magnitude == 0x7f800000u) return kE4m3FnuzNan;  // no infinities in FNUZ
    const int exponent = int(magnitude >> 23) - 127;
    // Below 2^-7 the fp8 result is subnormal: quantum 2^-10. Above, 3 mantissa bits survive.
    unsigned code;
    if (exponent < -7) {
        const float scaled = __builtin_bit_cast(float, magnitude) * 1024.0f;  // exact (power of 2)
        const unsigned whole = unsigned(scaled);
        const float frac = scaled - float(whole);
        code = whole + ((frac > 0.5f || (frac == 0.5f && (whole & 1u))) ? 1u : 0u);
    } else {
        const unsigned mantissa = magnitude & 0x7fffffu;
        const unsigned kept = mantissa >> 20;
        const unsigned rest = mantissa & 0xfffffu;
        code = (unsigned(exponent + 8) << 3) | kept;
        if (rest > 0x80000u || (rest == 0x80000u && (kept & 1u))) code += 1u;  // carry may bump exponent
    }
    if (code > 0x7fu) return kE4m3FnuzNan;
    return code == 0 ? 0 : (__hip_fp8_storage_t)(sign | code);
}

__host__ __device__ inline float decode_e4m3_fnuz_soft(__hip_fp8_storage_t code) {
    if (code == kE4m3FnuzNan) return __builtin_nanf("");
    const float sign = (code & 0x80) ? -1.0f : 1.0f;
    const int exponent = (code >> 3) & 0xf;
    const int mantissa = code & 0x7;
    if (exponent == 0) return sign * float(mantissa) * (1.0f / 1024.0f);
    return sign * (1.0f + float(mantissa) / 8.0f) * __builtin_ldexpf(1.0f, exponent - 8);
}

__host__ __device__ inline float saturate_e4m3_fnuz(float value) {
    if (value != value) return value;  // NaN stays NaN (fmaxf would drop it)
    return fminf(fmaxf(value, -kE4m3FnuzMax), kE4m3FnuzMax);
}

}  // namespace hip_fp8_detail

__host__ __device__ inline __hip_fp8_storage_t __hip_cvt_float_to_fp8(
    float value, __hip_saturation_t saturation, __hip_fp8_interpretation_t) {
    if (saturation == __HIP_SATFINITE) value = hip_fp8_detail::saturate_e4m3_fnuz(value);
#ifdef HIP_FP8_DETAIL_HW_CVT
    // NOTE: v_cvt_pk_fp8_f32 rounds to nearest even and writes the byte for `value` into bits 7:0.
    return (__hip_fp8_storage_t)(__builtin_amdgcn_cvt_pk_fp8_f32(value, value, 0, false) & 0xff);
#else
    return hip_fp8_detail::encode_e4m3_fnuz_soft(value);
#endif
}

__host__ __device__ inline __hip_fp8x2_storage_t __hip_cvt_float2_to_fp8x2(
    float2 value, __hip_saturation_t saturation, __hip_fp8_interpretation_t interpret) {
#ifdef HIP_FP8_DETAIL_HW_CVT
    float x = value.x, y = value.y;
    if (saturation == __HIP_SATFINITE) {
        x = hip_fp8_detail::saturate_e4m3_fnuz(x);
        y = hip_fp8_detail::saturate_e4m3_fnuz(y);
    }
    return (__hip_fp8x2_storage_t)(__builtin_amdgcn_cvt_pk_fp8_f32(x, y, 0, false) & 0xffff);
#else
    return (__hip_fp8x2_storage_t)(__hip_cvt_float_to_fp8(value.x, saturation, interpret) |
                                   (__hip_cvt_float_to_fp8(value.y, saturation, interpret) << 8));
#endif
}

__host__ __device__ inline float __hip_cvt_fp8_to_float(__hip_fp8_storage_t code, __hip_fp8_interpretation_t) {
#ifdef HIP_FP8_DETAIL_HW_CVT
    return __builtin_amdgcn_cvt_f32_fp8(code, 0);
#else
    return hip_fp8_detail::decode_e4m3_fnuz_soft(code);
#endif
}

__host__ __device__ inline float2 __hip_cvt_fp8x2_to_float2(__hip_fp8x2_storage_t codes, __hip_fp8_interpretation_t interpret) {
#ifdef HIP_FP8_DETAIL_HW_CVT
    const auto pair = __builtin_amdgcn_cvt_pk_f32_fp8(codes, false);
    return float2(pair[0], pair[1]);
#else
    return float2(__hip_cvt_fp8_to_float(codes & 0xff, interpret), __hip_cvt_fp8_to_float(codes >> 8, interpret));
#endif
}

struct __hip_fp8_e4m3_fnuz {
    __hip_fp8_storage_t __x;
    static constexpr __hip_saturation_t __default_saturation = __HIP_SATFINITE;
    static constexpr __hip_fp8_interpretation_t __default_interpret = __HIP_E4M3_FNUZ;

    __hip_fp8_e4m3_fnuz() = default;  // trivial, so __shared__ arrays of it are allowed
    __host__ __device__ __hip_fp8_e4m3_fnuz(float value)
        : __x(__hip_cvt_float_to_fp8(value, __default_saturation, __default_interpret)) {}
    __host__ __device__ __hip_fp8_e4m3_fnuz(double value) : __hip_fp8_e4m3_fnuz(float(value)) {}
    __host__ __device__ __hip_fp8_e4m3_fnuz(int value) : __hip_fp8_e4m3_fnuz(float(value)) {}
    __host__ __device__ __hip_fp8_e4m3_fnuz(unsigned int value) : __hip_fp8_e4m3_fnuz(float(value)) {}
    __host__ __device__ __hip_fp8_e4m3_fnuz(long long value) : __hip_fp8_e4m3_fnuz(float(value)) {}
    __host__ __device__ __hip_fp8_e4m3_fnuz(__hip_bfloat16 value) : __hip_fp8_e4m3_fnuz(float(value)) {}

    __host__ __device__ operator float() const { return __hip_cvt_fp8_to_float(__x, __default_interpret); }
    __host__ __device__ explicit operator double() const { return double(float(*this)); }
    __host__ __device__ explicit operator __hip_bfloat16() const { return __hip_bfloat16(float(*this)); }
    __host__ __device__ explicit operator bool() const { return (__x & 0x7f) != 0; }  // 0x80 is NaN: true
};

struct __hip_fp8x2_e4m3_fnuz {
    __hip_fp8x2_storage_t __x;
    static constexpr __hip_saturation_t __default_saturation = __HIP_SATFINITE;
    static constexpr __hip_fp8_interpretation_t __default_interpret = __HIP_E4M3_FNUZ;

    __hip_fp8x2_e4m3_fnuz() = default;
    __host__ __device__ __hip_fp8x2_e4m3_fnuz(float2 value)
        : __x(__hip_cvt_float2_to_fp8x2(value, __default_saturation, __default_interpret)) {}
    __host__ __device__ operator float2() const { return __hip_cvt_fp8x2_to_float2(__x, __default_interpret); }
};

struct __hip_fp8x4_e4m3_fnuz {
    __hip_fp8x4_storage_t __x;
    static constexpr __hip_saturation_t __default_saturation = __HIP_SATFINITE;
    static constexpr __hip_fp8_interpretation_t __default_interpret = __HIP_E4M3_FNUZ;

    __hip_fp8x4_e4m3_fnuz() = default;
    __host__ __device__ __hip_fp8x4_e4m3_fnuz(float4 value)
        : __x(__hip_cvt_float2_to_fp8x2(float2(value.x, value.y), __default_saturation, __default_interpret) |
              (__hip_fp8x4_storage_t(__hip_cvt_float2_to_fp8x2(float2(value.z, value.w), __default_saturation,
                                                               __default_interpret))
               << 16)) {}
    __host__ __device__ operator float4() const {
        const float2 low = __hip_cvt_fp8x2_to_float2(__x & 0xffff, __default_interpret);
        const float2 high = __hip_cvt_fp8x2_to_float2(__x >> 16, __default_interpret);
        return float4(low.x, low.y, high.x, high.y);
    }
};

static_assert(sizeof(__hip_fp8_e4m3_fnuz) == 1, "one byte per fp8 value, as torch.float8_e4m3fnuz");
static_assert(sizeof(__hip_fp8x4_e4m3_fnuz) == 4, "four packed fp8 values");
