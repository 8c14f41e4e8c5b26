// Buggy kernels the emulator must report (tests/engines/source/test_faults.py).
#include <hip/hip_runtime.h>

typedef float floatx4 __attribute__((ext_vector_type(4)));

__global__ void divergent_shfl_kernel(int* out) {
  int l = threadIdx.x;
  if (l < 32) out[l] = __shfl(l, 0);
  else out[l] = __shfl(l, 1);
}
void divergent_shfl(torch::Tensor out) { divergent_shfl_kernel<<<1, 64>>>(out.data_ptr<int>()); }

__global__ void divergent_mfma_kernel(float* out) {
  floatx4 acc = {};
  if (threadIdx.x < 48) acc = __builtin_amdgcn_mfma_f32_16x16x32_fp8_fp8(0, 0, acc, 0, 0, 0);
  out[threadIdx.x] = acc[0];
}
void divergent_mfma(torch::Tensor out) { divergent_mfma_kernel<<<1, 64>>>(out.data_ptr<float>()); }

__global__ void barrier_exit_kernel(int* out) {
  if (threadIdx.x >= 64) return;  // wave 1 ends without reaching the barrier
  __syncthreads();
  out[threadIdx.x] = 1;
}
void barrier_exit(torch::Tensor out) { barrier_exit_kernel<<<1, 128>>>(out.data_ptr<int>()); }

__global__ void barrier_mismatch_kernel(int* out) {
  if (threadIdx.x < 64) {
    __syncthreads();
  } else {
    __syncthreads();
  }
  out[threadIdx.x] = 1;
}
void barrier_mismatch(torch::Tensor out) { barrier_mismatch_kernel<<<1, 128>>>(out.data_ptr<int>()); }

__global__ void lds_overflow_kernel(int* out) {
  __shared__ char first[40000];
  __shared__ char second[40000];
  first[threadIdx.x] = 1;
  second[threadIdx.x] = 2;
  out[threadIdx.x] = first[threadIdx.x] + second[threadIdx.x];
}
void lds_overflow(torch::Tensor out) { lds_overflow_kernel<<<1, 64>>>(out.data_ptr<int>()); }

__global__ void big_block_kernel(int* out) { out[threadIdx.x] = 1; }
void big_block(torch::Tensor out) { big_block_kernel<<<1, 2048>>>(out.data_ptr<int>()); }

// Wave 1 reads what wave 0 wrote, with (sync = 1) or without (sync = 0) a barrier between.
__global__ void lds_race_kernel(int* out, int sync) {
  __shared__ int buffer[64];
  int t = threadIdx.x;
  if (t < 64) buffer[t] = t + 1;
  if (sync) __syncthreads();
  if (t >= 64) out[t - 64] = buffer[t - 64];
}
void lds_race(torch::Tensor out, int64_t sync) { lds_race_kernel<<<1, 128>>>(out.data_ptr<int>(), int(sync)); }

// Lanes of one wave exchange data through LDS with a wave barrier between: correct.
__global__ void wave_sync_kernel(int* out) {
  __shared__ int buffer[64];
  int l = threadIdx.x;
  buffer[l] = l * 2;
  __builtin_amdgcn_wave_barrier();
  out[l] = buffer[63 - l];
}
void wave_sync_ok(torch::Tensor out) { wave_sync_kernel<<<1, 64>>>(out.data_ptr<int>()); }

// A loop whose step the caller gets wrong (0): it never ends, storing all the while.
__global__ void endless_kernel(int* out, int step) {
  for (int i = 0; i < 64; i += step) out[threadIdx.x] += i + 1;
}
void endless(torch::Tensor out, int64_t step) { endless_kernel<<<2, 64>>>(out.data_ptr<int>(), int(step)); }

// The same in a library call: nearly all its time is spent in the C library's memset.
__global__ void endless_fill_kernel(int* out, char* scratch, int bytes, int step) {
  for (int i = 0; i < 64; i += step) {
    memset(scratch, i, bytes);
    out[threadIdx.x] += scratch[threadIdx.x];
  }
}
void endless_fill(torch::Tensor out, torch::Tensor scratch, int64_t step) {
  endless_fill_kernel<<<1, 64>>>(out.data_ptr<int>(), (char*)scratch.data_ptr(), int(scratch.numel()), int(step));
}
