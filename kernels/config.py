"""Kernel configs as data: one dataclass derives the canonical name and the C++ template
arguments, so the packer, the per-shape table and the performance model all speak the same
strings (`bm256_bn128_bk128_w2x4_sk4`)."""
from __future__ import annotations

import re
from dataclasses import dataclass, replace
from pathlib import Path

KERNEL_DIR = Path(__file__).resolve().parent
_NAME = re.compile(r"bm(\d+)_bn(\d+)_bk(\d+)_w(\d+)x(\d+)_sk(\d+)")


@dataclass(frozen=True)
class Config:
    """One kernel instance (the tile) plus the split-K factor it is launched with."""

    variant: str
    block_m: int
    block_n: int
    block_k: int
    waves_m: int
    waves_n: int
    split_k: int = 1

    @property
    def name(self) -> str:
        return (f"bm{self.block_m}_bn{self.block_n}_bk{self.block_k}"
                f"_w{self.waves_m}x{self.waves_n}_sk{self.split_k}")

    @property
    def instance(self) -> "Config":
        """The compiled kernel: split-K is a launch argument, not a template argument."""
        return replace(self, split_k=1)

    @property
    def template_args(self) -> str:
        """The launcher's template arguments, in the order every variant declares them."""
        return f"{self.block_m}, {self.block_n}, {self.block_k}, {self.waves_m}, {self.waves_n}"

    @property
    def threads(self) -> int:
        return 64 * self.waves_m * self.waves_n

    @property
    def source(self) -> Path:
        return KERNEL_DIR / f"fp8_mm_{self.variant}.hip"

    def output_tiles(self, m: int, n: int) -> int:
        return -(-m // self.block_m) * -(-n // self.block_n)

    @classmethod
    def parse(cls, variant: str, name: str) -> "Config":
        match = _NAME.fullmatch(name)
        if not match:
            raise ValueError(f"not a canonical config name: {name!r}")
        return cls(variant, *(int(group) for group in match.groups()))


# The instances each variant is compiled for; split-K factors are free at launch time.
_TILES = {
    "v0_naive": ["bm16_bn16_bk128_w4x1"],
    "v1_lds_mfma": ["bm128_bn128_bk128_w2x2"],
    "v2_swizzle_splitk": ["bm128_bn128_bk128_w2x4",
                          "bm64_bn128_bk128_w1x4"],
    # 256x128 (w4x2) and 128x256 (w2x4) also compile without spills; the model picks neither
    "v3_twoblock_xcd": ["bm128_bn128_bk128_w2x2",
                       "bm64_bn128_bk128_w1x4"],
}
SPLIT_K_CHOICES = {"v0_naive": (1,), "v1_lds_mfma": (1,),
                   "v2_swizzle_splitk": (1, 2, 3, 4, 6, 8),
                   "v3_twoblock_xcd": (1, 2, 3, 4, 6, 8)}
VARIANTS = tuple(_TILES)


def instances(variant: str, tiles: list[str] | None = None) -> list[Config]:
    """The compiled tiles of one variant (split_k = 1): its packed ones, or `tiles` (e.g.
    "bm256_bn128_bk128_w4x2") for a build that tries others (the predictor's tuning, predictor/tune.py)."""
    return [Config.parse(variant, tile + "_sk1") for tile in (tiles or _TILES[variant])]


def candidates(variant: str, tiles: list[str] | None = None) -> list[Config]:
    """Every config a per-shape table may name for this variant (or for a build with `tiles`):
    tiles x split-K factors."""
    return [replace(tile, split_k=split) for tile in instances(variant, tiles)
            for split in SPLIT_K_CHOICES[variant]]
