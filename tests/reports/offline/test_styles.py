"""Submissions packaged the ways real leaderboard entries are compile in the offline report.

One submission per style in tests/reports/offline/data/styles/: the report imports each with load_inline
intercepted (toolchain.capture), so computed sources, every load_inline option, GPU queries at
import time, LLVM intrinsics declared by __asm label, inline assembly, library headers this
machine cannot have and torch's real host API all reach clang as they would reach hipcc."""

import functools
import subprocess
import sys
from pathlib import Path

import pytest

from reports.offline import CompileError, SourceError, report
from toolchain.capture import capture
from toolchain.source import translation_units
from toolchain import REPO_ROOT, ck
from toolchain.hipcc import device_compile_command

STYLES = Path(__file__).parent / "data" / "styles"


@functools.cache
def _report(name: str) -> tuple:
    """The report of one style, compiled once for the tests that read it (a compile is ~10 s)."""
    return tuple(report(STYLES / name))


def _line_of(path: Path, marker: str) -> int:
    return next(n for n, line in enumerate(path.read_text().splitlines(), 1) if marker in line)


@pytest.mark.parametrize("submission, kernel", [
    ("zlib_submission.py", "zlib_kernel"),             # zlib + base64 blob
    ("bz2_submission.py", "bz2_kernel"),               # bz2 + base85, sources passed by position
    ("replace_submission.py", "replace_kernel"),       # str.replace on a template
    ("beside/beside_submission.py", "beside_kernel"),  # read from a file beside the submission
    ("beside/load_submission.py", "loaded_kernel"),    # a .cu beside it, through cpp_extension.load
])
def test_computed_sources_compile(submission, kernel):
    (report_row,) = _report(submission)
    assert report_row.name == kernel


def test_a_file_named_eval_py_beside_the_submission_does_not_hide_the_harness():
    (call,) = capture(STYLES / "own_eval" / "own_eval_submission.py")
    assert call.name == "own_eval_style"


def test_templated_source_is_the_one_compiled():
    (kernel,) = _report("replace_submission.py")
    assert kernel.workgroup_size == 128 and kernel.lds_bytes == 128 * 4  # @THREADS@ became 128


def test_gpu_queries_at_import_do_not_stop_the_import():
    (call,) = capture(STYLES / "gpu_query_submission.py")
    assert call.name.startswith("gpu_query_")
    (kernel,) = report(STYLES / "gpu_query_submission.py")
    assert kernel.name == "persistent_kernel"


def test_every_load_inline_option_reaches_the_compile_as_on_rocm(tmp_path):
    path = STYLES / "flags_submission.py"
    (unit,) = translation_units(path)
    (tmp_path / "x.hip").write_text(unit.text)
    command = device_compile_command(tmp_path / "x.hip", tmp_path / "x.s", unit.call)
    assert f"-I{STYLES / 'include'}" in command, "relative extra_include_paths are made absolute"
    assert "-Ofast" in command and "-O3" not in command, "a user -O level replaces hipcc's default -O3"
    assert "-Werror" in command and "-DTORCH_EXTENSION_NAME=flags_style" in command
    assert not any(flag.startswith(("-march", "-save-temps")) for flag in command), "host-only flags dropped"
    assert command.count("--offload-arch=gfx942") == 1
    (kernel,) = report(path)
    assert kernel.name == "flags_kernel" and kernel.workgroup_size == 64


def test_no_implicit_headers_and_own_module():
    (unit,) = translation_units(STYLES / "own_module_submission.py")
    assert unit.call.no_implicit_headers and unit.call.functions is None and unit.call.cpp_sources == [""]
    first_include = next(line for line in unit.text.splitlines() if line.startswith("#include"))
    assert first_include == "#include <torch/extension.h>", "nothing is prepended with no_implicit_headers"
    (kernel,) = report(STYLES / "own_module_submission.py")
    assert kernel.name == "own_module_kernel"


def test_llvm_intrinsics_by_asm_label_and_inline_asm_compile():
    (kernel,) = report(STYLES / "asm_submission.py")
    assert kernel.name == "asm_kernel"
    loads = kernel.widths("buffer_load")
    assert loads.get("buffer_load_dwordx4") == 1 and loads.get("buffer_load_dword") == 1
    assert kernel.widths("buffer_store") == {"buffer_store_dwordx4": 1}


def test_library_headers_compile_from_stand_ins_and_the_report_says_so():
    (kernel,) = report(STYLES / "rocwmma_submission.py")
    ck_real = ck.include_dir() is not None  # CK's real headers once fetched (toolchain/ck.py), else its stand-in
    assert kernel.standins == ("" if ck_real else "ck, ") + "hipblas-common, hipblaslt, hipcub, rocwmma"
    assert kernel.widths("mfma_") == {"mfma_f32_32x32x16_fp8_fp8": 4}  # BlockK 64 = 4 MFMA steps


def test_host_code_on_torchs_real_api_compiles():
    (unit,) = translation_units(STYLES / "torch_api_submission.py")
    assert "#include <ATen/hip/HIPContext.h>" in unit.text and "#include <c10/hip/HIPGuard.h>" in unit.text
    (kernel,) = report(STYLES / "torch_api_submission.py")
    assert kernel.name == "torch_api_kernel" and kernel.standins == ""


def test_import_failure_names_the_submission_line():
    path = STYLES / "raises_submission.py"
    with pytest.raises(SourceError) as failure:
        report(path)
    message = str(failure.value)
    assert "made no load_inline" in message
    assert f"raises_submission.py:{_line_of(path, 'RAISES-HERE')}: KeyError" in message


def test_error_in_computed_source_names_its_line_there():
    with pytest.raises(CompileError) as failure:
        report(STYLES / "computed_error_submission.py")
    assert "computed_error_submission.py[cuda_sources]:4:" in str(failure.value)
    assert "missing_value" in str(failure.value)


def test_without_the_simulated_host_gpu_queries_still_answer():
    # The fallback when the simulated host cannot install: the queries of
    # gpu_query_submission.py run, answering inert values.
    probe = ("from toolchain.capture import inert_cuda; inert_cuda(); import torch; "
             "assert torch.cuda.is_available(); "
             "print(torch.cuda.get_device_properties(0).multi_processor_count, torch.cuda.get_device_name())")
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, cwd=REPO_ROOT)
    assert done.returncode == 0, done.stderr
    assert "isa capture stub" in done.stdout
