// Declarations-only stand-in for ROCm torch's c10/hip/HIPFunctions.h (from CUDAFunctions.h).
#pragma once

#include <c10/core/Device.h>
#include <c10/hip/HIPException.h>

namespace c10::hip {
DeviceIndex device_count() noexcept;
DeviceIndex current_device();
void set_device(DeviceIndex device);
void device_synchronize();
}  // namespace c10::hip

namespace c10::cuda {
using c10::hip::current_device;
using c10::hip::device_count;
using c10::hip::device_synchronize;
using c10::hip::set_device;
}  // namespace c10::cuda
