"""Hand-built report rows shared by the compare tests."""
from __future__ import annotations

from reference.contract import cases

SHAPES = [(c.m, c.n, c.k) for c in cases("benchmarks")[:3]]
DEVICE = "NVIDIA H200"


def row(submission, shape, mean_us, passed=1, mode="leaderboard", method="leaderboard",
        submission_hash="aaaaaaaaaaaa", engine="gpu", device=DEVICE):
    m, n, k = shape
    return {"submission": submission, "submission_hash": submission_hash, "case": 0,
            "m": m, "n": n, "k": k, "seed": 1, "mode": mode, "method": method, "engine": engine,
            "mean_us": mean_us, "passed": passed, "device": device}


def two_submissions(fast_passes_last=True):
    """`slow` at 100/200/400 us, `fast` twice as fast everywhere."""
    rows = [row("slow", s, 100.0 * 2 ** i) for i, s in enumerate(SHAPES)]
    rows += [row("fast", s, 50.0 * 2 ** i, passed=int(fast_passes_last or i < 2))
             for i, s in enumerate(SHAPES)]
    return rows
