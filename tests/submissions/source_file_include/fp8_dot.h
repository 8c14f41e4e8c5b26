// Shared by source_file_kernel.hip: one 128-deep scale block of a dot product.
#pragma once
#include <hip/hip_fp8.h>

__device__ __forceinline__ float fp8_block_dot(const __hip_fp8_e4m3_fnuz* a, const __hip_fp8_e4m3_fnuz* b,
                                               int a_stride, int b_stride) {
  float part = 0.f;
  for (int kk = 0; kk < 128; ++kk) part += float(a[kk * a_stride]) * float(b[kk * b_stride]);
  return part;
}
