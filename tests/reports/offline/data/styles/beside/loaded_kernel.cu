// Compiled through torch.utils.cpp_extension.load by load_submission.py: no headers are
// prepended to a file, so it includes what it needs itself.
#include <torch/extension.h>
#include <cuda_runtime.h>

__global__ void loaded_kernel(float* out) { out[threadIdx.x] = 5.0f; }

torch::Tensor fill(torch::Tensor out) {
    loaded_kernel<<<1, 64>>>(out.data_ptr<float>());
    return out;
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) { m.def("fill", &fill); }
