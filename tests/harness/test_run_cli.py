"""eval/run.py as a user drives it: defaults, flags, reports, exit status."""
import re
import subprocess
import sys
from pathlib import Path

import pytest

from eval import report, sandbox
from eval.comparison import Group
from eval.run import make_parser, resolve
from eval.summary import print_secret_run, print_stage, short_report

REPO = Path(__file__).resolve().parents[2]
REFERENCE = str(REPO / "examples" / "reference_submission.py")


def test_help_documents_every_flag():
    out = subprocess.run([sys.executable, str(REPO / "eval" / "run.py"), "--help"],
                         capture_output=True, text=True, check=True).stdout
    for flag in ("--submission", "--shapes", "--secret-seed", "--method", "--device", "--csv",
                 "--popcorn", "--stage-limit", "--preflight-only", "--skip-preflight", "ranked", "leaderboard",
                 "profile"):
        assert flag in out


@pytest.mark.parametrize("mode", ["test", "benchmark", "leaderboard", "profile", "ranked"])
def test_help_of_a_mode_is_that_modes_help(run_leaderboard, mode):
    status, _, out, _ = run_leaderboard(mode, "--help")  # in this process: the script is the test above
    assert status == 0
    assert out.startswith(f"usage: eval/run.py {mode} ") and f"{mode} mode: " in out
    assert ("--method" in out) == (mode != "test"), "a timing method means nothing to the untimed test mode"
    assert "--submission" in out and "--shapes" in out


def test_without_gpu_default_mode_is_test_and_says_so(run_leaderboard):
    status, rows, _, err = run_leaderboard("--submission", REFERENCE, "--shapes", "0")
    assert status == 0
    assert "no GPU found" in err
    assert [(r["mode"], r["passed"], r["device"], r["arch"]) for r in rows] == [("test", 1, "cpu", "cpu")]


def test_report_row_records_method_and_identity(run_leaderboard):
    status, rows, out, _ = run_leaderboard("benchmark", "--submission", REFERENCE, "--shapes", "64,64,128,5")
    assert status == 0
    row = rows[0]
    assert (row["mode"], row["method"], row["seed"], row["case"]) == ("benchmark", "leaderboard", 5, None)
    assert row["runs"] >= 3 and row["mean_us"] > 0 and row["best_us"] <= row["mean_us"] <= row["worst_us"]
    assert row["submission"] == "reference_submission" and len(row["submission_hash"]) == 12
    assert row["torch"] and row["git_sha"] is not None
    assert set(report.COLUMNS) <= set(row)
    assert "geometric mean" in out


def test_popcorn_lines(run_leaderboard):
    status, _, out, _ = run_leaderboard("test", "--submission", REFERENCE, "--shapes", "0", "--popcorn")
    assert status == 0
    for line in ("test-count: 1", "test.0.spec: m: 64; n: 64; k: 128; seed: 6635",
                 "test.0.status: pass", "test.0.message: Maximum error: 0.0", "check: pass"):
        assert line in out.splitlines()


def test_secret_seed_applies_published_pairing(run_leaderboard):
    status, rows, _, _ = run_leaderboard("test", "--submission", REFERENCE, "--shapes", "0", "--secret-seed", "3")
    assert status == 0 and rows[0]["seed"] == 6635 + 6638 * 6639 // 2


@pytest.mark.parametrize("argv,message", [
    (["test", "--shapes", "99"], "index out of range"),
    (["test", "--shapes", "64,64,100"], "multiple of 128"),
    (["test", "--shapes", "1,2"], "m,n,k or m,n,k,seed"),
    (["test", "--shapes", "x"], "expected an index"),
    (["bogus"], "invalid choice"),
])
def test_bad_arguments_exit_2_with_message(run_leaderboard, capsys, argv, message):
    with pytest.raises(SystemExit) as exc:
        run_leaderboard(*argv, "--submission", REFERENCE)
    assert exc.value.code == 2
    assert message in capsys.readouterr().err


def test_missing_submission_and_gpu_only_method(run_leaderboard):
    assert run_leaderboard("test", "--submission", "no/such/file.py")[0] == 2
    status, _, _, err = run_leaderboard("benchmark", "--method", "events", "--submission", REFERENCE)
    assert status == 2 and "needs a GPU" in err


def test_two_submissions_side_by_side(run_leaderboard):
    status, rows, out, _ = run_leaderboard("benchmark", "--shapes", "64,64,128", "--submission", REFERENCE,
                                           "--submission", str(REPO / "tests" / "harness" / "must_fail" / "raises.py"))
    assert status == 1
    assert {r["submission"] for r in rows} == {"reference_submission", "raises"}
    assert "reference_submission" in out and "raises" in out.split("verdict")[1]


def test_profile_mode_prints_a_kernel_table(run_leaderboard):
    status, rows, out, _ = run_leaderboard("profile", "--submission", REFERENCE, "--shapes", "64,64,128")
    assert status == 0 and rows[0]["mode"] == "profile"
    assert "profile of m: 64; n: 64; k: 128; seed: 1" in out and "aten::mm" in out


def test_ranked_ends_with_a_secret_seed_run_of_the_same_cases():
    from eval import run
    from reference import contract

    args = run.make_parser().parse_args(["ranked", "--shapes", "0", "--secret-seed", "3"])
    plan, secret, secret_plan = run.plans("ranked", args, pytest.fail)
    assert secret == 3 and [s for s, _ in plan] == [s for s, _ in secret_plan] == ["test", "benchmark", "leaderboard"]
    assert plan[0][1][0][1].seed == 6635 and secret_plan[0][1][0][1].seed == contract.secret_seed(6635, 3)
    _, drawn, _ = run.plans("ranked", run.make_parser().parse_args(["ranked"]), pytest.fail)
    assert 0 <= drawn < 2 ** 31
    plan, secret, secret_plan = run.plans("test", args, pytest.fail)
    assert secret is None and not secret_plan and plan[0][1][0][1].seed == contract.secret_seed(6635, 3)


def board_rows(cases) -> list[dict]:
    """A passed leaderboard stage of `mine` at 100 us a case."""
    return [{"submission": "mine", "mode": "leaderboard", "passed": 1, "mean_us": 100.0, "method": "leaderboard",
             "m": c.m, "n": c.n, "k": c.k} for c in cases]


def test_a_failed_secret_run_is_shown_as_the_bot_shows_it_and_withholds_the_score(capsys):
    from eval import summary
    from reference import contract

    board = board_rows(contract.cases("benchmarks"))
    secret = [{"submission": "mine", "mode": "test", "passed": 1, "secret_seed": 7},
              {"submission": "mine", "mode": "benchmark", "passed": 1, "secret_seed": 7},
              {"submission": "mine", "mode": "leaderboard", "passed": 0, "secret_seed": 7}]
    assert summary.short_report(secret) == ["✅ Testing successful", "✅ Benchmarking successful",
                                            "❌ Leaderboard run failed"]
    summary.print_verdicts(board, [Path("mine.py")], secret, "NVIDIA H100")
    out = capsys.readouterr().out
    assert "secret validation failed on NVIDIA H100; submission will not appear on the leaderboard" in out
    assert "leaderboard score" not in out
    summary.print_verdicts(board, [Path("mine.py")], [dict(r, passed=1) for r in secret], "NVIDIA H100")
    assert "mine.py: leaderboard score 100.0 us" in capsys.readouterr().out


def test_only_the_benchmark_shapes_give_a_score_beside_the_published_one(capsys):
    from eval import summary
    from reference import contract

    benchmarks = contract.cases("benchmarks")
    summary.print_verdicts(board_rows(benchmarks), [Path("mine.py")])
    top = contract.load()["published_top_score_us"]
    assert f"mine.py: leaderboard score 100.0 us (published top score {top} us)" in capsys.readouterr().out
    summary.print_verdicts(board_rows(benchmarks[:3]), [Path("mine.py")])
    out = capsys.readouterr().out
    assert "score 100.0" not in out and "published" not in out
    assert "mine.py: no leaderboard score: the leaderboard stage ran 3 of the 18 benchmark shapes; the score is over all 18" in out
    summary.print_verdicts(board_rows(benchmarks[:1] * len(benchmarks)), [Path("mine.py")])  # as many rows, other shapes
    out = capsys.readouterr().out
    assert "published" not in out and "ran 1 of the 18 benchmark shapes and 17 other shape(s)" in out


def test_ranked_on_the_cpu_runs_and_reports_the_secret_seed_run(run_leaderboard):
    status, rows, out, _ = run_leaderboard("ranked", "--shapes", "64,64,128", "--secret-seed", "3",
                                           "--submission", REFERENCE)
    assert status == 0
    assert [(r["mode"], r["secret_seed"]) for r in rows] == [
        ("test", None), ("benchmark", None), ("leaderboard", None), ("test", 3), ("benchmark", 3), ("leaderboard", 3)]
    assert rows[3]["seed"] == 1 + 4 * 5 // 2
    assert "secret-seed run (seed 3, --secret-seed)" in out and "✅ Leaderboard run successful" in out


def test_a_mismatch_says_which_value_is_whose_on_lines_of_its_own(capsys):
    message = "Number of mismatched elements: 2\\nERROR at (0, 0): -2.625 -1.890625\\nERROR at (0, 1): 1.0 2.0"
    row = {"case": 0, "m": 64, "n": 64, "k": 128, "seed": 1, "mode": "test", "method": "", "engine": "source",
           "passed": 0, "error": "Number of mismatched elements: 2", "message": message}
    print_stage(Path("mine.py"), "test", [row], [])
    out = capsys.readouterr().out
    assert "\\n" not in out
    assert "at (0, 0): yours -2.625, expected -1.890625" in out.splitlines()[-2].strip()


def test_predicted_without_a_mode_is_the_predicted_benchmark():
    args = make_parser().parse_args(["--method", "predicted", "--shapes", "0"])
    _, mode, _ = resolve(args)
    assert mode == "benchmark"
    assert "benchmark with --method predicted" in " ".join(make_parser().format_help().split())


def test_a_cpu_benchmark_points_to_the_predicted_time_and_shows_no_speed_of_light(run_leaderboard):
    status, rows, out, err = run_leaderboard("benchmark", "--submission", REFERENCE, "--shapes", "64,64,128")
    assert status == 0 and "add --method predicted for the predicted MI300X time" in err
    line = next(line for line in out.splitlines() if line.strip().startswith("-    64    64   128"))
    assert line.split()[-2] == "-"  # SOL x: an MI300X's speed of light against a CPU time means nothing


def test_predicted_rows_never_read_as_checked_or_as_cpu_times(capsys):
    rows = [{"mode": "test", "method": "", "passed": 1}, {"mode": "benchmark", "method": "predicted", "passed": 1}]
    assert short_report(rows) == ["✅ Testing successful", "benchmark: predicted, not checked (the test stage checks)"]
    print_secret_run(Path("mine.py"), "cpu", 7, False, rows)
    assert "cpu (secret)" not in capsys.readouterr().out
    title = Group("benchmark", "predicted", "cpu", "isa").title
    assert "PREDICTED MI300X" in title and "say nothing about a GPU" not in title


def test_a_syntax_error_points_at_the_submissions_own_line(run_leaderboard, tmp_path):
    bad = tmp_path / "bad.py"
    bad.write_text("import torch\n\ndef custom_kernel(data)\n    return data[4]\n")
    status, rows, _, _ = run_leaderboard("test", "--shapes", "0", "--submission", str(bad), "--skip-preflight")
    assert status == 1 and "SyntaxError (at bad.py:3)" in rows[0]["error"]


def test_a_folder_given_as_the_submission_is_named_as_one(run_leaderboard, tmp_path):
    status, _, _, err = run_leaderboard("test", "--submission", str(tmp_path))
    assert status == 2 and "is a folder: give the .py file" in err
    assert f"to judge each .py file in it, python -m eval.batch {tmp_path}" in err


@pytest.mark.parametrize("argv,message", [
    (["my.py"], "argument mode: my.py is a file, not a mode: did you mean --submission my.py?"),
    (["test", "my.py"], "unrecognized argument my.py: did you mean --submission my.py?"),
    (["--submision", "my.py"], "unknown flag --submision: did you mean --submission?"),
    (["test", "--sahpes", "0"], "unknown flag --sahpes: did you mean --shapes?"),
    (["--stirct=1"], "unknown flag --stirct: did you mean --strict?"),
    (["subs"], "argument mode: subs is a folder, not a mode: to judge each .py file in it, python -m eval.batch subs"),
])
def test_a_misplaced_file_or_a_misspelt_flag_gets_one_line_with_the_fix(capsys, monkeypatch, tmp_path, argv, message):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "subs").mkdir()
    with pytest.raises(SystemExit) as exc:
        make_parser().parse_args(argv)
    assert exc.value.code == 2
    assert capsys.readouterr().err == f"eval/run.py: error: {message}\n"


def test_a_flags_prefix_is_still_that_flag():
    assert make_parser().parse_args(["--shape", "0", "--sub", "my.py"]).shapes == ["0"]


def test_a_file_given_as_the_mode_is_a_usage_error_not_a_traceback():
    done = subprocess.run([sys.executable, str(REPO / "eval" / "run.py"), "my.py"], capture_output=True, text=True)
    assert done.returncode == 2
    assert done.stderr == "eval/run.py: error: argument mode: my.py is a file, not a mode: did you mean --submission my.py?\n"


def test_repeated_shapes_flags_add_up():
    assert make_parser().parse_args(["test", "--shapes", "0", "--shapes", "1", "2"]).shapes == ["0", "1", "2"]


def test_ctrl_c_ends_the_run_with_a_line_not_a_traceback(monkeypatch, capsys):
    import eval.run

    def interrupted():
        raise KeyboardInterrupt
    monkeypatch.setattr(eval.run, "main", interrupted)
    assert eval.run.interruptible_main() == 130
    assert capsys.readouterr().err.strip().startswith("interrupted: the run stopped")


def test_without_a_sandbox_the_run_says_so_once_and_records_it(run_leaderboard, monkeypatch):
    from eval import sandbox

    monkeypatch.setattr(sandbox, "probe", lambda: sandbox.Sandbox(False, "none: no user namespaces here"))
    status, rows, _, err = run_leaderboard("test", "--submission", REFERENCE, "--shapes", "0", "1")
    assert status == 0 and [row["sandbox"] for row in rows] == ["none: no user namespaces here"] * 2
    assert err.count("the stages run without a sandbox") == 1


def test_a_default_report_is_named_by_its_mode_and_submissions():
    from eval.run import default_report

    one = default_report([Path("mine.py")], "test").name
    assert one.startswith("run-") and one.endswith("-test-mine.csv")
    assert default_report([Path("a.py"), Path("b.py"), Path("c.py")], "ranked").name.endswith("-ranked-a-and-2-more.csv")


def test_popcorn_lines_of_a_timed_case_give_its_statistics_in_ns(run_leaderboard):
    status, rows, out, _ = run_leaderboard("benchmark", "--submission", REFERENCE, "--shapes", "64,64,128", "--popcorn")
    values = dict(line.split(": ", 1) for line in out.splitlines() if line.startswith("benchmark.0."))
    assert status == 0 and int(values["benchmark.0.runs"]) == rows[0]["runs"]
    assert float(values["benchmark.0.mean"]) == pytest.approx(rows[0]["mean_us"] * 1e3)
    assert {"benchmark.0.std", "benchmark.0.err", "benchmark.0.best", "benchmark.0.worst"} <= set(values)


def test_the_engines_are_told_when_to_stop_a_launch_before_the_stage_is_killed(run_leaderboard, tmp_path):
    # what the worker's engines read (tests/engines/source/test_faults.py and tests/engines/isa/test_load_inline.py
    # hold each engine to it): no progress for 2 minutes, or the stage's limit a few seconds away
    # (the build pass's call, whose result no one reads, is stopped after 10 s: it leaves a note
    # in the one folder it may write, the submission's builds; naming torch's builder gets it one)
    told = tmp_path / "told.py"
    told.write_text("import os, time\nfrom pathlib import Path\nimport torch.utils.cpp_extension\n\n"
                    "def custom_kernel(data):\n"
                    "    try:\n"
                    "        (Path(os.environ['TORCH_EXTENSIONS_DIR']).parent / 'hang').write_text(os.environ['WORKBENCH_HANG_S'])\n"
                    "    except OSError:\n"
                    "        pass\n"
                    "    raise RuntimeError(f\"hang {os.environ['WORKBENCH_HANG_S']} \"\n"
                    "                       f\"left {float(os.environ['WORKBENCH_DEADLINE']) - time.time():.0f}\")\n")
    status, rows, _, _ = run_leaderboard("test", "--shapes", "0", "--submission", str(told), "--skip-preflight",
                                         "--stage-limit", "40")
    found = re.search(r"hang (\d+) left (\d+)", rows[0]["error"])
    assert status == 1 and found, rows[0]["error"]
    assert int(found.group(1)) == 120 and 20 < int(found.group(2)) < 40
    assert (sandbox.space(told) / "hang").read_text() == "10"
