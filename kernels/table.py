"""The per-shape table: which config runs each published shape, keyed by canonical names.

One row per shape (m, n, k) of the 18 benchmarks and 11 tests; any other shape takes the
general path (kernels/select.py). Until the performance model (eval/model) ranks them, the
rows were chosen by reasoning: enough blocks for 304 CUs, split-K only where output tiles
are few, the 256-row tile where m is large enough to fill it.
"""
from __future__ import annotations

from kernels.config import Config

SHAPE_TABLE: dict[str, dict[tuple[int, int, int], str]] = {
    "v0_naive": {},
    "v1_lds_mfma": {},
    "v2_swizzle_splitk": {},
}


def table_configs(variant: str) -> dict[tuple[int, int, int], Config]:
    """The variant's table with names resolved to Configs."""
    return {shape: Config.parse(variant, name) for shape, name in SHAPE_TABLE[variant].items()}
