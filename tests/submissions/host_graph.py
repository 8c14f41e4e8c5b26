#!POPCORN leaderboard amd-fp8-mm
#!POPCORN gpu MI300
# Corpus style, must fail on the CPU: host code that records its launch in a HIP
# graph once per set of tensors and replays it afterwards (hipGraphCreate, hipGraphAddKernelNode,
# hipGraphInstantiate, hipGraphLaunch), as latency-minded submissions do. Neither CPU engine
# serves HIP graphs: the run fails with their message naming the API, not a linker error.
from task import input_t, output_t
from torch.utils.cpp_extension import load_inline

HIP_SRC = r"""
#include <hip/hip_runtime.h>
#include <hip/hip_bf16.h>
#include <hip/hip_fp8.h>

#include <algorithm>

// One (row, col) per work-item; A and B are K-major, the scales blockwise (1x128, 128x128).
__global__ void naive_kernel(const __hip_fp8_e4m3_fnuz* a, const __hip_fp8_e4m3_fnuz* b, const float* as,
                             const float* bs, __hip_bfloat16* c, int m, int n, int k) {
  const int col = blockIdx.x * blockDim.x + threadIdx.x, row = blockIdx.y;
  if (col >= n) return;
  float sum = 0.f;
  for (int kb = 0; kb < k / 128; ++kb) {
    float block = 0.f;
    for (int kk = kb * 128; kk < kb * 128 + 128; ++kk) block += float(a[row + kk * m]) * float(b[col + kk * n]);
    sum += block * as[row + kb * m] * bs[col / 128 + kb * ((n + 127) / 128)];
  }
  c[row * n + col] = __float2bfloat16(sum);
}

#define HIP_OK(call) TORCH_CHECK((call) == hipSuccess, #call " failed")

// The recorded launch, valid while the same tensors come back.
struct Recorded {
  hipGraphExec_t exec = nullptr;
  void* key[5] = {};
  int m = 0, n = 0, k = 0;
};

void fp8_mm(torch::Tensor a, torch::Tensor b, torch::Tensor as, torch::Tensor bs, torch::Tensor c) {
  static Recorded recorded;
  int m = a.size(0), n = b.size(0), k = a.size(1);
  void* key[5] = {a.data_ptr(), b.data_ptr(), as.data_ptr(), bs.data_ptr(), c.data_ptr()};
  const bool same = recorded.exec && std::equal(key, key + 5, recorded.key) && recorded.m == m &&
                    recorded.n == n && recorded.k == k;
  if (!same) {
    if (recorded.exec) HIP_OK(hipGraphExecDestroy(recorded.exec));
    hipGraph_t graph;
    HIP_OK(hipGraphCreate(&graph, 0));
    void* args[] = {&key[0], &key[1], &key[2], &key[3], &key[4], &m, &n, &k};
    hipKernelNodeParams params{};
    params.func = reinterpret_cast<void*>(naive_kernel);
    params.gridDim = dim3((n + 63) / 64, m);
    params.blockDim = dim3(64);
    params.kernelParams = args;
    hipGraphNode_t node;
    HIP_OK(hipGraphAddKernelNode(&node, graph, nullptr, 0, &params));
    HIP_OK(hipGraphInstantiate(&recorded.exec, graph, nullptr, nullptr, 0));
    HIP_OK(hipGraphDestroy(graph));
    std::copy(key, key + 5, recorded.key);
    recorded.m = m, recorded.n = n, recorded.k = k;
  }
  HIP_OK(hipGraphLaunch(recorded.exec, 0));
}
"""

module = load_inline(name="corpus_host_graph", cpp_sources="void fp8_mm(torch::Tensor a, torch::Tensor b, "
                     "torch::Tensor as, torch::Tensor bs, torch::Tensor c);", cuda_sources=HIP_SRC,
                     functions=["fp8_mm"], extra_cuda_cflags=["--offload-arch=gfx942", "-std=c++20"])


def custom_kernel(data: input_t) -> output_t:
    module.fp8_mm(*data)
    return data[4]
