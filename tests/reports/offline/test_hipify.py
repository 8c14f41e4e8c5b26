"""Submissions are compiled as the ROCm runner compiles them: after torch's hipify pass, with
compile errors still pointing at the submission's own lines."""

from pathlib import Path

import pytest

from reports.offline import CompileError, compile_to_asm, report
from toolchain.source import translation_units
from toolchain import REPO_ROOT

DATA = Path(__file__).parent / "data"


def _line_of(path: Path, marker: str) -> int:
    return next(n for n, line in enumerate(path.read_text().splitlines(), 1) if marker in line)


def test_submission_text_is_the_hipified_one():
    (unit,) = translation_units(REPO_ROOT / "submission.py")
    includes = [line for line in unit.text.splitlines() if line.startswith("#include")]
    assert unit.hipified_by.startswith("torch ")
    assert "#include <cuda.h>" not in includes and "#include <cuda_runtime.h>" not in includes
    assert not any("ATen/cuda/" in line for line in includes), "hipify maps ATen/cuda/* to ATen/hip/*"
    assert "<<<" not in unit.text, "hipify turns every <<<>>> launch into hipLaunchKernelGGL"


def test_cuda_spelled_submission_compiles_after_hipify():
    (unit,) = translation_units(DATA / "cuda_stream_submission.py")
    assert "#include <ATen/hip/HIPContext.h>" in unit.text
    assert "hipStream_t stream" in unit.text and "cudaStream_t" not in unit.text
    (kernel,) = report(DATA / "cuda_stream_submission.py")
    assert kernel.name == "scale_kernel" and kernel.hipified_by == unit.hipified_by


def test_stubs_accept_the_masquerading_stream_of_hipify_v1():
    assert "touch_kernel" in compile_to_asm(DATA / "hipify_v1_binding.hip")


def test_what_hipify_breaks_fails_at_the_users_line():
    path = DATA / "hipify_breaks_submission.py"
    assert "= ::max(Tile{64}" in translation_units(path)[0].text, "hipify rewrites std::max( in .cu sources"
    with pytest.raises(CompileError) as failure:
        report(path)
    message = str(failure.value)
    assert f"hipify_breaks_submission.py:{_line_of(path, '// ERROR-HERE')}:" in message
    assert "no matching function for call to 'max'" in message
    assert "as on the ROCm runner" in message
