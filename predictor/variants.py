"""The repo's kernels under the predictor: a packed variant built once with the tiles asked
for, and the predicted time of any (shape, tile, split-K) on it. Tuning ranks configs with it."""
from __future__ import annotations

import functools
import hashlib
import importlib.util
import os
from dataclasses import dataclass
from pathlib import Path

import torch.utils.cpp_extension

from predictor import call_us, predict
from kernels import config as configs
from kernels import pack
from reference.task import generate_input

_SEED = 1
PACKED_DIR = Path(__file__).resolve().parents[1] / "build" / "predictor"


@dataclass(frozen=True)
class Timed:
    """One (shape, config) prediction: its timed kernels."""
    config: str
    kernels: tuple[dict, ...]

    def call_us(self, constants: dict) -> float:
        return call_us(list(self.kernels), constants)


class PackedVariant:
    """`variant` packed with `tiles` and built for the ISA engine (cached by content)."""

    def __init__(self, variant: str, tiles: list[str]):
        import engines.isa

        self.variant, self.tiles = variant, list(tiles)
        self.instances = configs.instances(variant, self.tiles)
        path = packed_file(pack.submission(variant, self.tiles), variant)
        original = torch.utils.cpp_extension.load_inline
        torch.utils.cpp_extension.load_inline = engines.isa.load_inline
        try:
            spec = importlib.util.spec_from_file_location(path.stem, path)
            self.module = importlib.util.module_from_spec(spec)
            spec.loader.exec_module(self.module)
        finally:
            torch.utils.cpp_extension.load_inline = original

    def time(self, m: int, n: int, k: int, cfg: configs.Config, settings: dict) -> Timed:
        index = [c.name for c in self.instances].index(cfg.instance.name)
        self.module._TABLE[(m, n, k)] = (index, cfg.split_k)
        data = _input(m, n, k)
        prediction, _ = predict(lambda: self.module.custom_kernel(data), settings)
        return Timed(cfg.name, tuple(prediction.kernels))


def candidates(variant: str, tiles: list[str], k: int) -> list[configs.Config]:
    """Every tile x split-K the variant offers with `tiles`, each split with at least one K-tile."""
    return [cfg for cfg in configs.candidates(variant, tiles) if cfg.split_k <= k // cfg.block_k]


def packed_file(text: str, variant: str) -> Path:
    """The packed submission at a path named by its content: the ISA engine's build of it (whose
    line directives name this path) is then found in its cache by every later process."""
    path = PACKED_DIR / f"packed_{variant}_{hashlib.sha256(text.encode()).hexdigest()[:12]}.py"
    if not path.exists():
        PACKED_DIR.mkdir(parents=True, exist_ok=True)
        partial = path.with_suffix(f".{os.getpid()}.tmp")
        partial.write_text(text)
        partial.replace(path)  # atomic: parallel tasks never read half a file
    return path


@functools.lru_cache(maxsize=4)
def _input(m: int, n: int, k: int):
    return generate_input(m, n, k, _SEED, device="cpu")
