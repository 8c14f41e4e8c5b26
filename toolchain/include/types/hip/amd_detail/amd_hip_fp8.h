// <hip/amd_detail/amd_hip_fp8.h> for the builds that lack ROCm's (Debian's HIP 5.2 headers, the
// emulator): gfx942's FNUZ fp8 types with ROCm's names, so a submission compiles unchanged for
// the offline report and on both engines. One copy for all three.
//
// e4m3 (__hip_fp8_*_e4m3_fnuz): 1 sign, 4 exponent (bias 8), 3 mantissa bits, largest finite 240;
// e5m2 (__hip_fp8_*_e5m2_fnuz): 1 sign, 5 exponent (bias 16), 2 mantissa bits, largest 57344.
// 0x80 is the only NaN; no infinities, no negative zero (decode table: tests/data/spec/fp8/).
// Conversions from float saturate to the finite range by default (__HIP_SATFINITE), as HIP's.
// The gfx942 device compile uses the conversion instructions; everywhere else (host code, the
// emulator) the one software codec, gfx942_numeric.h, which rounds as those instructions do.
#pragma once

#include <hip/hip_runtime.h>
#include <hip/hip_fp16.h>

#include "../../gfx942_numeric.h"
#include "amd_hip_bf16.h"

typedef unsigned char __hip_fp8_storage_t;
typedef unsigned short __hip_fp8x2_storage_t;
typedef unsigned int __hip_fp8x4_storage_t;

enum __hip_saturation_t { __HIP_NOSAT = 0, __HIP_SATFINITE = 1 };
// Only the FNUZ formats of gfx942: a submission naming an OCP format (gfx950's) fails to compile
// here rather than silently converting with the wrong one.
enum __hip_fp8_interpretation_t { __HIP_E4M3_FNUZ = 0, __HIP_E5M2_FNUZ = 1 };
#define HIP_FP8_TYPE_FNUZ 1
#define HIP_FP8_TYPE_OCP 0

#if defined(__HIP_DEVICE_COMPILE__) && (defined(__gfx940__) || defined(__gfx941__) || defined(__gfx942__))
#define HIP_FP8_DETAIL_HW_CVT 1
#endif

namespace hip_fp8_detail {

__host__ __device__ constexpr gfx942::Fp8Format format(__hip_fp8_interpretation_t interpret) {
    return interpret == __HIP_E5M2_FNUZ ? gfx942::kBf8 : gfx942::kFp8;
}

constexpr float kE4m3FnuzMax = gfx942::fp8_to_float(gfx942::kFp8, gfx942::kFp8MaxCode);  // 240
constexpr float kE5m2FnuzMax = gfx942::fp8_to_float(gfx942::kBf8, gfx942::kFp8MaxCode);  // 57344

// __HIP_SATFINITE: clamped to the finite range before the conversion.
__host__ __device__ inline float saturate(float value, __hip_fp8_interpretation_t interpret) {
    if (value != value) return value;  // NaN stays NaN (fmaxf would drop it)
    const float max = interpret == __HIP_E5M2_FNUZ ? kE5m2FnuzMax : kE4m3FnuzMax;
    return fminf(fmaxf(value, -max), max);
}

}  // namespace hip_fp8_detail

__host__ __device__ inline __hip_fp8_storage_t __hip_cvt_float_to_fp8(
    float value, __hip_saturation_t saturation, __hip_fp8_interpretation_t interpret) {
    if (saturation == __HIP_SATFINITE) value = hip_fp8_detail::saturate(value, interpret);
#ifdef HIP_FP8_DETAIL_HW_CVT
    // NOTE: v_cvt_pk_{fp8,bf8}_f32 round to nearest even and write the first value's byte into
    // bits 7:0; with clang's default MODE.FP16_OVFL = 0 an overflow gives NaN, as the codec does.
    const int packed = interpret == __HIP_E5M2_FNUZ ? __builtin_amdgcn_cvt_pk_bf8_f32(value, value, 0, false)
                                                    : __builtin_amdgcn_cvt_pk_fp8_f32(value, value, 0, false);
    return (__hip_fp8_storage_t)(packed & 0xff);
#else
    return gfx942::float_to_fp8(hip_fp8_detail::format(interpret), value, false);
#endif
}

__host__ __device__ inline __hip_fp8x2_storage_t __hip_cvt_float2_to_fp8x2(
    float2 value, __hip_saturation_t saturation, __hip_fp8_interpretation_t interpret) {
#ifdef HIP_FP8_DETAIL_HW_CVT
    float x = value.x, y = value.y;
    if (saturation == __HIP_SATFINITE) {
        x = hip_fp8_detail::saturate(x, interpret);
        y = hip_fp8_detail::saturate(y, interpret);
    }
    const int packed = interpret == __HIP_E5M2_FNUZ ? __builtin_amdgcn_cvt_pk_bf8_f32(x, y, 0, false)
                                                    : __builtin_amdgcn_cvt_pk_fp8_f32(x, y, 0, false);
    return (__hip_fp8x2_storage_t)(packed & 0xffff);
#else
    return (__hip_fp8x2_storage_t)(__hip_cvt_float_to_fp8(value.x, saturation, interpret) |
                                   (__hip_cvt_float_to_fp8(value.y, saturation, interpret) << 8));
#endif
}

__host__ __device__ inline float2 __hip_cvt_fp8x2_to_float2(__hip_fp8x2_storage_t codes,
                                                            __hip_fp8_interpretation_t interpret) {
#ifdef HIP_FP8_DETAIL_HW_CVT
    const auto pair = interpret == __HIP_E5M2_FNUZ ? __builtin_amdgcn_cvt_pk_f32_bf8(codes, false)
                                                   : __builtin_amdgcn_cvt_pk_f32_fp8(codes, false);
    return float2{pair[0], pair[1]};
#else
    const gfx942::Fp8Format format = hip_fp8_detail::format(interpret);
    return float2{gfx942::fp8_to_float(format, codes & 0xff), gfx942::fp8_to_float(format, codes >> 8)};
#endif
}

__host__ __device__ inline float __hip_cvt_fp8_to_float(__hip_fp8_storage_t code, __hip_fp8_interpretation_t interpret) {
#ifdef HIP_FP8_DETAIL_HW_CVT
    return interpret == __HIP_E5M2_FNUZ ? __builtin_amdgcn_cvt_f32_bf8(code, 0) : __builtin_amdgcn_cvt_f32_fp8(code, 0);
#else
    return gfx942::fp8_to_float(hip_fp8_detail::format(interpret), code);
#endif
}

namespace hip_fp8_detail {

// One value, and vectors of 2 and 4; the public types below are these with ROCm's names.
template <__hip_fp8_interpretation_t Interpret>
struct scalar {
    __hip_fp8_storage_t __x;
    static constexpr __hip_saturation_t __default_saturation = __HIP_SATFINITE;
    static constexpr __hip_fp8_interpretation_t __default_interpret = Interpret;

    scalar() = default;  // trivial, so __shared__ arrays of it are allowed
    __host__ __device__ scalar(float value) : __x(__hip_cvt_float_to_fp8(value, __default_saturation, Interpret)) {}
    __host__ __device__ scalar(double value) : scalar(float(value)) {}
    __host__ __device__ scalar(int value) : scalar(float(value)) {}
    __host__ __device__ scalar(unsigned int value) : scalar(float(value)) {}
    __host__ __device__ scalar(long long value) : scalar(float(value)) {}
    __host__ __device__ scalar(__hip_bfloat16 value) : scalar(float(value)) {}

    __host__ __device__ operator float() const { return __hip_cvt_fp8_to_float(__x, Interpret); }
    __host__ __device__ explicit operator double() const { return double(float(*this)); }
    __host__ __device__ explicit operator __hip_bfloat16() const { return __hip_bfloat16(float(*this)); }
    __host__ __device__ explicit operator bool() const { return (__x & 0x7f) != 0; }  // 0x80 is NaN: true
};

// A vector's bits, element i in byte i of __x: given as they are, or converted from values.
template <class Storage, __hip_fp8_interpretation_t Interpret>
struct packed {
    Storage __x;
    static constexpr __hip_saturation_t __default_saturation = __HIP_SATFINITE;
    static constexpr __hip_fp8_interpretation_t __default_interpret = Interpret;

    packed() = default;
    __host__ __device__ packed(Storage bits) : __x(bits) {}
    __host__ __device__ packed(int bits) : __x(Storage(bits)) {}
};

template <__hip_fp8_interpretation_t Interpret>
struct pair : packed<__hip_fp8x2_storage_t, Interpret> {
    using bits = packed<__hip_fp8x2_storage_t, Interpret>;
    using bits::bits;
    __host__ __device__ pair(float2 value) : bits(__hip_cvt_float2_to_fp8x2(value, bits::__default_saturation, Interpret)) {}
    __host__ __device__ pair(double2 value) : pair(float2{float(value.x), float(value.y)}) {}
    __host__ __device__ pair(__hip_bfloat162 value) : pair(float2{float(value.x), float(value.y)}) {}
    __host__ __device__ pair(__half2 value) : pair(float2{__low2float(value), __high2float(value)}) {}

    __host__ __device__ operator float2() const { return __hip_cvt_fp8x2_to_float2(this->__x, Interpret); }
};

template <__hip_fp8_interpretation_t Interpret>
struct quad : packed<__hip_fp8x4_storage_t, Interpret> {
    using bits = packed<__hip_fp8x4_storage_t, Interpret>;
    using bits::bits;
    __host__ __device__ quad(float4 value)
        : bits(pair<Interpret>(float2{value.x, value.y}).__x |
               (__hip_fp8x4_storage_t(pair<Interpret>(float2{value.z, value.w}).__x) << 16)) {}
    __host__ __device__ quad(double4 value)
        : quad(float4{float(value.x), float(value.y), float(value.z), float(value.w)}) {}
    __host__ __device__ quad(__hip_bfloat162 low, __hip_bfloat162 high)
        : quad(float4{float(low.x), float(low.y), float(high.x), float(high.y)}) {}
    __host__ __device__ quad(__half2 low, __half2 high)
        : quad(float4{__low2float(low), __high2float(low), __low2float(high), __high2float(high)}) {}

    __host__ __device__ operator float4() const {
        const float2 low = __hip_cvt_fp8x2_to_float2(this->__x & 0xffff, Interpret);
        const float2 high = __hip_cvt_fp8x2_to_float2(this->__x >> 16, Interpret);
        return float4{low.x, low.y, high.x, high.y};
    }
};

}  // namespace hip_fp8_detail

struct __hip_fp8_e4m3_fnuz : hip_fp8_detail::scalar<__HIP_E4M3_FNUZ> { using scalar::scalar; };
struct __hip_fp8_e5m2_fnuz : hip_fp8_detail::scalar<__HIP_E5M2_FNUZ> { using scalar::scalar; };
struct __hip_fp8x2_e4m3_fnuz : hip_fp8_detail::pair<__HIP_E4M3_FNUZ> { using pair::pair; };
struct __hip_fp8x2_e5m2_fnuz : hip_fp8_detail::pair<__HIP_E5M2_FNUZ> { using pair::pair; };
struct __hip_fp8x4_e4m3_fnuz : hip_fp8_detail::quad<__HIP_E4M3_FNUZ> { using quad::quad; };
struct __hip_fp8x4_e5m2_fnuz : hip_fp8_detail::quad<__HIP_E5M2_FNUZ> { using quad::quad; };

static_assert(sizeof(__hip_fp8_e4m3_fnuz) == 1, "one byte per fp8 value, as torch.float8_e4m3fnuz");
static_assert(sizeof(__hip_fp8x4_e4m3_fnuz) == 4, "four packed fp8 values");
