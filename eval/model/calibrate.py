"""Compare predictions with published MI300X timings (calibration.yaml) and fit each design's
efficiency constants to its own set; `leave_one_out` refits without each target in turn."""
from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path

import yaml

from eval.model.designs import DESIGNS
from eval.model.efficiency import Efficiency, load_fitted
from eval.model.pick import best_prediction, pick_configs, predicted_geomean_us
from reference import contract

CALIBRATION_FILE = Path(__file__).resolve().parent / "calibration.yaml"
GEOMEAN_CASE = "leaderboard geomean"


@dataclass(frozen=True)
class Row:
    set_name: str
    case: str                 # "m n k" of a per-case point, or GEOMEAN_CASE
    config: str               # best predicted candidate ("per shape" for the geomean)
    measured_us: float
    predicted_us: float       # kernel time, or leaderboard geomean for GEOMEAN_CASE
    bound: str

    @property
    def error_pct(self) -> float:
        return 100.0 * (self.predicted_us - self.measured_us) / self.measured_us


def load_sets(path: Path = CALIBRATION_FILE) -> dict[str, dict]:
    with open(path) as f:
        return yaml.safe_load(f)["sets"]


def targets(spec: dict) -> list[dict]:
    """A set's calibration points: its cases, then its leaderboard score if it names one."""
    points = [dict(case) for case in spec["cases"]]
    if "geomean" in spec:
        points.append({"geomean_us": float(contract.load()[spec["geomean"]["score"]])})
    return points


def compare(effs: dict[str, Efficiency] | None = None,
            sets: dict[str, dict] | None = None) -> list[Row]:
    """Every calibration point: measured time against the best predicted candidate config
    (per case), or the predicted leaderboard geomean, with each set's design using
    `effs[design]` (default: the stored fitted constants)."""
    rows = []
    for set_name, spec in (sets or load_sets()).items():
        eff = (effs or {}).get(spec["design"]) or load_fitted(spec["design"])
        rows += [_row(set_name, spec, point, eff) for point in targets(spec)]
    return rows


def _row(set_name: str, spec: dict, point: dict, eff: Efficiency) -> Row:
    design = DESIGNS[spec["design"]]
    if "geomean_us" in point:
        predicted = predicted_geomean_us(pick_configs(design, eff))
        return Row(set_name, GEOMEAN_CASE, "per shape", point["geomean_us"], predicted, "-")
    best = best_prediction(point["m"], point["n"], point["k"], design, eff)[0]
    return Row(set_name, f"{best.m} {best.n} {best.k}", best.config, float(point["us"]),
               best.kernel_us, best.bound)


def mean_abs_pct(rows: list[Row]) -> float:
    return sum(abs(row.error_pct) for row in rows) / len(rows)


def fit_set(spec: dict, start: Efficiency, points: list[dict], names: list[str],
            rounds: int = 80) -> Efficiency:
    """Minimise the mean |log(predicted/measured)| over `points` by moving `names`.

    A multiplicative pattern search: the objective is piecewise (max, ceil, best candidate),
    so gradients are useless, and two to four constants are cheap to search.
    """
    def loss(eff: Efficiency) -> float:
        rows = [_row("fit", spec, point, eff) for point in points]
        return sum(abs(math.log(r.predicted_us / r.measured_us)) for r in rows) / len(rows)

    best, best_loss, step = start, loss(start), 0.5
    for _ in range(rounds):
        improved = False
        for name in names:
            for factor in (1 + step, 1 / (1 + step)):
                trial = best.replace(**{name: getattr(best, name) * factor})
                trial_loss = loss(trial)
                if trial_loss < best_loss - 1e-12:
                    best, best_loss, improved = trial, trial_loss, True
        if not improved:
            step /= 2
            if step < 1e-4:
                break
    return best


# Starting values of the search: the objective has local minima where the per-workgroup
# rate and the CU port trade places, so starts spanning both are tried. Constants a set
# does not fit keep their prior (or the value inherited from an earlier set).
_STARTS = tuple({"wg_bytes_per_clk": wg, "call_fixed_us": 5.0, "cu_bytes_per_clk": cu}
                for wg in (6.0, 16.0) for cu in (16.0, 64.0))


def fit_names(spec: dict, points: list[dict]) -> list[str]:
    """The constants a set moves: `fit`, plus `geomean.fit` while the geomean is a target
    (without it nothing constrains them, so they keep their prior)."""
    with_geomean = any("geomean_us" in point for point in points)
    return list(spec["fit"]) + (list(spec["geomean"].get("fit", [])) if with_geomean else [])


def fit_one(spec: dict, fitted: dict[str, Efficiency], points: list[dict] | None = None) -> Efficiency:
    """Best constants for one set over `points` (default: all its targets)."""
    points = targets(spec) if points is None else points
    names = fit_names(spec, points)
    base = Efficiency(wg_bytes_per_clk=_STARTS[0]["wg_bytes_per_clk"],
                      call_fixed_us=_STARTS[0]["call_fixed_us"])
    for source, inherited in spec.get("inherit", {}).items():
        base = base.replace(**{name: getattr(fitted[source], name) for name in inherited})
    starts = [base.replace(**{name: start[name] for name in names if name in start})
              for start in _STARTS]
    candidates = [fit_set(spec, start, points, names) for start in dict.fromkeys(starts)]
    return min(candidates, key=lambda eff: mean_abs_pct([_row("fit", spec, p, eff) for p in points]))


def fit_all(sets: dict[str, dict] | None = None) -> dict[str, Efficiency]:
    """Fitted constants for every design whose set lists constants to fit, in file order;
    `inherit: {design: [names]}` copies hardware constants an earlier set could identify."""
    fitted: dict[str, Efficiency] = {}
    for spec in (sets or load_sets()).values():
        if spec.get("fit"):
            fitted[spec["design"]] = fit_one(spec, fitted)
    return fitted


def leave_one_out(sets: dict[str, dict] | None = None) -> list[Row]:
    """Out-of-sample rows: each target predicted by constants refitted without it (earlier
    sets' inherited constants stay at their full fit)."""
    sets = sets or load_sets()
    fitted = fit_all(sets)
    rows = []
    for set_name, spec in sets.items():
        points = targets(spec)
        for index, point in enumerate(points):
            eff = fit_one(spec, fitted, points[:index] + points[index + 1:])
            rows.append(_row(set_name, spec, point, eff))
    return rows


def format_rows(rows: list[Row]) -> str:
    lines = [f"{'set':<7} {'m n k':<16} {'config (best predicted)':<28} "
             f"{'measured':>8} {'predicted':>9} {'error':>7}  bound"]
    for r in rows:
        lines.append(f"{r.set_name:<7} {r.case:<16} {r.config:<28} "
                     f"{r.measured_us:>8.1f} {r.predicted_us:>9.1f} {r.error_pct:>+6.1f}%  {r.bound}")
    for set_name in dict.fromkeys(r.set_name for r in rows):
        subset = [r for r in rows if r.set_name == set_name]
        cases = [r for r in subset if r.case != GEOMEAN_CASE]
        lines.append(f"mean |error| {set_name}: {mean_abs_pct(cases):.1f}% over {len(cases)} cases"
                     + "".join(f"; geomean {r.error_pct:+.1f}%" for r in subset if r.case == GEOMEAN_CASE))
    return "\n".join(lines)
