"""Constructs found in real amd-fp8-mm submissions that the emulator got wrong.

Each probe is one small kernel `k` of its own namespace, launched 1x64 by `run_<probe>`; all of
them build as one module (one build for the file, not one a probe). The names follow
build/real_submissions/FINDINGS.md.
"""
import functools

import pytest
import torch

import engines.source

# probe -> (the element type of its output, its source). A probe's source sees only the headers
# included above it in PROBES' order.
PROBES = {
    "device_compile": ("int", r'''
__device__ int value() {
#if defined(__HIP_DEVICE_COMPILE__) && defined(__AMDGCN__)
  return 7;
#else
  return -1;
#endif
}
__global__ void k(int* o) {
#ifdef __HIP_DEVICE_COMPILE__
  o[threadIdx.x] = value();
#endif
}'''),
    "memory_scope": ("int", r'''
__global__ void k(int* o) {
  static_assert(__HIP_MEMORY_SCOPE_SINGLETHREAD == 1 && __HIP_MEMORY_SCOPE_WAVEFRONT == 2 &&
                __HIP_MEMORY_SCOPE_WORKGROUP == 3 && __HIP_MEMORY_SCOPE_AGENT == 4 && __HIP_MEMORY_SCOPE_SYSTEM == 5);
  __hip_atomic_store(&o[threadIdx.x], 5, __ATOMIC_RELAXED, __HIP_MEMORY_SCOPE_AGENT);
  __hip_atomic_fetch_add(&o[threadIdx.x], 1, __ATOMIC_RELAXED, __HIP_MEMORY_SCOPE_WORKGROUP);
  o[threadIdx.x] += __hip_atomic_load(&o[threadIdx.x], __ATOMIC_RELAXED, __HIP_MEMORY_SCOPE_SYSTEM);
}'''),
    "dead_builtin": ("int", r'''
__device__ int never_called(int x) { return __builtin_amdgcn_some_future_op(x); }
__global__ void k(int* o) { o[threadIdx.x] = threadIdx.x; }'''),
    "called_builtin": ("int", r'''
__device__ int called(int x) { return __builtin_amdgcn_some_future_op(x, 1); }
__global__ void k(int* o) { o[threadIdx.x] = called(threadIdx.x); }'''),
    # A 16-byte vector at a 4-byte aligned LDS address, as HIP's float4 and as a user's own vector
    # type: gfx942 needs dword alignment for b128 accesses; the build assumes at most 8 for such a type.
    **{name: ("int", prelude + r'''
__global__ void k(int* o) {
  __shared__ float s[2][129];                      // row 1 starts at byte 516: 4-byte aligned only
  if (threadIdx.x < 32) *reinterpret_cast<VEC*>(&s[1][threadIdx.x * 4]) = VEC{1.f, 2.f, 3.f, 4.f};
  __syncthreads();
  VEC v = *reinterpret_cast<const VEC*>(&s[1][(threadIdx.x / 4) * 4]);
  o[threadIdx.x] = int(s[1][threadIdx.x]) + 10 * int(v[threadIdx.x % 4]);
}'''.replace("VEC", vector)) for name, vector, prelude in [
        ("misaligned_float4", "float4", ""),
        ("misaligned_own_vector", "f32x4", "\ntypedef float f32x4 __attribute__((ext_vector_type(4)));")]},
    "dead_shared": ("int", r'''
__global__ void k(int* o) {
  __shared__ float big[16384];
  __shared__ float dead[64];
  dead[threadIdx.x] = 1.f;
  big[threadIdx.x] = threadIdx.x; __syncthreads(); o[threadIdx.x] = int(big[63 - threadIdx.x]);
}'''),
    # lane l holds A[l % M][l / M] and B[l / M][l % M]; D as the other single-block MFMAs
    **{f"f32_mfma{m}": ("float", r'''
constexpr int M = %d, G = M * M / 64;
typedef float acc_t __attribute__((ext_vector_type(G)));
__global__ void k(float* o) {
  int l = threadIdx.x;
  float a = float((l %% M) * 3 - (l / M)), b = float((l / M) * 2 + (l %% M) %% 5 - 2);
  acc_t c;
  for (int i = 0; i < G; ++i) c[i] = 0.5f;
  acc_t d = %s(a, b, c, 0, 0, 0);
  for (int i = 0; i < G; ++i) o[l * G + i] = d[i];
}''' % (m, f"__builtin_amdgcn_mfma_f32_{m}x{m}x{64 // m}f32")) for m in (16, 32)},
    "#include <hip/hip_cooperative_groups.h>": None,
    "tiled_partition": ("int", r'''
namespace cg = cooperative_groups;
__global__ void k(int* o) {
  auto block = cg::this_thread_block();
  auto tile = cg::tiled_partition<16>(block);
  int sum = tile.thread_rank();
  for (int d = 1; d < 16; d *= 2) sum += tile.shfl_xor(sum, d);   // 0+...+15 = 120 in every lane
  tile.sync();
  auto wave = cg::tiled_partition<64>(block);
  o[threadIdx.x] = tile.thread_rank() + 100 * tile.meta_group_rank() + 1000 * (tile.size() == 16)
                   + 10000 * (tile.meta_group_size() == 4) + 100000 * (sum == 120) + 1000000 * (wave.meta_group_rank() == 0)
                   + 10000000 * (tile.shfl(int(tile.thread_rank()), 3) == 3);
}'''),
    "#include <hip/hip_fp8.h>": None,
    "fp8_bf16": ("__hip_bfloat16", r'''
__global__ void k(__hip_bfloat16* o) { o[threadIdx.x] = __hip_bfloat16(float(threadIdx.x)); }'''),
    "fp8x4": ("float", r'''
__global__ void k(float* o) {
  __hip_fp8x4_e4m3_fnuz a = float4{1.0f, 2.0f, 0.5f, -1.0f};
  __hip_fp8x4_e4m3_fnuz z = __hip_fp8x4_e4m3_fnuz{0};
  __hip_fp8x2_e4m3_fnuz b(float2{3.0f, -0.25f});
  __hip_fp8x2_e5m2_fnuz c(float2{4.0f, 6.0f});
  __hip_fp8x4_e5m2_fnuz d(float4{-2.0f, 8.0f, 0.125f, 1.0f});
  float4 fa = a, fd = d, fz = z;
  float2 fb = b, fc = c;
  float v[16] = {fa.x, fa.y, fa.z, fa.w, fb.x, fb.y, fc.x, fc.y, fd.x, fd.y, fd.z, fd.w, fz.x, fz.w,
                 float(a.__x & 0xFF), float(b.__x >> 8)};
  if (threadIdx.x < 16) o[threadIdx.x] = v[threadIdx.x];
}'''),
}


def module_source() -> str:
    parts = ["#include <hip/hip_runtime.h>"]
    for name, probe in PROBES.items():
        if probe is None:
            parts.append(name)
            continue
        ctype, src = probe
        parts.append(f"namespace {name} {{{src}\n}}  // namespace {name}\n"
                     f"void run_{name}(torch::Tensor o) {{ {name}::k<<<1, 64>>>(({ctype}*)o.data_ptr()); }}")
    return "\n".join(parts) + "\n"


@functools.lru_cache(maxsize=None)
def probes_module():
    names = [name for name, probe in PROBES.items() if probe is not None]
    return engines.source.load_inline(name="real_submission_fixes", cpp_sources=[f"void run_{n}(torch::Tensor o);" for n in names],
                                cuda_sources=module_source(), functions=[f"run_{n}" for n in names],
                                extra_cuda_cflags=["-std=c++20"])


def run(name: str, dtype=torch.int32, size: int = 64) -> torch.Tensor:
    o = torch.zeros(size, dtype=dtype)
    getattr(probes_module(), f"run_{name}")(o)
    return o


def test_f5_hip_device_compile_defined_in_device_code():
    assert run("device_compile").tolist() == [7] * 64


def test_f5_host_code_outside_the_hip_source_does_not_see_it():
    # the C++ source (host only, as torch compiles it) must not see the device-pass macro
    o = torch.zeros(64, dtype=torch.int32)
    m = engines.source.load_inline(name="fix_device_compile_host", cpp_sources=r'''
#ifdef __HIP_DEVICE_COMPILE__
#error the host-only C++ source sees __HIP_DEVICE_COMPILE__
#endif
void run(torch::Tensor o);''', cuda_sources=r'''
#include <hip/hip_runtime.h>
__global__ void k(int* o) { o[threadIdx.x] = __HIP_DEVICE_COMPILE__; }
void run(torch::Tensor o) { k<<<1, 64>>>((int*)o.data_ptr()); }''', functions=["run"])
    m.run(o)
    assert o.tolist() == [1] * 64


def test_f6_hip_memory_scope_macros_and_hip_atomics():
    assert run("memory_scope").tolist() == [12] * 64


def test_f2_fp8_header_brings_bf16():
    o = run("fp8_bf16", torch.int16)
    assert o.view(torch.bfloat16).float().tolist() == [float(i) for i in range(64)]


def test_f3_fp8_vector_types_convert_from_and_to_float_vectors():
    o = run("fp8x4", torch.float32)
    e4m3 = lambda x: torch.tensor([x]).to(torch.float8_e4m3fnuz).view(torch.uint8).item()
    assert o[:16].tolist() == [1, 2, 0.5, -1, 3, -0.25, 4, 6, -2, 8, 0.125, 1, 0, 0, e4m3(1.0), e4m3(-0.25)]


def test_f4_unsupported_builtin_in_code_never_run_builds():
    assert run("dead_builtin").tolist() == list(range(64))


def test_f4_unsupported_builtin_fails_when_called_naming_it_and_its_line():
    source = module_source()
    line = 1 + source[:source.index("some_future_op(x, 1)")].count("\n")
    with pytest.raises(engines.source.EmulatorError, match=rf"__builtin_amdgcn_some_future_op.*\S*\[cuda_sources\]:{line}\b"):
        run("called_builtin")


def test_f1_tiled_partition():
    assert run("tiled_partition").tolist() == [11111000 + (i % 16) + 100 * (i // 16) for i in range(64)]


def test_f8_float4_at_4_byte_aligned_lds_address():
    assert run("misaligned_float4").tolist() == [11, 22, 33, 44] * 16


def test_f8_a_users_own_vector_type_at_a_dword_aligned_address_runs():
    assert run("misaligned_own_vector").tolist() == [11, 22, 33, 44] * 16


def test_f9_write_only_shared_array_does_not_count_against_64k():
    assert run("dead_shared").tolist() == list(range(63, -1, -1))


@pytest.mark.parametrize("m", [16, 32])
def test_f4_f32_mfma(m):
    k, g = 64 // m, m * m // 64
    o = run(f"f32_mfma{m}", torch.float32, 64 * g)
    A = torch.tensor([[float(i * 3 - kk) for kk in range(k)] for i in range(m)])
    B = torch.tensor([[float(kk * 2 + j % 5 - 2) for j in range(m)] for kk in range(k)])
    D = A @ B + 0.5
    row = (lambda l, i: 4 * (l // 16) + i) if m == 16 else (lambda l, i: 8 * (i // 4) + 4 * (l // 32) + i % 4)
    assert o.tolist() == [D[row(l, i), l % m].item() for l in range(64) for i in range(g)]
