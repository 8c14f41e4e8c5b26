// Declarations-only stand-in for ROCm torch's ATen/hip/HIPContext.h; see ../../README.md.
//
// hipify rewrites `#include <ATen/cuda/CUDAContext.h>` to this header (both generations). As in
// torch it brings ATen itself, streams, guards, device properties and the check macros, under
// at::cuda (hipify v2 keeps those names) and at::hip (v1's names).
#pragma once

#include <hip/hip_runtime.h>

#include <ATen/ATen.h>
#include <ATen/hip/Exceptions.h>
#include <ATen/hip/impl/HIPGuardImplMasqueradingAsCUDA.h>
#include <ATen/hip/impl/HIPStreamMasqueradingAsCUDA.h>
#include <c10/hip/HIPFunctions.h>
#include <c10/hip/HIPGuard.h>
#include <c10/hip/HIPStream.h>

namespace at::cuda {
using c10::cuda::CUDAGuard;
using c10::cuda::CUDAStream;
using c10::cuda::CUDAStreamGuard;
using c10::cuda::current_device;
using c10::cuda::device_count;
using c10::cuda::getCurrentCUDAStream;
using c10::cuda::getDefaultCUDAStream;
using c10::cuda::getStreamFromExternal;
using c10::cuda::getStreamFromPool;
using c10::cuda::OptionalCUDAGuard;
using c10::cuda::OptionalCUDAStreamGuard;
using c10::cuda::setCurrentCUDAStream;
int64_t getNumGPUs();
bool is_available();
hipDeviceProp_t* getCurrentDeviceProperties();
hipDeviceProp_t* getDeviceProperties(c10::DeviceIndex device);
int warp_size();
}  // namespace at::cuda

namespace at::hip {
using c10::hip::current_device;
using c10::hip::device_count;
using c10::hip::getCurrentHIPStream;
using c10::hip::getDefaultHIPStream;
using c10::hip::HIPGuard;
using c10::hip::HIPStream;
using c10::hip::HIPStreamGuard;
using c10::hip::OptionalHIPGuard;
using at::cuda::getCurrentDeviceProperties;
using at::cuda::getDeviceProperties;
using at::cuda::getNumGPUs;
using at::cuda::is_available;
using at::cuda::warp_size;
}  // namespace at::hip
