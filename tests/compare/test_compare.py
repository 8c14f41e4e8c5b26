"""Comparison table on hand-built report rows: speedups, SOL ratios, geomeans."""
from __future__ import annotations

import math

import pytest

from eval.compare import group_rows, side_by_side
from reference.contract import cases, geometric_mean, load, speed_of_light_us
from tests.compare.rows import SHAPES, row, two_submissions


def test_speedup_and_sol_ratio_per_shape():
    group, = group_rows(two_submissions())
    assert group.submissions == ["slow", "fast"]
    for i, shape in enumerate(SHAPES):
        assert group.speedup(shape, "slow") == pytest.approx(1.0)
        assert group.speedup(shape, "fast") == pytest.approx(2.0)
        assert group.sol_ratio(shape, "fast") == pytest.approx(50.0 * 2 ** i / speed_of_light_us(*shape))


def test_geomean_over_all_passed_shapes():
    group, = group_rows(two_submissions())
    assert group.geomean_us("slow") == pytest.approx(200.0)  # cube root of 100*200*400
    assert group.geomean_us("fast") == pytest.approx(100.0)
    text = side_by_side(two_submissions())
    assert "dropped" not in text
    geomean_line = next(line for line in text.splitlines() if line.startswith("geomean"))
    assert "200.00" in geomean_line and "100.00" in geomean_line and "2.00x" in geomean_line


def test_failed_shape_is_dropped_from_every_geomean():
    rows = two_submissions(fast_passes_last=False)
    group, = group_rows(rows)
    assert group.common_shapes() == SHAPES[:2]
    assert group.geomean_us("slow") == pytest.approx(math.sqrt(100.0 * 200.0))
    text = side_by_side(rows)
    assert "FAIL" in text
    assert "geomean over 2 of 3 shapes: 1 dropped" in text


def test_missing_shape_is_dropped_and_shown():
    rows = two_submissions()[:-1]  # `fast` never ran the last shape
    group, = group_rows(rows)
    assert group.common_shapes() == SHAPES[:2]
    assert "n/a" in side_by_side(rows)


def test_columns_follow_first_appearance_and_modes_split():
    rows = [row("b", SHAPES[0], 10.0), row("a", SHAPES[0], 20.0),
            row("a", SHAPES[0], 30.0, mode="benchmark", method="events")]
    groups = group_rows(rows)
    assert [(g.mode, g.method) for g in groups] == [("leaderboard", "leaderboard"), ("benchmark", "events")]
    assert groups[0].submissions == ["b", "a"]
    assert groups[0].speedup(SHAPES[0], "a") == pytest.approx(0.5)


def test_same_name_two_versions_become_two_columns():
    rows = [row("submission", SHAPES[0], 10.0, submission_hash="111111111111"),
            row("submission", SHAPES[0], 5.0, submission_hash="222222222222")]
    group, = group_rows(rows)
    assert group.submissions == ["submission@111111111111", "submission@222222222222"]


def test_duplicate_rows_are_an_error():
    with pytest.raises(ValueError, match="two rows"):
        side_by_side([row("a", SHAPES[0], 1.0), row("a", SHAPES[0], 2.0)])


def test_untimed_rows_are_an_error():
    with pytest.raises(ValueError, match="no row has a timing"):
        side_by_side([row("a", SHAPES[0], None, mode="test", method="")])


def test_table_shows_published_top_score_from_contract():
    assert f"{float(load()['published_top_score_us']):.3f} us" in side_by_side(two_submissions())


def test_benchmark_coverage_detection():
    all_shapes = [(c.m, c.n, c.k) for c in cases("benchmarks")]
    full, = group_rows([row("a", s, 1.0) for s in all_shapes])
    part, = group_rows([row("a", s, 1.0) for s in SHAPES])
    assert full.covers_benchmarks() and not part.covers_benchmarks()
    assert full.geomean_us("a") == pytest.approx(geometric_mean([1.0] * len(all_shapes)))
