"""What a predicted gap says about the measured order (predictor/ranking.py): pairs counted by
hand on small cases, a repeated configuration counted once, the geomean taken over the shapes every
configuration has, and the stored bands read back for a ratio at either side of a band's edge."""
from __future__ import annotations

import pytest

from predictor import calibration, ranking


def shares(bands):
    return [(band.agreed, band.pairs) for band in bands]


def test_pairs_are_counted_in_the_band_of_their_predicted_gap():
    # predicted 100 / 104 / 200: gaps 4% (2-5%), 92% and 100% (50% or more); measured 10 / 9 / 30
    bands = ranking.agreement([[(10.0, 100.0), (9.0, 104.0), (30.0, 200.0)]])
    assert [band.label for band in bands] == ["0%-2%", "2%-5%", "5%-10%", "10%-20%", "20%-30%", "30%-50%",
                                              "50% or more"]
    assert shares(bands) == [(0, 0), (0, 1), (0, 0), (0, 0), (0, 0), (0, 0), (2, 2)]
    assert bands[1].percent == "0%" and bands[6].percent == "100%" and bands[0].percent == "-"


def test_pairs_never_cross_groups_and_a_tie_is_not_agreement():
    bands = ranking.agreement([[(1.0, 10.0), (2.0, 10.0)], [(1.0, 10.0), (3.0, 10.5)]])
    assert shares(bands)[0] == (0, 1)  # predicted equal: the order is not called
    assert shares(bands)[1] == (1, 1)  # 5% apart, in the measured order
    assert sum(pairs for _, pairs in shares(bands)) == 2


def test_a_gap_is_rounded_down_not_up():
    assert ranking.Band(0.5, None, 997, 1000).percent == "99%"


def test_a_repeated_configuration_counts_once_and_the_geomean_uses_shared_configurations():
    shapes = ["s1", "s1", "s1", "s1", "s2", "s2", "s2"]
    configs = ["a", "a", "b", "c", "a", "b", "c"]
    measured = [10.0, 40.0, 30.0, 5.0, 10.0, 20.0, 1.0]
    predicted = [10.0, 40.0, 15.0, None, 10.0, 40.0, 1.0]  # c refused on s1
    per_shape, geomean = ranking.of_rows(shapes, configs, measured, predicted)
    # s1: a (20, 20) and b (30, 15): predicted 33% apart, in the wrong order; s2: three
    # configurations, all at least 50% apart and in order
    assert shares(per_shape)[5:] == [(0, 1), (3, 3)]
    assert sum(pairs for _, pairs in shares(per_shape)) == 1 + 3
    # geomean over s1 and s2 of a and b only (c has no prediction on s1): a (sqrt(200), sqrt(200)),
    # b (sqrt(600), sqrt(600)): b predicted 73% slower, measured slower
    assert shares(geomean)[6] == (1, 1)
    assert sum(pairs for _, pairs in shares(geomean)) == 1


def test_the_stored_bands_cover_the_whole_calibration_set():
    stored = calibration()["ranking"]
    for kind, configurations in (("per_shape", 314), ("geomean", 314)):
        bands = ranking.stored(kind)
        assert len(bands) == len(ranking.EDGES) + 1 == len(stored[kind]["bands"])
        assert all(0 <= band.agreed <= band.pairs for band in bands)
        groups = 9 if kind == "per_shape" else 1
        assert sum(band.pairs for band in bands) == groups * configurations * (configurations - 1) // 2


@pytest.mark.parametrize("ratio, band", [(1.049, "2%-5%"), (1.051, "5%-10%"), (1 / 1.051, "5%-10%"),
                                         (3.0, "50% or more")])
def test_a_ratio_names_its_band_and_the_stored_share(ratio, band):
    note = ranking.gap_note(ratio)
    assert f"predicted {band} apart over their geomean" in note
    (stored,) = [b for b in ranking.stored("geomean") if b.label == band]
    assert f"in {stored.percent} of {stored.pairs:,} pairs" in note
    assert "on one shape" in ranking.gap_note(ratio, "per_shape")
