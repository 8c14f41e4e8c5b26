"""Tile configs and their canonical names: `bm{BLOCK_M}_bn{BLOCK_N}_bk{BLOCK_K}_w{WAVES_M}x{WAVES_N}_sk{SPLIT_K}`.

The name is the interface shared with kernels/, the dispatch table and the CSVs, so parsing
is strict: a name that does not round-trip exactly is rejected with the reason.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

_NAME = re.compile(r"bm(\d+)_bn(\d+)_bk(\d+)_w(\d+)x(\d+)_sk(\d+)")
NAME_FORMAT = "bm{BLOCK_M}_bn{BLOCK_N}_bk{BLOCK_K}_w{WAVES_M}x{WAVES_N}_sk{SPLIT_K}"


class ConfigNameError(ValueError):
    """A config name that is not in the canonical form, or describes an impossible tiling."""


@dataclass(frozen=True)
class TileConfig:
    block_m: int
    block_n: int
    block_k: int
    waves_m: int
    waves_n: int
    split_k: int

    @property
    def name(self) -> str:
        return (f"bm{self.block_m}_bn{self.block_n}_bk{self.block_k}"
                f"_w{self.waves_m}x{self.waves_n}_sk{self.split_k}")

    @property
    def waves(self) -> int:
        return self.waves_m * self.waves_n

    def with_split_k(self, split_k: int) -> "TileConfig":
        return TileConfig(self.block_m, self.block_n, self.block_k,
                          self.waves_m, self.waves_n, split_k)

    def __str__(self) -> str:
        return self.name


def parse_config(name: str) -> TileConfig:
    """The TileConfig a canonical name describes; ConfigNameError says what is wrong."""
    match = _NAME.fullmatch(name)
    if match is None:
        raise ConfigNameError(f"config name {name!r} is not of the form {NAME_FORMAT}, "
                              "e.g. bm256_bn128_bk128_w2x4_sk4")
    config = TileConfig(*(int(group) for group in match.groups()))
    if config.name != name:  # leading zeros would parse but not round-trip
        raise ConfigNameError(f"config name {name!r} is not canonical; did you mean {config.name!r}?")
    _check_tiling(config)
    return config


def _check_tiling(c: TileConfig) -> None:
    problems = []
    if min(c.block_m, c.block_n, c.block_k, c.waves_m, c.waves_n, c.split_k) < 1:
        problems.append("every field must be at least 1")
    elif c.block_m % c.waves_m or c.block_n % c.waves_n:
        problems.append(f"waves {c.waves_m}x{c.waves_n} do not divide the {c.block_m}x{c.block_n} tile")
    elif c.waves > 16:
        # NOTE: a gfx942 workgroup holds at most 1024 work-items = 16 wave64s.
        problems.append(f"{c.waves} waves exceed the 16 a workgroup can hold")
    if problems:
        raise ConfigNameError(f"config name {c.name!r}: " + "; ".join(problems))
