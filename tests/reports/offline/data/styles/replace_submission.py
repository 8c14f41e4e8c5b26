# Test submission (imported by the report, never run on a GPU): a kernel template specialised
# with str.replace, so the text load_inline receives appears nowhere in this file. The tile
# width placeholder becomes 128 and the name `replace_kernel`.
from torch.utils.cpp_extension import load_inline

TEMPLATE = """
#include <hip/hip_runtime.h>

__global__ void __launch_bounds__(@THREADS@) @NAME@(const float* in, float* out, int n) {
    __shared__ float tile[@THREADS@];
    const int i = blockIdx.x * @THREADS@ + threadIdx.x;
    tile[threadIdx.x] = i < n ? in[i] : 0.0f;
    __syncthreads();
    if (i < n) out[i] = tile[@THREADS@ - 1 - threadIdx.x];
}
"""

SOURCE = TEMPLATE.replace("@THREADS@", "128").replace("@NAME@", "replace_kernel")

module = load_inline(name="replace_style", cpp_sources="", cuda_sources=SOURCE, functions=None)
