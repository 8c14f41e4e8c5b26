// Declarations-only stand-in for ROCm torch's c10/hip/HIPStream.h; see ../../README.md.
//
// hipify maps c10/cuda/CUDAStream.h here. v2 (torch >= 2.11) keeps the CUDA names, which ROCm
// torch declares in c10::cuda with streams converting to hipStream_t; v1 (torch <= 2.10) uses
// c10::hip::HIPStream and the masquerading stream of ATen/hip/impl/. Both spellings work here.
#pragma once

#include <hip/hip_runtime.h>

#include <c10/core/Device.h>
#include <c10/core/Stream.h>

namespace c10::hip {

class HIPStream {
  public:
    explicit HIPStream(Stream stream);
    operator hipStream_t() const;
    operator Stream() const;
    hipStream_t stream() const;
    Stream unwrap() const;
    DeviceIndex device_index() const;
    Device device() const;
    StreamId id() const;
    bool query() const;
    void synchronize() const;
};

HIPStream getCurrentHIPStream(DeviceIndex device_index = -1);
HIPStream getDefaultHIPStream(DeviceIndex device_index = -1);
HIPStream getStreamFromPool(bool high_priority = false, DeviceIndex device_index = -1);
HIPStream getStreamFromExternal(hipStream_t stream, DeviceIndex device_index);
void setCurrentHIPStream(HIPStream stream);

}  // namespace c10::hip

namespace c10::cuda {
using CUDAStream = c10::hip::HIPStream;
CUDAStream getCurrentCUDAStream(DeviceIndex device_index = -1);
CUDAStream getDefaultCUDAStream(DeviceIndex device_index = -1);
using c10::hip::getStreamFromExternal;
using c10::hip::getStreamFromPool;
void setCurrentCUDAStream(CUDAStream stream);
}  // namespace c10::cuda
