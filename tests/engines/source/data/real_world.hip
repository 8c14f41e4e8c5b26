// Constructs of real submissions the emulator must run (or refuse clearly at run time).
#include <hip/hip_runtime.h>

typedef int int32x4_t __attribute__((ext_vector_type(4)));
__device__ float buffer_load_f32(int32x4_t rsrc, int voffset, int soffset, int aux) __asm("llvm.amdgcn.raw.buffer.load.f32");
__device__ int32x4_t buffer_load_x4(int32x4_t, int, int, int) __asm("llvm.amdgcn.raw.buffer.load.v4i32");
__device__ void buffer_store_f32(float v, int32x4_t rsrc, int voffset, int soffset, int aux) __asm("llvm.amdgcn.raw.buffer.store.f32");
__device__ float not_emulated_intrinsic(float) __asm("llvm.amdgcn.not.a.real.intrinsic");

__device__ int32x4_t rsrc_of(const void* p, unsigned bytes) {
  unsigned long long a = reinterpret_cast<unsigned long long>(p);
  return int32x4_t{int(a & 0xffffffffu), int((a >> 32) & 0xffff), int(bytes), 0x00020000};
}

// out[i] = in[i] * 2 through buffer ops; the last 4 reads are out of range and read 0
__global__ void buffer_copy(const float* in, float* out, int n) {
  int i = threadIdx.x;
  asm volatile("s_waitcnt vmcnt(0)\n s_nop 0" ::: "memory");
  float v = buffer_load_f32(rsrc_of(in, (n - 4) * 4), i * 4, 0, 0);
  buffer_store_f32(v * 2, rsrc_of(out, n * 4), i * 4, 0, 0);
}

__global__ void general_asm(float* out) {
  float v;
  asm volatile("v_mov_b32 %0, 1.0" : "=v"(v));
  out[threadIdx.x] = v;
}

__global__ void calls_unknown_intrinsic(float* out) { out[threadIdx.x] = not_emulated_intrinsic(1.f); }

__device__ __noinline__ int deep(volatile int depth) {
  volatile char pad[4096];
  pad[0] = char(depth);
  return depth == 0 ? pad[0] : deep(depth - 1) + pad[0];
}
__global__ void overflow_stack(int* out) { out[threadIdx.x] = deep(1 << 20); }

__global__ void wild_pointer(int* out) {
  if (threadIdx.x == 5) *reinterpret_cast<volatile int*>(16) = 1;
}

// 1024 work-items, LDS declared inside the tile loop, buffers swapped through pointers
template <int kThreads, int kTiles>
__global__ __launch_bounds__(1024, 4) void persistent_sum(const int* in, int* out) {
  for (int tile = blockIdx.x; tile < kTiles; tile += gridDim.x) {
    __shared__ int ping[kThreads], pong[kThreads];
    int* cur = ping;
    int* next = pong;
    cur[threadIdx.x] = in[tile * kThreads + threadIdx.x];
    __syncthreads();
    for (int stride = kThreads / 2; stride > 0; stride /= 2) {
      next[threadIdx.x] = threadIdx.x < unsigned(stride) ? cur[threadIdx.x] + cur[threadIdx.x + stride] : 0;
      __syncthreads();
      int* t = cur; cur = next; next = t;
    }
    if (threadIdx.x == 0) out[tile] = cur[0];
    __syncthreads();
  }
}

void run_buffer_copy(torch::Tensor in, torch::Tensor out) {
  buffer_copy<<<1, 64>>>(in.data_ptr<float>(), out.data_ptr<float>(), 64);
}
void run_general_asm(torch::Tensor out) { general_asm<<<1, 64>>>(out.data_ptr<float>()); }
void run_unknown_intrinsic(torch::Tensor out) { calls_unknown_intrinsic<<<1, 64>>>(out.data_ptr<float>()); }
void run_overflow(torch::Tensor out) { overflow_stack<<<1, 64>>>(out.data_ptr<int>()); }
void run_wild_pointer(torch::Tensor out) { wild_pointer<<<1, 64>>>(out.data_ptr<int>()); }
void run_persistent(torch::Tensor in, torch::Tensor out) {
  persistent_sum<1024, 6><<<dim3(4), dim3(1024)>>>(in.data_ptr<int>(), out.data_ptr<int>());
}

// Host code written with CUDA names (hipified on a ROCm runner), torch's stream and guard API
#include <cuda_runtime.h>
#include <c10/cuda/CUDAGuard.h>
#include <ATen/cuda/CUDAContext.h>
void run_cuda_names(torch::Tensor in, torch::Tensor out) {
  TORCH_CHECK(in.is_cuda() && in.device().type() == torch::kCUDA, "inputs must be CUDA tensors");
  const at::cuda::OptionalCUDAGuard guard(device_of(in));
  cudaStream_t stream = at::cuda::getCurrentCUDAStream().stream();
  buffer_copy<<<1, 64, 0, stream>>>(in.data_ptr<float>(), out.data_ptr<float>(), 64);
  TORCH_CHECK(cudaGetLastError() == cudaSuccess, "launch failed");
}

// Debug timing: clock64() and an s_memtime cycle-counter helper; out[i] = 1 when time advanced
__device__ unsigned long long cycles() {
  unsigned long long t;
  asm volatile("s_memtime %0\n s_waitcnt lgkmcnt(0)" : "=s"(t));
  return t;
}
__global__ void clocks(int* out) {
  long long a = clock64();
  unsigned long long b = cycles();
  long long w0 = wall_clock64();
  for (volatile int i = 0; i < 100000; ++i) {}
  out[threadIdx.x] = clock64() > a && cycles() > b && wall_clock64() > w0;
}
void run_clocks(torch::Tensor out) { clocks<<<1, 64>>>(out.data_ptr<int>()); }

// Host-side device queries of a persistent launcher: out = {CUs, warp size, LDS, arch is gfx942}
void run_device_queries(torch::Tensor out) {
  hipDeviceProp_t prop;
  int cus = 0, count = 0;
  hipGetDeviceCount(&count);
  hipGetDeviceProperties(&prop, 0);
  hipDeviceGetAttribute(&cus, hipDeviceAttributeMultiprocessorCount, 0);
  hipFuncSetAttribute(reinterpret_cast<const void*>(&clocks), hipFuncAttributeMaxDynamicSharedMemorySize, 65536);
  hipEvent_t start, stop;
  hipEventCreate(&start);
  hipEventCreate(&stop);
  hipEventRecord(start, 0);
  hipEventRecord(stop, 0);
  float ms = -1;
  hipEventElapsedTime(&ms, start, stop);
  auto o = out.data_ptr<int>();
  o[0] = cus == prop.multiProcessorCount ? cus : -1;
  o[1] = prop.warpSize * count;
  o[2] = int(prop.sharedMemPerBlock);
  o[3] = std::strncmp(prop.gcnArchName, "gfx942", 6) == 0 && ms >= 0;
  hipEventDestroy(start);
  hipEventDestroy(stop);
}

// Headers real submissions include; cooperative groups at workgroup level
#include <hip/hip_runtime_api.h>
#include <hip/hip_cooperative_groups.h>
#include <hip/hip_bfloat16.h>
#include <hip/hip_ext.h>
namespace cg = cooperative_groups;
__global__ void coop_reverse(int* out) {
  __shared__ int tile[128];
  cg::thread_block block = cg::this_thread_block();
  tile[block.thread_rank()] = int(block.thread_rank());
  block.sync();
  out[block.thread_rank()] = tile[block.size() - 1 - block.thread_rank()];
}
void run_coop(torch::Tensor out) {
  hipExtLaunchKernelGGL(coop_reverse, dim3(1), dim3(64, 2), 0, 0, nullptr, nullptr, 0, out.data_ptr<int>());
}

// Buffer -> LDS through the CK-style intrinsic; out[l] = in[l] + 1 for 60 lanes, 0 past the range
__device__ void buffer_load_lds(int32x4_t rsrc, __attribute__((address_space(3))) unsigned* lds_ptr, int size,
                                int voffset, int soffset, int offset, int aux) __asm("llvm.amdgcn.raw.buffer.load.lds");
__global__ void lds_direct(const int* in, int* out) {
  __shared__ int slots[64];
  buffer_load_lds(rsrc_of(in, 60 * 4), (__attribute__((address_space(3))) unsigned*)slots, 4, threadIdx.x * 4, 0, 0, 0);
  __syncthreads();
  out[threadIdx.x] = slots[threadIdx.x] + (threadIdx.x < 60 ? 1 : 0);
}
void run_lds_direct(torch::Tensor in, torch::Tensor out) { lds_direct<<<1, 64>>>(in.data_ptr<int>(), out.data_ptr<int>()); }
