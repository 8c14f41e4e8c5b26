"""Submissions the harness must reject, each for the right reason.

Every one runs through eval/run.py exactly as a user's would: its own spawned worker per
stage, on the CPU. KernelGuard, in the pre-flight, already refuses some of them in the
modes it guards (tests/harness/test_preflight.py); a rule-based detector can be evaded, so
these run with --skip-preflight to hold the harness's own defences to their reasons.
"""
from pathlib import Path

import pytest

MUST_FAIL = Path(__file__).parent / "must_fail"
REFERENCE = str(Path(__file__).resolve().parents[2] / "examples" / "reference_submission.py")

CASES = [
    # submission, arguments, reason expected in the failing row
    ("uninitialised", ["test", "--shapes", "0"], "Number of mismatched elements"),
    ("writes_inputs", ["test", "--shapes", "0", "--strict"], "custom_kernel modified its input(s) a_scale"),
    ("ignores_b_scale", ["test", "--shapes", "0"], "Number of mismatched elements"),
    ("bf16_accumulate", ["test", "--shapes", "1"], "Number of mismatched elements"),
    ("cached", ["leaderboard", "--shapes", "64,64,128"], "seed 14: Number of mismatched elements"),
    ("wrong_shape", ["test", "--shapes", "0"], "SIZE MISMATCH"),
    ("nan_one", ["test", "--shapes", "0"], "Number of mismatched elements: 1"),
    ("raises", ["test", "--shapes", "0"], "custom_kernel raised RuntimeError (at raises.py:5): deliberate failure"),
    ("sleeps", ["test", "--shapes", "0", "--stage-limit", "5"], "passed its 5 s limit while on test 1/1: m: 64; n: 64"),
    ("segfaults", ["test", "--shapes", "0"], "died from SIGSEGV"),
    ("fails_import", ["test", "--shapes", "0"], "failed to import: ModuleNotFoundError"),
    ("tamper_checker", ["test", "--shapes", "0"], "replaced reference.check_implementation"),
    ("tamper_clock", ["benchmark", "--shapes", "64,64,128"], "replaced time.perf_counter_ns"),
]


@pytest.mark.parametrize("name,argv,reason", CASES, ids=[c[0] for c in CASES])
def test_rejected_with_reason(run_leaderboard, name, argv, reason):
    status, rows, _, _ = run_leaderboard(*argv, "--submission", str(MUST_FAIL / f"{name}.py"), "--skip-preflight")
    assert status == 1
    assert rows and not any(row["passed"] for row in rows)
    assert reason in rows[0]["error"]


def test_written_inputs_pass_without_strict_as_on_the_leaderboard(run_leaderboard):
    status, rows, out, _ = run_leaderboard("test", "--shapes", "0", "--submission", str(MUST_FAIL / "writes_inputs.py"),
                                           "--skip-preflight")
    assert status == 0 and rows[0]["passed"] == 1
    assert "note, case 0: custom_kernel modified its input(s) a_scale." in out


def test_cached_result_passes_test_mode_so_only_fresh_seeds_catch_it(run_leaderboard):
    status, rows, _, _ = run_leaderboard("test", "--shapes", "0", "--submission", str(MUST_FAIL / "cached.py"))
    assert status == 0 and rows[0]["passed"] == 1


def test_run_goes_on_after_a_crashed_submission(run_leaderboard):
    status, rows, _, _ = run_leaderboard("test", "--shapes", "0", "--submission", str(MUST_FAIL / "segfaults.py"),
                                         "--submission", REFERENCE)
    assert status == 1
    assert [(r["submission"], r["passed"]) for r in rows] == [("segfaults", 0), ("reference_submission", 1)]


def test_leaderboard_stops_at_first_failure(run_leaderboard):
    status, rows, _, _ = run_leaderboard("leaderboard", "--shapes", "64,64,128", "0",
                                         "--submission", str(MUST_FAIL / "cached.py"), "--skip-preflight")
    assert status == 1
    assert "stops at the first failure" in rows[1]["error"]
