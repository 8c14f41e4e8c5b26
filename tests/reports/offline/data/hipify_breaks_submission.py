# Test submission (never run): valid C++ that torch's hipify breaks. In a .cu source hipify
# rewrites `std::max(` to `::max(`, and no global max takes a user type, so the line marked
# ERROR-HERE fails on the ROCm runner although it compiles with nvcc. tests/reports/offline/test_hipify.py
# checks the report fails there too, naming this file and that line (after a rewritten launch).
from torch.utils.cpp_extension import load_inline

CUDA_SRC = """
#include <algorithm>

struct Tile {
    int rows;
    bool operator<(const Tile& other) const { return rows < other.rows; }
};

__global__ void fill_kernel(float* out, int n) {
    if (threadIdx.x < n) out[threadIdx.x] = 1.0f;
}

torch::Tensor fill(torch::Tensor out) {
    fill_kernel<<<1, 256, 0,
                  0>>>(out.data_ptr<float>(), static_cast<int>(out.numel()));
    const Tile tile = std::max(Tile{64}, Tile{128});  // ERROR-HERE
    TORCH_CHECK(tile.rows == 128, "unreachable");
    return out;
}
"""

module = load_inline(name="hipify_breaks", cpp_sources="torch::Tensor fill(torch::Tensor out);",
                     cuda_sources=[CUDA_SRC], functions=["fill"], extra_cuda_cflags=["--offload-arch=gfx942"])
