#!POPCORN leaderboard amd-fp8-mm
#!POPCORN gpu MI300
# Corpus style: a persistent kernel sized from torch.cuda's device properties (grid = CU count,
# 1024 work-items, __launch_bounds__(1024, 4), tiles handed out by an atomic counter in a
# workspace allocated on "cuda"), __shared__ arrays declared inside the tile loop and swapped
# through pointers, and the launch captured once per input in a CUDA graph, then replayed.
import torch
from task import input_t, output_t
from torch.utils.cpp_extension import load_inline

assert torch.cuda.is_available(), "this submission needs a GPU"
PROPS = torch.cuda.get_device_properties(0)
assert "MI300" in torch.cuda.get_device_name(0) and PROPS.gcnArchName.startswith("gfx942"), PROPS
NUM_CUS = PROPS.multi_processor_count

CPP_SRC = ("void fp8_mm(torch::Tensor a, torch::Tensor b, torch::Tensor as, torch::Tensor bs, torch::Tensor c, "
           "torch::Tensor counter, int64_t num_groups);")

HIP_SRC = r"""
#include <hip/hip_runtime.h>
#include <hip/hip_fp8.h>
#include <hip/hip_bf16.h>
#include <ATen/cuda/CUDAContext.h>

constexpr int TILE = 32;    // 32 x 32 outputs per tile, one per work-item
constexpr int CHUNK = 32;   // k-depth staged in LDS per step (4 steps per scale block)

__global__ __launch_bounds__(1024, 4) void fp8_mm_persistent_kernel(
    const __hip_fp8_e4m3_fnuz* a, const __hip_fp8_e4m3_fnuz* b, const float* as, const float* bs,
    __hip_bfloat16* c, int* counter, int m, int n, int k) {
  const int tx = threadIdx.x % TILE, ty = threadIdx.x / TILE;
  const int tiles_n = (n + TILE - 1) / TILE, tiles = tiles_n * ((m + TILE - 1) / TILE);
  const int sn = (n + 127) / 128, chunks = k / CHUNK;
  __shared__ int next_tile;
  for (;;) {
    if (threadIdx.x == 0) next_tile = atomicAdd(counter, 1);
    __syncthreads();
    const int tile = next_tile;
    __syncthreads();
    if (tile >= tiles) break;
    // stage A and B chunks: two buffers each, swapped through pointers after every chunk
    __shared__ float a_buf0[CHUNK][TILE], a_buf1[CHUNK][TILE];
    __shared__ float b_buf0[CHUNK][TILE], b_buf1[CHUNK][TILE];
    float (*a_cur)[TILE] = a_buf0, (*a_next)[TILE] = a_buf1;
    float (*b_cur)[TILE] = b_buf0, (*b_next)[TILE] = b_buf1;
    const int row0 = (tile / tiles_n) * TILE, col0 = (tile % tiles_n) * TILE;
    // work-item (ty, tx) loads A[row0 + tx, k0 + ty] and B[col0 + tx, k0 + ty] of each chunk
    auto load = [&](int chunk, float (*as_)[TILE], float (*bs_)[TILE]) {
      const int kx = chunk * CHUNK + ty;
      as_[ty][tx] = row0 + tx < m ? float(a[row0 + tx + kx * m]) : 0.f;
      bs_[ty][tx] = col0 + tx < n ? float(b[col0 + tx + kx * n]) : 0.f;
    };
    load(0, a_cur, b_cur);
    __syncthreads();
    const int row = row0 + ty, col = col0 + tx;
    float acc = 0.f, part = 0.f;
    for (int ch = 0; ch < chunks; ++ch) {
      if (ch + 1 < chunks) load(ch + 1, a_next, b_next);
      for (int kk = 0; kk < CHUNK; ++kk) part += a_cur[kk][ty] * b_cur[kk][tx];
      if ((ch + 1) * CHUNK % 128 == 0) {
        const int kb = ch * CHUNK / 128;
        if (row < m && col < n) acc += part * as[row + kb * m] * bs[col / 128 + kb * sn];
        part = 0.f;
      }
      __syncthreads();
      float (*t)[TILE] = a_cur; a_cur = a_next; a_next = t;
      t = b_cur; b_cur = b_next; b_next = t;
    }
    if (row < m && col < n) c[row * n + col] = __float2bfloat16(acc);
  }
}

void fp8_mm(torch::Tensor a, torch::Tensor b, torch::Tensor as, torch::Tensor bs, torch::Tensor c,
            torch::Tensor counter, int64_t num_groups) {
  TORCH_CHECK(a.is_cuda() && counter.is_cuda(), "inputs must be on the GPU");
  const int m = a.size(0), n = b.size(0), k = a.size(1);
  auto stream = at::cuda::getCurrentCUDAStream();
  fp8_mm_persistent_kernel<<<dim3(num_groups), dim3(1024), 0, stream>>>(
      (const __hip_fp8_e4m3_fnuz*)a.data_ptr(), (const __hip_fp8_e4m3_fnuz*)b.data_ptr(), as.data_ptr<float>(),
      bs.data_ptr<float>(), (__hip_bfloat16*)c.data_ptr(), counter.data_ptr<int>(), m, n, k);
}
"""

module = load_inline(name="corpus_persistent_graph", cpp_sources=CPP_SRC, cuda_sources=HIP_SRC, functions=["fp8_mm"],
                     extra_cuda_cflags=["--offload-arch=gfx942", "-std=c++20", "-O3"])

_counter = torch.zeros(1, dtype=torch.int32, device="cuda")  # workspace: the tile counter
_graphs: dict = {}


def _launch(data) -> None:
    a, b, a_scale, b_scale, c = data
    _counter.zero_()
    tiles = -(-a.shape[0] // 32) * -(-b.shape[0] // 32)
    module.fp8_mm(a, b, a_scale, b_scale, c, _counter, min(NUM_CUS, tiles))


def custom_kernel(data: input_t) -> output_t:
    key = tuple(t.data_ptr() for t in data)
    graph = _graphs.get(key)
    if graph is None:
        stream = torch.cuda.Stream()
        stream.wait_stream(torch.cuda.current_stream())
        with torch.cuda.stream(stream):
            graph = torch.cuda.CUDAGraph()
            with torch.cuda.graph(graph):
                _launch(data)
        torch.cuda.current_stream().wait_stream(stream)
        _graphs.clear()  # inputs of earlier calls are gone: keep one graph
        _graphs[key] = graph
    data[4].zero_()
    graph.replay()
    torch.cuda.synchronize()
    return data[4]
