"""Submissions of our corpus (tests/submissions/) that must fail, or pass with a diagnostic, on the
CPU engines: each failed row says what to fix. Apart from test_corpus.py, whose styles must pass, so
that `make test`'s workers can take the two halves of the corpus at once.
"""
import os
import subprocess
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
# Submissions that must fail, and what the failed row must say: (case, words of the message,
# the engines that run it).
MUST_FAIL = {
    "build_error": ("0", ["build_error.py[cuda_sources]:17:12: error: static assertion failed",
                          "__shfl_xor_sync(0xffffffff", "full compiler output:"], ["source"]),
    "lds_race": ("4", ["differs between wave schedules 0 and 1", "missing __syncthreads()"], ["source"]),
    "host_graph": ("0", ["hipGraph", "(HIP graphs) is not available on the CPU engines"], ["source", "isa"]),
}
# Submissions that pass with a diagnostic on both engines, and fail with --strict: (case, words of it).
DIAGNOSED = {
    "scale_vectors": ("0", ["read past the end of a tensor", "scaled_kernel at scale_vectors.py:28",
                            "past the end of `b_scale` (argument 3 of fp8_mm() (float32 [1, 1], 4 bytes))"]),
}


@pytest.mark.parametrize("name, engine", [(name, engine) for name, (*_, engines) in MUST_FAIL.items()
                                          for engine in engines])
def test_must_fail_submission_says_what_to_fix(run_leaderboard, name, engine):
    case, words, _ = MUST_FAIL[name]
    status, rows, out, _ = run_leaderboard("test", "--submission", str(HERE / f"{name}.py"), "--shapes", case,
                                           "--device", "cpu", "--engine", engine)
    assert status == 1 and [r["passed"] for r in rows] == [0]
    failed = out[out.index("failed:"):]
    assert all(word in failed for word in words), failed
    assert max(len(line) for line in failed.splitlines()) <= 210, "a failure line fits a terminal"


def run_cli(*argv: str) -> subprocess.CompletedProcess:
    """eval/run.py in its own process: the worker's diagnostics reach this stderr too."""
    return subprocess.run([sys.executable, "eval/run.py", *argv, "--csv", os.devnull], cwd=ROOT, capture_output=True,
                          text=True, timeout=1800)


@pytest.mark.parametrize("engine", ["source", "isa"])
@pytest.mark.parametrize("name", DIAGNOSED)
def test_a_read_past_a_tensor_is_reported_once_and_fails_only_when_strict(name, engine):
    case, words = DIAGNOSED[name]
    argv = ["test", "--submission", str(HERE / f"{name}.py"), "--shapes", case, "--device", "cpu", "--engine", engine]
    passing = run_cli(*argv)
    reported = [line for line in passing.stderr.splitlines() if "engine diagnostic (read past the end" in line]
    assert passing.returncode == 0 and len(reported) == 1, passing.stdout[-2000:] + passing.stderr[-2000:]
    assert all(word in reported[0] for word in words), reported
    strict = run_cli(*argv, "--strict")
    failed = strict.stdout[strict.stdout.index("failed:"):]
    assert strict.returncode == 1 and "past the end of `b_scale`" in failed, strict.stdout[-2000:]
