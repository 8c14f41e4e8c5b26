"""Our stand-ins for libraries this machine cannot have (toolchain/include/standins).

The rocWMMA stand-in must put every fragment element where the MFMA instruction reads or writes
it (checked against the AMD Matrix Instruction Calculator's tables in tests/data/spec/mfma) and
compile to those instructions for gfx942, its fragments' registers reaching them without byte
packing; the empty stand-ins compile when only included and
stop the compile with a message naming the stand-in once a name from them is used."""

import csv
import re
import subprocess
from collections import defaultdict
from pathlib import Path

import pytest

from reports.offline import CompileError, report
from toolchain.headers import INCLUDE_DIR, STANDIN_DIR, TYPES_DIR, library_dirs

DATA = Path(__file__).parent / "data"
MFMA_SPEC = Path(__file__).resolve().parents[2] / "data" / "spec" / "mfma"
# fragment type -> (M, the instruction's K, its table name)
INSTRUCTIONS = {
    ("fp8", 16): (32, "v_mfma_f32_16x16x32_fp8_fp8"), ("fp8", 32): (16, "v_mfma_f32_32x32x16_fp8_fp8"),
    ("bf16", 16): (16, "v_mfma_f32_16x16x16_bf16"), ("bf16", 32): (8, "v_mfma_f32_32x32x8_bf16"),
}
_CELL = re.compile(r"^([ABD])\[(\d+)\]\[(\d+)\]$")


def _calculator_table(name: str, use: str) -> dict[tuple[int, int], tuple[int, int]]:
    """(lane, register slot in order) -> (row, col) from the calculator's CSV."""
    with (MFMA_SPEC / f"{name}.{use}.matrix_layout.csv").open() as handle:
        rows = list(csv.reader(line for line in handle if line[:1].isdigit() or line.startswith("lane")))
    table = {}
    for row in rows[1:]:
        for slot, cell in enumerate(row[1:]):
            match = _CELL.match(cell)
            table[(int(row[0]), slot)] = (int(match.group(2)), int(match.group(3)))
    return table


@pytest.fixture(scope="module")
def layouts(tmp_path_factory) -> dict:
    """(use, M, K, type) -> {(lane, element): (row, col)} as the stand-in computes it."""
    exe = tmp_path_factory.mktemp("wmma") / "probe"
    subprocess.run(["clang++-19", "-std=c++20", "-O1", "-D__HIP_PLATFORM_AMD__", "-isystem", str(INCLUDE_DIR),
                    "-isystem", str(TYPES_DIR), "-isystem", str(STANDIN_DIR), str(DATA / "rocwmma_layout_probe.cpp"),
                    "-o", str(exe)], check=True)
    found: dict = defaultdict(dict)
    for line in subprocess.run([exe], capture_output=True, text=True, check=True).stdout.splitlines():
        use, m, k, kind, lane, element, row, col = line.split()
        found[(use, int(m), int(k), kind)][(int(lane), int(element))] = (int(row), int(col))
    return found


@pytest.mark.parametrize("kind, m", list(INSTRUCTIONS), ids=[f"{k}_{m}x{m}" for k, m in INSTRUCTIONS])
@pytest.mark.parametrize("use", ["A", "B", "D"])
def test_rocwmma_layout_matches_the_mfma_calculator(layouts, kind, m, use):
    k_step, name = INSTRUCTIONS[(kind, m)]
    expected = _calculator_table(name, use)
    got = layouts[(use, m, k_step, kind)]
    assert got == expected


@pytest.mark.parametrize("kind, m", list(INSTRUCTIONS), ids=[f"{k}_{m}x{m}" for k, m in INSTRUCTIONS])
def test_rocwmma_deeper_k_is_consecutive_mfma_steps(layouts, kind, m):
    k_step, name = INSTRUCTIONS[(kind, m)]
    per_step = k_step * m // 64
    for use in ("A", "B"):
        one_step = _calculator_table(name, use)
        pairs = [(key, value) for key, value in layouts.items() if key[0] == use and key[1] == m and key[3] == kind]
        deeper = [value for key, value in pairs if key[2] > k_step]
        assert deeper, f"the probe prints no {use} fragment deeper than one step"
        for got in deeper:
            for (lane, element), (row, col) in got.items():
                step, slot = divmod(element, per_step)
                base_row, base_col = one_step[(lane, slot)]
                shifted = (base_row, base_col + step * k_step) if use == "A" else (base_row + step * k_step, base_col)
                assert (row, col) == shifted, (use, lane, element)


def test_rocwmma_gemm_compiles_to_mfma_for_gfx942():
    kernels = {kernel.name: kernel for kernel in report(DATA / "rocwmma_gemm.hip")}
    assert kernels["wmma_fp8_kernel<32, 16>"].widths("mfma_") == {"mfma_f32_32x32x16_fp8_fp8": 1}
    assert kernels["wmma_fp8_kernel<16, 64>"].widths("mfma_") == {"mfma_f32_16x16x32_fp8_fp8": 2}
    assert kernels["wmma_bf16_kernel<32, 8>"].widths("mfma_") == {"mfma_f32_32x32x8_bf16": 1}
    assert kernels["wmma_bf16_kernel<16, 16>"].widths("mfma_") == {"mfma_f32_16x16x16_bf16": 1}
    assert all(kernel.standins == "rocwmma" and not kernel.spills for kernel in kernels.values())


def test_rocwmma_fragments_reach_the_mfma_without_packing_bytes():
    """A fragment's registers are a native vector, as rocWMMA's: filled by load_matrix_sync or by
    copying a lane's bytes into frag.x, they go to the MFMA as they are (the byte-by-byte
    packing an element array led clang-19 to doubled the rank-5 submission's VALU work)."""
    kernels = {kernel.name: kernel for kernel in report(DATA / "rocwmma_packing.hip")}
    for name, mfmas in (("loaded_fragments", 1), ("copied_fragments", 8)):
        mix = kernels[name].loop_mix
        assert mix["mfma_f32_16x16x32_fp8_fp8"] == mfmas
        assert mix["valu"] <= mfmas, f"{name}: {mix['valu']} VALU instructions beside {mfmas} MFMAs in its loop"


_INCLUDES = """#include <hip/hip_runtime.h>
#include <hipcub/hipcub.hpp>
#include <ck/ck.hpp>
#include <ck/tensor_operation/gpu/device/tensor_layout.hpp>
#include <hipblaslt/hipblaslt.h>
__global__ void only_includes_kernel(float* out, int ck) { out[threadIdx.x] = float(ck); }
"""


# CK's real headers, once toolchain/ck.py has fetched them, come before its stand-in.
REAL_CK = bool(library_dirs())


def test_empty_stand_ins_compile_when_only_included(tmp_path):
    (tmp_path / "includes.hip").write_text(_INCLUDES)
    (kernel,) = report(tmp_path / "includes.hip")
    assert kernel.standins == ("" if REAL_CK else "ck, ") + "hipblas-common, hipblaslt, hipcub"


@pytest.mark.parametrize("use, library", [
    ("using Reduce = hipcub::BlockReduce<float, 256>;", "hipCUB is NOT available offline"),
    pytest.param("using Half = ck::half_t;", "Composable Kernel is NOT available offline",
                 marks=pytest.mark.skipif(REAL_CK, reason="CK's real headers are on this machine")),
    ("void create() { hipblasLtHandle_t handle; hipblasLtCreate(&handle); }", "hipBLASLt is NOT available offline"),
])
def test_empty_stand_ins_fail_clearly_on_use(tmp_path, use, library):
    (tmp_path / "uses.hip").write_text(_INCLUDES + use + "\n")
    with pytest.raises(CompileError) as failure:
        report(tmp_path / "uses.hip")
    message = str(failure.value)
    assert library in message and "toolchain/include/standins" in message
    assert f"uses.hip:{_INCLUDES.count(chr(10)) + 1}:" in message, "the error points at the line that uses it"
