// Declarations-only stand-in; see ../../../README.md.
//
// hipify v1 (torch <= 2.10) turns at::cuda::getCurrentCUDAStream() into
// at::hip::getCurrentHIPStreamMasqueradingAsCUDA(); the stream it returns converts
// implicitly to hipStream_t, as the CUDA stream does to cudaStream_t.
#pragma once

#include <c10/hip/HIPStream.h>

namespace c10::hip {

class HIPStreamMasqueradingAsCUDA {
  public:
    explicit HIPStreamMasqueradingAsCUDA(Stream stream);
    explicit HIPStreamMasqueradingAsCUDA(HIPStream stream);
    operator hipStream_t() const;
    operator Stream() const;
    hipStream_t stream() const;
    Stream unwrap() const;
    DeviceIndex device_index() const;
    Device device() const;
    HIPStream hip_stream() const;
    void synchronize() const;
};

HIPStreamMasqueradingAsCUDA getCurrentHIPStreamMasqueradingAsCUDA(DeviceIndex device_index = -1);
HIPStreamMasqueradingAsCUDA getDefaultHIPStreamMasqueradingAsCUDA(DeviceIndex device_index = -1);
HIPStreamMasqueradingAsCUDA getStreamFromPoolMasqueradingAsCUDA(bool high_priority = false,
                                                                DeviceIndex device_index = -1);
HIPStreamMasqueradingAsCUDA getStreamFromExternalMasqueradingAsCUDA(hipStream_t stream, DeviceIndex device_index);
void setCurrentHIPStreamMasqueradingAsCUDA(HIPStreamMasqueradingAsCUDA stream);

}  // namespace c10::hip

namespace at::hip {
using c10::hip::getCurrentHIPStreamMasqueradingAsCUDA;
using c10::hip::getDefaultHIPStreamMasqueradingAsCUDA;
using c10::hip::getStreamFromExternalMasqueradingAsCUDA;
using c10::hip::getStreamFromPoolMasqueradingAsCUDA;
using c10::hip::HIPStreamMasqueradingAsCUDA;
using c10::hip::setCurrentHIPStreamMasqueradingAsCUDA;
}  // namespace at::hip
