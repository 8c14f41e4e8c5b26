// Definitions for the ROCm-only torch API that hipify leaves in a submission (streams, guards,
// device queries). The declarations are the stand-ins in toolchain/include/torch_hip, shared
// with the offline report; here they get bodies for the one simulated device: every stream is
// the null stream, since launches are synchronous.
#include <ATen/hip/HIPContext.h>

namespace {

c10::Device the_device() { return c10::Device(c10::DeviceType::CUDA, 0); }  // ROCm torch calls HIP "cuda"
c10::Stream null_stream() { return c10::Stream(c10::Stream::DEFAULT, the_device()); }

}  // namespace

namespace c10::hip {

HIPStream::HIPStream(Stream) {}
HIPStream::operator hipStream_t() const { return nullptr; }
HIPStream::operator Stream() const { return null_stream(); }
hipStream_t HIPStream::stream() const { return nullptr; }
Stream HIPStream::unwrap() const { return null_stream(); }
DeviceIndex HIPStream::device_index() const { return 0; }
Device HIPStream::device() const { return the_device(); }
StreamId HIPStream::id() const { return 0; }
bool HIPStream::query() const { return true; }
void HIPStream::synchronize() const {}

HIPStream getCurrentHIPStream(DeviceIndex) { return HIPStream(null_stream()); }
HIPStream getDefaultHIPStream(DeviceIndex) { return HIPStream(null_stream()); }
HIPStream getStreamFromPool(bool, DeviceIndex) { return HIPStream(null_stream()); }
HIPStream getStreamFromExternal(hipStream_t, DeviceIndex) { return HIPStream(null_stream()); }
void setCurrentHIPStream(HIPStream) {}

HIPStreamMasqueradingAsCUDA::HIPStreamMasqueradingAsCUDA(Stream) {}
HIPStreamMasqueradingAsCUDA::HIPStreamMasqueradingAsCUDA(HIPStream) {}
HIPStreamMasqueradingAsCUDA::operator hipStream_t() const { return nullptr; }
HIPStreamMasqueradingAsCUDA::operator Stream() const { return null_stream(); }
hipStream_t HIPStreamMasqueradingAsCUDA::stream() const { return nullptr; }
Stream HIPStreamMasqueradingAsCUDA::unwrap() const { return null_stream(); }
DeviceIndex HIPStreamMasqueradingAsCUDA::device_index() const { return 0; }
Device HIPStreamMasqueradingAsCUDA::device() const { return the_device(); }
HIPStream HIPStreamMasqueradingAsCUDA::hip_stream() const { return HIPStream(null_stream()); }
void HIPStreamMasqueradingAsCUDA::synchronize() const {}

HIPStreamMasqueradingAsCUDA getCurrentHIPStreamMasqueradingAsCUDA(DeviceIndex) {
  return HIPStreamMasqueradingAsCUDA(null_stream());
}
HIPStreamMasqueradingAsCUDA getDefaultHIPStreamMasqueradingAsCUDA(DeviceIndex) {
  return HIPStreamMasqueradingAsCUDA(null_stream());
}
HIPStreamMasqueradingAsCUDA getStreamFromPoolMasqueradingAsCUDA(bool, DeviceIndex) {
  return HIPStreamMasqueradingAsCUDA(null_stream());
}
HIPStreamMasqueradingAsCUDA getStreamFromExternalMasqueradingAsCUDA(hipStream_t, DeviceIndex) {
  return HIPStreamMasqueradingAsCUDA(null_stream());
}
void setCurrentHIPStreamMasqueradingAsCUDA(HIPStreamMasqueradingAsCUDA) {}

HIPGuard::HIPGuard(DeviceIndex) {}
HIPGuard::HIPGuard(Device) {}
void HIPGuard::set_device(Device) {}
void HIPGuard::set_index(DeviceIndex) {}
Device HIPGuard::original_device() const { return the_device(); }
Device HIPGuard::current_device() const { return the_device(); }
OptionalHIPGuard::OptionalHIPGuard() {}
OptionalHIPGuard::OptionalHIPGuard(std::optional<Device>) {}
OptionalHIPGuard::OptionalHIPGuard(std::optional<DeviceIndex>) {}
void OptionalHIPGuard::set_device(Device) {}
void OptionalHIPGuard::set_index(DeviceIndex) {}
void OptionalHIPGuard::reset() {}
HIPStreamGuard::HIPStreamGuard(Stream) {}
void HIPStreamGuard::reset_stream(Stream) {}
OptionalHIPStreamGuard::OptionalHIPStreamGuard() {}
OptionalHIPStreamGuard::OptionalHIPStreamGuard(Stream) {}
OptionalHIPStreamGuard::OptionalHIPStreamGuard(std::optional<Stream>) {}
void OptionalHIPStreamGuard::reset() {}

DeviceIndex device_count() noexcept { return 1; }
DeviceIndex current_device() { return 0; }
void set_device(DeviceIndex device) { TORCH_CHECK(device == 0, "the simulated machine has one device, 0"); }
void device_synchronize() {}

}  // namespace c10::hip

namespace c10::cuda {
CUDAStream getCurrentCUDAStream(DeviceIndex device) { return c10::hip::getCurrentHIPStream(device); }
CUDAStream getDefaultCUDAStream(DeviceIndex device) { return c10::hip::getDefaultHIPStream(device); }
void setCurrentCUDAStream(CUDAStream) {}
}  // namespace c10::cuda

namespace at::cuda {
int64_t getNumGPUs() { return 1; }
bool is_available() { return true; }
hipDeviceProp_t* getDeviceProperties(c10::DeviceIndex device) {
  static hipDeviceProp_t properties = [] {
    hipDeviceProp_t p{};
    (void)hipGetDeviceProperties(&p, 0);
    return p;
  }();
  TORCH_CHECK(device <= 0, "the simulated machine has one device, 0");
  return &properties;
}
hipDeviceProp_t* getCurrentDeviceProperties() { return getDeviceProperties(0); }
int warp_size() { return getCurrentDeviceProperties()->warpSize; }
}  // namespace at::cuda
