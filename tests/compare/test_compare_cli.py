"""The compare command line: charts, exit codes for bad input."""
from __future__ import annotations

import csv
import subprocess
import sys
from pathlib import Path

from eval.compare import main
from eval.report import write_rows
from tests.compare.rows import SHAPES, row, two_submissions

REPO = Path(__file__).resolve().parents[2]
PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


def split_csvs(tmp_path, rows):
    """One CSV per submission, as eval/run.py writes them."""
    paths = []
    for name in dict.fromkeys(r["submission"] for r in rows):
        paths.append(str(write_rows(tmp_path / f"{name}.csv", [r for r in rows if r["submission"] == name])))
    return paths


def test_pngs_written_and_non_empty(tmp_path, capsys):
    out = tmp_path / "charts"
    assert main(split_csvs(tmp_path, two_submissions(fast_passes_last=False)) + ["--png", str(out)]) == 0
    names = sorted(p.name for p in out.iterdir())
    assert len(names) == len(SHAPES) + 1 and "leaderboard_leaderboard_geomean.png" in names
    for path in out.iterdir():
        assert path.read_bytes()[:8] == PNG_MAGIC and path.stat().st_size > 5000
    assert "1 dropped" in capsys.readouterr().out


def test_same_submission_from_two_files_stays_two_columns(tmp_path, capsys):
    rows = [row("sub", s, 10.0) for s in SHAPES]
    a = write_rows(tmp_path / "before.csv", rows)
    b = write_rows(tmp_path / "after.csv", rows)
    assert main([str(a), str(b)]) == 0
    assert "after:sub" in capsys.readouterr().out


def test_mode_filter_and_unknown_mode(tmp_path, capsys):
    rows = two_submissions() + [row("slow", SHAPES[0], 7.0, mode="benchmark", method="events")]
    paths = split_csvs(tmp_path, rows)
    assert main(paths + ["--mode", "benchmark"]) == 0
    assert "mode=leaderboard" not in capsys.readouterr().out
    assert main(paths + ["--mode", "profile"]) == 2
    assert "no rows for mode=profile" in capsys.readouterr().err


def test_missing_file_exit_code(tmp_path, capsys):
    assert main([str(tmp_path / "absent.csv")]) == 2
    assert "no such file" in capsys.readouterr().err


def test_other_schema_exit_code(tmp_path, capsys):
    path = tmp_path / "other.csv"
    with open(path, "w", newline="") as f:
        csv.writer(f).writerows([["name", "time"], ["x", "1.0"]])
    assert main([str(path)]) == 2
    assert "not a report CSV" in capsys.readouterr().err


def test_untimed_rows_exit_code(tmp_path, capsys):
    path = write_rows(tmp_path / "tests.csv", [row("a", SHAPES[0], None, mode="test", method="")])
    assert main([str(path)]) == 2
    assert "no row has a timing" in capsys.readouterr().err


def test_script_entry_point(tmp_path):
    """`python eval/compare.py` works from any directory without an install."""
    paths = split_csvs(tmp_path, two_submissions())
    ok = subprocess.run([sys.executable, str(REPO / "eval" / "compare.py"), *paths],
                        capture_output=True, text=True, cwd=tmp_path)
    assert ok.returncode == 0, ok.stderr
    assert "geomean" in ok.stdout
    bad = subprocess.run([sys.executable, str(REPO / "eval" / "compare.py"), "absent.csv"],
                         capture_output=True, text=True, cwd=tmp_path)
    assert bad.returncode == 2 and "no such file" in bad.stderr
