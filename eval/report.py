"""The one report schema, its only writer, and its typed reader.

Every producer (eval/run.py, benchmarks) hands over row dicts and `write_rows` writes them
in schema order. Readers get a pandas DataFrame (`read_frame`) whose columns carry the
schema's dtypes; a file that does not match the schema (another version, a hand edit) is
rejected with the column, file and row at fault, never read as a table of NaN.
"""
from __future__ import annotations

import csv
import hashlib
import math
import subprocess
from dataclasses import dataclass
from pathlib import Path

import pandas as pd

REPO = Path(__file__).resolve().parent.parent
REPORTS_DIR = REPO / "eval" / "reports"


@dataclass(frozen=True)
class Column:
    name: str
    kind: str                  # str | int | float | bool | category
    unit: str = ""
    doc: str = ""
    required: bool = False     # an empty cell is an error
    values: tuple[str, ...] = ()  # a category's only values (an empty cell is missing, NA)


# The values of the categories. eval/run.py (STAGES), eval/timing.py (METHODS),
# eval/engines.py (ENGINES) and eval/preflight.py (CLASSES) own the names;
# tests/compare/test_report_schema.py holds these to them.
MODES = ("test", "benchmark", "leaderboard", "profile")
METHODS = ("leaderboard", "events", "cold", "predicted")  # predicted: predictor/, never measured
ENGINES = ("gpu", "source", "isa")  # a real GPU, or the CPU engine that ran the kernel
KERNELGUARD = ("valid", "low_confidence", "suspicious", "hacked")

SCHEMA: dict[str, Column] = {c.name: c for c in (
    Column("submission", "str", doc="file stem of the submission", required=True),
    Column("submission_hash", "str", doc="first 12 hex digits of the file's sha256"),
    Column("case", "int", doc="index in the published list of its kind, empty for a custom shape"),
    Column("m", "int", required=True),
    Column("n", "int", required=True),
    Column("k", "int", required=True),
    Column("seed", "int", required=True),
    Column("secret_seed", "int", doc="S of the secret-seed pairing that gave `seed`; empty for a published seed"),
    Column("mode", "category", doc="the stage that produced the row", required=True, values=MODES),
    Column("method", "category", doc="timing method, empty for the untimed modes", values=METHODS),
    Column("engine", "category", doc="what ran the kernel: gpu, or the CPU engine (source, isa)",
           required=True, values=ENGINES),
    Column("runs", "int", doc="timed calls"),
    Column("mean_us", "float", "us"),
    Column("std_us", "float", "us"),
    Column("err_us", "float", "us", "standard error of the mean"),
    Column("best_us", "float", "us"),
    Column("worst_us", "float", "us"),
    Column("tflops", "float", "TFLOP/s", "2mnk / mean"),
    Column("max_error", "float", doc="largest |out - ref| of the checked calls"),
    Column("passed", "bool", doc="1 or 0", required=True),
    Column("error", "str", doc="first line of the failure reason, empty when passed"),
    Column("kernelguard", "category", doc="KernelGuard's classification of the file (pre-flight), "
           "empty when it did not run", values=KERNELGUARD),
    Column("device", "str", doc='e.g. "AMD Instinct MI300X", "NVIDIA H100", "cpu"'),
    Column("arch", "str", doc="e.g. gfx942, sm_90, cpu"),
    Column("torch", "str"),
    Column("rocm", "str"),
    Column("cuda", "str"),
    Column("git_sha", "str"),
    Column("sandbox", "str", doc='what the stages ran in: "bubblewrap 0.8.0", or "none: <why>"'),
)}
COLUMNS = tuple(SCHEMA)


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


# -- writing ----------------------------------------------------------------------------

def _text(value) -> str:
    """A cell as the file holds it: empty for missing, 1/0 for booleans."""
    if value is None or value is pd.NA or (isinstance(value, float) and math.isnan(value)):
        return ""
    if isinstance(value, bool):
        return str(int(value))
    return str(value)


def _text_frame(rows: list[dict]) -> pd.DataFrame:
    """Row dicts as a frame of the cells `write_rows` would write, in schema order."""
    text = pd.DataFrame([[_text(row.get(name)) for name in COLUMNS] for row in rows],
                        columns=list(COLUMNS), dtype=object)
    text.index.name = "row"
    return text


def write_rows(path: str | Path, rows: list[dict]) -> Path:
    """Write rows in schema order; missing keys are empty cells. A key outside the schema
    or a cell the reader would reject is an error here, before anything is written."""
    path = Path(path)
    for row in rows:
        unknown = set(row) - set(COLUMNS)
        if unknown:
            raise ValueError(f"report row has columns outside the schema: {sorted(unknown)}")
    text = _text_frame(rows)
    _typed(text, lambda row: f"report rows[{row}]")
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "w", newline="") as f:
        writer = csv.writer(f)
        writer.writerow(COLUMNS)
        writer.writerows(text.itertuples(index=False))
    return path


def _records(frame: pd.DataFrame) -> list[dict]:
    """Plain Python rows of a frame: None where a cell is missing."""
    plain = frame.astype(object)
    return plain.where(plain.notna(), None).to_dict("records")


def write_frame(path: str | Path, frame: pd.DataFrame) -> Path:
    """Write a frame of the schema's columns (as `read_frame` gives it) as a report CSV."""
    return write_rows(path, _records(frame))


# -- reading ----------------------------------------------------------------------------

def read_frame(*paths: str | Path) -> pd.DataFrame:
    """The rows of one or more report CSVs as one typed frame, indexed by (file, row).

    `file` tells rows of different files apart (eval/comparison.py uses it when one submission
    was measured in two runs); `row` counts each file's data rows from 0.
    """
    if not paths:
        raise ValueError("read_frame needs at least one CSV path")
    texts = [_read_text(Path(p)) for p in paths]
    frame = pd.concat(texts, keys=[str(p) for p in paths], names=["file", "row"])
    return _typed(frame, lambda file, row: f"{file} row {row + 2} (the header is row 1)")


def read_rows(path: str | Path) -> list[dict]:
    """One CSV's rows as dicts (None for empty cells), typed as `read_frame` types them."""
    return _records(read_frame(path))


def frame_from_rows(rows: list[dict]) -> pd.DataFrame:
    """Row dicts as the harness holds them, typed exactly as if written and read back.

    Keys outside the schema are not report columns (the harness keeps a multi-line
    `message` beside each row) and are left out; missing keys are empty cells.
    """
    return _typed(_text_frame(rows), lambda row: f"report rows[{row}]")


def schema_table() -> pd.DataFrame:
    """The schema as a table: dtype, unit, required, allowed values and meaning per column."""
    return pd.DataFrame([{"column": c.name, "dtype": str(_dtype(c)), "unit": c.unit,
                          "required": c.required, "values": " ".join(c.values), "doc": c.doc}
                         for c in SCHEMA.values()]).set_index("column")


def _read_text(path: Path) -> pd.DataFrame:
    """A CSV's cells as strings, after checking its header against the schema."""
    header, body = _csv_lines(path)
    if not set(header) & set(COLUMNS):
        raise ValueError(f"{path} is not a report CSV: its first line names none of the report's columns "
                         f"({', '.join(COLUMNS[:4])}, ...)")
    missing = [name for name in COLUMNS if name not in header]
    unknown = [name for name in header if name not in SCHEMA]
    doubled = sorted({name for name in header if header.count(name) > 1})
    if missing:
        raise ValueError(f"{path} is not a report CSV of this version: missing column(s) "
                         + "; ".join(f"{name!r} ({SCHEMA[name].doc or SCHEMA[name].kind})"
                                     for name in missing)
                         + ". Write it again with the current eval/run.py, or add the column.")
    for problem, names in (("unknown column", unknown), ("repeated column", doubled)):
        if names:
            raise ValueError(f"{path} is not a report CSV of this version: {problem}(s) "
                             + ", ".join(repr(n) for n in names))
    for number, line in enumerate(body, start=2):
        if len(line) != len(header):
            raise ValueError(f"{path} row {number}: {len(line)} cells, the header has {len(header)}")
    return pd.DataFrame(body, columns=header, dtype=object)[list(COLUMNS)]


def _csv_lines(path: Path) -> tuple[list[str], list[list[str]]]:
    """A file's header and body rows as a CSV; why it is none (absent, a folder, not text)."""
    if path.is_dir():
        raise ValueError(f"{path} is a folder, not a report CSV")
    if not path.is_file():
        raise FileNotFoundError(f"no such file: {path}")
    try:
        with open(path, newline="") as f:
            lines = list(csv.reader(f))
    except UnicodeDecodeError:
        raise ValueError(f"{path} is not a report CSV: not text") from None
    except csv.Error as exc:
        raise ValueError(f"{path} is not a report CSV: {exc}") from None
    if not lines:
        raise ValueError(f"{path} is not a report CSV: the file is empty")
    return lines[0], lines[1:]


_PARSE = {"str": str, "category": str, "int": int, "float": float,
          "bool": {"1": True, "0": False}.__getitem__}
_KIND_NAME = {"int": "an integer", "float": "a number", "bool": "1 or 0"}


def _typed(text: pd.DataFrame, where) -> pd.DataFrame:
    """Parse each column of string cells into its schema dtype; `where(*index)` names a
    row in an error."""
    columns = {}
    for name, column in SCHEMA.items():
        values = []
        for index, cell in text[name].items():
            at = index if isinstance(index, tuple) else (index,)
            values.append(_cell(column, cell, lambda: where(*at)))
        columns[name] = pd.Series(values, index=text.index, dtype=_dtype(column))
    return pd.DataFrame(columns)


def _cell(column: Column, cell: str, where):
    if cell == "":
        if column.required:
            raise ValueError(f"{where()}: column {column.name!r} is empty but required")
        return "" if column.kind == "str" else None  # text has its own empty value
    if column.kind == "category":
        if cell not in column.values:
            raise ValueError(f"{where()}: column {column.name!r}: {cell!r} is none of "
                             + ", ".join(column.values))
        return cell
    try:
        return _PARSE[column.kind](cell)
    except (ValueError, KeyError):
        raise ValueError(f"{where()}: column {column.name!r}: {cell!r} is not "
                         f"{_KIND_NAME[column.kind]}") from None


def _dtype(column: Column):
    if column.kind == "category":
        return pd.CategoricalDtype(list(column.values))
    nullable = not column.required
    return {"str": "string", "float": "float64",
            "int": "Int64" if nullable else "int64",
            "bool": "boolean" if nullable else "bool"}[column.kind]
