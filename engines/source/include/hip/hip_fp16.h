// f16 for the emulator: __half is the compiler's _Float16.
#pragma once
#include "hip/hip_runtime.h"
typedef _Float16 __half;
typedef _Float16 __half2_t __attribute__((ext_vector_type(2)));
typedef __half2_t __half2;
// HIP's public spellings of the same types.
typedef __half half;
typedef __half2 half2;
inline __half __float2half(float x) { return __half(x); }
inline float __half2float(__half x) { return float(x); }
inline float __low2float(__half2 x) { return float(x.x); }
inline float __high2float(__half2 x) { return float(x.y); }
inline __half __hadd(__half a, __half b) { return a + b; }
inline __half __hmul(__half a, __half b) { return a * b; }
