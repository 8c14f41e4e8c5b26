// The HIP runtime's device queries, events and streams, answering as one MI300X (gfx942) —
// the facts toolchain/simulated_host.py gives torch.cuda. Events stamp the host clock; streams are
// the one synchronous stream.
#pragma once
#include <chrono>
#include <cstring>

struct emu_event {
  double ms = 0;
};

#include "../../../machine/mi300x.h"  // the MI300X's facts (machine/mi300x.yaml)

namespace emu {
constexpr int kComputeUnits = int(machine::kCus);
inline double host_ms() {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now().time_since_epoch()).count();
}
}  // namespace emu

struct hipDeviceProp_t {
  char name[256] = "AMD Instinct MI300X";
  char gcnArchName[256] = "gfx942:sramecc+:xnack-";
  size_t totalGlobalMem = machine::kHbmBytes;
  size_t sharedMemPerBlock = machine::kLdsBytesPerCu;
  size_t maxSharedMemoryPerMultiProcessor = machine::kLdsBytesPerCu;
  int regsPerBlock = int(machine::kReportedRegsPerBlock);
  int warpSize = int(machine::kWaveSize);
  int maxThreadsPerBlock = int(machine::kMaxWorkgroupSize);
  int maxThreadsDim[3] = {1024, 1024, 1024};
  int maxGridSize[3] = {2147483647, 65536, 65536};
  int clockRate = int(machine::kClockGhz * 1e6);  // kHz
  int memoryClockRate = int(machine::kReportedMemoryClockKhz);
  int memoryBusWidth = int(machine::kMemoryBusBits);
  int major = 9, minor = 4;
  int multiProcessorCount = emu::kComputeUnits;
  int maxThreadsPerMultiProcessor = int(machine::kMaxThreadsPerCu);
  int l2CacheSize = int(machine::kL2BytesPerXcd);
  int computeMode = 0;
  int concurrentKernels = 1;
  int pciBusID = 0, pciDeviceID = 0, pciDomainID = 0;
  int isMultiGpuBoard = 0;
  int canMapHostMemory = 1;
  int cooperativeLaunch = 1, ECCEnabled = 1, integrated = 0, managedMemory = 1;
  int gcnArch = 942;
  size_t totalConstMem = 64 << 10;
};

#define MACHINE_DECLARE_HIP_ATTRIBUTES
#include "../../../machine/hip_attributes.h"  // HIP's attributes and the ones both engines answer
enum hipFuncAttribute { hipFuncAttributeMaxDynamicSharedMemorySize, hipFuncAttributePreferredSharedMemoryCarveout };
enum hipFuncCache_t { hipFuncCachePreferNone, hipFuncCachePreferShared, hipFuncCachePreferL1, hipFuncCachePreferEqual };
constexpr unsigned hipStreamDefault = 0, hipStreamNonBlocking = 1, hipEventDefault = 0, hipEventDisableTiming = 2;

inline hipError_t hipGetDeviceCount(int* n) {
  *n = 1;
  return hipSuccess;
}
inline hipError_t hipGetDeviceProperties(hipDeviceProp_t* p, int device) {
  *p = hipDeviceProp_t{};
  return device == 0 ? hipSuccess : hipErrorInvalidValue;
}
inline hipError_t hipDeviceGetAttribute(int* v, hipDeviceAttribute_t a, int device) {
  if (device != 0) return hipErrorInvalidValue;
  machine::hip_attribute(hipDeviceProp_t{}, a, v);
  return hipSuccess;
}
template <class F>
hipError_t hipFuncSetAttribute(F, hipFuncAttribute, int) { return hipSuccess; }
template <class F>
hipError_t hipFuncSetCacheConfig(F, hipFuncCache_t) { return hipSuccess; }
// NOTE: a placeholder answer (workgroups per CU from the 2048 work-item limit only); the
// emulator knows nothing of register or LDS occupancy.
template <class F>
hipError_t hipOccupancyMaxActiveBlocksPerMultiprocessor(int* n, F, int block_size, size_t = 0) {
  *n = block_size > 0 ? (2048 / block_size > 0 ? 2048 / block_size : 1) : 0;
  return hipSuccess;
}

inline hipError_t hipEventCreate(hipEvent_t* e) {
  *e = new emu_event;
  return hipSuccess;
}
inline hipError_t hipEventCreateWithFlags(hipEvent_t* e, unsigned) { return hipEventCreate(e); }
inline hipError_t hipEventRecord(hipEvent_t e, hipStream_t = nullptr) {
  e->ms = emu::host_ms();
  return hipSuccess;
}
inline hipError_t hipEventSynchronize(hipEvent_t) { return hipSuccess; }
inline hipError_t hipEventElapsedTime(float* ms, hipEvent_t start, hipEvent_t stop) {
  *ms = float(stop->ms - start->ms);
  return hipSuccess;
}
inline hipError_t hipEventDestroy(hipEvent_t e) {
  delete e;
  return hipSuccess;
}
inline hipError_t hipStreamCreate(hipStream_t* s) {
  *s = nullptr;
  return hipSuccess;
}
inline hipError_t hipStreamCreateWithFlags(hipStream_t* s, unsigned) { return hipStreamCreate(s); }
inline hipError_t hipStreamDestroy(hipStream_t) { return hipSuccess; }
inline hipError_t hipStreamWaitEvent(hipStream_t, hipEvent_t, unsigned = 0) { return hipSuccess; }
