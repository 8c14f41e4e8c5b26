"""How far predicted times are from measured ones, and constants fitted to measurements with
leave-one-shape-out, for any model.

    report = fit(model, measured, shapes, parameters)

`model(constants)` gives a prediction per point (None where refused) under a dict of constant
values; `parameters` name the constants to fit, each with its prior and a grid. Every grid
point (the product of the grids) is predicted once; the in-sample fit takes the point with the
least mean |log(predicted / measured)| over all shapes, and each shape's leave-one-out fit the
least over the other shapes, judged on the shape left out. The loss is symmetric in ratio, so
2x slow and 2x fast weigh the same.
"""
from __future__ import annotations

import itertools
import math
import statistics
from dataclasses import dataclass, field
from typing import Callable


@dataclass(frozen=True)
class Parameter:
    name: str
    prior: float
    grid: tuple[float, ...]

    @classmethod
    def of(cls, name: str, entry: dict) -> Parameter:
        """From calibration.yaml's `fit:` entry {prior, grid: {from, to, step}}."""
        low, high, step = (float(entry["grid"][key]) for key in ("from", "to", "step"))
        if step <= 0 or high < low:
            raise ValueError(f"calibration.yaml fit.{name}: grid needs from <= to and a positive step")
        count = int(round((high - low) / step)) + 1
        return cls(name, float(entry["prior"]), tuple(round(low + i * step, 9) for i in range(count)))


def median_abs_error(measured: list[float], predicted: list[float]) -> float:
    """Median of |predicted / measured - 1| (a fraction)."""
    return statistics.median(abs(p / m - 1) for m, p in zip(measured, predicted))


def ranks(values: list[float]) -> list[float]:
    """1-based ranks, ties given the mean of the ranks they span."""
    order = sorted(range(len(values)), key=values.__getitem__)
    result = [0.0] * len(values)
    start = 0
    while start < len(order):
        end = start
        while end + 1 < len(order) and values[order[end + 1]] == values[order[start]]:
            end += 1
        for position in range(start, end + 1):
            result[order[position]] = (start + end) / 2 + 1
        start = end + 1
    return result


def spearman(xs: list[float], ys: list[float]) -> float | None:
    """Rank correlation (Pearson's on tie-averaged ranks); None for fewer than 2 points or a
    constant side."""
    if len(xs) < 2:
        return None
    rx, ry = ranks(xs), ranks(ys)
    mx, my = statistics.fmean(rx), statistics.fmean(ry)
    sxy = sum((a - mx) * (b - my) for a, b in zip(rx, ry))
    sxx, syy = sum((a - mx) ** 2 for a in rx), sum((b - my) ** 2 for b in ry)
    return sxy / math.sqrt(sxx * syy) if sxx and syy else None


@dataclass(frozen=True)
class ShapeScore:
    points: int
    median_abs_error: float | None
    spearman: float | None


def score(measured: list[float], predicted: list[float | None]) -> ShapeScore:
    pairs = [(m, p) for m, p in zip(measured, predicted) if p is not None]
    if not pairs:
        return ShapeScore(0, None, None)
    ms, ps = [m for m, _ in pairs], [p for _, p in pairs]
    return ShapeScore(len(pairs), median_abs_error(ms, ps), spearman(ps, ms))


def by_shape(shapes: list[str], measured: list[float], predicted: list[float | None]) -> dict[str, ShapeScore]:
    return {shape: score([m for s, m in zip(shapes, measured) if s == shape],
                         [p for s, p in zip(shapes, predicted) if s == shape]) for shape in dict.fromkeys(shapes)}


@dataclass
class FitReport:
    constants: dict[str, float]                   # in-sample fit
    in_sample: dict[str, ShapeScore]
    left_out: dict[str, ShapeScore]               # each shape, predicted with constants fitted without it
    fold_constants: dict[str, dict[str, float]] = field(default_factory=dict)
    median_in_sample: float | None = None         # over every point
    median_left_out: float | None = None


def fit(model: Callable[[dict], list[float | None]], measured: list[float], shapes: list[str],
        parameters: list[Parameter]) -> FitReport:
    grid = [dict(zip((p.name for p in parameters), values)) for values in itertools.product(*(p.grid for p in parameters))]
    names = list(dict.fromkeys(shapes))
    predictions, losses = [], []  # per grid point: every prediction; per shape (sum of |log error|, count)
    for constants in grid:
        predicted = model(constants)
        predictions.append(predicted)
        per_shape = {s: [0.0, 0] for s in names}
        for shape, m, p in zip(shapes, measured, predicted):
            if p is not None and p > 0:
                per_shape[shape][0] += abs(math.log(p / m))
                per_shape[shape][1] += 1
        losses.append(per_shape)

    def best(without: str | None) -> int:
        def loss(i: int) -> float:
            total = sum(v[0] for s, v in losses[i].items() if s != without)
            count = sum(v[1] for s, v in losses[i].items() if s != without)
            return total / count if count else math.inf
        return min(range(len(grid)), key=loss)

    inside = best(None)
    report = FitReport(grid[inside], by_shape(shapes, measured, predictions[inside]), {})
    left_out: list[float | None] = [None] * len(measured)
    for shape in names:
        fold = best(shape)
        report.fold_constants[shape] = grid[fold]
        report.left_out[shape] = by_shape(shapes, measured, predictions[fold])[shape]
        for i, s in enumerate(shapes):
            if s == shape:
                left_out[i] = predictions[fold][i]
    report.median_in_sample = score(measured, predictions[inside]).median_abs_error
    report.median_left_out = score(measured, left_out).median_abs_error
    return report
