"""Compare predictions with published MI300X timings (calibration.yaml) and fit each design's
efficiency constants to its own set."""
from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path

import yaml

from eval.model.designs import DESIGNS
from eval.model.efficiency import Efficiency, load_fitted
from eval.model.pick import best_prediction
from eval.model.predict import Prediction

CALIBRATION_FILE = Path(__file__).resolve().parent / "calibration.yaml"


@dataclass(frozen=True)
class Row:
    set_name: str
    measured_us: float
    predicted: Prediction

    @property
    def error_pct(self) -> float:
        return 100.0 * (self.predicted.kernel_us - self.measured_us) / self.measured_us


def load_sets(path: Path = CALIBRATION_FILE) -> dict[str, dict]:
    with open(path) as f:
        return yaml.safe_load(f)["sets"]


def compare(effs: dict[str, Efficiency] | None = None,
            sets: dict[str, dict] | None = None) -> list[Row]:
    """Every calibration case: measured time against the best predicted candidate config,
    with each set's design using `effs[design]` (default: the stored fitted constants)."""
    rows = []
    for set_name, spec in (sets or load_sets()).items():
        design = DESIGNS[spec["design"]]
        eff = (effs or {}).get(design.name) or load_fitted(design.name)
        for case in spec["cases"]:
            best = best_prediction(case["m"], case["n"], case["k"], design, eff)[0]
            rows.append(Row(set_name, float(case["us"]), best))
    return rows


def mean_abs_pct(rows: list[Row]) -> float:
    return sum(abs(row.error_pct) for row in rows) / len(rows)


def fit_set(spec: dict, start: Efficiency, rounds: int = 80) -> Efficiency:
    """Minimise one set's mean |log(predicted/measured)| over the constants it lists in `fit`.

    A multiplicative pattern search: the objective is piecewise (max, ceil, best candidate),
    so gradients are useless, and two or three constants are cheap to search.
    """
    design = spec["design"]

    def loss(eff: Efficiency) -> float:
        rows = compare({design: eff}, {"set": spec})
        return sum(abs(math.log(r.predicted.kernel_us / r.measured_us)) for r in rows) / len(rows)

    best, best_loss, step = start, loss(start), 0.5
    for _ in range(rounds):
        improved = False
        for name in spec["fit"]:
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
_STARTS = tuple({"wg_bytes_per_clk": wg, "wg_fixed_us": 5.0, "cu_bytes_per_clk": cu}
                for wg in (6.0, 16.0) for cu in (16.0, 64.0))


def fit_all(sets: dict[str, dict] | None = None) -> dict[str, Efficiency]:
    """Fitted constants for every design whose set lists constants to fit, in file order;
    `inherit: {design: [names]}` copies hardware constants an earlier set could identify."""
    fitted: dict[str, Efficiency] = {}
    for spec in (sets or load_sets()).values():
        if not spec.get("fit"):
            continue
        base = Efficiency(**{name: _STARTS[0][name] for name in ("wg_bytes_per_clk", "wg_fixed_us")})
        for source, names in spec.get("inherit", {}).items():
            base = base.replace(**{name: getattr(fitted[source], name) for name in names})
        starts = [base.replace(**{name: start[name] for name in spec["fit"]}) for start in _STARTS]
        candidates = [fit_set(spec, start) for start in dict.fromkeys(starts)]
        fitted[spec["design"]] = min(candidates, key=lambda eff: mean_abs_pct(
            compare({spec["design"]: eff}, {"set": spec})))
    return fitted


def format_rows(rows: list[Row]) -> str:
    lines = [f"{'set':<7} {'m':>5} {'n':>5} {'k':>5}  {'config (best predicted)':<28} "
             f"{'measured':>8} {'predicted':>9} {'error':>7}  bound"]
    for r in rows:
        p = r.predicted
        lines.append(f"{r.set_name:<7} {p.m:>5} {p.n:>5} {p.k:>5}  {p.config:<28} "
                     f"{r.measured_us:>8.1f} {p.kernel_us:>9.1f} {r.error_pct:>+6.1f}%  {p.bound}")
    for set_name in dict.fromkeys(r.set_name for r in rows):
        subset = [r for r in rows if r.set_name == set_name]
        lines.append(f"mean |error| {set_name}: {mean_abs_pct(subset):.1f}% over {len(subset)} cases")
    return "\n".join(lines)
