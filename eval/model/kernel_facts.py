"""What the model needs to know about one compiled kernel instance, and the occupancy it implies.

Callers pass facts read from the compiled ISA (eval.isa) where they have them; otherwise
`estimate_from_tiling` derives them from the tile config the way the designs in shared/seeds/
lay out registers and LDS.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

from eval.model import hardware as hw
from eval.model.config_name import TileConfig

# Registers a kernel of this family spends beyond accumulators, prefetch and MFMA operands:
# addresses, loop counters, scale factors. A round estimate; the ISA report replaces it.
_BOOKKEEPING_VGPRS = 40
# LDS rows padded by 8 bytes against bank conflicts (the #1 design, anchors.md).
DEFAULT_LDS_PAD_BYTES = 8


@dataclass(frozen=True)
class KernelFacts:
    """Per-instance resource use: the inputs of the occupancy and MFMA-time calculations."""

    waves_per_workgroup: int
    vgprs_per_lane: int           # ArchVGPRs + AccVGPRs of one wave
    lds_bytes: int                # per workgroup
    mfma: hw.Mfma
    mfmas_per_k_tile: int         # MFMA instructions one wave issues per BLOCK_K step
    source: str                   # "isa" or "tiling estimate"
    isa_waves_per_simd: int | None = None  # eval.isa's occupancy (also counts SGPRs, LDS granules)

    @property
    def waves_per_simd_limit(self) -> int:
        if self.isa_waves_per_simd is not None:
            return self.isa_waves_per_simd
        granules = math.ceil(self.vgprs_per_lane / hw.VGPR_GRANULE) * hw.VGPR_GRANULE
        return min(hw.MAX_WAVES_PER_SIMD, hw.VGPRS_PER_SIMD_LANE // granules)

    @property
    def workgroups_per_cu(self) -> int:
        """Occupancy: workgroups resident on one CU, limited by VGPRs, wave slots and LDS."""
        waves_per_simd_each = math.ceil(self.waves_per_workgroup / hw.SIMDS_PER_CU)
        by_waves = self.waves_per_simd_limit // waves_per_simd_each
        if self.isa_waves_per_simd is not None:  # already limited by LDS, whole workgroups only
            return by_waves
        by_lds = hw.LDS_BYTES_PER_CU // self.lds_bytes if self.lds_bytes else by_waves
        return min(by_waves, by_lds)

    @property
    def mfma_cycles_per_simd_per_k_tile(self) -> int:
        """Issue cycles one workgroup keeps its busiest SIMD busy with per BLOCK_K step."""
        waves_on_busiest_simd = math.ceil(self.waves_per_workgroup / hw.SIMDS_PER_CU)
        return waves_on_busiest_simd * self.mfmas_per_k_tile * self.mfma.cycles


def estimate_from_tiling(config: TileConfig, mfma_kind: str = "16x16x32",
                         lds_pad_bytes: int = DEFAULT_LDS_PAD_BYTES) -> KernelFacts:
    """Facts a single-LDS-stage, register-prefetching kernel of this tiling would have."""
    mfma = hw.MFMAS[mfma_kind]
    wave_m = config.block_m // config.waves_m
    wave_n = config.block_n // config.waves_n
    mfmas = (math.ceil(wave_m / mfma.m) * math.ceil(wave_n / mfma.n)
             * math.ceil(config.block_k / mfma.k))
    lanes = config.waves * 64
    accumulators = math.ceil(wave_m / mfma.m) * math.ceil(wave_n / mfma.n) * mfma.m * mfma.n // 64
    prefetch = math.ceil((config.block_m + config.block_n) * config.block_k / lanes / 4)
    operands = math.ceil((wave_m + wave_n) * mfma.k / 64 / 4)
    return KernelFacts(
        waves_per_workgroup=config.waves,
        vgprs_per_lane=accumulators + prefetch + operands + _BOOKKEEPING_VGPRS,
        lds_bytes=(config.block_m + config.block_n) * (config.block_k + lds_pad_bytes),
        mfma=mfma,
        mfmas_per_k_tile=mfmas,
        source="tiling estimate",
    )
