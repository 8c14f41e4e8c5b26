"""Per-shape config choice: the candidate with the lowest predicted time, and the geomean it implies."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Iterable

from eval.model.config_name import TileConfig
from eval.model.designs import Design
from eval.model.efficiency import Efficiency
from eval.model.kernel_facts import KernelFacts
from eval.model.predict import Prediction, predict
from reference import contract

FactsSource = Callable[[TileConfig], "KernelFacts | None"]


@dataclass(frozen=True)
class Pick:
    kind: str                  # "tests" or "benchmarks"
    case: contract.Case
    best: Prediction
    runner_up: Prediction | None


def best_prediction(m: int, n: int, k: int, design: Design, eff: Efficiency,
                    configs: Iterable[TileConfig] | None = None,
                    facts_for: FactsSource | None = None) -> list[Prediction]:
    """All candidates' predictions for one shape, fastest leaderboard time first (ties keep
    candidate order): an extra launch must buy more than it costs."""
    facts_for = facts_for or (lambda config: None)
    predictions = [predict(m, n, k, config, design, eff, facts_for(config))
                   for config in (configs if configs is not None else design.configs())]
    if not predictions:
        raise ValueError(f"design {design.name!r} has no candidate configs")
    return sorted(predictions, key=lambda p: p.leaderboard_us)


def pick_configs(design: Design, eff: Efficiency, configs: list[TileConfig] | None = None,
                 facts_for: FactsSource | None = None) -> list[Pick]:
    """The fastest predicted config for every benchmark and test shape of the contract."""
    picks = []
    for kind in ("benchmarks", "tests"):
        for case in contract.cases(kind):
            ranked = best_prediction(case.m, case.n, case.k, design, eff, configs, facts_for)
            picks.append(Pick(kind, case, ranked[0], ranked[1] if len(ranked) > 1 else None))
    return picks


def predicted_geomean_us(picks: list[Pick]) -> float:
    """Leaderboard score the picks imply: geomean over the benchmarks of kernel + host time."""
    return contract.geometric_mean([p.best.leaderboard_us for p in picks if p.kind == "benchmarks"])


def format_pick_table(picks: list[Pick]) -> str:
    """An aligned table keyed by shape, ready for a dispatch table, with predicted times."""
    lines = [f"{'kind':<10} {'m':>5} {'n':>5} {'k':>5}  {'config':<28} {'kernel_us':>9} "
             f"{'lb_us':>7} {'SOL_us':>7}  {'bound':<10} runner-up (kernel_us)"]
    for p in picks:
        b = p.best
        sol = contract.speed_of_light_us(b.m, b.n, b.k)
        second = f"{p.runner_up.config} ({p.runner_up.kernel_us:.1f})" if p.runner_up else "-"
        lines.append(f"{p.kind:<10} {b.m:>5} {b.n:>5} {b.k:>5}  {b.config:<28} {b.kernel_us:>9.1f} "
                     f"{b.leaderboard_us:>7.1f} {sol:>7.2f}  {b.bound:<10} {second}")
    return "\n".join(lines)
