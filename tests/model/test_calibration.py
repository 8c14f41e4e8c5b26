"""The model against published MI300X timings (eval/model/calibration.yaml).

Bound: mean |error| <= 15% per set. The fit reaches about 5% in-sample with 2-3 constants; the
published numbers are best-of-5 kernel times of designs known only from write-ups (CK's tiles
and the #1 split-K choices are not published), so a refit or a structural change may move
single cases by 10%+. A model that drops the tail effect or split-K misses the few-tile cases
by 2x or more, which breaks the bound (see test_dropping_split_k_breaks_the_bound).
"""
import dataclasses

import pytest

from eval.model import calibrate
from eval.model.designs import WINNER
from eval.model.efficiency import load_fitted

BOUND_PCT = 15.0


@pytest.mark.parametrize("set_name", list(calibrate.load_sets()))
def test_stored_constants_meet_the_bound(set_name):
    rows = [r for r in calibrate.compare() if r.set_name == set_name]
    assert len(rows) >= 6
    assert calibrate.mean_abs_pct(rows) <= BOUND_PCT, calibrate.format_rows(rows)


def test_stored_constants_are_what_the_fit_produces():
    for design, eff in calibrate.fit_all().items():
        stored = dataclasses.asdict(load_fitted(design))
        for key, value in dataclasses.asdict(eff).items():
            assert stored[key] == pytest.approx(value, rel=0.01), (design, key)


def test_dropping_split_k_breaks_the_bound(monkeypatch):
    no_split = dataclasses.replace(WINNER, candidates=("bm256_bn128_bk128_w2x4_sk1",))
    monkeypatch.setitem(calibrate.DESIGNS, "winner", no_split)
    rows = [r for r in calibrate.compare() if r.set_name == "winner"]
    assert calibrate.mean_abs_pct(rows) > BOUND_PCT
