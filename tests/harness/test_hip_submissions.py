"""HIP submissions through the harness: on the CPU they run on the emulator; on a GPU
that cannot run gfx942 code they fail with a clear reason."""
from pathlib import Path

import pytest

from eval.device import DeviceInfo
from eval.worker import SubmissionError, _hip_load_inline_guard

REPO = Path(__file__).resolve().parents[2]


def test_naive_hip_submission_passes_test_cases_on_the_emulator(run_leaderboard):
    status, rows, _, _ = run_leaderboard("test", "--submission", str(REPO / "examples" / "naive_hip_submission.py"),
                                         "--shapes", "0", "4", "--device", "cpu")
    assert status == 0
    assert [(r["m"], r["n"], r["k"], r["passed"]) for r in rows] == [(64, 64, 128, 1), (96, 7168, 256, 1)]


def test_gfx942_build_on_an_nvidia_gpu_says_why_it_cannot_run():
    nvidia = DeviceInfo("cuda", "NVIDIA H200", "sm_90", "2.11.0", "", "13.0")
    calls = []
    guarded = _hip_load_inline_guard(lambda *a, **k: calls.append(k) or "module", nvidia)
    with pytest.raises(SubmissionError, match="cannot run on NVIDIA H200 \\(sm_90\\).*--device cpu"):
        guarded(name="x", cpp_sources="", extra_cuda_cflags=["--offload-arch=gfx942", "-std=c++20"])
    assert not calls
    assert guarded(name="cuda_ok", cpp_sources="", extra_cuda_cflags=["-O3"]) == "module"
