"""Kernel facts read from the compiled gfx942 ISA of a kernels/ variant (eval.isa.report).

Compiling a variant takes a few seconds, so reports are cached per file content. Each tile of
`kernels.config.instances(variant)` maps to the kernel whose template arguments it carries;
where a tile has several kernels (an aligned fast path and a general one) the model takes the
one with the shortest hot loop, the path the aligned benchmark shapes run.
"""
from __future__ import annotations

import functools
import hashlib
import math
from pathlib import Path

from eval.model import hardware as hw
from eval.model.kernel_facts import KernelFacts

ISA_SOURCE = "isa"


def variant_source(variant: str) -> Path | None:
    """kernels/fp8_mm_<variant>.hip when the kernel registry knows it and the file exists."""
    try:
        from kernels import config
    except ImportError:
        return None
    if variant not in config.VARIANTS:
        return None
    path = config.KERNEL_DIR / f"fp8_mm_{variant}.hip"
    return path if path.exists() else None


def facts_by_tile(variant: str) -> dict[str, KernelFacts]:
    """{tile name with `_sk1`: facts} for every compiled instance of the variant; empty when
    the variant has no .hip file. Raises eval.isa.CompileError if the file does not compile."""
    path = variant_source(variant)
    if path is None:
        return {}
    return _facts_for_content(variant, _content_key(path))


def _content_key(path: Path) -> str:
    """The variant file and the shared headers it includes: any edit recompiles."""
    digest = hashlib.sha256()
    for source in [path, *sorted((path.parent / "common").glob("*.h"))]:
        digest.update(source.read_bytes())
    return digest.hexdigest()


@functools.lru_cache(maxsize=None)
def _facts_for_content(variant: str, content_key: str) -> dict[str, KernelFacts]:
    from eval.isa import report
    from kernels import config

    reports = report(variant_source(variant))
    facts = {}
    for tile in config.instances(variant):
        matching = [r for r in reports if f"<{tile.template_args}>" in r.name]
        if not matching:
            raise ValueError(f"{variant}: no compiled kernel carries {tile.name}'s template "
                             f"arguments <{tile.template_args}>")
        fast = min(matching, key=lambda r: sum(r.loop_mix.values()))
        facts[tile.name] = from_report(fast)
    return facts


def from_report(r) -> KernelFacts:
    """KernelFacts of one eval.isa.KernelReport. NOTE: one iteration of the hot loop is taken
    to be one BLOCK_K step (the variants do not unroll the K loop); the CLI shows the tiling
    estimate beside it so a mismatch is visible."""
    mfmas = {kind: count for kind, count in r.loop_mix.items() if kind.startswith("mfma_")}
    if not mfmas:
        raise ValueError(f"{r.name}: the hot loop issues no MFMA; the model cannot time it")
    kind = max(mfmas, key=mfmas.get)
    shape = next((name for name, mfma in hw.MFMAS.items() if mfma.name.endswith(kind)), None)
    if shape is None:
        raise ValueError(f"{r.name}: MFMA {kind} is not one the model knows ({', '.join(hw.MFMAS)})")
    return KernelFacts(
        waves_per_workgroup=math.ceil(r.workgroup_size / 64),
        vgprs_per_lane=r.vgprs + r.agprs,
        lds_bytes=r.lds_bytes,
        mfma=hw.MFMAS[shape],
        mfmas_per_k_tile=mfmas[kind],
        source=ISA_SOURCE,
        isa_waves_per_simd=r.waves_per_simd,
    )
