# Test submission (imported by the report, never run on a GPU): LLVM intrinsics declared by name
# with __asm labels, CK style (raw buffer loads and stores of several widths, s_waitcnt), a
# debug cycle counter in inline assembly that is never called, and scheduling-only inline asm
# in the kernel. clang accepts all of it for gfx942; the kernel is `asm_kernel`.
from torch.utils.cpp_extension import load_inline

SOURCE = r"""
#include <hip/hip_runtime.h>

typedef int int32x4_t __attribute__((ext_vector_type(4)));
typedef float floatx4_t __attribute__((ext_vector_type(4)));

__device__ int32x4_t llvm_amdgcn_raw_buffer_load_i32x4(int32x4_t rsrc, int voffset, int soffset, int aux)
    __asm("llvm.amdgcn.raw.buffer.load.v4i32");
__device__ float llvm_amdgcn_raw_buffer_load_fp32(int32x4_t rsrc, int voffset, int soffset, int aux)
    __asm("llvm.amdgcn.raw.buffer.load.f32");
__device__ void llvm_amdgcn_raw_buffer_store_fp32x4(floatx4_t data, int32x4_t rsrc, int voffset, int soffset, int aux)
    __asm("llvm.amdgcn.raw.buffer.store.v4f32");
__device__ void llvm_amdgcn_s_waitcnt(int count) __asm("llvm.amdgcn.s.waitcnt");

__device__ unsigned long long debug_cycles() {
    unsigned long long t;
    asm volatile("s_memtime %0\n s_waitcnt lgkmcnt(0)" : "=s"(t));
    return t;
}

__device__ int32x4_t make_rsrc(const void* base, int bytes) {
    const unsigned long long address = reinterpret_cast<unsigned long long>(base);
    int32x4_t rsrc;
    rsrc.x = static_cast<int>(address);
    rsrc.y = static_cast<int>(address >> 32);
    rsrc.z = bytes;
    rsrc.w = 0x00020000;
    return rsrc;
}

__global__ void asm_kernel(const int* in, float* out, int n) {
    const int32x4_t src = make_rsrc(in, n * 4);
    const int32x4_t dst = make_rsrc(out, n * 4);
    const int32x4_t v = llvm_amdgcn_raw_buffer_load_i32x4(src, threadIdx.x * 16, 0, 0);
    const float s = llvm_amdgcn_raw_buffer_load_fp32(src, 0, 0, 0);
    llvm_amdgcn_s_waitcnt(0);
    asm volatile("s_nop 0" ::: "memory");
    __builtin_amdgcn_sched_barrier(0);
    floatx4_t f = {float(v.x) * s, float(v.y) * s, float(v.z) * s, float(v.w) * s};
    llvm_amdgcn_raw_buffer_store_fp32x4(f, dst, threadIdx.x * 16, 0, 0);
}
"""

module = load_inline(name="asm_style", cpp_sources="", cuda_sources=SOURCE)
