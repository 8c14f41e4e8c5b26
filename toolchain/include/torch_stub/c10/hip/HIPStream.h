// Declarations-only stand-in; see torch/types.h for why it exists.
//
// What the two hipify generations leave a stream accessor as: v1 (torch <= 2.10, the runner's
// 2.10 nightly) renames at::cuda::getCurrentCUDAStream to the masquerading accessor in
// ATen/hip/impl/HIPStreamMasqueradingAsCUDA.h; v2 (torch >= 2.11) keeps the CUDA names, which
// ROCm torch then declares here, in c10::cuda, with the stream converting to hipStream_t.
#pragma once
#include <torch/types.h>

namespace c10 {
using DeviceIndex = int8_t;

namespace hip {
class HIPStream {
  public:
    operator hipStream_t() const;
    hipStream_t stream() const;
    DeviceIndex device_index() const;
};
HIPStream getCurrentHIPStream(DeviceIndex device_index = -1);
HIPStream getDefaultHIPStream(DeviceIndex device_index = -1);
}  // namespace hip

namespace cuda {
class CUDAStream {
  public:
    operator hipStream_t() const;
    hipStream_t stream() const;
    DeviceIndex device_index() const;
};
CUDAStream getCurrentCUDAStream(DeviceIndex device_index = -1);
CUDAStream getDefaultCUDAStream(DeviceIndex device_index = -1);
}  // namespace cuda
}  // namespace c10
