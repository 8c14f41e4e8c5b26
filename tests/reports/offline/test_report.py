"""The ISA report is right on small kernels whose numbers are known by construction."""

from pathlib import Path

import pytest

from reports.offline import CompileError, report
from toolchain.source import translation_units

DATA = Path(__file__).parent / "data"


@pytest.fixture(scope="module")
def mfma_loop():
    (kernel,) = report(DATA / "mfma_loop.hip")
    return kernel


def test_hot_loop_counts_exactly_the_unrolled_mfmas(mfma_loop):
    # 4 unrolled steps x 2 accumulators per K iteration (tests/reports/offline/data/mfma_loop.hip)
    assert mfma_loop.widths("mfma_") == {"mfma_f32_16x16x32_fp8_fp8": 8}
    assert mfma_loop.count("s_barrier") == 2  # the two __syncthreads of one iteration
    assert mfma_loop.count("ds_write_b64") == 1


def test_static_lds_and_workgroup_size(mfma_loop):
    assert mfma_loop.lds_bytes == 4096
    assert mfma_loop.workgroup_size == 256  # __launch_bounds__(256)
    assert mfma_loop.name == "mfma_loop_kernel"


def test_accumulators_live_in_agprs_and_occupancy_agrees_with_llvm(mfma_loop):
    assert mfma_loop.agprs == 8  # two floatx4 accumulators
    assert mfma_loop.waves_per_simd == mfma_loop.compiler_occupancy


def test_spilling_kernel_is_flagged():
    (kernel,) = report(DATA / "spills.hip")
    assert kernel.vgpr_spills > 0 and kernel.scratch_bytes > 0
    assert kernel.spills


def test_compile_error_names_the_submission_line():
    source = (DATA / "broken_submission.py").read_text().splitlines()
    error_line = next(n for n, line in enumerate(source, 1) if "undeclared_scale" in line)
    with pytest.raises(CompileError) as failure:
        report(DATA / "broken_submission.py")
    assert f"broken_submission.py:{error_line}:" in str(failure.value)
    assert "undeclared_scale" in str(failure.value)


def test_wrapper_prepends_only_what_load_inline_does():
    (unit,) = translation_units(DATA / "broken_submission.py")
    directives = [line for line in unit.text.splitlines() if line.startswith("#include") and "amd_detail" not in line]
    # hipify turns <cuda.h> and <cuda_runtime.h> into <hip/hip_runtime.h>
    assert directives == ["#include <torch/types.h>", "#include <hip/hip_runtime.h>", "#include <hip/hip_runtime.h>"]


def test_the_cli_names_a_missing_file_and_leaves_the_csv_alone(tmp_path, capsys):
    from reports.offline.__main__ import main

    csv = tmp_path / "isa.csv"
    csv.write_text("kept\n")
    assert main([str(tmp_path / "missing.hip"), "--csv", str(csv)]) == 2
    assert "no such file" in capsys.readouterr().err and csv.read_text() == "kept\n"


def test_the_cli_prints_a_compile_error_once_and_its_help_whole(tmp_path, capsys):
    from reports.offline.__main__ import main

    (tmp_path / "bad.hip").write_text("#include <hip/hip_runtime.h>\n__global__ void k(float* x) { x[0] = nowhere; }\n")
    assert main([str(tmp_path / "bad.hip"), "--csv", str(tmp_path / "isa.csv")]) == 1
    assert capsys.readouterr().err.count("use of undeclared identifier 'nowhere'") == 1
    with pytest.raises(SystemExit):
        main(["--help"])
    assert "Exit status 1 if any file failed to compile." in capsys.readouterr().out
