// Declarations-only stand-in; see torch/types.h for why it exists.
//
// hipify v1 (torch <= 2.10) turns at::cuda::getCurrentCUDAStream() into
// at::hip::getCurrentHIPStreamMasqueradingAsCUDA(); the stream it returns converts
// implicitly to hipStream_t, as the CUDA stream does to cudaStream_t.
#pragma once
#include <c10/hip/HIPStream.h>

namespace c10::hip {
class HIPStreamMasqueradingAsCUDA {
  public:
    operator hipStream_t() const;
    hipStream_t stream() const;
    DeviceIndex device_index() const;
    HIPStream hip_stream() const;
};
HIPStreamMasqueradingAsCUDA getCurrentHIPStreamMasqueradingAsCUDA(DeviceIndex device_index = -1);
HIPStreamMasqueradingAsCUDA getDefaultHIPStreamMasqueradingAsCUDA(DeviceIndex device_index = -1);
}  // namespace c10::hip
