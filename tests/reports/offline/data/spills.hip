// Test kernel: 64 accumulators live across a loop, but the kernel may use only 24 VGPRs,
// so the register allocator must spill to scratch; the gate has to flag it.
#include <hip/hip_runtime.h>

constexpr int kLive = 64;

__global__ __attribute__((amdgpu_num_vgpr(24))) void spilling_kernel(const float* in, float* out, int steps) {
    float acc[kLive];
#pragma unroll
    for (int i = 0; i < kLive; ++i) acc[i] = in[threadIdx.x + i * 64];
    for (int s = 0; s < steps; ++s) {
#pragma unroll
        for (int i = 0; i < kLive; ++i) acc[i] = acc[i] * acc[(i + 1) % kLive] + float(s);
    }
#pragma unroll
    for (int i = 0; i < kLive; ++i) out[threadIdx.x + i * 64] = acc[i];
}
