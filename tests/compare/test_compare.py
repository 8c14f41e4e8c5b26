"""The comparison table against values worked out by hand for a small fixture."""
from __future__ import annotations

import math

import pytest

from eval.comparison import (Group, common_shapes, covers_benchmarks, geomeans, groups, labels, pivot,
                             side_by_side)
from eval.report import frame_from_rows
from reference.contract import cases, load
from tests.compare.rows import DEVICE, SHAPES, row, two_submissions

# MI300X speed of light of the three fixture shapes, by hand from leaderboard_shapes.yaml:
# all three are compute-bound, 2mnk / 2614.9 TFLOP/s (their HBM time is smaller).
HAND_SOL_US = [2 * m * n * k / 2614.9e12 * 1e6 for m, n, k in SHAPES]


def fixture_rows():
    """`base` at 100/300/900 us; `new` at 50/100/450 us, failing the check on the last shape."""
    base = [row("base", s, t) for s, t in zip(SHAPES, (100.0, 300.0, 900.0))]
    new = [row("new", s, t, passed=int(i < 2)) for i, (s, t) in enumerate(zip(SHAPES, (50.0, 100.0, 450.0)))]
    return base + new


def one_table(rows):
    (group, part), = groups(frame_from_rows(rows))
    return group, pivot(part)


def test_pivot_per_shape_against_hand_values():
    group, table = one_table(fixture_rows())
    assert group == Group("leaderboard", "leaderboard", DEVICE, "gpu")
    assert list(table.index) == SHAPES
    assert list(table["mean_us"].columns) == ["base", "new"]
    assert table["mean_us"]["new"].tolist() == [50.0, 100.0, 450.0]
    assert table["passed"]["new"].tolist() == [True, True, False]
    assert table["speedup"]["base"].tolist() == pytest.approx([1.0, 1.0, 1.0])
    assert table["speedup"]["new"].tolist() == pytest.approx([2.0, 3.0, 2.0])
    for name, times in (("base", (100, 300, 900)), ("new", (50, 100, 450))):
        assert table["xsol"][name].tolist() == pytest.approx([t / s for t, s in zip(times, HAND_SOL_US)])


def test_geomean_over_the_cases_all_passed_against_hand_values():
    _, table = one_table(fixture_rows())
    assert list(common_shapes(table)) == SHAPES[:2]  # `new` failed the third
    summary = geomeans(table)
    assert summary.at["base", "mean_us"] == pytest.approx(math.sqrt(100 * 300))
    assert summary.at["new", "mean_us"] == pytest.approx(math.sqrt(50 * 100))
    assert summary.at["new", "speedup"] == pytest.approx(math.sqrt(6))
    hand_sol_geomean = math.sqrt(HAND_SOL_US[0] * HAND_SOL_US[1])
    assert summary.at["new", "xsol"] == pytest.approx(math.sqrt(50 * 100) / hand_sol_geomean)
    assert summary.at["base", "xsol"] == pytest.approx(math.sqrt(100 * 300) / hand_sol_geomean)
    text = side_by_side(fixture_rows())
    geomean_line = next(line for line in text.splitlines() if line.startswith("geomean"))
    assert "173.21" in geomean_line and "70.71" in geomean_line and "2.45x" in geomean_line
    assert "FAIL" in text and "geomean over 2 of 3 shapes: 1 dropped" in text


def test_all_passed_geomean_and_no_drop_note():
    _, table = one_table(two_submissions())
    assert geomeans(table)["mean_us"].tolist() == pytest.approx([200.0, 100.0])  # cube roots
    assert "dropped" not in side_by_side(two_submissions())


def test_missing_shape_is_na_and_dropped():
    _, table = one_table(two_submissions()[:-1])  # `fast` never ran the last shape
    assert table["passed"]["fast"].isna().tolist() == [False, False, True]
    assert math.isnan(table.at[SHAPES[2], ("speedup", "fast")])
    assert list(common_shapes(table)) == SHAPES[:2]
    assert "n/a" in side_by_side(two_submissions()[:-1])


@pytest.mark.parametrize("other", [
    {"method": "events"}, {"method": "cold"}, {"method": "predicted"}, {"mode": "benchmark"},
    {"engine": "source", "device": "cpu"}, {"engine": "isa", "device": "cpu"},
    {"device": "AMD Instinct MI300X"},
])
def test_rows_that_measure_different_things_are_never_one_table(other):
    rows = [row("a", SHAPES[0], 10.0), row("b", SHAPES[0], 5.0, **other)]
    found = groups(frame_from_rows(rows))
    assert len(found) == 2 and [len(part) for _, part in found] == [1, 1]
    with pytest.raises(ValueError, match="pivot takes the rows of one group, got 2"):
        pivot(frame_from_rows(rows))
    text = side_by_side(rows)
    assert text.startswith("2 tables") and "--method, --device, --engine" in text
    assert "speedup vs b" in text  # b is alone in its table, never 2x against a


def test_titles_name_device_engine_and_flag_predicted_and_cpu_runs():
    text = side_by_side([row("a", SHAPES[0], 1.0, method="predicted"),
                         row("a", SHAPES[0], 1.0, engine="isa", device="cpu")])
    assert "method=predicted device=NVIDIA H200 engine=gpu [PREDICTED" in text
    assert "device=cpu engine=isa [run on the CPU" in text


def test_columns_follow_first_appearance():
    _, table = one_table([row("b", SHAPES[0], 10.0), row("a", SHAPES[0], 20.0)])
    assert list(table["mean_us"].columns) == ["b", "a"]
    assert table.at[SHAPES[0], ("speedup", "a")] == pytest.approx(0.5)


def test_same_name_two_versions_become_two_columns():
    frame = frame_from_rows([row("submission", SHAPES[0], 10.0, submission_hash="111111111111"),
                             row("submission", SHAPES[0], 5.0, submission_hash="222222222222")])
    assert labels(frame).tolist() == ["submission@111111111111", "submission@222222222222"]


def test_duplicate_rows_are_an_error():
    with pytest.raises(ValueError, match="two rows for a at m=1024"):
        side_by_side([row("a", SHAPES[0], 1.0), row("a", SHAPES[0], 2.0)])


def test_untimed_rows_are_an_error():
    with pytest.raises(ValueError, match="no row has a timing"):
        side_by_side([row("a", SHAPES[0], None, mode="test", method=None)])


def test_harness_rows_with_their_message_key_are_accepted():
    rows = [{**r, "message": "Maximum error: 0.0\nsecond line"} for r in two_submissions()]
    assert "geomean" in side_by_side(rows)


def test_table_shows_published_top_score_only_beside_a_geomean_over_all_benchmark_shapes():
    score = f"{float(load()['published_top_score_us']):.3f} us"
    every = [row("a", (c.m, c.n, c.k), 100.0) for c in cases("benchmarks")]
    assert score in side_by_side(every)
    subset = side_by_side(two_submissions())  # 3 of the 18 shapes
    assert score not in subset
    assert "geomean over 3 shapes, not the 18 benchmark shapes" in subset
    assert "not comparable with the published top score" in subset


def test_benchmark_coverage_detection():
    all_shapes = [(c.m, c.n, c.k) for c in cases("benchmarks")]
    _, full = one_table([row("a", s, 1.0) for s in all_shapes])
    _, part = one_table([row("a", s, 1.0) for s in SHAPES])
    assert covers_benchmarks(full) and not covers_benchmarks(part)
    assert geomeans(full).at["a", "mean_us"] == pytest.approx(1.0)


def test_a_predicted_comparison_says_how_often_such_a_gap_held_on_the_mi300x():
    rows = [{**r, "method": "predicted"} for r in two_submissions()]
    text = side_by_side(rows)
    note = next(line for line in text.splitlines() if line.startswith("  fast 2.00x vs slow, predicted:"))
    assert "predicted 50% or more apart over their geomean" in note and "calibration.yaml" in note
    assert "predicted:" not in side_by_side(two_submissions())  # measured times need no such note


def test_a_predicted_time_is_never_marked_ok_nor_as_a_cpu_run():
    predicted = side_by_side([{**r, "method": "predicted", "engine": "isa", "device": "cpu"} for r in two_submissions()])
    assert " ok " not in predicted and "say nothing about a GPU" not in predicted
    assert " ok " in side_by_side(two_submissions())  # a checked, measured row is


def test_a_chart_reads_gaps_as_they_are_and_names_the_speedups():
    from reports.plots import figure

    group, table = groups(frame_from_rows(two_submissions()))[0]
    fig = figure(group, pivot(table))
    time_ax = fig.axes[0]
    assert time_ax.get_yscale() == "linear" and time_ax.get_ylim()[0] == 0
    assert "fast 2.00x vs slow" in fig._suptitle.get_text()
    assert "2.00x" in [text.get_text() for text in time_ax.texts]
