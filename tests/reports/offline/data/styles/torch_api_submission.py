# Test submission (imported by the report, never run on a GPU): host code on torch's real API,
# which a declarations-only torch stub lacked: at::from_blob, at::kCUDA, at::kFloat, device
# guards, the current stream, launch checks. hipify rewrites the CUDA spellings as on the
# runner. Its kernel is `torch_api_kernel`.
from torch.utils.cpp_extension import load_inline

SOURCE = r"""
#include <ATen/cuda/CUDAContext.h>
#include <c10/cuda/CUDAGuard.h>

__global__ void torch_api_kernel(const float* in, float* out, int n) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = in[i] + 1.0f;
}

torch::Tensor add_one(torch::Tensor in, int64_t workspace_address) {
    const at::cuda::OptionalCUDAGuard guard(device_of(in));
    TORCH_CHECK(in.is_cuda() && in.scalar_type() == at::kFloat, "in must be a float tensor on the GPU");
    auto options = at::TensorOptions().dtype(at::kFloat).device(at::kCUDA, in.get_device());
    torch::Tensor out = at::from_blob(reinterpret_cast<void*>(workspace_address), in.sizes(), options);
    const int n = static_cast<int>(in.numel());
    cudaStream_t stream = at::cuda::getCurrentCUDAStream();
    torch_api_kernel<<<(n + 255) / 256, 256, 0, stream>>>(in.data_ptr<float>(), out.data_ptr<float>(), n);
    C10_CUDA_KERNEL_LAUNCH_CHECK();
    const int cus = at::cuda::getCurrentDeviceProperties()->multiProcessorCount;
    TORCH_CHECK(cus > 0, "no compute units");
    return out.clone();
}
"""

module = load_inline(name="torch_api_style", cpp_sources="torch::Tensor add_one(torch::Tensor in, int64_t workspace_address);",
                     cuda_sources=SOURCE, functions=["add_one"])
