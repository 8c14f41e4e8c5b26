"""Shared helpers: run the local leaderboard in-process and read back its report."""
from __future__ import annotations

from pathlib import Path

import pytest

from eval import report
from eval.run import main as run_main

REPO = Path(__file__).resolve().parent.parent


@pytest.fixture
def run_leaderboard(tmp_path, capsys):
    """run_leaderboard(*argv) -> (exit status, report rows, stdout, stderr)."""
    def run(*argv: str):
        csv_path = tmp_path / "report.csv"
        status = run_main([*argv, "--csv", str(csv_path)])
        out, err = capsys.readouterr()
        rows = report.read_rows(csv_path) if csv_path.exists() else []
        return status, rows, out, err
    return run
