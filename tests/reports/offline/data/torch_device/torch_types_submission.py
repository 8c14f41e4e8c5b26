# Test submission (imported by the report, never run on a GPU): device code on torch's own
# scalar types. The kernel template is instantiated from host code with c10::Half and
# c10::BFloat16 pointers (data_ptr<at::Half>()), so its code depends on those types'
# __host__ __device__ conversions, which toolchain/include/torch_device must give exactly as
# all of torch's headers do. Its kernels are `widen_kernel<c10::Half>` and `<c10::BFloat16>`.
from torch.utils.cpp_extension import load_inline

SOURCE = r"""
template <typename T>
__global__ void widen_kernel(const T* in, c10::BFloat16* out, at::Half bias, int n) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = c10::BFloat16(static_cast<float>(in[i]) * 2.0f + static_cast<float>(bias));
}

torch::Tensor widen(torch::Tensor in) {
    TORCH_CHECK(in.is_cuda(), "in must live on the GPU");
    auto out = torch::empty(in.sizes(), in.options().dtype(torch::kBFloat16));
    const int n = static_cast<int>(in.numel());
    const at::Half bias(0.5f);
    if (in.scalar_type() == at::kHalf) {
        widen_kernel<<<(n + 255) / 256, 256>>>(in.data_ptr<at::Half>(), out.data_ptr<at::BFloat16>(), bias, n);
    } else {
        widen_kernel<<<(n + 255) / 256, 256>>>(in.data_ptr<at::BFloat16>(), out.data_ptr<at::BFloat16>(), bias, n);
    }
    return out;
}
"""

module = load_inline(name="torch_types", cpp_sources="torch::Tensor widen(torch::Tensor in);", cuda_sources=SOURCE,
                     functions=["widen"])
