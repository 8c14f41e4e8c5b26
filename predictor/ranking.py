"""What a predicted gap says about the measured order: of two kernels predicted some percent
apart, how often the one predicted faster was the faster on the MI300X.

    bands = agreement(pairs)           # [(measured, predicted), ...] per group; pairs within a group
    per_shape, geomean = of_rows(shapes, configs, measured, predicted)
    note = gap_note(ratio)             # the stored figures (calibration.yaml `ranking:`) for a gap

`--evaluate` prints the bands of the rows it evaluated (calibrate.print_evaluation); the figures
a comparison quotes are stored in calibration.yaml under `ranking:`, with the run that made them.
Per shape: every pair of configurations of one shape. Geomean: every pair of configurations over
their geometric mean on the shapes all of them have (what a leaderboard score compares).
"""
from __future__ import annotations

import bisect
import math
from collections import defaultdict
from typing import NamedTuple

from predictor import calibration

# Band edges of |log(predicted_a / predicted_b)|, as the percent gap a reader thinks in.
EDGES = (0.02, 0.05, 0.10, 0.20, 0.30, 0.50)
_LOG_EDGES = tuple(math.log1p(edge) for edge in EDGES)  # the edges as gaps in log time, once


class Band(NamedTuple):
    low: float           # the gap (a fraction: 0.05 is 5%) from which ...
    high: float | None   # ... to which (None: no upper end)
    agreed: int          # pairs whose measured order is the predicted one
    pairs: int

    @property
    def share(self) -> float | None:
        return self.agreed / self.pairs if self.pairs else None

    @property
    def percent(self) -> str:
        """The share as a whole percent, rounded down (99.7% is not "100%")."""
        return "-" if self.share is None else f"{math.floor(100 * self.share)}%"

    @property
    def label(self) -> str:
        return f"{self.low:.0%}-{self.high:.0%}" if self.high is not None else f"{self.low:.0%} or more"


def _band_of(gap: float) -> int:
    return bisect.bisect_right(_LOG_EDGES, gap)


def _bands(counts) -> list[Band]:
    """Bands from [(agreed, pairs)] in EDGES' order, lowest gap first."""
    return [Band(low, high, int(a), int(n)) for low, high, (a, n) in zip((0.0, *EDGES), (*EDGES, None), counts)]


def _count(groups) -> list[Band]:
    """agreement() over groups of (log measured, log predicted)."""
    agreed, pairs = [0] * (len(EDGES) + 1), [0] * (len(EDGES) + 1)
    for logs in groups:
        for i, (mi, pi) in enumerate(logs):
            for mj, pj in logs[i + 1:]:
                band = _band_of(abs(pi - pj))
                pairs[band] += 1
                agreed[band] += (pi - pj) * (mi - mj) > 0
    return _bands(zip(agreed, pairs))


def agreement(groups: list[list[tuple[float, float]]]) -> list[Band]:
    """Bands of predicted gap over every pair within each group of (measured, predicted)
    times; a pair predicted (or measured) equal counts as not agreed."""
    return _count([[(math.log(m), math.log(p)) for m, p in group] for group in groups])


def of_rows(shapes: list[str], configs: list[str], measured: list[float],
            predicted: list[float | None]) -> tuple[list[Band], list[Band]]:
    """Per-shape and geomean bands of evaluated rows (refused rows left out). A configuration
    measured twice on a shape (the calibration set repeats a few) counts once there, at the
    geometric mean of its rows."""
    cells: dict[tuple[str, str], list[tuple[float, float]]] = defaultdict(list)
    for shape, config, m, p in zip(shapes, configs, measured, predicted):
        if p is not None:
            cells[shape, config].append((math.log(m), math.log(p)))
    by_shape: dict[str, dict[str, tuple[float, float]]] = defaultdict(dict)
    for (shape, config), logs in cells.items():
        by_shape[shape][config] = (sum(m for m, _ in logs) / len(logs), sum(p for _, p in logs) / len(logs))
    everywhere = set.intersection(*(set(row) for row in by_shape.values())) if by_shape else set()
    geomean = [(sum(row[c][0] for row in by_shape.values()) / len(by_shape),
                sum(row[c][1] for row in by_shape.values()) / len(by_shape)) for c in sorted(everywhere)]
    return _count([list(row.values()) for row in by_shape.values()]), _count([geomean])


def table(per_shape: list[Band], geomean: list[Band]) -> str:
    """The bands as text: how often the measured order was the predicted one, by predicted gap."""
    lines = [f"{'predicted gap':<14} {'order right, per shape':>28} {'over the geomean':>24}"]
    for one, over in zip(per_shape, geomean):
        cells = [f"{b.agreed}/{b.pairs} ({b.percent})" for b in (one, over)]
        lines.append(f"{one.label:<14} {cells[0]:>28} {cells[1]:>24}")
    return "\n".join(lines)


def stored(kind: str) -> list[Band]:
    """calibration.yaml's `ranking:` bands of `kind` ("per_shape" or "geomean")."""
    return _bands(calibration()["ranking"][kind]["bands"])


def gap_note(ratio: float, kind: str = "geomean") -> str:
    """What the calibration set says of a predicted ratio `ratio` (slower / faster, or the
    inverse) between two kernels."""
    gap = abs(math.log(ratio))
    band = stored(kind)[_band_of(gap)]
    where = "over their geomean" if kind == "geomean" else "on one shape"
    return (f"of the calibration set's configurations predicted {band.label} apart {where}, the measured "
            f"order was the predicted one in {band.percent} of {band.pairs:,} pairs (calibration.yaml `ranking:`)")
