"""The one CSV schema for results, and its only writer and reader.

Every producer (eval/run.py, benchmarks) hands over row dicts; this module fills the
environment columns, orders the columns and writes the file. Plots and comparisons only
read CSVs through `read_rows`.
"""
from __future__ import annotations

import csv
import hashlib
import subprocess
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
REPORTS_DIR = REPO / "eval" / "reports"

COLUMNS = (
    "submission",       # file stem of the submission
    "submission_hash",  # first 12 hex digits of the file's sha256
    "case",             # index in the published list of its kind ("" for a custom shape)
    "m", "n", "k", "seed",
    "mode",             # test | benchmark | leaderboard | profile
    "method",           # timing method name (eval/timing.py), "" for untimed modes
    "runs",
    "mean_us", "std_us", "err_us", "best_us", "worst_us",
    "tflops",           # 2mnk / mean
    "max_error",        # largest |out - ref| of the checked calls
    "passed",           # 1 or 0
    "error",            # first line of the failure reason, "" when passed
    "device", "arch",   # e.g. "AMD Instinct MI300X" / gfx942, "NVIDIA H100" / sm_90, cpu
    "torch", "rocm", "cuda",
    "git_sha",
)


def file_hash(path: str | Path) -> str:
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()[:12]


def git_sha() -> str:
    try:
        out = subprocess.run(["git", "-C", str(REPO), "rev-parse", "--short=12", "HEAD"],
                             capture_output=True, text=True, timeout=10)
    except (OSError, subprocess.TimeoutExpired):
        return ""
    sha = out.stdout.strip()
    dirty = subprocess.run(["git", "-C", str(REPO), "status", "--porcelain", "--untracked-files=no"],
                           capture_output=True, text=True, timeout=10).stdout.strip()
    return sha + ("-dirty" if sha and dirty else "")


def write_rows(path: str | Path, rows: list[dict]) -> Path:
    """Write rows in schema order; unknown keys are an error, missing keys stay empty."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    for row in rows:
        unknown = set(row) - set(COLUMNS)
        if unknown:
            raise ValueError(f"report row has columns outside the schema: {sorted(unknown)}")
    with open(path, "w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=COLUMNS, restval="")
        writer.writeheader()
        writer.writerows(rows)
    return path


def read_rows(path: str | Path) -> list[dict]:
    """Rows of a report CSV, with numbers parsed; rejects files of another schema."""
    with open(path, newline="") as f:
        reader = csv.DictReader(f)
        missing = set(COLUMNS) - set(reader.fieldnames or ())
        if missing:
            raise ValueError(f"{path} is not a report CSV: missing columns {sorted(missing)}")
        return [_parse(row) for row in reader]


_INTS = ("case", "m", "n", "k", "seed", "runs", "passed")
_FLOATS = ("mean_us", "std_us", "err_us", "best_us", "worst_us", "tflops", "max_error")


def _parse(row: dict) -> dict:
    for key in _INTS:
        row[key] = int(row[key]) if row[key] not in ("", None) else None
    for key in _FLOATS:
        row[key] = float(row[key]) if row[key] not in ("", None) else None
    return row
