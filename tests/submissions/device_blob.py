#!POPCORN leaderboard amd-fp8-mm
#!POPCORN gpu MI300
# Corpus style: host code that wraps device memory of its own in a tensor, as real
# submissions do for workspaces: hipMalloc'd split-K partials wrapped by
# at::from_blob(ptr, sizes, at::TensorOptions().dtype(at::kFloat).device(at::kCUDA)), zeroed
# and reduced with torch ops on that tensor, inputs checked with x.is_cuda() / kCUDA.
from task import input_t, output_t
from torch.utils.cpp_extension import load_inline

HIP_SRC = r"""
#include <hip/hip_runtime.h>
#include <hip/hip_bf16.h>
#include <hip/hip_fp8.h>

constexpr int kSplits = 2;

// One (row, col) per work-item, the K range split in kSplits slices written to partial[split].
__global__ void split_kernel(const __hip_fp8_e4m3_fnuz* a, const __hip_fp8_e4m3_fnuz* b, const float* as,
                             const float* bs, float* partial, int m, int n, int k) {
  const int col = blockIdx.x * blockDim.x + threadIdx.x, row = blockIdx.y, split = blockIdx.z;
  if (col >= n) return;
  const int blocks = k / 128, per_split = (blocks + kSplits - 1) / kSplits;
  float sum = 0.f;
  for (int kb = split * per_split; kb < min(blocks, (split + 1) * per_split); ++kb) {
    float block = 0.f;
    for (int kk = kb * 128; kk < kb * 128 + 128; ++kk) block += float(a[row + kk * m]) * float(b[col + kk * n]);
    sum += block * as[row + kb * m] * bs[col / 128 + kb * ((n + 127) / 128)];
  }
  partial[(size_t(split) * m + row) * n + col] = sum;
}

static float* workspace(size_t floats) {
  static float* memory = nullptr;
  static size_t held = 0;
  if (held < floats) {
    if (memory) (void)hipFree(memory);
    TORCH_CHECK(hipMalloc(&memory, floats * sizeof(float)) == hipSuccess, "hipMalloc failed");
    held = floats;
  }
  return memory;
}

void fp8_mm(torch::Tensor a, torch::Tensor b, torch::Tensor as, torch::Tensor bs, torch::Tensor c) {
  TORCH_CHECK(a.is_cuda() && c.device().type() == at::kCUDA, "inputs must live on the GPU");
  const int m = a.size(0), n = b.size(0), k = a.size(1);
  float* raw = workspace(size_t(kSplits) * m * n);
  auto partial = at::from_blob(raw, {kSplits, m, n}, at::TensorOptions().dtype(at::kFloat).device(at::kCUDA));
  partial.zero_();
  split_kernel<<<dim3((n + 63) / 64, m, kSplits), dim3(64)>>>(
      (const __hip_fp8_e4m3_fnuz*)a.data_ptr(), (const __hip_fp8_e4m3_fnuz*)b.data_ptr(), as.data_ptr<float>(),
      bs.data_ptr<float>(), raw, m, n, k);
  c.copy_(partial.sum(0));
}
"""

module = load_inline(name="corpus_device_blob", cpp_sources="void fp8_mm(torch::Tensor a, torch::Tensor b, "
                     "torch::Tensor as, torch::Tensor bs, torch::Tensor c);", cuda_sources=HIP_SRC,
                     functions=["fp8_mm"], extra_cuda_cflags=["--offload-arch=gfx942", "-std=c++20"])


def custom_kernel(data: input_t) -> output_t:
    module.fp8_mm(*data)
    return data[4]
