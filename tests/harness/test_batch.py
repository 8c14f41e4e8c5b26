"""python -m eval.batch on data we make: a small export in the dataset's schema with our own
submissions (passing, failing, crashing, a duplicate, a row of another leaderboard), judged on
the CPU through Ray, locally and on a two-node cluster the test starts; --resume; a hang."""
from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest

from eval import batch, dataset

REPO = Path(__file__).resolve().parents[2]
GOOD = (REPO / "examples" / "reference_submission.py").read_text()
WRONG = "def custom_kernel(data):\n    return data[-1].zero_()\n"
CRASH = "import os\nos._exit(3)\n"
HANG = "import time\n\ndef custom_kernel(data):\n    time.sleep(3600)\n"
SHAPE = "0"  # the first test case alone: the verdicts, not the time, are under test


def export(folder: Path, rows: list[tuple]) -> Path:
    """submissions.parquet in the export's schema, leaderboards.parquet beside it."""
    records = []
    for sid, board, code, mode, result in rows:
        records.append({"submission_id": sid, "leaderboard_id": board, "user_id": 1, "submission_time": "2025-05-01",
                        "file_name": f"sub{sid}.py", "code": code, "run_mode": mode, "run_score": None,
                        "run_passed": True, "run_result": json.dumps(result), "run_system_info": "{}"})
    pd.DataFrame.from_records(records).to_parquet(folder / "submissions.parquet")
    pd.DataFrame({"id": [7, 8], "name": [dataset.LEADERBOARD, "amd-mixture-of-experts"]}).to_parquet(
        folder / "leaderboards.parquet")
    return folder / "submissions.parquet"


MEASURED = {"benchmark-count": 2, "benchmark.0.spec": "k: 7168; m: 1024; n: 1536; seed: 8135",
            "benchmark.0.mean": 200000.0, "benchmark.1.spec": "k: 1536; m: 1024; n: 3072; seed: 6251",
            "benchmark.1.mean": 50000.0}


@pytest.fixture(scope="module")
def batch_input(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("export")
    return export(folder, [(1, 7, GOOD, "test", {}), (1, 7, GOOD, "leaderboard", MEASURED), (2, 7, WRONG, "test", {}),
                           (3, 7, CRASH, "test", {}), (4, 7, GOOD, "test", {}), (5, 8, WRONG, "test", {})])


def run_batch(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "eval.batch", *args], cwd=REPO, capture_output=True, text=True,
                          timeout=900)


def verdicts(table: Path) -> dict[str, bool]:
    frame = pd.read_parquet(table)
    return {sid: bool(group["passed"].all()) for sid, group in frame.groupby("submission_id")}


def test_the_export_reader_keeps_its_leaderboard_and_the_measured_times(batch_input):
    found = dataset.read(batch_input)
    assert [e.submission_id for e in found.entries] == ["1", "2", "3", "4"]
    assert found.other_leaderboards == 1 and found.leaderboard_id == 7
    first = found.entries[0]
    assert first.measured_us == {(1024, 1536, 7168): 200.0, (1024, 3072, 1536): 50.0}
    assert first.measured_score_us == pytest.approx(100.0)
    assert found.entries[1].measured_score_us is None


def test_an_export_of_several_leaderboards_without_their_names_is_refused(tmp_path):
    path = export(tmp_path, [(1, 7, GOOD, "test", {}), (2, 8, GOOD, "test", {})])
    (tmp_path / "leaderboards.parquet").unlink()
    with pytest.raises(dataset.DatasetError, match="--leaderboard-id"):
        dataset.read(path)
    assert [e.submission_id for e in dataset.read(path, 8).entries] == ["2"]


@pytest.fixture(scope="module")
def local_run(batch_input, tmp_path_factory):
    out = tmp_path_factory.mktemp("local") / "results.parquet"
    done = run_batch(str(batch_input), "--shapes", SHAPE, "--cpus", "2", "--out", str(out))
    assert done.returncode == 1, done.stderr[-3000:]  # two of them fail
    return out, done


def test_a_batch_gives_each_submission_its_verdict(local_run):
    out, done = local_run
    assert verdicts(out) == {"1": True, "2": False, "3": False, "4": True}
    frame = pd.read_parquet(out)
    assert frame.loc[frame["submission_id"] == "2", "error"].iloc[0].startswith("Number of mismatched elements")
    assert frame.loc[frame["submission_id"] == "1", "measured_score_us"].tolist() == pytest.approx([100.0])
    assert out.with_suffix(".csv").is_file()
    assert "4 submissions (3 distinct sources): 2 passed, 2 failed; 1 rows of other leaderboards skipped" in done.stdout
    assert "  FAILED 2 (sub2): Number of mismatched elements" in done.stdout
    assert "  FAILED 3 (sub3): the test worker process exited unexpectedly with status 3" in done.stdout


def test_rays_own_log_lines_stay_off_the_users_output(local_run):
    _, done = local_run
    assert not re.search(r"^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d+\s+(INFO|WARNING)", done.stderr, re.M), done.stderr


def test_resume_judges_only_what_the_output_lacks(batch_input, local_run):
    out, _ = local_run
    journal = out.with_suffix(".csv")
    kept = pd.read_csv(journal, dtype={"submission_id": str})
    kept[kept["submission_id"] != "2"].to_csv(journal, index=False)
    done = run_batch(str(batch_input), "--shapes", SHAPE, "--cpus", "2", "--out", str(out), "--resume")
    assert done.returncode == 1, done.stderr[-3000:]
    assert "4 submissions, 1 to judge (1 distinct sources), 3 already in" in done.stderr
    assert verdicts(out) == {"1": True, "2": False, "3": False, "4": True}


def test_a_two_node_ray_cluster_gives_the_same_verdicts(batch_input, local_run, tmp_path):
    from ray.cluster_utils import Cluster

    cluster = Cluster(initialize_head=True, head_node_args={"num_cpus": 1})
    cluster.add_node(num_cpus=1)
    try:
        out = tmp_path / "cluster.parquet"
        done = run_batch(str(batch_input), "--shapes", SHAPE, "--address", cluster.address, "--out", str(out))
        assert done.returncode == 1, done.stderr[-3000:]
        assert verdicts(out) == verdicts(local_run[0])
    finally:
        cluster.shutdown()


def test_a_submission_that_hangs_becomes_a_failed_row(tmp_path):
    folder = tmp_path / "subs"
    folder.mkdir()
    (folder / "hangs.py").write_text(HANG)
    out = tmp_path / "hang.parquet"
    done = run_batch(str(folder), "--shapes", SHAPE, "--cpus", "1", "--limit-s", "20", "--out", str(out))
    assert done.returncode == 1, done.stderr[-3000:]
    frame = pd.read_parquet(out)
    assert frame["error"].iloc[0] == "no verdict within 20 s: the run was stopped"
    assert not frame["passed"].iloc[0]
    assert "  FAILED hangs.py: no verdict within 20 s: the run was stopped" in done.stdout


def test_bad_inputs_are_named(tmp_path):
    done = run_batch(str(tmp_path / "nothing"))
    assert done.returncode == 2 and "no such file or folder" in done.stderr
    (tmp_path / "list.txt").write_text("missing.py\n")
    done = run_batch(str(tmp_path / "list.txt"))
    assert done.returncode == 2 and "list.txt:1: missing.py: no such file" in done.stderr


def test_one_submission_file_is_pointed_to_eval_run(tmp_path):
    mine = tmp_path / "my.py"
    mine.write_text(GOOD)
    with pytest.raises(batch.InputError) as refused:
        batch.gather(mine, None)
    assert f"{mine} is one submission file, not a batch: judge it with python eval/run.py --submission {mine}" in str(
        refused.value)


def test_a_misspelt_flag_is_named_with_the_nearest(capsys):
    with pytest.raises(SystemExit) as exc:
        batch.make_parser().parse_args(["subs", "--mdoe", "test"])
    assert exc.value.code == 2
    assert capsys.readouterr().err == "python -m eval.batch: error: unknown flag --mdoe: did you mean --mode?\n"


def test_the_summary_names_each_failed_submission_with_its_reason():
    rows = [{"submission_id": f"s{i}.py", "submission": f"s{i}", "source_hash": f"h{i}", "passed": i == 0,
             "error": "" if i == 0 else f"reason {i}\nmore lines", "predicted_score_us": None, "measured_score_us": None}
            for i in range(batch.LISTED_FAILURES + 3)]
    lines = batch.summary(pd.DataFrame(rows), 0, Path("unused.png"))
    assert lines[0] == f"{len(rows)} submissions ({len(rows)} distinct sources): 1 passed, {len(rows) - 1} failed"
    assert lines[1:3] == ["  FAILED s1.py: reason 1", "  FAILED s10.py: reason 10"]  # in the table's order
    assert len([line for line in lines if line.startswith("  FAILED ")]) == batch.LISTED_FAILURES
    assert lines[-1] == "  and 2 more failed (the table's error column says why)"
