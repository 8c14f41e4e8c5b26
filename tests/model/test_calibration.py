"""The model against published MI300X timings (eval/model/calibration.yaml).

Bound: mean |error| <= 15% per set over the per-case points, 5% on the #1 leaderboard geomean. The fit reaches about 5% in-sample with 2-3 constants; the
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
from reference import contract

BOUND_PCT = 15.0
GEOMEAN_BOUND_PCT = 5.0


def case_rows(set_name):
    return [r for r in calibrate.compare() if r.set_name == set_name and r.case != calibrate.GEOMEAN_CASE]


@pytest.mark.parametrize("set_name", list(calibrate.load_sets()))
def test_stored_constants_meet_the_bound(set_name):
    rows = case_rows(set_name)
    assert len(rows) >= 6
    assert calibrate.mean_abs_pct(rows) <= BOUND_PCT, calibrate.format_rows(rows)


def test_winner_geomean_target_is_the_contract_score_and_is_met():
    [row] = [r for r in calibrate.compare() if r.case == calibrate.GEOMEAN_CASE]
    assert row.set_name == "winner"
    assert row.measured_us == float(contract.load()["published_top_score_us"])
    assert abs(row.error_pct) <= GEOMEAN_BOUND_PCT, calibrate.format_rows([row])


def test_stored_constants_are_what_the_fit_produces():
    for design, eff in calibrate.fit_all().items():
        stored = dataclasses.asdict(load_fitted(design))
        for key, value in dataclasses.asdict(eff).items():
            assert stored[key] == pytest.approx(value, rel=0.01, abs=1e-3), (design, key)


def test_round_fixed_time_moves_only_with_the_geomean_target():
    spec = calibrate.load_sets()["winner"]
    points = calibrate.targets(spec)
    assert "round_fixed_us" in calibrate.fit_names(spec, points)
    assert "round_fixed_us" not in calibrate.fit_names(spec, points[:-1])


def test_dropping_split_k_breaks_the_bound(monkeypatch):
    no_split = dataclasses.replace(WINNER, candidates=("bm256_bn128_bk128_w2x4_sk1",))
    monkeypatch.setitem(calibrate.DESIGNS, "winner", no_split)
    assert calibrate.mean_abs_pct(case_rows("winner")) > BOUND_PCT


def test_the_old_per_round_fixed_time_misses_the_geomean():
    # Charging the whole fixed time per round and none of it hidden (the first model) was
    # 25% pessimistic on the score; the target must be able to tell.
    old = load_fitted("winner")
    old = old.replace(round_fixed_us=old.call_fixed_us, call_fixed_us=0.0)
    [row] = [r for r in calibrate.compare({"winner": old}) if r.case == calibrate.GEOMEAN_CASE]
    assert row.error_pct > 3 * GEOMEAN_BOUND_PCT


@pytest.mark.slow
def test_leave_one_out_errors_stay_within_twice_the_bound():
    rows = calibrate.leave_one_out()
    for set_name in calibrate.load_sets():
        cases = [r for r in rows if r.set_name == set_name and r.case != calibrate.GEOMEAN_CASE]
        assert calibrate.mean_abs_pct(cases) <= 2 * BOUND_PCT, calibrate.format_rows(cases)
    [geomean] = [r for r in rows if r.case == calibrate.GEOMEAN_CASE]
    assert abs(geomean.error_pct) <= 2 * GEOMEAN_BOUND_PCT
