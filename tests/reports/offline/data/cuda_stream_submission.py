# Test submission (never run): written against CUDA names, as many load_inline examples are.
# On the ROCm runner torch hipifies it before hipcc sees it (CUDAContext.h -> HIPContext.h,
# cudaStream_t -> hipStream_t, <<<>>> -> hipLaunchKernelGGL); tests/reports/offline/test_hipify.py checks
# that the report compiles exactly that hipified text.
from torch.utils.cpp_extension import load_inline

CUDA_SRC = """
#include <ATen/cuda/CUDAContext.h>

__global__ void scale_kernel(const float* in, float* out, float factor, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = in[i] * factor;
}

torch::Tensor scale(torch::Tensor in, torch::Tensor out, double factor) {
    const int n = static_cast<int>(in.numel());
    cudaStream_t stream = at::cuda::getCurrentCUDAStream();
    scale_kernel<<<(n + 255) / 256, 256, 0, stream>>>(
        in.data_ptr<float>(), out.data_ptr<float>(), static_cast<float>(factor), n);
    TORCH_CHECK(cudaGetLastError() == cudaSuccess, "scale_kernel launch failed");
    return out;
}
"""

module = load_inline(name="cuda_stream", cpp_sources="torch::Tensor scale(torch::Tensor in, torch::Tensor out, double factor);",
                     cuda_sources=CUDA_SRC, functions=["scale"], extra_cuda_cflags=["--offload-arch=gfx942"])
