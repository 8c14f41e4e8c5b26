"""Performance model of the fp8 block-scaled GEMM kernels on MI300X (see README.md).

    from eval.model import pick
    picks, geomean_us = pick("winner")          # or a kernels/ variant, or configs=[names]
"""
from __future__ import annotations

from eval.model.config_name import ConfigNameError, TileConfig, parse_config
from eval.model.kernel_facts import KernelFacts, estimate_from_tiling
from eval.model.pick import Pick, format_pick_table, pick_configs, predicted_geomean_us
from eval.model.predict import Prediction, predict
from eval.model.variants import design_for, efficiency_for, facts_source_for

__all__ = ["ConfigNameError", "TileConfig", "parse_config", "Pick", "Prediction", "predict",
           "format_pick_table", "pick", "predict_case", "facts_used"]


def pick(variant: str, configs: list[str] | None = None) -> tuple[list[Pick], float]:
    """Per-shape fastest config (18 benchmarks, then 11 tests) and the predicted leaderboard
    geomean (kernel + host overhead) for a design or kernels/ variant."""
    design = design_for(variant, configs)
    picks = pick_configs(design, efficiency_for(design), facts_for=facts_source_for(design))
    return picks, predicted_geomean_us(picks)


def predict_case(variant: str, m: int, n: int, k: int, config: str) -> Prediction:
    """One shape, one config name, under a design's or variant's constants."""
    design = design_for(variant)
    tile = parse_config(config)
    return predict(m, n, k, tile, design, efficiency_for(design), facts_source_for(design)(tile))


def facts_used(variant: str, configs: list[str] | None = None) -> list[tuple[str, KernelFacts, KernelFacts]]:
    """(tile, facts the model uses, tiling estimate) per distinct tile of the candidates."""
    design = design_for(variant, configs)
    facts_for = facts_source_for(design)
    rows = {}
    for config in design.configs():
        tile = config.with_split_k(1)
        estimate = estimate_from_tiling(tile, design.mfma_kind, design.lds_pad_bytes)
        rows.setdefault(tile.name[:-len("_sk1")], (facts_for(tile) or estimate, estimate))
    return [(name, used, estimate) for name, (used, estimate) in rows.items()]
