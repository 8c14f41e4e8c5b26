# Test submission (imported by the report, never run on a GPU): host code calls an operator
# toolchain/include/torch_device does not declare (at::matmul), so its device compile reads
# all of torch's headers and says so. Its kernel is `bias_kernel`.
from torch.utils.cpp_extension import load_inline

SOURCE = r"""
__global__ void bias_kernel(float* out, float bias, int n) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] += bias;
}

torch::Tensor matmul_bias(torch::Tensor a, torch::Tensor b, double bias) {
    torch::Tensor out = at::matmul(a, b).contiguous();
    const int n = static_cast<int>(out.numel());
    bias_kernel<<<(n + 255) / 256, 256>>>(out.data_ptr<float>(), static_cast<float>(bias), n);
    return out;
}
"""

module = load_inline(name="torch_op", cpp_sources="torch::Tensor matmul_bias(torch::Tensor a, torch::Tensor b, double bias);",
                     cuda_sources=SOURCE, functions=["matmul_bias"])
