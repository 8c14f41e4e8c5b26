// The emulator's <hip/hip_runtime.h>: the HIP subset a gfx942 kernel and its host launcher
// use, implemented on the CPU (see engines/source/README.md for the exact list).
#pragma once
#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <type_traits>

#include "emu/amdgcn.h"
#include "emu/engine.h"

#define __HIP_PLATFORM_AMD__ 1
#define __HIP_EMULATOR__ 1
#ifndef __gfx942__
#define __gfx942__ 1
#endif
#define __AMDGCN_WAVEFRONT_SIZE 64
#define __AMDGCN_WAVEFRONT_SIZE__ 64
// clang's memory scopes for __hip_atomic_* (predefined in HIP mode; the builtins themselves are
// clang's, available in C++ too).
#ifndef __HIP_MEMORY_SCOPE_SINGLETHREAD
#define __HIP_MEMORY_SCOPE_SINGLETHREAD 1
#define __HIP_MEMORY_SCOPE_WAVEFRONT 2
#define __HIP_MEMORY_SCOPE_WORKGROUP 3
#define __HIP_MEMORY_SCOPE_AGENT 4
#define __HIP_MEMORY_SCOPE_SYSTEM 5
#endif

// ---- qualifiers ------------------------------------------------------------------------------
#define __global__
#define __device__
#define __host__
#define __constant__
#define __forceinline__ inline __attribute__((always_inline))
#define __noinline__ __attribute__((noinline))
#define __launch_bounds__(...)
// AMDGPU kernel attributes: clang rejects them on host functions, so they expand to nothing
// inside __attribute__((...)) (an empty attribute is legal there).
#define amdgpu_flat_work_group_size(...)
#define amdgpu_waves_per_eu(...)
#define amdgpu_num_vgpr(...)
#define amdgpu_num_sgpr(...)
#define amdgpu_max_num_work_groups(...)
#define HIP_KERNEL_NAME(...) __VA_ARGS__
// `__shared__` declarations are rewritten by engines/source/preprocess.py; one left over here was
// not recognised.
#define __shared__ static_assert(false, "__shared__ in a form the emulator's preprocessor does not rewrite");
#define HIP_DYNAMIC_SHARED(type, var) type* var = ::emu::dynamic_lds<type>();

constexpr int warpSize = 64;

// ---- ids -------------------------------------------------------------------------------------
using dim3 = ::emu::dim3_t;
// As in HIP, each is an object whose x/y/z convert to the calling work-item's value (not a
// macro, so members and functions of the same name elsewhere, e.g. rocWMMA's blockDim(), work).
namespace emu {
struct ThreadIds { static const UInt3& get() { return current_lane().thread_idx; } };
struct BlockIds { static const UInt3& get() { return current_lane().group->block_idx; } };
struct BlockDims { static const dim3_t& get() { return current_lane().group->launch->block; } };
struct GridDims { static const dim3_t& get() { return current_lane().group->launch->grid; } };
template <class F>
struct Coordinates {
  struct X { operator unsigned() const { return F::get().x; } };
  struct Y { operator unsigned() const { return F::get().y; } };
  struct Z { operator unsigned() const { return F::get().z; } };
  static constexpr X x{};
  static constexpr Y y{};
  static constexpr Z z{};
  operator dim3_t() const { return dim3_t(F::get().x, F::get().y, F::get().z); }
};
}  // namespace emu
inline constexpr ::emu::Coordinates<::emu::ThreadIds> threadIdx{};
inline constexpr ::emu::Coordinates<::emu::BlockIds> blockIdx{};
inline constexpr ::emu::Coordinates<::emu::BlockDims> blockDim{};
inline constexpr ::emu::Coordinates<::emu::GridDims> gridDim{};
inline unsigned __lane_id() { return ::emu::current_lane().lane_id; }

// ---- synchronisation ------------------------------------------------------------------------
inline void __syncthreads(::emu::Loc site = ::emu::Loc::current()) {
  ::emu::workgroup_barrier("__syncthreads/s_barrier", site);
}
inline void __syncwarp(::emu::Loc site = ::emu::Loc::current()) {
  ::emu::cross_lane<::emu::WaveSyncOp>(0, site);
}
inline void __threadfence() { std::atomic_thread_fence(std::memory_order_seq_cst); }
inline void __threadfence_block() {}
inline void __threadfence_system() { std::atomic_thread_fence(std::memory_order_seq_cst); }

// ---- warp (wave64) functions ----------------------------------------------------------------
namespace emu {
template <class T>
T shuffle(T var, int src_lane, const Loc& site) {
  static_assert(sizeof(T) <= 8 && std::is_trivially_copyable_v<T>, "__shfl of a type wider than 8 bytes");
  uint64_t bits = 0;
  std::memcpy(&bits, &var, sizeof(T));
  bits = cross_lane<BpermuteOp>({src_lane << 2, bits}, site);
  T out;
  std::memcpy(&out, &bits, sizeof(T));
  return out;
}
}  // namespace emu
// HIP's rules: lanes are grouped in segments of `width`; sources outside the caller's
// segment read the caller's own value.
template <class T>
T __shfl(T var, int src_lane, int width = warpSize, ::emu::Loc site = ::emu::Loc::current()) {
  int self = int(__lane_id());
  return ::emu::shuffle(var, (src_lane & (width - 1)) + (self & ~(width - 1)), site);
}
template <class T>
T __shfl_up(T var, unsigned delta, int width = warpSize, ::emu::Loc site = ::emu::Loc::current()) {
  int self = int(__lane_id()), src = self - int(delta);
  return ::emu::shuffle(var, src < (self & ~(width - 1)) ? self : src, site);
}
template <class T>
T __shfl_down(T var, unsigned delta, int width = warpSize, ::emu::Loc site = ::emu::Loc::current()) {
  int self = int(__lane_id());
  int src = int((self & (width - 1)) + int(delta)) >= width ? self : self + int(delta);
  return ::emu::shuffle(var, src, site);
}
template <class T>
T __shfl_xor(T var, int lane_mask, int width = warpSize, ::emu::Loc site = ::emu::Loc::current()) {
  int self = int(__lane_id()), src = self ^ lane_mask;
  return ::emu::shuffle(var, src >= ((self + width) & ~(width - 1)) ? self : src, site);
}
inline unsigned long long __ballot(int p, ::emu::Loc site = ::emu::Loc::current()) {
  return __builtin_amdgcn_ballot_w64(p != 0, site);
}
inline unsigned long long __ballot64(int p, ::emu::Loc site = ::emu::Loc::current()) { return __ballot(p, site); }
inline int __any(int p, ::emu::Loc site = ::emu::Loc::current()) { return __ballot(p, site) != 0; }
inline int __all(int p, ::emu::Loc site = ::emu::Loc::current()) {
  auto exec = ::emu::cross_lane<::emu::BallotOp>(true, site);
  return __builtin_amdgcn_ballot_w64(p != 0, site) == exec;
}
inline unsigned long long __activemask(::emu::Loc site = ::emu::Loc::current()) {
  return __builtin_amdgcn_read_exec(site);
}

// HIP 6.3's warp functions with a lane mask (torch's ROCm build defines HIP_ENABLE_WARP_SYNC_BUILTINS,
// which declares them): the mask-less function's value, votes restricted to the mask. As there,
// the mask must be a 64-bit integer.
#define EMU_CHECK_WARP_MASK(MaskT) \
  static_assert(sizeof(MaskT) == 8, "The mask must be a 64-bit integer (64 lanes on gfx942): HIP 6.3 *_sync warp functions")
template <class MaskT, class T>
T __shfl_sync(MaskT, T var, int src_lane, int width = warpSize, ::emu::Loc site = ::emu::Loc::current()) {
  EMU_CHECK_WARP_MASK(MaskT);
  return __shfl(var, src_lane, width, site);
}
template <class MaskT, class T>
T __shfl_up_sync(MaskT, T var, unsigned delta, int width = warpSize, ::emu::Loc site = ::emu::Loc::current()) {
  EMU_CHECK_WARP_MASK(MaskT);
  return __shfl_up(var, delta, width, site);
}
template <class MaskT, class T>
T __shfl_down_sync(MaskT, T var, unsigned delta, int width = warpSize, ::emu::Loc site = ::emu::Loc::current()) {
  EMU_CHECK_WARP_MASK(MaskT);
  return __shfl_down(var, delta, width, site);
}
template <class MaskT, class T>
T __shfl_xor_sync(MaskT, T var, int lane_mask, int width = warpSize, ::emu::Loc site = ::emu::Loc::current()) {
  EMU_CHECK_WARP_MASK(MaskT);
  return __shfl_xor(var, lane_mask, width, site);
}
template <class MaskT>
unsigned long long __ballot_sync(MaskT mask, int p, ::emu::Loc site = ::emu::Loc::current()) {
  EMU_CHECK_WARP_MASK(MaskT);
  return __ballot(p, site) & (unsigned long long)mask;
}
template <class MaskT>
int __any_sync(MaskT mask, int p, ::emu::Loc site = ::emu::Loc::current()) {
  return __ballot_sync(mask, p, site) != 0;
}
template <class MaskT>
int __all_sync(MaskT mask, int p, ::emu::Loc site = ::emu::Loc::current()) {
  auto exec = ::emu::cross_lane<::emu::BallotOp>(true, site);
  return __ballot_sync(mask, p, site) == ((unsigned long long)mask & exec);
}
#undef EMU_CHECK_WARP_MASK

// ---- clocks (debug timing only: host counters, not MI300X time) --------------------------------
inline long long clock64() { return (long long)__builtin_amdgcn_s_memtime(); }
inline long long wall_clock64() { return (long long)__builtin_amdgcn_s_memrealtime(); }
inline long long __clock64() { return clock64(); }

// ---- bit tricks and reinterpretation ---------------------------------------------------------
inline int __popc(unsigned x) { return __builtin_popcount(x); }
inline int __popcll(unsigned long long x) { return __builtin_popcountll(x); }
inline int __ffs(unsigned x) { return __builtin_ffs(int(x)); }
inline int __ffsll(unsigned long long x) { return __builtin_ffsll((long long)x); }
inline int __clz(int x) { return x == 0 ? 32 : __builtin_clz(unsigned(x)); }
inline int __clzll(long long x) { return x == 0 ? 64 : __builtin_clzll((unsigned long long)x); }
inline unsigned __brev(unsigned x) { return __builtin_bitreverse32(x); }
inline float __int_as_float(int x) { return ::emu::bit_cast<float>(x); }
inline float __uint_as_float(unsigned x) { return ::emu::bit_cast<float>(x); }
inline int __float_as_int(float x) { return ::emu::bit_cast<int>(x); }
inline unsigned __float_as_uint(float x) { return ::emu::bit_cast<unsigned>(x); }
inline int __float2int_rn(float x) { return int(std::nearbyint(x)); }
inline int __float2int_rz(float x) { return int(x); }
inline float __fmaf_rn(float a, float b, float c) { return std::fma(a, b, c); }
inline float __fdividef(float a, float b) { return a / b; }
inline float __expf(float x) { return std::exp(x); }
inline float __logf(float x) { return std::log(x); }
inline float __frcp_rn(float x) { return 1.0f / x; }
inline float rsqrtf(float x) { return 1.0f / std::sqrt(x); }
using std::max;
using std::min;
inline int max(int a, int b) { return a > b ? a : b; }
inline int min(int a, int b) { return a < b ? a : b; }
inline unsigned max(unsigned a, unsigned b) { return a > b ? a : b; }
inline unsigned min(unsigned a, unsigned b) { return a < b ? a : b; }
template <class T>
T __ldg(const T* p) { return *p; }

// ---- atomics (real atomics: workgroups run on several threads) -------------------------------
template <class T>
T atomicAdd(T* p, T v) {
  return std::atomic_ref<T>(*p).fetch_add(v);
}
template <class T>
T atomicSub(T* p, T v) {
  return std::atomic_ref<T>(*p).fetch_sub(v);
}
template <class T>
T atomicExch(T* p, T v) {
  return std::atomic_ref<T>(*p).exchange(v);
}
template <class T>
T atomicCAS(T* p, T expected, T desired) {
  std::atomic_ref<T>(*p).compare_exchange_strong(expected, desired);
  return expected;
}
// Replaces *p by v while v beats it; returns the value seen before (atomicMax/atomicMin).
template <class T, class Beats>
T atomic_replace_while(T* p, T v, Beats beats) {
  std::atomic_ref<T> a(*p);
  T old = a.load();
  while (beats(v, old) && !a.compare_exchange_weak(old, v)) {}
  return old;
}
template <class T>
T atomicMax(T* p, T v) { return atomic_replace_while(p, v, [](T x, T y) { return y < x; }); }
template <class T>
T atomicMin(T* p, T v) { return atomic_replace_while(p, v, [](T x, T y) { return x < y; }); }
template <class T>
T atomicOr(T* p, T v) { return std::atomic_ref<T>(*p).fetch_or(v); }
template <class T>
T atomicAnd(T* p, T v) { return std::atomic_ref<T>(*p).fetch_and(v); }
template <class T>
T unsafeAtomicAdd(T* p, T v) { return atomicAdd(p, v); }

// ---- vector types ---------------------------------------------------------------------------
// Every vector type HIP declares: {char, uchar, short, ushort, int, uint, long, ulong, longlong,
// ulonglong, float, double} x {1, 2, 3, 4}, each with its make_<type>().
// NOTE: aligned like their element type: gfx942's b64/b128 LDS and global accesses need only dword
// alignment (a float4 at a 4-byte-aligned address is legal), while an x86 load of a 16-byte-aligned
// vector type is an aligned SSE move that faults there. Unaligned moves cost the same on aligned data.
#define EMU_VECTOR_TYPES(T, NAME)                                                           \
  typedef T NAME##1 __attribute__((ext_vector_type(1), aligned(alignof(T))));               \
  typedef T NAME##2 __attribute__((ext_vector_type(2), aligned(alignof(T))));               \
  typedef T NAME##4 __attribute__((ext_vector_type(4), aligned(alignof(T))));               \
  struct NAME##3 {                                                                          \
    T x, y, z;                                                                              \
  };                                                                                        \
  inline NAME##1 make_##NAME##1(T x) { return NAME##1{x}; }                                 \
  inline NAME##2 make_##NAME##2(T x, T y) { return NAME##2{x, y}; }                         \
  inline NAME##3 make_##NAME##3(T x, T y, T z) { return NAME##3{x, y, z}; }                 \
  inline NAME##4 make_##NAME##4(T x, T y, T z, T w) { return NAME##4{x, y, z, w}; }
EMU_VECTOR_TYPES(float, float)
EMU_VECTOR_TYPES(double, double)
EMU_VECTOR_TYPES(int, int)
EMU_VECTOR_TYPES(unsigned int, uint)
EMU_VECTOR_TYPES(short, short)
EMU_VECTOR_TYPES(unsigned short, ushort)
EMU_VECTOR_TYPES(signed char, char)
EMU_VECTOR_TYPES(unsigned char, uchar)
EMU_VECTOR_TYPES(long, long)
EMU_VECTOR_TYPES(unsigned long, ulong)
EMU_VECTOR_TYPES(long long, longlong)
EMU_VECTOR_TYPES(unsigned long long, ulonglong)
#undef EMU_VECTOR_TYPES

// ---- runtime API: everything is synchronous host memory ---------------------------------------
typedef int hipError_t;
constexpr hipError_t hipSuccess = 0;
constexpr hipError_t hipErrorInvalidValue = 1;
typedef struct emu_stream* hipStream_t;
typedef struct emu_event* hipEvent_t;
enum hipMemcpyKind { hipMemcpyHostToHost, hipMemcpyHostToDevice, hipMemcpyDeviceToHost, hipMemcpyDeviceToDevice, hipMemcpyDefault };
inline hipError_t hipGetLastError() { return hipSuccess; }
inline hipError_t hipPeekAtLastError() { return hipSuccess; }
inline const char* hipGetErrorString(hipError_t e) { return e == hipSuccess ? "hipSuccess" : "hipError"; }
inline const char* hipGetErrorName(hipError_t e) { return hipGetErrorString(e); }
inline hipError_t hipDeviceSynchronize() { return hipSuccess; }
inline hipError_t hipStreamSynchronize(hipStream_t) { return hipSuccess; }
template <class T>
hipError_t hipMalloc(T** p, size_t bytes) {
  *p = static_cast<T*>(std::aligned_alloc(256, (bytes + 255) / 256 * 256));
  return *p ? hipSuccess : hipErrorInvalidValue;
}
inline hipError_t hipFree(void* p) {
  std::free(p);
  return hipSuccess;
}
inline hipError_t hipMemset(void* p, int v, size_t n) {
  std::memset(p, v, n);
  return hipSuccess;
}
inline hipError_t hipMemsetAsync(void* p, int v, size_t n, hipStream_t = nullptr) { return hipMemset(p, v, n); }
inline hipError_t hipMemcpy(void* d, const void* s, size_t n, hipMemcpyKind = hipMemcpyDefault) {
  std::memmove(d, s, n);
  return hipSuccess;
}
inline hipError_t hipMemcpyAsync(void* d, const void* s, size_t n, hipMemcpyKind k = hipMemcpyDefault,
                                 hipStream_t = nullptr) {
  return hipMemcpy(d, s, n, k);
}
template <class T>
hipError_t hipMemcpyToSymbol(T& symbol, const void* src, size_t n, size_t offset = 0,
                             hipMemcpyKind = hipMemcpyHostToDevice) {
  std::memcpy(reinterpret_cast<char*>(&symbol) + offset, src, n);
  return hipSuccess;
}
inline hipError_t hipGetDevice(int* d) {
  *d = 0;
  return hipSuccess;
}
inline hipError_t hipSetDevice(int) { return hipSuccess; }

#include "emu/device_api.h"

#define hipLaunchKernelGGL(kernel, grid, block, shmem, stream, ...) \
  ::emu::Launcher((grid), (block), (shmem), (stream)).named(#kernel)(kernel, ##__VA_ARGS__)

#define HIP_CHECK(expr) (void)(expr)

// torch's stream and device-guard API, for host code that passes the current stream to a
// launch (the CUDA names, ROCm's and the hipified "MasqueradingAsCUDA" ones). One device,
// one synchronous stream.
#if __has_include(<torch/extension.h>)
namespace emu {
struct TorchStream {
  hipStream_t stream() const { return nullptr; }
  operator hipStream_t() const { return nullptr; }
  int device_index() const { return 0; }
  void synchronize() const {}
  bool query() const { return true; }
};
struct DeviceGuard {
  DeviceGuard() = default;
  template <class D>
  explicit DeviceGuard(const D&) {}
  template <class D>
  void set_device(const D&) {}
  template <class D>
  void reset_device(const D&) {}
  int current_device() const { return 0; }
};
}  // namespace emu
#define EMU_TORCH_STREAM_API(NS, GET, GUARD, OPTIONAL_GUARD)                   \
  namespace NS {                                                              \
  inline ::emu::TorchStream GET(int = -1) { return {}; }                      \
  inline ::emu::TorchStream getDefault##GET(int = -1) { return {}; }          \
  using GUARD = ::emu::DeviceGuard;                                           \
  using OPTIONAL_GUARD = ::emu::DeviceGuard;                                  \
  }
EMU_TORCH_STREAM_API(at::cuda, getCurrentCUDAStream, CUDAGuard, OptionalCUDAGuard)
EMU_TORCH_STREAM_API(c10::cuda, getCurrentCUDAStream, CUDAGuard, OptionalCUDAGuard)
EMU_TORCH_STREAM_API(at::hip, getCurrentHIPStream, HIPGuard, OptionalHIPGuard)
EMU_TORCH_STREAM_API(c10::hip, getCurrentHIPStream, HIPGuard, OptionalHIPGuard)
EMU_TORCH_STREAM_API(at::hip, getCurrentHIPStreamMasqueradingAsCUDA, HIPGuardMasqueradingAsCUDA,
                     OptionalHIPGuardMasqueradingAsCUDA)
EMU_TORCH_STREAM_API(c10::hip, getCurrentHIPStreamMasqueradingAsCUDA, HIPGuardMasqueradingAsCUDA,
                     OptionalHIPGuardMasqueradingAsCUDA)
#undef EMU_TORCH_STREAM_API
namespace at::cuda {
using CUDAStream = ::emu::TorchStream;
inline ::emu::TorchStream getStreamFromPool(bool = false, int = -1) { return {}; }
}
namespace c10::cuda {
using CUDAStream = ::emu::TorchStream;
inline ::emu::TorchStream getStreamFromPool(bool = false, int = -1) { return {}; }
}
namespace at::hip {
inline ::emu::TorchStream getStreamFromPool(bool = false, int = -1) { return {}; }
using HIPStream = ::emu::TorchStream;
using HIPStreamMasqueradingAsCUDA = ::emu::TorchStream;
}
namespace c10::hip {
inline ::emu::TorchStream getStreamFromPool(bool = false, int = -1) { return {}; }
using HIPStream = ::emu::TorchStream;
using HIPStreamMasqueradingAsCUDA = ::emu::TorchStream;
}
#endif

#include "emu/llvm_intrinsics.h"
