// Declarations-only stand-in; see torch/types.h for why it exists.
//
// hipify rewrites `#include <ATen/cuda/CUDAContext.h>` to this header (both generations);
// it makes the stream accessors of either generation visible under at::.
#pragma once
#include <ATen/hip/impl/HIPStreamMasqueradingAsCUDA.h>
#include <c10/hip/HIPStream.h>

namespace at::hip {
using c10::hip::getCurrentHIPStream;
using c10::hip::getCurrentHIPStreamMasqueradingAsCUDA;
using c10::hip::HIPStream;
using c10::hip::HIPStreamMasqueradingAsCUDA;
}  // namespace at::hip

namespace at::cuda {
using c10::cuda::CUDAStream;
using c10::cuda::getCurrentCUDAStream;
}  // namespace at::cuda
