// The HIP runtime API for one simulated MI300X: what clang's HIP host code, the HIP 5.2
// headers' inline functions and typical submissions call. Device memory is host memory,
// every launch runs to completion on the ISA engine before the call returns, so streams and
// events only keep order trivially; event times are host wall-clock, never MI300X timings.
#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <new>
#include <stdexcept>
#include <string>
#include <vector>

#include "mi300x.h"
#include "runtime.h"
#include "hip_attributes.h"  // after HIP's hipDeviceAttribute_t (runtime.h)

namespace isa_rt {
namespace {

// The MI300X's facts come from machine/mi300x.yaml (through the generated mi300x.h).
constexpr int kComputeUnits = int(machine::kCus);
constexpr int kWaveSize = int(machine::kWaveSize);
constexpr size_t kLdsBytes = machine::kLdsBytesPerCu;
constexpr int kMaxBlock = int(machine::kMaxWorkgroupSize);

thread_local hipError_t last_error = hipSuccess;
thread_local std::string last_message;

struct CallConfiguration {
  dim3 grid, block;
  size_t lds;
  hipStream_t stream;
};
thread_local std::vector<CallConfiguration> configurations;

struct Event {
  std::chrono::steady_clock::time_point at{};
  double device_us = -1;  // the simulated device clock when timing is on (isa::simulated_device_us)
  bool recorded = false;
};
struct Stream {};

hipDeviceProp_t mi300x_properties() {
  hipDeviceProp_t p{};
  std::strncpy(p.name, "AMD Instinct MI300X (simulated by the ISA engine)", sizeof p.name - 1);
  std::strncpy(p.gcnArchName, machine::kGcnArchName, sizeof p.gcnArchName - 1);
  p.gcnArch = 942;
  p.totalGlobalMem = machine::kHbmBytes;
  p.sharedMemPerBlock = kLdsBytes;
  p.maxSharedMemoryPerMultiProcessor = kLdsBytes;
  p.regsPerBlock = int(machine::kReportedRegsPerBlock);
  p.warpSize = kWaveSize;
  p.maxThreadsPerBlock = isa_rt::kMaxBlock;
  p.maxThreadsDim[0] = p.maxThreadsDim[1] = p.maxThreadsDim[2] = isa_rt::kMaxBlock;
  p.maxGridSize[0] = 2147483647;
  p.maxGridSize[1] = p.maxGridSize[2] = 65536;
  p.clockRate = int(machine::kClockGhz * 1e6);  // kHz
  p.memoryClockRate = int(machine::kReportedMemoryClockKhz);
  p.memoryBusWidth = int(machine::kMemoryBusBits);
  p.totalConstMem = size_t{2} << 30;
  p.major = 9;
  p.minor = 4;
  p.multiProcessorCount = kComputeUnits;
  p.l2CacheSize = int(machine::kL2BytesPerXcd);  // NOTE: per XCD
  p.maxThreadsPerMultiProcessor = int(machine::kMaxThreadsPerCu);
  p.clockInstructionRate = 100000;  // NOTE: s_memrealtime runs at 100 MHz
  p.concurrentKernels = 1;
  p.cooperativeLaunch = 1;
  p.managedMemory = 1;
  p.isLargeBar = 1;
  p.ECCEnabled = 1;
  p.canMapHostMemory = 1;
  return p;
}

const char* error_name(hipError_t e) {
  switch (e) {
    case hipSuccess: return "hipSuccess";
    case hipErrorInvalidValue: return "hipErrorInvalidValue";
    case hipErrorOutOfMemory: return "hipErrorOutOfMemory";
    case hipErrorInvalidDevice: return "hipErrorInvalidDevice";
    case hipErrorInvalidConfiguration: return "hipErrorInvalidConfiguration";
    case hipErrorInvalidDeviceFunction: return "hipErrorInvalidDeviceFunction";
    case hipErrorInvalidResourceHandle: return "hipErrorInvalidResourceHandle";
    case hipErrorLaunchFailure: return "hipErrorLaunchFailure";
    case hipErrorMissingConfiguration: return "hipErrorMissingConfiguration";
    case hipErrorNotSupported: return "hipErrorNotSupported";
    case hipErrorInvalidImage: return "hipErrorInvalidImage";
    case hipErrorNotFound: return "hipErrorNotFound";
    default: return "hipErrorUnknown";
  }
}

bool bad(dim3 d) { return d.x == 0 || d.y == 0 || d.z == 0; }

}  // namespace

hipError_t fail(hipError_t status, const std::string& message) {
  last_error = status;
  last_message = message;
  return status;
}

hipError_t launch(const void* host_stub, dim3 grid, dim3 block, void** args, size_t dynamic_lds) {
  const Kernel* kernel = nullptr;
  try {
    kernel = kernel_of(host_stub);
  } catch (const isa::Fault& fault) {
    (void)fail(hipErrorInvalidImage, fault.what());
    record_fault(fault.what());
    throw std::runtime_error(std::string("isa: ") + fault.what());
  }
  if (kernel == nullptr) return fail(hipErrorInvalidDeviceFunction, "hipLaunchKernel: the pointer names no registered __global__ function");
  if (bad(grid) || bad(block))
    return fail(hipErrorInvalidConfiguration, kernel->symbol + ": a grid or block dimension is 0");
  if (uint64_t{block.x} * block.y * block.z > kMaxBlock)
    return fail(hipErrorInvalidConfiguration, kernel->symbol + ": more than 1024 work-items per block");
  if (dynamic_lds > kLdsBytes)
    return fail(hipErrorInvalidValue, kernel->symbol + ": dynamic LDS above 64 KiB");
  count_launch();
  try {
    isa::launch(*kernel->code, kernel->symbol, isa::Dim3{grid.x, grid.y, grid.z},
                isa::Dim3{block.x, block.y, block.z}, args, static_cast<uint32_t>(dynamic_lds));
  } catch (const isa::Fault& fault) {
    (void)fail(hipErrorLaunchFailure, fault.what());
    record_fault(fault.what());
    throw std::runtime_error(std::string("isa: ") + fault.what());
  }
  return hipSuccess;
}

}  // namespace isa_rt

using isa_rt::fail;

extern "C" {

// ---- launches -------------------------------------------------------------------------

hipError_t __hipPushCallConfiguration(dim3 grid, dim3 block, size_t lds, hipStream_t stream) {
  isa_rt::configurations.push_back({grid, block, lds, stream});
  return hipSuccess;
}

hipError_t __hipPopCallConfiguration(dim3* grid, dim3* block, size_t* lds, hipStream_t* stream) {
  if (isa_rt::configurations.empty()) return fail(hipErrorMissingConfiguration);
  const auto c = isa_rt::configurations.back();
  isa_rt::configurations.pop_back();
  *grid = c.grid;
  *block = c.block;
  *lds = c.lds;
  *stream = c.stream;
  return hipSuccess;
}

hipError_t hipLaunchKernel(const void* function, dim3 grid, dim3 block, void** args, size_t lds, hipStream_t) {
  return isa_rt::launch(function, grid, block, args, lds);
}

hipError_t hipExtLaunchKernel(const void* function, dim3 grid, dim3 block, void** args, size_t lds,
                              hipStream_t stream, hipEvent_t start, hipEvent_t stop, int) {
  if (start != nullptr) (void)hipEventRecord(start, stream);
  const hipError_t status = isa_rt::launch(function, grid, block, args, lds);
  if (stop != nullptr) (void)hipEventRecord(stop, stream);
  return status;
}

hipError_t hipLaunchCooperativeKernel(const void* function, dim3 grid, dim3 block, void** args, unsigned int lds,
                                      hipStream_t) {
  return isa_rt::launch(function, grid, block, args, lds);
}

// ---- errors ---------------------------------------------------------------------------

hipError_t hipGetLastError() {
  const hipError_t e = isa_rt::last_error;
  isa_rt::last_error = hipSuccess;
  return e;
}

hipError_t hipPeekAtLastError() { return isa_rt::last_error; }

const char* hipGetErrorName(hipError_t e) { return isa_rt::error_name(e); }

const char* hipGetErrorString(hipError_t e) {
  // The last failure's own message says more than the name (which kernel, which fault).
  if (e == isa_rt::last_error && e != hipSuccess && !isa_rt::last_message.empty()) return isa_rt::last_message.c_str();
  return isa_rt::error_name(e);
}

// ---- device ---------------------------------------------------------------------------

hipError_t hipGetDeviceCount(int* count) {
  if (count == nullptr) return fail(hipErrorInvalidValue);
  *count = 1;
  return hipSuccess;
}

hipError_t hipGetDevice(int* device) {
  if (device == nullptr) return fail(hipErrorInvalidValue);
  *device = 0;
  return hipSuccess;
}

hipError_t hipSetDevice(int device) {
  return device == 0 ? hipSuccess : fail(hipErrorInvalidDevice, "the simulated machine has one device, 0");
}

hipError_t hipGetDeviceProperties(hipDeviceProp_t* props, int device) {
  if (props == nullptr) return fail(hipErrorInvalidValue);
  if (device != 0) return fail(hipErrorInvalidDevice);
  *props = isa_rt::mi300x_properties();
  return hipSuccess;
}

hipError_t hipDeviceGetAttribute(int* value, hipDeviceAttribute_t attribute, int device) {
  if (value == nullptr) return fail(hipErrorInvalidValue);
  if (device != 0) return fail(hipErrorInvalidDevice);
  machine::hip_attribute(isa_rt::mi300x_properties(), attribute, value);  // the source engine's answers too
  return hipSuccess;
}

hipError_t hipDeviceSynchronize() { return hipSuccess; }
hipError_t hipDeviceReset() { return hipSuccess; }

hipError_t hipFuncGetAttributes(hipFuncAttributes* attributes, const void* function) {
  if (attributes == nullptr) return fail(hipErrorInvalidValue);
  if (isa_rt::kernel_of(function) == nullptr) return fail(hipErrorInvalidDeviceFunction);
  // The engine's entry point does not expose register or LDS counts yet: limits only.
  *attributes = hipFuncAttributes{};
  attributes->maxThreadsPerBlock = isa_rt::kMaxBlock;
  attributes->maxDynamicSharedSizeBytes = static_cast<int>(isa_rt::kLdsBytes);
  return hipSuccess;
}

hipError_t hipFuncSetAttribute(const void* function, hipFuncAttribute attribute, int value) {
  if (isa_rt::kernel_of(function) == nullptr) return fail(hipErrorInvalidDeviceFunction);
  if (attribute == hipFuncAttributeMaxDynamicSharedMemorySize && (value < 0 || size_t(value) > isa_rt::kLdsBytes))
    return fail(hipErrorInvalidValue, "hipFuncSetAttribute: dynamic LDS above 64 KiB");
  return hipSuccess;
}

hipError_t hipFuncSetCacheConfig(const void*, hipFuncCache_t) { return hipSuccess; }
hipError_t hipFuncSetSharedMemConfig(const void*, hipSharedMemConfig) { return hipSuccess; }

hipError_t hipOccupancyMaxActiveBlocksPerMultiprocessor(int* blocks, const void* function, int block_size,
                                                        size_t dynamic_lds) {
  if (blocks == nullptr || block_size <= 0 || block_size > isa_rt::kMaxBlock) return fail(hipErrorInvalidValue);
  const isa_rt::Kernel* kernel = nullptr;
  try {
    kernel = isa_rt::kernel_of(function);
    if (kernel == nullptr) return fail(hipErrorInvalidDeviceFunction);
    // machine/occupancy.h on the kernel descriptor: the timing model's and the report's rule
    *blocks = int(isa::workgroups_per_cu(*kernel->code, kernel->symbol, uint32_t(block_size), uint32_t(dynamic_lds)));
  } catch (const isa::Fault& fault) {
    return fail(hipErrorInvalidDeviceFunction, fault.what());
  }
  return hipSuccess;
}

// ---- memory ---------------------------------------------------------------------------

hipError_t hipMalloc(void** pointer, size_t bytes) {
  if (pointer == nullptr) return fail(hipErrorInvalidValue);
  if (bytes == 0) {
    *pointer = nullptr;
    return hipSuccess;
  }
  // NOTE: hipMalloc returns 256-byte aligned memory (kernels may rely on it for dwordx4 loads).
  void* p = std::aligned_alloc(256, (bytes + 255) / 256 * 256);
  if (p == nullptr) return fail(hipErrorOutOfMemory);
  isa::note_allocation(p, bytes, "hipMalloc of " + std::to_string(bytes) + " bytes");
  *pointer = p;
  return hipSuccess;
}

hipError_t hipMallocAsync(void** pointer, size_t bytes, hipStream_t) { return hipMalloc(pointer, bytes); }
hipError_t hipHostMalloc(void** pointer, size_t bytes, unsigned int) { return hipMalloc(pointer, bytes); }
hipError_t hipMallocManaged(void** pointer, size_t bytes, unsigned int) { return hipMalloc(pointer, bytes); }

hipError_t hipFree(void* pointer) {
  if (pointer != nullptr) {
    isa::forget_allocation(pointer);
    std::free(pointer);
  }
  return hipSuccess;
}

hipError_t hipFreeAsync(void* pointer, hipStream_t) { return hipFree(pointer); }
hipError_t hipHostFree(void* pointer) { return hipFree(pointer); }

hipError_t hipMemcpy(void* dst, const void* src, size_t bytes, hipMemcpyKind) {
  if (bytes != 0 && (dst == nullptr || src == nullptr)) return fail(hipErrorInvalidValue, "hipMemcpy: null pointer");
  if (bytes != 0) std::memmove(dst, src, bytes);
  return hipSuccess;
}

hipError_t hipMemcpyAsync(void* dst, const void* src, size_t bytes, hipMemcpyKind kind, hipStream_t) {
  return hipMemcpy(dst, src, bytes, kind);
}

hipError_t hipMemcpyDtoD(hipDeviceptr_t dst, hipDeviceptr_t src, size_t bytes) {
  return hipMemcpy(dst, src, bytes, hipMemcpyDeviceToDevice);
}
hipError_t hipMemcpyHtoD(hipDeviceptr_t dst, void* src, size_t bytes) {
  return hipMemcpy(dst, src, bytes, hipMemcpyHostToDevice);
}
hipError_t hipMemcpyDtoH(void* dst, hipDeviceptr_t src, size_t bytes) {
  return hipMemcpy(dst, src, bytes, hipMemcpyDeviceToHost);
}

hipError_t hipMemset(void* dst, int value, size_t bytes) {
  if (bytes != 0 && dst == nullptr) return fail(hipErrorInvalidValue, "hipMemset: null pointer");
  if (bytes != 0) std::memset(dst, value, bytes);
  return hipSuccess;
}

hipError_t hipMemsetAsync(void* dst, int value, size_t bytes, hipStream_t) { return hipMemset(dst, value, bytes); }

hipError_t hipMemsetD32(hipDeviceptr_t dst, int value, size_t count) {
  if (count != 0 && dst == nullptr) return fail(hipErrorInvalidValue, "hipMemsetD32: null pointer");
  auto* words = static_cast<int*>(dst);
  for (size_t i = 0; i < count; ++i) words[i] = value;
  return hipSuccess;
}

hipError_t hipMemsetD32Async(hipDeviceptr_t dst, int value, size_t count, hipStream_t) {
  return hipMemsetD32(dst, value, count);
}

// ---- streams and events ---------------------------------------------------------------

hipError_t hipStreamCreate(hipStream_t* stream) {
  if (stream == nullptr) return fail(hipErrorInvalidValue);
  *stream = reinterpret_cast<hipStream_t>(new isa_rt::Stream);
  return hipSuccess;
}

hipError_t hipStreamCreateWithFlags(hipStream_t* stream, unsigned int) { return hipStreamCreate(stream); }
hipError_t hipStreamCreateWithPriority(hipStream_t* stream, unsigned int, int) { return hipStreamCreate(stream); }

hipError_t hipStreamDestroy(hipStream_t stream) {
  delete reinterpret_cast<isa_rt::Stream*>(stream);
  return hipSuccess;
}

hipError_t hipStreamSynchronize(hipStream_t) { return hipSuccess; }
hipError_t hipStreamQuery(hipStream_t) { return hipSuccess; }
hipError_t hipStreamWaitEvent(hipStream_t, hipEvent_t, unsigned int) { return hipSuccess; }

hipError_t hipEventCreate(hipEvent_t* event) {
  if (event == nullptr) return fail(hipErrorInvalidValue);
  *event = reinterpret_cast<hipEvent_t>(new isa_rt::Event);
  return hipSuccess;
}

hipError_t hipEventCreateWithFlags(hipEvent_t* event, unsigned int) { return hipEventCreate(event); }

hipError_t hipEventDestroy(hipEvent_t event) {
  delete reinterpret_cast<isa_rt::Event*>(event);
  return hipSuccess;
}

hipError_t hipEventRecord(hipEvent_t event, hipStream_t) {
  if (event == nullptr) return fail(hipErrorInvalidResourceHandle);
  auto* e = reinterpret_cast<isa_rt::Event*>(event);
  e->at = std::chrono::steady_clock::now();
  e->device_us = isa::simulated_device_us();
  e->recorded = true;
  return hipSuccess;
}

hipError_t hipEventSynchronize(hipEvent_t event) {
  return event == nullptr ? fail(hipErrorInvalidResourceHandle) : hipSuccess;
}

hipError_t hipEventQuery(hipEvent_t event) {
  return event == nullptr ? fail(hipErrorInvalidResourceHandle) : hipSuccess;
}

// Milliseconds between two records: the simulated MI300X's kernel time when both were recorded
// while the predictor timed the launches, else the host's wall clock (the engine's own run
// time, not MI300X's).
hipError_t hipEventElapsedTime(float* ms, hipEvent_t start, hipEvent_t stop) {
  if (ms == nullptr || start == nullptr || stop == nullptr) return fail(hipErrorInvalidValue);
  const auto* a = reinterpret_cast<isa_rt::Event*>(start);
  const auto* b = reinterpret_cast<isa_rt::Event*>(stop);
  if (!a->recorded || !b->recorded) return fail(hipErrorInvalidResourceHandle, "hipEventElapsedTime: event not recorded");
  if (a->device_us >= 0 && b->device_us >= 0) {
    *ms = float((b->device_us - a->device_us) / 1000.0);
    return hipSuccess;
  }
  *ms = std::chrono::duration<float, std::milli>(b->at - a->at).count();
  return hipSuccess;
}

}  // extern "C"
