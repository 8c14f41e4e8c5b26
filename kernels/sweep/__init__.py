"""Our own configuration sweep: the instances of kernels/sweep/fp8_mm_sweep.hip, as
canonical names, and one submission-style module that builds any list of them at once.

    python -m kernels.sweep --list                         # the configurations
    python -m kernels.sweep --out build/sweep.py [NAME ...]  # a submission of them (all by default)

A name spells every template argument: `bm256_bn128_bk128_w2x2_mfma32_d1` is a 256x128 tile,
128 k per K-tile, 2x2 waves (256 threads), v_mfma_f32_32x32x16_fp8_fp8, pipeline depth 1
(register prefetch; 0: none, 2: two LDS stages). The generated module's `custom_kernel(data)`
runs configuration `config_index` (default 0); `run(index, data)` runs any of them.
"""
from __future__ import annotations

import hashlib
import importlib.util
import re
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Callable

import toolchain
from kernels import pack
from reference import contract

SOURCE = Path(__file__).resolve().with_name("fp8_mm_sweep.hip")
BUILD_DIR = SOURCE.parents[2] / "build" / "sweep"  # generated submissions (git-ignored)
_NAME = re.compile(r"bm(\d+)_bn(\d+)_bk(\d+)_w(\d+)x(\d+)_mfma(\d+)_d(\d+)")


@dataclass(frozen=True)
class SweepConfig:
    """One instance of fp8_mm_sweep.hip; the fields are its template arguments in order."""

    block_m: int
    block_n: int
    block_k: int
    waves_m: int
    waves_n: int
    mfma: int   # 32: v_mfma_f32_32x32x16_fp8_fp8, 16: v_mfma_f32_16x16x32_fp8_fp8
    depth: int  # 0: no prefetch, 1: register prefetch, 2: two LDS stages

    variant = "sweep"  # the launcher is launch_fp8_mm_sweep (kernels/pack.py's dispatch table)

    @property
    def name(self) -> str:
        return (f"bm{self.block_m}_bn{self.block_n}_bk{self.block_k}_w{self.waves_m}x{self.waves_n}"
                f"_mfma{self.mfma}_d{self.depth}")

    @property
    def template_args(self) -> str:
        return (f"{self.block_m}, {self.block_n}, {self.block_k}, {self.waves_m}, {self.waves_n}, "
                f"{self.mfma}, {self.depth}")

    @property
    def threads(self) -> int:
        return 64 * self.waves_m * self.waves_n

    @property
    def accumulators(self) -> int:
        """fp32 accumulators per lane: 256 fill the AGPR file."""
        return self.block_m * self.block_n // self.threads

    @classmethod
    def parse(cls, name: str) -> "SweepConfig":
        match = _NAME.fullmatch(name)
        if not match:
            raise ValueError(f"not a sweep configuration name: {name!r} (e.g. bm128_bn128_bk128_w2x2_mfma32_d1)")
        return cls(*(int(group) for group in match.groups()))


# Every tile from 64x64 to 256x128 on 1, 2, 4 and 8 waves, both MFMAs, depths 0-2, BLOCK_K 64
# and 128; 128x128 on 64 threads and 256x128 on 128 threads hold 256 accumulators per lane.
CONFIGS = tuple(SweepConfig.parse(name) for name in (
    # 64 threads
    "bm64_bn64_bk128_w1x1_mfma32_d0",
    "bm64_bn64_bk64_w1x1_mfma16_d2",
    "bm128_bn64_bk128_w1x1_mfma16_d1",
    "bm64_bn128_bk64_w1x1_mfma32_d1",
    "bm128_bn128_bk128_w1x1_mfma32_d0",
    "bm64_bn128_bk128_w1x1_mfma16_d2",
    # 128 threads
    "bm64_bn64_bk128_w2x1_mfma16_d0",
    "bm64_bn128_bk64_w1x2_mfma32_d2",
    "bm128_bn64_bk128_w2x1_mfma32_d1",
    "bm128_bn128_bk128_w2x1_mfma32_d1",
    "bm128_bn128_bk64_w1x2_mfma16_d2",
    "bm256_bn128_bk128_w2x1_mfma32_d0",
    "bm256_bn128_bk64_w2x1_mfma16_d1",
    # 256 threads
    "bm64_bn64_bk64_w2x2_mfma32_d1",
    "bm64_bn64_bk128_w2x2_mfma16_d2",
    "bm128_bn64_bk64_w2x2_mfma16_d0",
    "bm128_bn128_bk128_w2x2_mfma16_d0",
    "bm128_bn128_bk128_w2x2_mfma32_d1",
    "bm128_bn128_bk64_w2x2_mfma32_d2",
    "bm256_bn128_bk128_w2x2_mfma32_d1",
    "bm256_bn128_bk64_w2x2_mfma16_d2",
    "bm256_bn128_bk128_w4x1_mfma16_d0",
    # 512 threads
    "bm64_bn64_bk128_w4x2_mfma16_d1",
    "bm64_bn128_bk64_w2x4_mfma16_d0",
    "bm128_bn128_bk128_w4x2_mfma32_d0",
    "bm128_bn128_bk64_w2x4_mfma16_d2",
    "bm256_bn128_bk128_w4x2_mfma16_d1",
    "bm256_bn128_bk64_w4x2_mfma32_d2",
))

# A few that together cover every block size, both MFMAs, every depth, both BLOCK_K and a
# full AGPR file: what the default test suite runs on both engines.
REPRESENTATIVE = tuple(SweepConfig.parse(name) for name in (
    "bm256_bn128_bk128_w2x2_mfma32_d1",
    "bm128_bn128_bk64_w1x2_mfma16_d2",
    "bm128_bn128_bk128_w1x1_mfma32_d0",
    "bm64_bn64_bk128_w4x2_mfma16_d1",
))


def by_name(names: list[str]) -> list[SweepConfig]:
    """The configurations called `names`, each of which must be in CONFIGS."""
    known = {cfg.name: cfg for cfg in CONFIGS}
    unknown = [name for name in names if name not in known]
    if unknown:
        raise ValueError(f"not sweep configurations: {', '.join(unknown)} (python -m kernels.sweep --list)")
    return [known[name] for name in names]


def hip_source(configs: list[SweepConfig]) -> str:
    """The common headers, the kernel, a dispatch table over `configs` and the binding."""
    return pack.assemble(SOURCE, configs)


def submission(configs: list[SweepConfig]) -> str:
    """A submission-style module building every configuration in one load_inline call."""
    return pack.generated_file("python -m kernels.sweep", "kernels/sweep/ (our configuration sweep)",
                               "fp8_mm_sweep", hip_source(configs), _TAIL.format(names=tuple(cfg.name for cfg in configs)))


def load(configs: list[SweepConfig], load_inline: Callable, directory: Path = BUILD_DIR) -> ModuleType:
    """The submission of `configs` imported with `load_inline` (an engine's drop-in, e.g.
    engines.source.load_inline or engines.isa.load_inline) building it. The file is written under
    `directory` with its content hash in its name: the ISA engine's build cache keys on the
    submission's path (its #line directives), so one path per content keeps builds cached."""
    import torch.utils.cpp_extension

    text = submission(configs)
    path = directory / f"fp8_mm_sweep_{hashlib.sha256(text.encode()).hexdigest()[:16]}.py"
    directory.mkdir(parents=True, exist_ok=True)
    if not path.exists():
        path.write_text(text)
    saved = torch.utils.cpp_extension.load_inline
    torch.utils.cpp_extension.load_inline = load_inline
    try:
        spec = importlib.util.spec_from_file_location(f"{path.stem}_{load_inline.__module__.replace('.', '_')}", path)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
    finally:
        torch.utils.cpp_extension.load_inline = saved
    return module


# After pack's head (the build): the configurations, picked by index.
_TAIL = '''
CONFIG_NAMES = {names!r}
config_index = 0  # the configuration custom_kernel runs
_NO_SPLIT_K = {{}}


def run(index, data):
    """Configuration CONFIG_NAMES[index] on (a, b, a_scale, b_scale, c); returns c."""
    a, b, a_scale, b_scale, c = data
    if c.device not in _NO_SPLIT_K:  # the binding's split-K workspace and counters, unused here
        _NO_SPLIT_K[c.device] = (torch.empty(0, dtype=torch.float32, device=c.device),
                                 torch.empty(0, dtype=torch.int32, device=c.device))
    workspace, counters = _NO_SPLIT_K[c.device]
    return _module.fp8_mm(a, b, a_scale, b_scale, c, workspace, counters, index, 1)


def custom_kernel(data):
    return run(config_index, data)
'''
