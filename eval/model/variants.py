"""Designs for names: the model's reference designs, or a variant of kernels/ with its candidates.

A kernels/ variant (`kernels/fp8_mm_<variant>.hip`) is modelled as a single-launch kernel of
the #1 design's family: the winner's fitted constants, no separate transpose, split-K reduced
in-kernel by the last workgroup of a tile (as v2 does), the candidate configs
`kernels.config.candidates(variant)` lists, and kernel facts from its compiled ISA.
"""
from __future__ import annotations

import dataclasses
import importlib

from eval.model.config_name import TileConfig
from eval.model.designs import DESIGNS, Design
from eval.model.efficiency import Efficiency, load_fitted
from eval.model.isa_facts import facts_by_tile
from eval.model.kernel_facts import KernelFacts

# Hand-written HIP variants are closest to the #1 design, so they share its constants.
VARIANT_CONSTANTS_FROM = "winner"


def _kernel_variants():
    """kernels.config when the kernel helper's package is importable, else None."""
    try:
        return importlib.import_module("kernels.config")
    except ImportError:
        return None


def known_designs() -> list[str]:
    kernels = _kernel_variants()
    return list(DESIGNS) + (list(kernels.VARIANTS) if kernels else [])


def design_for(name: str, candidates: list[str] | None = None) -> Design:
    """The design called `name`, with `candidates` replacing its config list when given."""
    if name in DESIGNS:
        design = DESIGNS[name]
    else:
        kernels = _kernel_variants()
        if kernels is None or name not in kernels.VARIANTS:
            raise KeyError(f"unknown design or variant {name!r}; known: {', '.join(known_designs())}")
        design = Design(name=name, candidates=tuple(c.name for c in kernels.candidates(name)),
                        split_k_reduction_launches=0,
                        summary=f"kernels/fp8_mm_{name}.hip, candidates from kernels.config")
    if candidates is not None:
        design = dataclasses.replace(design, candidates=tuple(candidates))
    return design


def efficiency_for(design: Design) -> Efficiency:
    return load_fitted(design.name if design.name in DESIGNS else VARIANT_CONSTANTS_FROM)


def facts_source_for(design: Design):
    """config -> KernelFacts from the variant's compiled ISA, or None (tiling estimate) for a
    tile the variant does not compile and for the reference designs, which have no source."""
    by_tile = facts_by_tile(design.name) if design.name not in DESIGNS else {}

    def facts_for(config: TileConfig) -> KernelFacts | None:
        return by_tile.get(config.with_split_k(1).name)
    return facts_for
