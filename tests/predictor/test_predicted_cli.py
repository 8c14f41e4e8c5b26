"""`eval/run.py ... --method predicted`: the ISA engine by itself, predicted rows in the usual
report that say "not checked" (never pass), the profile's text, and clear refusals where a
prediction cannot be made."""
from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

from predictor import calibration
from engines.isa import device_code
from toolchain import code_object
from toolchain.hipcc import device_lib_dir

REPO = Path(__file__).resolve().parents[2]

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
    status, rows, out, err = run_leaderboard("profile", "--device", "cpu", "--engine", "isa",
                                             "--method", "predicted", "--shapes", SHAPE)
    assert status == 0, err
    call_us = re.search(r"predicted MI300X profile of .*?: ([\d.]+) us per call", out).group(1)
    # the table's mean is the call time the detail prints, as the predicted benchmark reports it
    assert re.search(rf"\n +3 +1024 +7168 +256 +\d+  not checked +{re.escape(call_us)} ", out), out
    assert rows[0]["runs"] == 1 and f"{rows[0]['mean_us']:.1f}" == call_us
    assert "hottest instructions" in out
    # the kernel as its source names it: demangled, without the parameter list
    kernel = re.search(r"^kernel (.*)$", out, re.M).group(1)
    assert not kernel.startswith("_Z") and "(" not in kernel and "kernel<" in kernel, kernel
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


def test_code_objects_from_another_compiler_are_the_ones_predicted(run_leaderboard, tmp_path, monkeypatch):
    """--device-code: the submission's device code exported, compiled outside (clang-19 at -O0
    standing in for ROCm's clang: a private segment of its own, larger than -O3's), and timed."""
    submission = Path(__file__).parent / "data" / "private_array_submission.py"
    out = tmp_path / "device_code"
    exported = subprocess.run([sys.executable, "-m", "engines.isa.device_code", "export", str(submission), "--out",
                               str(out)], cwd=REPO, capture_output=True, text=True)
    assert exported.returncode == 0, exported.stderr
    (flags,) = out.glob("*.flags")
    flags.write_text(flags.read_text().strip() + " -O0\n")
    env = dict(os.environ, CLANG="clang++-19", DEVICE_LIB_PATH=str(device_lib_dir()))
    compiled = subprocess.run(["sh", str(out / "compile.sh")], env=env, capture_output=True, text=True)
    assert compiled.returncode == 0, compiled.stderr
    (kernel,) = [k for k in code_object.kernels(flags.with_suffix(".co")) if "private_sums" in k.name]
    monkeypatch.setenv(device_code.ENV, "")  # restored (absent) after the test: --device-code sets it

    status, rows, text, err = run_leaderboard("benchmark", "--submission", str(submission), "--device", "cpu",
                                              "--method", "predicted", "--shapes", SHAPE, "--device-code", str(out))
    assert status == 0 and len(rows) == 1, err[-2000:]
    notes = re.findall(r"note, kernel \S*private_sums\S*: scratch: (\d+) bytes a lane", text)
    assert notes == [str(kernel.scratch_bytes)], text


def test_device_code_needs_the_isa_engine_and_a_folder(run_leaderboard, tmp_path):
    status, rows, _, err = run_leaderboard("test", "--device", "cpu", "--engine", "source", "--shapes", "0",
                                           "--device-code", str(tmp_path))
    assert status == 2 and not rows and "--device-code needs --engine isa" in err
    status, rows, _, err = run_leaderboard("test", "--device", "cpu", "--engine", "isa", "--shapes", "0",
                                           "--device-code", str(tmp_path / "missing"))
    assert status == 2 and not rows and "missing: no such folder" in err
    (tmp_path / "kernel.co").write_bytes(b"")
    status, rows, _, err = run_leaderboard("test", "--device", "cpu", "--engine", "isa", "--shapes", "0",
                                           "--device-code", str(tmp_path / "kernel.co"))
    assert status == 2 and not rows and "kernel.co: a file; give the folder" in err
