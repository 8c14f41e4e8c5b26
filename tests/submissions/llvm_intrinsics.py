#!POPCORN leaderboard amd-fp8-mm
#!POPCORN gpu MI300
# Corpus style: composable_kernel-style LLVM intrinsics declared by name through __asm labels
# (raw and struct buffer loads/stores of several widths, s.waitcnt), a debug cycle counter in
# inline asm that is never called, and scheduling-only inline asm on the hot path.
from torch.utils.cpp_extension import load_inline

CPP_SRC = "void fp8_mm(torch::Tensor a, torch::Tensor b, torch::Tensor as, torch::Tensor bs, torch::Tensor c);"

HIP_SRC = r"""
#include <hip/hip_runtime.h>
#include <hip/hip_fp8.h>
#include <hip/hip_bf16.h>
#include <stdint.h>

typedef int32_t int32x4_t __attribute__((ext_vector_type(4)));
typedef float floatx4_t __attribute__((ext_vector_type(4)));

__device__ int32x4_t llvm_amdgcn_raw_buffer_load_i32x4(int32x4_t srsrc, int32_t voffset, int32_t soffset,
                                                       int32_t glc_slc) __asm("llvm.amdgcn.raw.buffer.load.v4i32");
__device__ uint32_t llvm_amdgcn_raw_buffer_load_i32(int32x4_t, int32_t, int32_t, int32_t)
    __asm("llvm.amdgcn.raw.buffer.load.i32");
__device__ uint8_t llvm_amdgcn_raw_buffer_load_i8(int32x4_t srsrc, int32_t voffset, int32_t soffset,
                                                  int32_t glc_slc) __asm("llvm.amdgcn.raw.buffer.load.i8");
__device__ float llvm_amdgcn_struct_buffer_load_f32(int32x4_t srsrc, int32_t vindex, int32_t voffset,
                                                    int32_t soffset, int32_t glc_slc)
    __asm("llvm.amdgcn.struct.buffer.load.f32");
__device__ void llvm_amdgcn_raw_buffer_store_i16(uint16_t vdata, int32x4_t srsrc, int32_t voffset, int32_t soffset,
                                                 int32_t glc_slc) __asm("llvm.amdgcn.raw.buffer.store.i16");
__device__ void llvm_amdgcn_s_waitcnt(int32_t) __asm("llvm.amdgcn.s.waitcnt");
__device__ float llvm_amdgcn_unused_ds_read(int32_t) __asm("llvm.amdgcn.ds.unused.f32");

// A debug helper left in the source: never called.
__device__ uint64_t read_cycle_counter() {
  uint64_t t;
  asm volatile("s_memtime %0\n s_waitcnt lgkmcnt(0)" : "=s"(t));
  return t;
}

// NOTE: buffer resource: base (48 bits), stride in dword1[29:16], num_records, dword3 0x00020000
__device__ int32x4_t make_rsrc(const void* base, uint32_t bytes, uint32_t stride = 0) {
  uint64_t addr = reinterpret_cast<uint64_t>(base);
  int32x4_t r;
  r.x = int32_t(addr & 0xffffffffu);
  r.y = int32_t(((addr >> 32) & 0xffffu) | (stride << 16));
  r.z = int32_t(bytes);
  r.w = 0x00020000;
  return r;
}

// each work-item: 4 consecutive rows (one dword of A per k) of one output column
__global__ void fp8_mm_buffer_kernel(const uint8_t* a, const uint8_t* b, const float* as, const float* bs,
                                     uint16_t* c, int m, int n, int k) {
  const int col = blockIdx.x * blockDim.x + threadIdx.x;
  const int row0 = blockIdx.y * 4;
  const int32x4_t ra = make_rsrc(a, uint32_t(m) * k), rb = make_rsrc(b, uint32_t(n) * k);
  const int sk = k / 128, sn = (n + 127) / 128;
  const int32x4_t ras = make_rsrc(as, uint32_t(m) * sk * 4);
  const int32x4_t rbs = make_rsrc(bs, uint32_t(sn) * sk, 4);  // struct: num_records counts records
  const int32x4_t rc = make_rsrc(c, uint32_t(m) * n * 2);
  float acc[4] = {0.f, 0.f, 0.f, 0.f};
  for (int kb = 0; kb < sk; ++kb) {
    float part[4] = {0.f, 0.f, 0.f, 0.f};
    for (int kk = kb * 128; kk < kb * 128 + 128; ++kk) {
      uint32_t a4 = llvm_amdgcn_raw_buffer_load_i32(ra, row0 + kk * m, 0, 0);
      __hip_fp8_e4m3_fnuz y;
      y.__x = llvm_amdgcn_raw_buffer_load_i8(rb, col + kk * n, 0, 0);  // out of range (col >= n): 0
      for (int r = 0; r < 4; ++r) {
        __hip_fp8_e4m3_fnuz x;
        x.__x = uint8_t(a4 >> (8 * r));
        part[r] += float(x) * float(y);
      }
    }
    int32x4_t s4 = llvm_amdgcn_raw_buffer_load_i32x4(ras, (row0 + kb * m) * 4, 0, 0);
    float bscale = llvm_amdgcn_struct_buffer_load_f32(rbs, col / 128 + kb * sn, 0, 0, 0);
    llvm_amdgcn_s_waitcnt(0);
    asm volatile("s_waitcnt vmcnt(0)" ::: "memory");
    for (int r = 0; r < 4; ++r) acc[r] += part[r] * __int_as_float(s4[r]) * bscale;
  }
  if (col >= n) return;
  for (int r = 0; r < 4; ++r) {
    __hip_bfloat16 v = __float2bfloat16(acc[r]);
    uint16_t bits;
    __builtin_memcpy(&bits, &v, 2);
    llvm_amdgcn_raw_buffer_store_i16(bits, rc, ((row0 + r) * n + col) * 2, 0, 0);
  }
}

void fp8_mm(torch::Tensor a, torch::Tensor b, torch::Tensor as, torch::Tensor bs, torch::Tensor c) {
  const int m = a.size(0), n = b.size(0), k = a.size(1);
  TORCH_CHECK(m % 4 == 0, "m must be a multiple of 4");
  hipLaunchKernelGGL(fp8_mm_buffer_kernel, dim3((n + 63) / 64, m / 4), dim3(64), 0, 0,
                     (const uint8_t*)a.data_ptr(), (const uint8_t*)b.data_ptr(), as.data_ptr<float>(),
                     bs.data_ptr<float>(), (uint16_t*)c.data_ptr(), m, n, k);
}
"""

module = load_inline(name="corpus_llvm_intrinsics", cpp_sources=CPP_SRC, cuda_sources=HIP_SRC, functions=["fp8_mm"],
                     extra_cuda_cflags=["--offload-arch=gfx942", "-std=c++20", "-O3"])


def custom_kernel(data):
    a, b, a_scale, b_scale, c = data
    module.fp8_mm(a, b, a_scale, b_scale, c)
    return c
