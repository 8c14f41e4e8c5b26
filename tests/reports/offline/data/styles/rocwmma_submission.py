# Test submission (imported by the report, never run on a GPU): an fp8 GEMM on rocWMMA
# fragments, in the shape of the leaderboard's winning submission, that also includes hipCUB,
# CK and hipBLASLt headers it never uses. None of these libraries installs here: the report
# compiles our stand-ins and says so. Its kernel is `rocwmma_fp8_gemm_kernel`.
from torch.utils.cpp_extension import load_inline

SOURCE = r"""
#include <hip/hip_runtime.h>
#include <hip/hip_fp8.h>
#include <rocwmma/rocwmma.hpp>
#include <hipcub/hipcub.hpp>
#include <ck/ck.hpp>
#include <ck/tensor_operation/gpu/device/tensor_layout.hpp>
#include <hipblaslt/hipblaslt.h>

namespace wmma = rocwmma;

constexpr int kTile = 32;
constexpr int kStepK = 64;

// a: M x K row-major fp8, b: N x K row-major fp8 (so B = b^T is K x N column-major),
// c: M x N row-major bf16; one wave per 32x32 tile of c.
__global__ void __launch_bounds__(64) rocwmma_fp8_gemm_kernel(const wmma::float8_t* a, const wmma::float8_t* b,
                                                              __hip_bfloat16* c, int m, int n, int k) {
    const int row = blockIdx.y * kTile, col = blockIdx.x * kTile;
    wmma::fragment<wmma::matrix_a, kTile, kTile, kStepK, wmma::float8_t, wmma::row_major> fa;
    wmma::fragment<wmma::matrix_b, kTile, kTile, kStepK, wmma::float8_t, wmma::col_major> fb;
    wmma::fragment<wmma::accumulator, kTile, kTile, kStepK, float> acc;
    wmma::fill_fragment(acc, 0.0f);
    for (int kk = 0; kk < k; kk += kStepK) {
        wmma::load_matrix_sync(fa, a + row * k + kk, k);
        wmma::load_matrix_sync(fb, b + col * k + kk, k);
        wmma::mma_sync(acc, fa, fb, acc);
    }
    float staged[acc.num_elements];
    for (int i = 0; i < acc.num_elements; ++i) staged[i] = acc.x[i];
    wmma::fragment<wmma::accumulator, kTile, kTile, kStepK, __hip_bfloat16> out;
    for (int i = 0; i < out.num_elements; ++i) out.x[i] = __hip_bfloat16(staged[i]);
    wmma::store_matrix_sync(c + row * n + col, out, n, wmma::mem_row_major);
}

torch::Tensor gemm(torch::Tensor a, torch::Tensor b, torch::Tensor c) {
    const int m = a.size(0), n = b.size(0), k = a.size(1);
    hipLaunchKernelGGL(rocwmma_fp8_gemm_kernel, dim3(n / kTile, m / kTile), dim3(64), 0, 0,
                       reinterpret_cast<const wmma::float8_t*>(a.data_ptr()),
                       reinterpret_cast<const wmma::float8_t*>(b.data_ptr()),
                       reinterpret_cast<__hip_bfloat16*>(c.data_ptr()), m, n, k);
    return c;
}
"""

module = load_inline(name="rocwmma_style", cpp_sources="torch::Tensor gemm(torch::Tensor a, torch::Tensor b, torch::Tensor c);",
                     cuda_sources=SOURCE, functions=["gemm"], extra_cuda_cflags=["--offload-arch=gfx942", "-std=c++20"])
