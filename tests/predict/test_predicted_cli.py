"""`eval/run.py ... --method predicted`: the ISA engine by itself, predicted rows in the usual
report that say "not checked" (never pass), the profile's text, and clear refusals where a
prediction cannot be made."""
from __future__ import annotations

import re
from pathlib import Path

from eval.predict import calibration

SHAPE = "3"  # benchmark 3: 1024 x 7168 x 256, the quickest to build inputs for


def test_benchmark_rows_are_predicted_isa_rows_above_the_host_time(run_leaderboard):
    status, rows, out, err = run_leaderboard("benchmark", "--device", "cpu", "--method", "predicted", "--shapes", SHAPE)
    assert status == 0, err
    (row,) = rows
    assert (row["method"], row["engine"], row["passed"], row["runs"]) == ("predicted", "isa", 1, 1)  # isa by itself
    assert row["mean_us"] > calibration()["fitted"]["host_us"]
    assert re.search(r"\n +3 +1024 +7168 +256 +\d+  not checked ", out), out  # the table's status column
    assert "benchmark: 1/1 predicted, not checked, geometric mean" in out
    assert "pass" not in out.split("verdict")[-1] and " pass " not in out


def test_leaderboard_mode_predicts_the_call_on_a_fresh_input(run_leaderboard):
    status, rows, _, err = run_leaderboard("leaderboard", "--device", "cpu", "--engine", "isa",
                                           "--method", "predicted", "--shapes", SHAPE)
    assert status == 0, err
    assert rows[0]["method"] == "predicted" and rows[0]["mean_us"] > 0


def test_profile_names_the_hottest_instructions(run_leaderboard):
    status, _, out, err = run_leaderboard("profile", "--device", "cpu", "--engine", "isa",
                                          "--method", "predicted", "--shapes", SHAPE)
    assert status == 0, err
    assert "predicted MI300X profile" in out
    assert "hottest instructions" in out
    assert "profile: 1/1 predicted, not checked" in out and "passed" not in out, out  # no output was checked
    hottest = re.findall(r"0x[0-9a-f]+ [sv]_\w+ +issued +\d+, stalled .*", out)  # address, mnemonic, cycles
    # each with the submission's source line (one symbolizer run answers all twelve addresses)
    assert len(hottest) == 12 and all(re.search(r"\[\S*submission\.py:\d+ \(", h) for h in hottest), out
    assert len({re.search(r"submission\.py:(\d+)", h).group(1) for h in hottest}) > 1, out


def test_predicted_needs_the_isa_engine(run_leaderboard):
    status, rows, _, err = run_leaderboard("benchmark", "--device", "cpu", "--engine", "source",
                                           "--method", "predicted", "--shapes", SHAPE)
    assert status == 2 and not rows
    assert "--engine isa" in err


def test_a_kernel_whose_scratch_is_over_the_runtimes_limit_is_noted_once(run_leaderboard):
    submission = Path(__file__).parent / "data" / "private_array_submission.py"
    status, rows, out, err = run_leaderboard("benchmark", "--submission", str(submission), "--device", "cpu",
                                             "--method", "predicted", "--shapes", SHAPE, "8")
    assert status == 0 and len(rows) == 2, err[-2000:]
    notes = re.findall(r"note, kernel \S*private_sums\S*: scratch: (\d+) bytes a lane .* not in the predicted time", out)
    assert len(notes) == 1 and int(notes[0]) >= 512, out  # once for the kernel, not once a shape
