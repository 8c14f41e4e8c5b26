"""The report schema: typed frames, round trips, and clear errors for files that do not fit."""
from __future__ import annotations

import csv
import importlib.util

import pandas as pd
import pytest

from eval import report
from eval.report import COLUMNS, SCHEMA, read_frame, read_rows, write_frame, write_rows
from tests.compare.rows import SHAPES, row, two_submissions


def write_cells(path, header, *lines):
    with open(path, "w", newline="") as f:
        csv.writer(f).writerows([header, *lines])
    return path


def one_line(**cells):
    """The cells of one valid row, with `cells` replaced."""
    good = {name: "" for name in COLUMNS} | {"submission": "a", "m": "64", "n": "64", "k": "128",
                                             "seed": "1", "mode": "leaderboard", "engine": "gpu",
                                             "passed": "1"}
    return [(good | cells)[name] for name in COLUMNS]


def test_frame_has_the_schema_dtypes_and_values(tmp_path):
    path = write_rows(tmp_path / "a.csv", two_submissions(fast_passes_last=False))
    frame = read_frame(path)
    assert list(frame.columns) == list(COLUMNS) and COLUMNS.index("engine") == COLUMNS.index("method") + 1
    assert frame["m"].dtype == "int64" and frame["case"].dtype == "Int64"
    assert frame["mean_us"].dtype == "float64" and frame["passed"].dtype == "bool"
    assert frame["submission"].dtype == "string"
    for name, values in (("mode", report.MODES), ("method", report.METHODS), ("engine", report.ENGINES),
                         ("kernelguard", report.KERNELGUARD)):
        assert isinstance(frame[name].dtype, pd.CategoricalDtype)
        assert list(frame[name].cat.categories) == list(values)
    assert frame["engine"].tolist() == ["gpu"] * 6
    assert frame["passed"].tolist() == [True] * 5 + [False]
    assert frame["mean_us"].tolist() == [100.0, 200.0, 400.0, 50.0, 100.0, 200.0]
    assert frame["runs"].isna().all() and frame["error"].tolist() == [""] * 6


def test_many_files_one_frame_and_byte_exact_round_trip(tmp_path):
    a = write_rows(tmp_path / "a.csv", two_submissions())
    b = write_rows(tmp_path / "b.csv", [row("c", SHAPES[0], 3.5, engine="isa", device="cpu")])
    frame = read_frame(a, b)
    assert frame.index.names == ["file", "row"] and len(frame) == 7
    assert frame.loc[str(b)]["engine"].tolist() == ["isa"]
    write_frame(tmp_path / "again.csv", frame.loc[str(a)])
    assert (tmp_path / "again.csv").read_bytes() == a.read_bytes()


def test_column_order_in_the_file_does_not_matter(tmp_path):
    header, line = list(COLUMNS), one_line(mean_us="2.5")
    path = write_cells(tmp_path / "r.csv", header[::-1], line[::-1])
    assert read_frame(path)["mean_us"].tolist() == [2.5]


def test_read_rows_gives_plain_python_values(tmp_path):
    path = write_rows(tmp_path / "a.csv", [row("a", SHAPES[0], None, mode="test", method=None)])
    got, = read_rows(path)
    assert got["passed"] is True and got["m"] == SHAPES[0][0] and type(got["m"]) is int
    assert got["mean_us"] is None and got["method"] is None and got["engine"] == "gpu" and got["error"] == ""


@pytest.mark.parametrize("missing", ["engine", "mean_us", "passed"])
def test_missing_column_is_named(tmp_path, missing):
    header = [name for name in COLUMNS if name != missing]
    line = [cell for name, cell in zip(COLUMNS, one_line()) if name != missing]
    path = write_cells(tmp_path / "old.csv", header, line)
    with pytest.raises(ValueError, match=f"missing column\\(s\\) '{missing}'"):
        read_frame(path)


def test_previous_version_without_engine_says_what_engine_means(tmp_path):
    header = [name for name in COLUMNS if name != "engine"]
    path = write_cells(tmp_path / "old.csv", header)
    with pytest.raises(ValueError, match="'engine' \\(what ran the kernel: gpu, or the CPU engine"):
        read_frame(path)


@pytest.mark.parametrize("column,cell,message", [
    ("engine", "fpga", "'fpga' is none of gpu, source, isa"),
    ("method", "warm", "'warm' is none of leaderboard, events, cold, predicted"),
    ("mode", "ranked", "'ranked' is none of test, benchmark, leaderboard, profile"),
    ("passed", "yes", "'yes' is not 1 or 0"),
    ("m", "1.5", "'1.5' is not an integer"),
    ("mean_us", "fast", "'fast' is not a number"),
    ("seed", "", "is empty but required"),
])
def test_bad_value_names_file_row_and_column(tmp_path, column, cell, message):
    path = write_cells(tmp_path / "edited.csv", COLUMNS, one_line(), one_line(**{column: cell}))
    with pytest.raises(ValueError) as err:
        read_frame(path)
    assert f"edited.csv row 3 (the header is row 1): column {column!r}" in str(err.value)
    assert message in str(err.value)


@pytest.mark.parametrize("header,lines,message", [
    ([*COLUMNS, "colour"], [one_line() + ["red"]], "unknown column(s) 'colour'"),
    ([*COLUMNS, "m"], [one_line() + ["64"]], "repeated column(s) 'm'"),
    (COLUMNS, [one_line()[:-1]], f"row 2: {len(COLUMNS) - 1} cells, the header has {len(COLUMNS)}"),
])
def test_malformed_files(tmp_path, header, lines, message):
    path = write_cells(tmp_path / "bad.csv", header, *lines)
    with pytest.raises(ValueError, match=message.replace("(", "\\(").replace(")", "\\)")):
        read_frame(path)


def test_empty_file(tmp_path):
    empty = tmp_path / "empty.csv"
    empty.write_text("")
    with pytest.raises(ValueError, match="empty.csv is not a report CSV: the file is empty"):
        read_frame(empty)


def test_writer_refuses_rows_the_reader_would_reject(tmp_path):
    with pytest.raises(ValueError, match="report rows\\[1\\]: column 'engine': 'cuda' is none of"):
        write_rows(tmp_path / "x.csv", [row("a", SHAPES[0], 1.0), row("a", SHAPES[1], 1.0, engine="cuda")])
    with pytest.raises(ValueError, match="outside the schema: \\['message'\\]"):
        write_rows(tmp_path / "x.csv", [{**row("a", SHAPES[0], 1.0), "message": "text"}])
    assert not (tmp_path / "x.csv").exists()


def test_every_column_documents_its_type():
    table = report.schema_table()
    assert list(table.index) == list(COLUMNS)
    assert table.at["mean_us", "unit"] == "us" and table.at["engine", "values"] == "gpu source isa"
    assert all(SCHEMA[name].kind in ("str", "int", "float", "bool", "category") for name in COLUMNS)


def test_category_values_match_their_owners():
    """The schema lists the names eval/run.py, eval/timing.py, eval/preflight.py and
    eval/engines.py own."""
    from eval import preflight, run, timing

    assert set(report.METHODS) == set(timing.METHODS) | {"predicted"}
    assert report.KERNELGUARD == preflight.CLASSES
    assert set(report.MODES) == {mode for stages in run.STAGES.values() for mode in stages}
    if importlib.util.find_spec("eval.engines") is not None:
        from eval import engines
        assert set(report.ENGINES) == {"gpu", *engines.names()}
