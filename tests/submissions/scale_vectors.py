#!POPCORN leaderboard amd-fp8-mm
#!POPCORN gpu MI300
# Corpus style: block scales of B read four 128-column blocks at a time (one 16-byte
# vector of the submission's own ext_vector_type)
# and the one the column needs picked out, as vectorised real submissions do. Where N/128 is not
# a multiple of 4 the row's last vector reaches past b_scale's end (at N = 64, b_scale is one
# float read as 16 bytes): harmless on an MI300X, whose allocations are padded, and the values
# past the end are never used. Both CPU engines report the read once, naming the tensor and
# the line, and the run passes (with --strict it fails).
from task import input_t, output_t
from torch.utils.cpp_extension import load_inline

HIP_SRC = r"""
#include <hip/hip_runtime.h>
#include <hip/hip_bf16.h>
#include <hip/hip_fp8.h>

typedef float f32x4 __attribute__((ext_vector_type(4)));

// One (row, col) per work-item; A and B are K-major, a_scale [K/128][M], b_scale [K/128][N/128].
__global__ void scaled_kernel(const __hip_fp8_e4m3_fnuz* a, const __hip_fp8_e4m3_fnuz* b, const float* a_scale,
                              const float* b_scale, __hip_bfloat16* c, int m, int n, int k) {
  const int col = blockIdx.x * blockDim.x + threadIdx.x, row = blockIdx.y;
  if (col >= n) return;
  const int scale_cols = (n + 127) / 128, group = col / 128 / 4 * 4;
  float sum = 0.f;
  for (int kb = 0; kb < k / 128; ++kb) {
    const f32x4 four = *reinterpret_cast<const f32x4*>(b_scale + kb * scale_cols + group);
    const float scale_b = four[col / 128 - group];
    float block = 0.f;
    for (int kk = kb * 128; kk < kb * 128 + 128; ++kk) block += float(a[row + kk * m]) * float(b[col + kk * n]);
    sum += block * a_scale[row + kb * m] * scale_b;
  }
  c[row * n + col] = __float2bfloat16(sum);
}

void fp8_mm(torch::Tensor a, torch::Tensor b, torch::Tensor as, torch::Tensor bs, torch::Tensor c) {
  const int m = a.size(0), n = b.size(0), k = a.size(1);
  scaled_kernel<<<dim3((n + 63) / 64, m), dim3(64)>>>(
      (const __hip_fp8_e4m3_fnuz*)a.data_ptr(), (const __hip_fp8_e4m3_fnuz*)b.data_ptr(), as.data_ptr<float>(),
      bs.data_ptr<float>(), (__hip_bfloat16*)c.data_ptr(), m, n, k);
}
"""

module = load_inline(name="corpus_scale_vectors", cpp_sources="void fp8_mm(torch::Tensor a, torch::Tensor b, "
                     "torch::Tensor as, torch::Tensor bs, torch::Tensor c);", cuda_sources=HIP_SRC,
                     functions=["fp8_mm"], extra_cuda_cflags=["--offload-arch=gfx942", "-std=c++20"])


def custom_kernel(data: input_t) -> output_t:
    module.fp8_mm(*data)
    return data[4]
