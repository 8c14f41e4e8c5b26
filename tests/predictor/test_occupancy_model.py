"""Occupancy in the timing model: the kernel descriptor's VGPR granules (AGPRs included, counted
once), one-wave workgroups filling every wave slot, and the same answer as the offline report
and the HIP runtime's occupancy query (all call machine/occupancy.h)."""
from __future__ import annotations

from pathlib import Path

import pytest
import torch

import engines.isa
import machine
from reports.offline import report
from predictor import hardware, predict
from toolchain import code_object

HIP = r"""
#include <hip/hip_runtime.h>
typedef float float16_t __attribute__((ext_vector_type(16)));

// 8 independent 32x32 accumulators per lane: clang keeps 128 of them in AGPRs beside about 20
// arch VGPRs, a unified allocation of 152 registers: 3 waves per SIMD.
template <int Threads>
__global__ void __launch_bounds__(Threads) acc_heavy(float* out, int n) {
  float16_t acc[8] = {};
  long a = 0x3838383838383838L + threadIdx.x, b = 0x3030303030303030L;
  for (int i = 0; i < n; ++i) {
#pragma unroll
    for (int j = 0; j < 8; ++j) acc[j] = __builtin_amdgcn_mfma_f32_32x32x16_fp8_fp8(a + j, b, acc[j], 0, 0, 0);
  }
  float s = 0;
#pragma unroll
  for (int j = 0; j < 8; ++j) s += acc[j][0] + acc[j][15];
  out[blockIdx.x * blockDim.x + threadIdx.x] = s;
}

// A light kernel: few registers, no LDS.
template <int Threads>
__global__ void __launch_bounds__(Threads) light(float* out, int n) {
  float s = threadIdx.x;
  for (int i = 0; i < n; ++i) s = s * 1.0001f + 1.0f;
  out[blockIdx.x * blockDim.x + threadIdx.x] = s;
}

template __global__ void acc_heavy<256>(float*, int);
template __global__ void acc_heavy<512>(float*, int);
template __global__ void light<64>(float*, int);
template __global__ void light<128>(float*, int);
"""
LAUNCHERS = r"""
void launch_heavy256(float* out, int blocks) { acc_heavy<256><<<blocks, 256>>>(out, 2); }
void launch_heavy512(float* out, int blocks) { acc_heavy<512><<<blocks, 512>>>(out, 2); }
void launch_light64(float* out, int blocks) { light<64><<<blocks, 64>>>(out, 8); }
void launch_light128(float* out, int blocks) { light<128><<<blocks, 128>>>(out, 8); }
long hip_occupancy_heavy256() {
  int n = -1;
  hipOccupancyMaxActiveBlocksPerMultiprocessor(&n, acc_heavy<256>, 256, 0);
  return n;
}
"""
LAUNCHED = ("heavy256", "heavy512", "light64", "light128")
# NOTE: the HIP source stays free of torch (no_implicit_headers; its launchers take pointers) and
# the bindings wrap them: the build parses torch's headers in the PCH'd bindings only.
CPP = "#include <torch/extension.h>\nlong hip_occupancy_heavy256();\n" + "\n".join(
    f"void launch_{name}(float* out, int blocks);\n"
    f"void {name}(torch::Tensor out, int64_t blocks) {{ launch_{name}(out.data_ptr<float>(), blocks); }}" for name in LAUNCHED)


@pytest.fixture(scope="module")
def module():
    return engines.isa.load_inline("predict_occupancy_probe", CPP, HIP + LAUNCHERS, no_implicit_headers=True,
                                  functions=[*LAUNCHED, "hip_occupancy_heavy256"],
                                  extra_cuda_cflags=["--offload-arch=gfx942", "-O3", "-std=c++20"])


@pytest.fixture(scope="module")
def offline(tmp_path_factory):
    path = tmp_path_factory.mktemp("occupancy") / "kernels.hip"
    path.write_text(HIP)
    return {k.name: k for k in report(path)}


def timed(launch, threads: int, **settings) -> dict:
    blocks = 304 * 4
    out = torch.zeros(blocks * threads)
    prediction, _ = predict(lambda: launch(out, blocks), hardware(settings))
    (kernel,) = prediction.kernels
    return kernel


@pytest.mark.parametrize("name, threads, kernel, expected", [
    ("heavy256", 256, "acc_heavy<256>", 3),   # 152 unified registers: 3 waves per SIMD, 4 waves each
    ("heavy512", 512, "acc_heavy<512>", 1),   # 152 registers again: 12 slots hold one 8-wave workgroup
    ("light64", 64, "light<64>", 32),         # one wave each, no barrier: every wave slot
    ("light128", 128, "light<128>", 16),      # two waves each: 32 slots, and 16 barriers
])
def test_workgroups_per_cu_agree_with_the_offline_report(module, offline, name, threads, kernel, expected):
    k = offline[kernel]
    if name == "heavy256":  # before the fix, the AGPRs were counted twice: one workgroup per CU
        assert (k.vgprs, k.agprs, k.unified_vgprs) == (20, 128, 152)
    timing = timed(getattr(module, name), threads)
    assert timing["workgroups_per_cu"] == k.workgroups_per_cu == expected
    assert timing["busiest_cu_workgroups"] == 4


def test_the_hip_runtime_answers_occupancy_queries_with_the_same_rule(module, offline):
    assert module.hip_occupancy_heavy256() == offline["acc_heavy<256>"].workgroups_per_cu == 3


def test_one_wave_workgroups_run_side_by_side_on_all_four_simds(module):
    # four one-wave workgroups on the busiest CU: one per SIMD, so about one's time. The kernel
    # is short: at the fitted store rate its one store a wave takes about a sixth of its time,
    # and four queue on the CU's share, so the SIMDs are compared with stores left free.
    free_stores = {"store_bytes_per_s": 1e15}
    one = timed(module.light64, 64, **free_stores)
    out = torch.zeros(304 * 64)
    alone, _ = predict(lambda: module.light64(out, 304), hardware(free_stores))
    assert one["cu_cycles"] <= 1.2 * alone.kernels[0]["cu_cycles"]


def test_the_descriptor_read_from_the_code_object_gives_the_engines_placement(module):
    """toolchain.code_object reads the built file's kernel descriptors (what the MI300X's launch
    reads): the AGPR-heavy kernel's unified allocation there is the one the timing model used."""
    path = Path(module.__file__).parent / "hip.gfx942.co"
    kernels = {k.name: k for k in code_object.kernels(path)}
    timing = timed(module.heavy256, 256)
    heavy = kernels[timing["symbol"]]
    assert (heavy.unified_vgprs, heavy.metadata_agprs, heavy.accum_offset) == (152, 128, 20)
    occ = machine.occupancy(heavy.unified_vgprs, heavy.sgprs, heavy.lds_bytes, 256)
    assert occ.workgroups_per_cu == timing["workgroups_per_cu"] == 3 and occ.limiter == "VGPRs"
