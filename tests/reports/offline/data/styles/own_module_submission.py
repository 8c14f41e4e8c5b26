# Test submission (imported by the report, never run on a GPU): no_implicit_headers=True, no
# `functions`, empty cpp_sources: the HIP source includes torch and pybind11 itself and defines
# its own Python module. Its kernel is `own_module_kernel`.
from torch.utils.cpp_extension import load_inline

SOURCE = r"""
#include <torch/extension.h>
#include <hip/hip_runtime.h>

__global__ void own_module_kernel(float* out) { out[threadIdx.x] = 3.0f; }

torch::Tensor fill(torch::Tensor out) {
    hipLaunchKernelGGL(own_module_kernel, dim3(1), dim3(64), 0, 0, out.data_ptr<float>());
    return out;
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) { m.def("fill", &fill, "fill with 3"); }
"""

module = load_inline(name="own_module_style", cpp_sources="", cuda_sources=SOURCE, no_implicit_headers=True)
