// Declarations-only stand-in for ROCm torch's c10/hip/HIPGuard.h (hipify maps
// c10/cuda/CUDAGuard.h here); the CUDA names of hipify v2 are aliases of the HIP ones.
#pragma once

#include <optional>

#include <c10/hip/HIPStream.h>

namespace c10::hip {

struct HIPGuard {
    explicit HIPGuard(DeviceIndex device_index);
    explicit HIPGuard(Device device);
    HIPGuard(const HIPGuard&) = delete;
    void set_device(Device device);
    void set_index(DeviceIndex device_index);
    Device original_device() const;
    Device current_device() const;
};

struct OptionalHIPGuard {
    OptionalHIPGuard();
    explicit OptionalHIPGuard(std::optional<Device> device);
    explicit OptionalHIPGuard(std::optional<DeviceIndex> device_index);
    OptionalHIPGuard(const OptionalHIPGuard&) = delete;
    void set_device(Device device);
    void set_index(DeviceIndex device_index);
    void reset();
};

struct HIPStreamGuard {
    explicit HIPStreamGuard(Stream stream);
    HIPStreamGuard(const HIPStreamGuard&) = delete;
    void reset_stream(Stream stream);
};

struct OptionalHIPStreamGuard {
    OptionalHIPStreamGuard();
    explicit OptionalHIPStreamGuard(Stream stream);
    explicit OptionalHIPStreamGuard(std::optional<Stream> stream);
    void reset();
};

}  // namespace c10::hip

namespace c10::cuda {
using CUDAGuard = c10::hip::HIPGuard;
using OptionalCUDAGuard = c10::hip::OptionalHIPGuard;
using CUDAStreamGuard = c10::hip::HIPStreamGuard;
using OptionalCUDAStreamGuard = c10::hip::OptionalHIPStreamGuard;
}  // namespace c10::cuda
