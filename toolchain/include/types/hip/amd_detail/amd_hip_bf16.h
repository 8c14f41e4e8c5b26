// <hip/amd_detail/amd_hip_bf16.h> for the builds that lack ROCm's (Debian's HIP 5.2 headers, the
// emulator): the bfloat16 type the official amd-fp8-mm template writes its output with. One
// copy for the offline report and both engines. float -> bf16 rounds to nearest even (NaN stays
// a quiet NaN), as torch's .to(torch.bfloat16) (gfx942_numeric.h).
#pragma once

#include <hip/hip_runtime.h>

#include "../../gfx942_numeric.h"

struct __hip_bfloat16_raw {
    unsigned short x;
};

struct __hip_bfloat16 {
    unsigned short data;

    __hip_bfloat16() = default;  // trivial, so __shared__ arrays of it are allowed
    __host__ __device__ __hip_bfloat16(float value) : data(gfx942::float_to_bf16(value)) {}
    __host__ __device__ __hip_bfloat16(double value) : __hip_bfloat16(float(value)) {}
    __host__ __device__ __hip_bfloat16(int value) : __hip_bfloat16(float(value)) {}
    __host__ __device__ __hip_bfloat16(__hip_bfloat16_raw raw) : data(raw.x) {}

    __host__ __device__ operator float() const { return gfx942::bf16_to_float(data); }
    __host__ __device__ operator __hip_bfloat16_raw() const { return __hip_bfloat16_raw{data}; }
    __host__ __device__ __hip_bfloat16& operator+=(float other) { return *this = float(*this) + other; }
    __host__ __device__ __hip_bfloat16& operator*=(float other) { return *this = float(*this) * other; }
};

static_assert(sizeof(__hip_bfloat16) == 2, "bf16 is two bytes, as torch.bfloat16");

struct __hip_bfloat162 {
    __hip_bfloat16 x, y;
};

__host__ __device__ inline __hip_bfloat16 __float2bfloat16(float value) { return __hip_bfloat16(value); }
__host__ __device__ inline __hip_bfloat16 __float2bfloat16_rn(float value) { return __hip_bfloat16(value); }
__host__ __device__ inline float __bfloat162float(__hip_bfloat16 value) { return float(value); }
__host__ __device__ inline __hip_bfloat162 __float22bfloat162_rn(float2 value) {
    return {__hip_bfloat16(value.x), __hip_bfloat16(value.y)};
}
__host__ __device__ inline __hip_bfloat162 __floats2bfloat162_rn(float a, float b) {
    return {__hip_bfloat16(a), __hip_bfloat16(b)};
}
__host__ __device__ inline __hip_bfloat16 __ushort_as_bfloat16(unsigned short bits) {
    return __hip_bfloat16(__hip_bfloat16_raw{bits});
}
__host__ __device__ inline unsigned short __bfloat16_as_ushort(__hip_bfloat16 value) { return value.data; }
