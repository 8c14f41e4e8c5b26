"""GPU MODE's dataset export, the one place that knows its schema.

The export (huggingface.co/datasets/GPUMODE/kernelbot-data: `submissions.parquet`, with
`leaderboards.parquet` beside it) has one row per leaderboard run of a submission. Its columns,
as the exporter writes them:

    submission_id    int      the submission (a submission's runs share it, and its code)
    leaderboard_id   int      which leaderboard; leaderboards.parquet maps ids to names
    user_id          int|str
    submission_time  str      timestamp
    file_name        str      the file as the user sent it
    code             str      its text
    run_mode         str      test, benchmark, leaderboard, ...
    run_score        float    the run's score in seconds (leaderboard runs; empty otherwise)
    run_passed       bool
    run_result       map      "benchmark-count", "benchmark.N.spec" ("k: 7168; m: 1024; ..."),
                              "benchmark.N.mean" (ns), ...: the evaluator's key: value lines
    run_system_info  map      cpu, gpu, platform, torch

A CSV with the same columns (run_result as JSON text) is read the same way.
"""
from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass, field
from pathlib import Path

import pandas as pd

from reference import contract

LEADERBOARD = "amd-fp8-mm"
REQUIRED = ("submission_id", "code")
COLUMNS = ("submission_id", "leaderboard_id", "user_id", "submission_time", "file_name", "code", "run_mode",
           "run_score", "run_passed", "run_result", "run_system_info")
TIMED_MODE = "leaderboard"  # the run whose times are the submission's measured ones


class DatasetError(Exception):
    """An input that is not a dataset export we can read, with what is wrong."""


@dataclass
class Entry:
    """One submission of the export: its code and, where a leaderboard run gave them, its
    measured per-shape means (us, by (m, n, k)) and score (us)."""
    submission_id: str
    file_name: str
    code: str
    measured_us: dict[tuple[int, int, int], float] = field(default_factory=dict)
    measured_score_us: float | None = None


@dataclass
class Export:
    entries: list[Entry]
    other_leaderboards: int  # rows of other leaderboards, skipped
    leaderboard_id: int | None


def read_table(path: Path) -> pd.DataFrame:
    try:
        frame = pd.read_parquet(path) if path.suffix == ".parquet" else pd.read_csv(path)
    except (OSError, ValueError, ImportError) as exc:
        raise DatasetError(f"{path}: cannot read it as {'Parquet' if path.suffix == '.parquet' else 'CSV'}: {exc}") from None
    missing = [c for c in REQUIRED if c not in frame.columns]
    if missing:
        raise DatasetError(f"{path}: no column {', '.join(missing)}: not a dataset export (its columns: "
                           f"{', '.join(COLUMNS)})")
    return frame


def leaderboard_id(path: Path, frame: pd.DataFrame, given: int | None) -> int | None:
    """amd-fp8-mm's id: given, else from leaderboards.parquet/.csv beside the export (columns
    id, name), else the only id in the file. None when the file has no leaderboard_id column."""
    if "leaderboard_id" not in frame.columns:
        return None
    if given is not None:
        return given
    for name in ("leaderboards.parquet", "leaderboards.csv"):
        table = path.parent / name
        if table.is_file():
            boards = pd.read_parquet(table) if table.suffix == ".parquet" else pd.read_csv(table)
            if {"id", "name"} <= set(boards.columns):
                match = boards[boards["name"] == LEADERBOARD]
                if len(match):
                    return int(match["id"].iloc[0])
                raise DatasetError(f"{table} has no leaderboard named {LEADERBOARD}")
    ids = sorted({int(v) for v in frame["leaderboard_id"].dropna()})
    if len(ids) == 1:
        return ids[0]
    raise DatasetError(f"{path} holds leaderboards {', '.join(map(str, ids))} and no leaderboards.parquet lies beside "
                       f"it to name {LEADERBOARD}'s: give --leaderboard-id")


def _mapping(value) -> dict:
    if isinstance(value, dict):
        return value
    if isinstance(value, str) and value.strip().startswith("{"):
        try:
            return json.loads(value)
        except json.JSONDecodeError:
            return {}
    if value is not None and hasattr(value, "tolist"):  # a Parquet map read as (key, value) pairs
        items = value.tolist()
        if all(isinstance(i, tuple) and len(i) == 2 for i in items):
            return dict(items)
    return {}


def measured_means(result) -> dict[tuple[int, int, int], float]:
    """Per-shape means (us) from a run_result map: benchmark.N.spec and benchmark.N.mean (ns)."""
    found = _mapping(result)
    means = {}
    for key, spec in found.items():
        index = re.fullmatch(r"benchmark\.(\d+)\.spec", str(key))
        if not index:
            continue
        shape = dict(re.findall(r"(\w+):\s*(\d+)", str(spec)))
        mean = found.get(f"benchmark.{index.group(1)}.mean")
        if {"m", "n", "k"} <= set(shape) and mean is not None:
            try:
                means[(int(shape["m"]), int(shape["n"]), int(shape["k"]))] = float(mean) / 1e3
            except (TypeError, ValueError):
                continue
    return means


def read(path: Path, given_id: int | None = None) -> Export:
    """The export's amd-fp8-mm submissions, one Entry per submission_id (in file order), their
    measured times from their leaderboard run where the export has one."""
    frame = read_table(path)
    board = leaderboard_id(path, frame, given_id)
    other = 0
    if board is not None:
        mine = frame["leaderboard_id"] == board
        other = int((~mine).sum())
        frame = frame[mine]
    entries: dict[str, Entry] = {}
    for row in frame.to_dict("records"):
        sid = str(row["submission_id"])
        code = row.get("code")
        if not isinstance(code, str) or not code.strip():
            continue
        entry = entries.setdefault(sid, Entry(sid, str(row.get("file_name") or "submission.py"), code))
        if row.get("run_mode") != TIMED_MODE or row.get("run_passed") is False:
            continue
        means = measured_means(row.get("run_result"))
        if means:
            entry.measured_us = means
            entry.measured_score_us = contract.geometric_mean(list(means.values()))
        elif isinstance(row.get("run_score"), (int, float)) and row["run_score"] > 0 and not math.isnan(row["run_score"]):
            entry.measured_score_us = float(row["run_score"]) * 1e6
    return Export(list(entries.values()), other, board)
