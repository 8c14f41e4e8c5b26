# Test submission (imported by the report, never run on a GPU): it asks torch.cuda about the
# device while being imported, as submissions sizing persistent grids do. The report's import
# must get past that on a machine without a GPU. Its kernel is `persistent_kernel`.
import torch
from torch.utils.cpp_extension import load_inline

NUM_CUS = torch.cuda.get_device_properties(0).multi_processor_count
DEVICE_NAME = torch.cuda.get_device_name()
WORKSPACE = torch.empty(16, device="cuda")

SOURCE = """
#include <hip/hip_runtime.h>

__global__ void __launch_bounds__(256) persistent_kernel(float* out, int tiles) {
    for (int tile = blockIdx.x; tile < tiles; tile += gridDim.x) out[tile * 256 + threadIdx.x] = 1.0f;
}
"""

module = load_inline(name=f"gpu_query_{NUM_CUS}", cpp_sources="", cuda_sources=SOURCE)
