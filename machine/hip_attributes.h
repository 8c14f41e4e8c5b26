// hipDeviceGetAttribute on both CPU engines: the attributes HIP declares and the ones the
// simulated MI300X answers, from either engine's hipDeviceProp_t. One list, so the engines
// agree; any other attribute raises, naming itself, instead of returning an error code that a
// submission may ignore and then read an uninitialised value.
//
// The ISA engine's runtime includes it after HIP's own hipDeviceAttribute_t; the source engine,
// which has no HIP headers, defines MACHINE_DECLARE_HIP_ATTRIBUTES for the enum to be declared here.
#pragma once

#include <stdexcept>
#include <string>

// Every attribute of HIP's hipDeviceAttribute_t (HIP 5.2, in its order), without the range
// markers (CudaCompatibleBegin/End, AmdSpecificBegin/End, VendorSpecificBegin).
#define MACHINE_HIP_DEVICE_ATTRIBUTES(X)                                                                        \
  X(EccEnabled) X(AccessPolicyMaxWindowSize) X(AsyncEngineCount) X(CanMapHostMemory)                            \
  X(CanUseHostPointerForRegisteredMem) X(ClockRate) X(ComputeMode) X(ComputePreemptionSupported)                \
  X(ConcurrentKernels) X(ConcurrentManagedAccess) X(CooperativeLaunch) X(CooperativeMultiDeviceLaunch)          \
  X(DeviceOverlap) X(DirectManagedMemAccessFromHost) X(GlobalL1CacheSupported) X(HostNativeAtomicSupported)     \
  X(Integrated) X(IsMultiGpuBoard) X(KernelExecTimeout) X(L2CacheSize) X(LocalL1CacheSupported) X(Luid)         \
  X(LuidDeviceNodeMask) X(ComputeCapabilityMajor) X(ManagedMemory) X(MaxBlocksPerMultiProcessor)                \
  X(MaxBlockDimX) X(MaxBlockDimY) X(MaxBlockDimZ) X(MaxGridDimX) X(MaxGridDimY) X(MaxGridDimZ)                  \
  X(MaxSurface1D) X(MaxSurface1DLayered) X(MaxSurface2D) X(MaxSurface2DLayered) X(MaxSurface3D)                 \
  X(MaxSurfaceCubemap) X(MaxSurfaceCubemapLayered) X(MaxTexture1DWidth) X(MaxTexture1DLayered)                  \
  X(MaxTexture1DLinear) X(MaxTexture1DMipmap) X(MaxTexture2DWidth) X(MaxTexture2DHeight)                        \
  X(MaxTexture2DGather) X(MaxTexture2DLayered) X(MaxTexture2DLinear) X(MaxTexture2DMipmap)                      \
  X(MaxTexture3DWidth) X(MaxTexture3DHeight) X(MaxTexture3DDepth) X(MaxTexture3DAlt) X(MaxTextureCubemap)       \
  X(MaxTextureCubemapLayered) X(MaxThreadsDim) X(MaxThreadsPerBlock) X(MaxThreadsPerMultiProcessor)             \
  X(MaxPitch) X(MemoryBusWidth) X(MemoryClockRate) X(ComputeCapabilityMinor) X(MultiGpuBoardGroupID)            \
  X(MultiprocessorCount) X(Name) X(PageableMemoryAccess) X(PageableMemoryAccessUsesHostPageTables)              \
  X(PciBusId) X(PciDeviceId) X(PciDomainID) X(PersistingL2CacheMaxSize) X(MaxRegistersPerBlock)                 \
  X(MaxRegistersPerMultiprocessor) X(ReservedSharedMemPerBlock) X(MaxSharedMemoryPerBlock)                      \
  X(SharedMemPerBlockOptin) X(SharedMemPerMultiprocessor) X(SingleToDoublePrecisionPerfRatio)                   \
  X(StreamPrioritiesSupported) X(SurfaceAlignment) X(TccDriver) X(TextureAlignment) X(TexturePitchAlignment)    \
  X(TotalConstantMemory) X(TotalGlobalMem) X(UnifiedAddressing) X(Uuid) X(WarpSize) X(MemoryPoolsSupported)     \
  X(ClockInstructionRate) X(Arch) X(MaxSharedMemoryPerMultiprocessor) X(GcnArch) X(GcnArchName)                 \
  X(HdpMemFlushCntl) X(HdpRegFlushCntl) X(CooperativeMultiDeviceUnmatchedFunc)                                  \
  X(CooperativeMultiDeviceUnmatchedGridDim) X(CooperativeMultiDeviceUnmatchedBlockDim)                          \
  X(CooperativeMultiDeviceUnmatchedSharedMem) X(IsLargeBar) X(AsicRevision) X(CanUseStreamWaitValue)            \
  X(ImageSupport) X(PhysicalMultiProcessorCount) X(FineGrainSupport)

// The attributes the simulated MI300X answers, each from hipDeviceProp_t `p`.
#define MACHINE_HIP_ANSWERED_ATTRIBUTES(X)                                                                  \
  X(MultiprocessorCount, p.multiProcessorCount) X(PhysicalMultiProcessorCount, p.multiProcessorCount)       \
  X(WarpSize, p.warpSize) X(MaxThreadsPerBlock, p.maxThreadsPerBlock)                                       \
  X(MaxThreadsPerMultiProcessor, p.maxThreadsPerMultiProcessor) X(MaxBlockDimX, p.maxThreadsDim[0])         \
  X(MaxBlockDimY, p.maxThreadsDim[1]) X(MaxBlockDimZ, p.maxThreadsDim[2]) X(MaxGridDimX, p.maxGridSize[0])  \
  X(MaxGridDimY, p.maxGridSize[1]) X(MaxGridDimZ, p.maxGridSize[2])                                         \
  X(MaxSharedMemoryPerBlock, p.sharedMemPerBlock) X(SharedMemPerBlockOptin, p.sharedMemPerBlock)            \
  X(MaxSharedMemoryPerMultiprocessor, p.maxSharedMemoryPerMultiProcessor)                                   \
  X(SharedMemPerMultiprocessor, p.maxSharedMemoryPerMultiProcessor) X(MaxRegistersPerBlock, p.regsPerBlock) \
  X(ClockRate, p.clockRate) X(MemoryClockRate, p.memoryClockRate) X(MemoryBusWidth, p.memoryBusWidth)      \
  X(L2CacheSize, p.l2CacheSize) X(ComputeCapabilityMajor, p.major) X(ComputeCapabilityMinor, p.minor)       \
  X(ComputeMode, p.computeMode) X(ConcurrentKernels, p.concurrentKernels) X(CooperativeLaunch, p.cooperativeLaunch) \
  X(EccEnabled, p.ECCEnabled) X(Integrated, p.integrated) X(IsMultiGpuBoard, p.isMultiGpuBoard)             \
  X(ManagedMemory, p.managedMemory) X(CanMapHostMemory, p.canMapHostMemory) X(PciBusId, p.pciBusID)         \
  X(PciDeviceId, p.pciDeviceID) X(PciDomainID, p.pciDomainID) X(GcnArch, p.gcnArch)

#ifdef MACHINE_DECLARE_HIP_ATTRIBUTES
#define MACHINE_ENUMERATOR(name) hipDeviceAttribute##name,
enum hipDeviceAttribute_t { MACHINE_HIP_DEVICE_ATTRIBUTES(MACHINE_ENUMERATOR) };
#undef MACHINE_ENUMERATOR
#endif

namespace machine {

// The name HIP gives attribute `a` ("hipDeviceAttribute..."), or "" for a value it does not declare.
inline std::string hip_attribute_name(int a) {
#define MACHINE_NAME_OF(name) \
  if (a == int(hipDeviceAttribute##name)) return "hipDeviceAttribute" #name;
  MACHINE_HIP_DEVICE_ATTRIBUTES(MACHINE_NAME_OF)
#undef MACHINE_NAME_OF
  return "";
}

// *value = attribute `a` of properties `p`; throws std::runtime_error naming an attribute the
// simulated MI300X does not answer (pybind gives Python a RuntimeError with the text).
template <class Properties>
void hip_attribute(const Properties& p, int a, int* value) {
  switch (a) {
#define MACHINE_ANSWER(name, field)  \
  case int(hipDeviceAttribute##name): \
    *value = int(field);              \
    return;
    MACHINE_HIP_ANSWERED_ATTRIBUTES(MACHINE_ANSWER)
#undef MACHINE_ANSWER
  }
  const std::string name = hip_attribute_name(a);
  throw std::runtime_error("hipDeviceGetAttribute(" + (name.empty() ? "attribute " + std::to_string(a) : name) +
                           ") (HIP runtime) is not available on the CPU engines: their simulated MI300X answers "
                           "its size, limits and identity only (machine/hip_attributes.h)");
}

}  // namespace machine
