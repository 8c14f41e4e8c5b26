"""The repo's kernels under the predictor: a packed variant built once with the tiles asked
for, and the predicted time of any (shape, tile, split-K) on it. Calibration times its
stand-ins with this, tuning ranks configs with it."""
from __future__ import annotations

import functools
import importlib.util
import tempfile
from dataclasses import dataclass
from pathlib import Path

import torch.utils.cpp_extension

from eval.predict import call_us, predict
from kernels import config as configs
from kernels import pack
from reference.task import generate_input

_SEED = 1


@dataclass(frozen=True)
class Timed:
    """One (shape, config) prediction: its kernels, whose sum the published kernel times match."""
    config: str
    kernels: tuple[dict, ...]

    def kernel_only_us(self, kernel_fixed_us: float) -> float:
        return sum(k["kernel_us"] + kernel_fixed_us for k in self.kernels)

    def call_us(self, constants: dict) -> float:
        return call_us(list(self.kernels), constants)


class PackedVariant:
    """`variant` packed with `tiles` and built for the ISA engine (cached by content)."""

    def __init__(self, variant: str, tiles: list[str]):
        import isa_engine

        self.variant, self.tiles = variant, list(tiles)
        self.instances = configs.instances(variant, self.tiles)
        directory = Path(tempfile.mkdtemp(prefix="predict_"))
        path = directory / f"packed_{variant}.py"
        path.write_text(pack.submission(variant, self.tiles))
        original = torch.utils.cpp_extension.load_inline
        torch.utils.cpp_extension.load_inline = isa_engine.load_inline
        try:
            spec = importlib.util.spec_from_file_location(path.stem, path)
            self.module = importlib.util.module_from_spec(spec)
            spec.loader.exec_module(self.module)
        finally:
            torch.utils.cpp_extension.load_inline = original

    def candidates(self, k: int) -> list[configs.Config]:
        """Every tile x split-K the variant offers, each split with at least one K-tile."""
        return [cfg for cfg in configs.candidates(self.variant, self.tiles) if cfg.split_k <= k // cfg.block_k]

    def time(self, m: int, n: int, k: int, cfg: configs.Config, settings: dict) -> Timed:
        index = [c.name for c in self.instances].index(cfg.instance.name)
        self.module._TABLE[(m, n, k)] = (index, cfg.split_k)
        data = _input(m, n, k)
        prediction, _ = predict(lambda: self.module.custom_kernel(data), settings)
        return Timed(cfg.name, tuple(prediction.kernels))


@functools.lru_cache(maxsize=4)
def _input(m: int, n: int, k: int):
    return generate_input(m, n, k, _SEED, device="cpu")
