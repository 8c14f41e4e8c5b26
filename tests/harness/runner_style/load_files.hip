// Built by load_files.py through cpp_extension.load. One wave per output row; each lane
// walks the columns j = lane, lane + 64, ... and accumulates per 128-wide k-block.
#include <torch/extension.h>
#include <hip/hip_runtime.h>
#include <hip/hip_fp8.h>
#include <hip/hip_bf16.h>

__global__ void row_kernel(const __hip_fp8_e4m3_fnuz* a, const __hip_fp8_e4m3_fnuz* b, const float* as,
                           const float* bs, __hip_bfloat16* c, int m, int n, int k) {
  const int i = blockIdx.x;
  const int scale_n = (n + 127) / 128;
  for (int j = threadIdx.x; j < n; j += blockDim.x) {
    float acc = 0.0f;
    for (int kb = 0; kb * 128 < k; ++kb) {
      float part = 0.0f;
      for (int kk = kb * 128; kk < kb * 128 + 128; ++kk) part += float(a[i + kk * m]) * float(b[j + kk * n]);
      acc += part * as[i + kb * m] * bs[j / 128 + kb * scale_n];
    }
    c[i * n + j] = __float2bfloat16(acc);
  }
}

void fp8_mm(torch::Tensor a, torch::Tensor b, torch::Tensor as, torch::Tensor bs, torch::Tensor c) {
  const int m = a.size(0), n = b.size(0), k = a.size(1);
  row_kernel<<<m, 64>>>(reinterpret_cast<const __hip_fp8_e4m3_fnuz*>(a.data_ptr()),
                        reinterpret_cast<const __hip_fp8_e4m3_fnuz*>(b.data_ptr()), as.data_ptr<float>(),
                        bs.data_ptr<float>(), reinterpret_cast<__hip_bfloat16*>(c.data_ptr()), m, n, k);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) { m.def("fp8_mm", &fp8_mm); }
