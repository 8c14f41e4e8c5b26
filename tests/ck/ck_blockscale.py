#!POPCORN leaderboard amd-fp8-mm
#!POPCORN gpu MI300
# Corpus style: AMD's Composable Kernel from ROCm's include path. One instance of CK's FP8
# blockscale GEMM (DeviceGemmMultiD_ABScale_Xdl_CShuffle_V3, 1x128 A scales, 128x128 B scales,
# bf16 out) with the tile aiter tunes as 256x64x64x128 intrawave v1, padded on M, N and K so every
# shape runs. CK takes A and B K-major and their scales K-fastest: the launcher copies the
# leaderboard's M-major / N-major tensors into those layouts first.
from task import input_t, output_t
from torch.utils.cpp_extension import load_inline

CPP_WRAPPER = "void ck_fp8_mm(torch::Tensor a, torch::Tensor b, torch::Tensor as, torch::Tensor bs, torch::Tensor c);"

CUDA_SRC = r"""
#include <ck/ck.hpp>
#include <ck/tensor_operation/gpu/device/gemm_specialization.hpp>
#include <ck/tensor_operation/gpu/device/impl/device_gemm_multiple_d_xdl_cshuffle_v3_ab_scale.hpp>
#include <ck/tensor_operation/gpu/element/element_wise_operation.hpp>

template <ck::index_t... Is> using S = ck::Sequence<Is...>;
using Row = ck::tensor_layout::gemm::RowMajor;
using Col = ck::tensor_layout::gemm::ColumnMajor;
using PassThrough = ck::tensor_operation::element_wise::PassThrough;
using FP8 = ck::f8_t;
using BF16 = ck::bhalf_t;

// Tile: 256 threads, 64x64x128 block, 32x32 XDL (1x1 per wave), 16-byte K vectors.
using Gemm = ck::tensor_operation::device::DeviceGemmMultiD_ABScale_Xdl_CShuffle_V3<
    Row, Col, ck::Tuple<>, Row,                          // A [m,k] K-major, B [n,k] K-major, C row-major
    FP8, float, FP8, float, ck::Tuple<>, BF16, float, float,
    PassThrough, PassThrough, PassThrough,
    ck::tensor_operation::device::GemmSpecialization::MNKPadding,
    256, 1, 128, 128,                                    // threads; scale blocks M, N, K
    64, 64, 128, 16, 16, 32, 32, 1, 1,                   // M/N/K per block, AK1, BK1, XDL M/N, XDLs per wave
    S<8, 32, 1>, S<1, 0, 2>, S<1, 0, 2>, 2, 16, 16, 0,   // A block transfer
    S<8, 32, 1>, S<1, 0, 2>, S<1, 0, 2>, 2, 16, 16, 0,   // B block transfer
    1, 1, S<1, 32, 1, 8>, S<8>,                          // C shuffle
    ck::BlockGemmPipelineScheduler::Intrawave, ck::BlockGemmPipelineVersion::v1, FP8>;

void ck_fp8_mm(torch::Tensor a, torch::Tensor b, torch::Tensor as, torch::Tensor bs, torch::Tensor c) {
  const int m = a.size(0), n = b.size(0), k = a.size(1);
  auto gemm = Gemm{};
  auto argument = gemm.MakeArgument(a.data_ptr(), b.data_ptr(), {}, c.data_ptr(), m, n, k, k, k, {}, n,
                                    as.data_ptr(), bs.data_ptr(), PassThrough{}, PassThrough{}, PassThrough{});
  TORCH_CHECK(gemm.IsSupportedArgument(argument), "CK's blockscale GEMM does not support ", m, "x", n, "x", k);
  gemm.MakeInvoker().Run(argument);  // the default (null) queue, the one the leaderboard times
}
"""

_module = load_inline(name="ck_blockscale", cpp_sources=CPP_WRAPPER, cuda_sources=CUDA_SRC, functions=["ck_fp8_mm"],
                      # NOTE: CK converts between _Float16 and __half, which torch's HIP flags switch off; torch's
                      # prelude includes hip_fp16.h before the source, so only the command line can undo it.
                      extra_cuda_cflags=["--offload-arch=gfx942", "-std=c++20", "-O3",
                                         "-U__HIP_NO_HALF_OPERATORS__", "-U__HIP_NO_HALF_CONVERSIONS__"])


def custom_kernel(data: input_t) -> output_t:
    a, b, a_scale, b_scale, c = data
    _module.ck_fp8_mm(a.contiguous(), b.contiguous(), a_scale.contiguous(), b_scale.contiguous(), c)
    return c
