"""The compare command line and its charts: files written, titles, filters, exit codes."""
from __future__ import annotations

import csv
import subprocess
import sys
from pathlib import Path

import pytest
from PIL import Image

from reports.compare import main
from eval.comparison import groups, pivot
from reports.plots import figure
from eval.report import COLUMNS, frame_from_rows, write_rows
from tests.compare.rows import DEVICE, SHAPES, row, two_submissions

REPO = Path(__file__).resolve().parents[2]
PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


def split_csvs(tmp_path, rows):
    """One CSV per submission, as eval/run.py writes them."""
    paths = []
    for name in dict.fromkeys(r["submission"] for r in rows):
        paths.append(str(write_rows(tmp_path / f"{name}.csv", [r for r in rows if r["submission"] == name])))
    return paths


def test_one_png_per_group_titled_with_device_and_method(tmp_path, capsys):
    rows = two_submissions(fast_passes_last=False) + [
        row("slow", SHAPES[0], 7.0, method="predicted"),
        row("slow", SHAPES[0], 9.0e4, mode="benchmark", engine="source", device="cpu"),
        row("slow", SHAPES[0], None, mode="test", method=None)]  # untimed: no chart
    out = tmp_path / "charts"
    assert main(split_csvs(tmp_path, rows) + ["--png", str(out)]) == 0
    assert sorted(p.name for p in out.iterdir()) == [
        "benchmark_leaderboard_cpu_source.png", "leaderboard_leaderboard_NVIDIA-H200_gpu.png",
        "leaderboard_predicted_NVIDIA-H200_gpu.png"]
    titles = {}
    for path in out.iterdir():
        assert path.read_bytes()[:8] == PNG_MAGIC and path.stat().st_size > 5000
        titles[path.name] = Image.open(path).text["Title"]
    assert titles["leaderboard_leaderboard_NVIDIA-H200_gpu.png"].startswith(
        f"mode=leaderboard method=leaderboard device={DEVICE} engine=gpu")
    predicted = titles["leaderboard_predicted_NVIDIA-H200_gpu.png"]
    assert "method=predicted" in predicted
    assert "PREDICTED MI300X times (predictor/), not measured" in predicted
    assert "device=cpu engine=source [run on the CPU" in titles["benchmark_leaderboard_cpu_source.png"]
    printed = capsys.readouterr().out
    assert "1 dropped" in printed and "4 tables" in printed


def test_predicted_axes_say_predicted():
    frame = frame_from_rows([row("a", SHAPES[0], 7.0, method="predicted"), row("a", SHAPES[0], 7.0)])
    (predicted, p_rows), (measured, m_rows) = sorted(groups(frame), key=lambda g: g[0].method, reverse=True)
    assert predicted.method == "predicted"
    labels = [ax.get_ylabel() for ax in figure(predicted, pivot(p_rows)).axes]
    assert labels == ["predicted time (us), lower is better", "predicted / MI300X speed of light"]
    assert not any("predicted" in ax.get_ylabel() for ax in figure(measured, pivot(m_rows)).axes)
    assert "PREDICTED" in figure(predicted, pivot(p_rows))._suptitle.get_text()


def test_same_submission_from_two_files_stays_two_columns(tmp_path, capsys):
    rows = [row("sub", s, 10.0) for s in SHAPES]
    a = write_rows(tmp_path / "before.csv", rows)
    b = write_rows(tmp_path / "after.csv", rows)
    assert main([str(a), str(b)]) == 0
    assert "after:sub" in capsys.readouterr().out


def test_filters_keep_one_group(tmp_path, capsys):
    rows = two_submissions() + [row("slow", SHAPES[0], 7.0, mode="benchmark", method="events"),
                                row("fast", SHAPES[0], 9.0, engine="isa", device="cpu")]
    paths = split_csvs(tmp_path, rows)
    assert main(paths + ["--mode", "benchmark"]) == 0
    out = capsys.readouterr().out
    assert "method=events" in out and "mode=leaderboard" not in out and "tables" not in out
    assert main(paths + ["--engine", "isa"]) == 0
    assert "engine=isa" in capsys.readouterr().out
    assert main(paths + ["--device", DEVICE, "--method", "leaderboard"]) == 0
    out = capsys.readouterr().out
    assert "tables" not in out and "cpu" not in out


def test_no_rows_for_a_filter_lists_what_the_files_hold(tmp_path, capsys):
    paths = split_csvs(tmp_path, two_submissions())
    assert main(paths + ["--mode", "profile"]) == 2
    err = capsys.readouterr().err
    assert "no rows for mode=profile" in err
    assert f"mode=leaderboard method=leaderboard device={DEVICE} engine=gpu" in err


def test_missing_file_exit_code(tmp_path, capsys):
    assert main([str(tmp_path / "absent.csv")]) == 2
    assert "no such file" in capsys.readouterr().err


NOT_REPORTS = {  # name: (its bytes, or "folder" or "absent"; what the one line says)
    "mine.py": ((REPO / "examples" / "reference_submission.py").read_bytes(), "names none of the report's columns"),
    "other.csv": (b"name,time\nx,1.0\n", "names none of the report's columns"),
    "table.parquet": (b"PAR1\x15\x04\x15\xa0\x9c\x01", "is not a report CSV: not text"),
    "quoted.csv": (b'"' + b"x" * 200_000, "is not a report CSV: field larger than field limit"),
    "folder": ("folder", "is a folder, not a report CSV"),
    "absent.csv": ("absent", "no such file"),
}


@pytest.mark.parametrize("name", NOT_REPORTS)
def test_a_file_that_is_not_a_report_is_named_in_one_line(tmp_path, capsys, name):
    contents, says = NOT_REPORTS[name]
    path = tmp_path / name
    if contents == "folder":
        path.mkdir()
    elif contents != "absent":
        path.write_bytes(contents)
    assert main([str(path)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("compare: error: ") and says in err
    assert err.count("\n") == 1 and len(err.replace(str(path), "")) < 150, err  # a line a terminal shows whole


def test_old_report_without_engine_exit_code(tmp_path, capsys):
    path = tmp_path / "old.csv"
    with open(path, "w", newline="") as f:
        csv.writer(f).writerow([name for name in COLUMNS if name != "engine"])
    assert main([str(path)]) == 2
    assert "missing column(s) 'engine'" in capsys.readouterr().err


def test_untimed_rows_exit_code(tmp_path, capsys):
    path = write_rows(tmp_path / "tests.csv", [row("a", SHAPES[0], None, mode="test", method=None)])
    assert main([str(path)]) == 2
    assert "no row has a timing" in capsys.readouterr().err


def test_script_entry_point(tmp_path):
    """`python reports/compare.py` works from any directory without an install."""
    paths = split_csvs(tmp_path, two_submissions())
    ok = subprocess.run([sys.executable, str(REPO / "reports" / "compare.py"), *paths],
                        capture_output=True, text=True, cwd=tmp_path)
    assert ok.returncode == 0, ok.stderr
    assert "geomean" in ok.stdout
    bad = subprocess.run([sys.executable, str(REPO / "reports" / "compare.py"), "absent.csv"],
                         capture_output=True, text=True, cwd=tmp_path)
    assert bad.returncode == 2 and "no such file" in bad.stderr
