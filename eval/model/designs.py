"""Kernel designs the model knows: how a variant launches, and its candidate configs.

A design is what the model needs beyond a tile config: the MFMA it issues, whether the call
first transposes A and B in a separate kernel, and the configs a per-shape pick chooses from.
Variants of kernels/ (`kernels/fp8_mm_<variant>.hip`) become designs in `eval.model.variants`.
"""
from __future__ import annotations

from dataclasses import dataclass

from eval.model.config_name import TileConfig, parse_config
from eval.model.kernel_facts import DEFAULT_LDS_PAD_BYTES

SPLIT_KS = (1, 2, 4, 8)


@dataclass(frozen=True)
class Design:
    name: str
    candidates: tuple[str, ...]          # canonical config names
    mfma_kind: str = "16x16x32"
    transposes_inputs: bool = False      # a separate kernel writes K-contiguous copies of A, B
    lds_pad_bytes: int = DEFAULT_LDS_PAD_BYTES
    split_k_reduction_launches: int = 1  # 0: the last workgroup of a tile reduces in-kernel
    summary: str = ""

    def configs(self) -> list[TileConfig]:
        return [parse_config(name) for name in self.candidates]


def _with_split_ks(tile: str) -> tuple[str, ...]:
    return tuple(f"{tile}_sk{split}" for split in SPLIT_KS)


# The #1 solution's design as its write-up describes it (anchors.md): 256x128x128 tiles,
# 8 waves (2x4), 16x16x32 MFMA, rows padded 8 bytes, a separate transpose of A and B,
# one tile config for all shapes with split-K 1/2/4/8 chosen per shape.
WINNER = Design(
    name="winner",
    candidates=_with_split_ks("bm256_bn128_bk128_w2x4"),
    transposes_inputs=True,
    summary="#1 (RadeonFlow) design: one 256x128x128 tile, split-K per shape, pre-transpose",
)

# AMD CK's block-scale GEMM as tuned in anchors.md: per-shape tiles, inputs already
# K-contiguous ("no transposes"). Assumed: CK's usual 256-thread block-scale tiles and its
# k-batch (split-K) of 1, 2 or 4; the published numbers do not say which were used.
CK = Design(
    name="ck",
    candidates=tuple(f"bm{bm}_bn{bn}_bk128_w2x2_sk{split}"
                     for bm, bn in ((256, 256), (256, 128), (128, 256), (128, 128),
                                    (128, 64), (64, 128), (64, 64))
                     for split in (1, 2, 4)),
    transposes_inputs=False,
    lds_pad_bytes=0,
    summary="AMD CK block-scale GEMM: per-shape tile and k-batch, no transposes",
)

DESIGNS = {design.name: design for design in (WINNER, CK)}
