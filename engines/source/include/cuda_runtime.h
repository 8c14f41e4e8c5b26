// CUDA runtime names for HIP sources that kept them: on a ROCm runner torch's load_inline
// hipifies them (cudaStream_t -> hipStream_t, ...); here they alias the emulator's HIP runtime.
#pragma once
#include <hip/hip_runtime.h>

typedef hipStream_t cudaStream_t;
typedef hipError_t cudaError_t;
typedef hipEvent_t cudaEvent_t;
typedef hipMemcpyKind cudaMemcpyKind;
constexpr cudaError_t cudaSuccess = hipSuccess;
constexpr cudaMemcpyKind cudaMemcpyHostToHost = hipMemcpyHostToHost;
constexpr cudaMemcpyKind cudaMemcpyHostToDevice = hipMemcpyHostToDevice;
constexpr cudaMemcpyKind cudaMemcpyDeviceToHost = hipMemcpyDeviceToHost;
constexpr cudaMemcpyKind cudaMemcpyDeviceToDevice = hipMemcpyDeviceToDevice;
constexpr cudaMemcpyKind cudaMemcpyDefault = hipMemcpyDefault;
#define cudaGetLastError hipGetLastError
#define cudaPeekAtLastError hipPeekAtLastError
#define cudaGetErrorString hipGetErrorString
#define cudaDeviceSynchronize hipDeviceSynchronize
#define cudaStreamSynchronize hipStreamSynchronize
#define cudaMalloc hipMalloc
#define cudaFree hipFree
#define cudaMemset hipMemset
#define cudaMemsetAsync hipMemsetAsync
#define cudaMemcpy hipMemcpy
#define cudaMemcpyAsync hipMemcpyAsync
#define cudaMemcpyToSymbol hipMemcpyToSymbol
#define cudaGetDevice hipGetDevice
#define cudaSetDevice hipSetDevice
