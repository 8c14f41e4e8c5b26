// Offline stand-in for ROCm's <hip/amd_detail/amd_hip_bf16.h> (absent from Debian's HIP 5.2
// headers): the bfloat16 type the official amd-fp8-mm template writes its output with.
// float -> bf16 rounds to nearest even (NaN stays a quiet NaN), as torch's .to(torch.bfloat16).
#pragma once

#include <hip/hip_runtime.h>

struct __hip_bfloat16_raw {
    unsigned short x;
};

__host__ __device__ inline unsigned short __hip_bfloat16_round_bits(float value) {
    const unsigned bits = __builtin_bit_cast(unsigned, value);
    if ((bits & 0x7fffffffu) > 0x7f800000u) return (unsigned short)((bits >> 16) | 0x40u);  // quiet NaN
    // NOTE: gfx942 has no f32->bf16 convert instruction (gfx950 adds one); integer RNE is what
    // compilers emit for it.
    const unsigned rounded = bits + 0x7fffu + ((bits >> 16) & 1u);
    return (unsigned short)(rounded >> 16);
}

struct __hip_bfloat16 {
    unsigned short data;

    __hip_bfloat16() = default;  // trivial, so __shared__ arrays of it are allowed
    __host__ __device__ __hip_bfloat16(float value) : data(__hip_bfloat16_round_bits(value)) {}
    __host__ __device__ __hip_bfloat16(double value) : __hip_bfloat16(float(value)) {}
    __host__ __device__ __hip_bfloat16(int value) : __hip_bfloat16(float(value)) {}
    __host__ __device__ __hip_bfloat16(__hip_bfloat16_raw raw) : data(raw.x) {}

    __host__ __device__ operator float() const { return __builtin_bit_cast(float, unsigned(data) << 16); }
    __host__ __device__ operator __hip_bfloat16_raw() const { return __hip_bfloat16_raw{data}; }
};

static_assert(sizeof(__hip_bfloat16) == 2, "bf16 is two bytes, as torch.bfloat16");

__host__ __device__ inline __hip_bfloat16 __float2bfloat16(float value) { return __hip_bfloat16(value); }
__host__ __device__ inline float __bfloat162float(__hip_bfloat16 value) { return float(value); }
__host__ __device__ inline __hip_bfloat16 __ushort_as_bfloat16(unsigned short bits) {
    return __hip_bfloat16(__hip_bfloat16_raw{bits});
}
__host__ __device__ inline unsigned short __bfloat16_as_ushort(__hip_bfloat16 value) { return value.data; }

