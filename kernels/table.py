"""The per-shape table: which config runs each published shape, keyed by canonical names.

One row per shape (m, n, k) of the 18 benchmarks and 11 tests; any other shape takes the
general path (kernels/select.py). Rows are the predictor's picks (predictor/: the lowest
predicted leaderboard time, not measured); regenerate them with the command beside each.
"""
from __future__ import annotations

from kernels.config import Config

SHAPE_TABLE: dict[str, dict[tuple[int, int, int], str]] = {
    "v0_naive": {},
    "v1_lds_mfma": {},
    "v2_swizzle_splitk": {  # `python -m predictor.tune --variant v2_swizzle_splitk`
        (1024, 1536, 7168): "bm128_bn128_bk128_w2x4_sk3",  # predicted 54.6 us
        (1024, 3072, 1536): "bm128_bn128_bk128_w2x4_sk3",  # predicted 36.4 us
        (1024, 576, 7168): "bm128_bn128_bk128_w2x4_sk6",  # predicted 37.1 us
        (1024, 7168, 256): "bm64_bn128_bk128_w1x4_sk1",  # predicted 25.6 us
        (1024, 7168, 2048): "bm128_bn128_bk128_w2x4_sk2",  # predicted 71.5 us
        (1024, 4608, 7168): "bm128_bn128_bk128_w2x4_sk1",  # predicted 126.9 us
        (1024, 7168, 2304): "bm128_bn128_bk128_w2x4_sk2",  # predicted 77.4 us
        (1024, 512, 7168): "bm128_bn128_bk128_w2x4_sk8",  # predicted 30.6 us
        (1024, 4096, 512): "bm128_bn128_bk128_w2x4_sk1",  # predicted 24.2 us
        (6144, 1536, 7168): "bm128_bn128_bk128_w2x4_sk1",  # predicted 241.4 us
        (6144, 3072, 1536): "bm128_bn128_bk128_w2x4_sk1",  # predicted 119.5 us
        (6144, 576, 7168): "bm128_bn128_bk128_w2x4_sk6",  # predicted 124.4 us
        (6144, 7168, 256): "bm128_bn128_bk128_w2x4_sk1",  # predicted 73.0 us
        (6144, 7168, 2048): "bm128_bn128_bk128_w2x4_sk1",  # predicted 323.1 us
        (6144, 4608, 7168): "bm128_bn128_bk128_w2x4_sk1",  # predicted 696.3 us
        (6144, 7168, 2304): "bm128_bn128_bk128_w2x4_sk1",  # predicted 358.8 us
        (6144, 512, 7168): "bm64_bn128_bk128_w1x4_sk3",  # predicted 95.8 us
        (6144, 4096, 512): "bm64_bn128_bk128_w1x4_sk1",  # predicted 76.9 us
        (64, 64, 128): "bm64_bn128_bk128_w1x4_sk1",  # predicted 17.9 us
        (64, 1536, 7168): "bm64_bn128_bk128_w1x4_sk8",  # predicted 29.9 us
        (64, 3072, 1536): "bm64_bn128_bk128_w1x4_sk6",  # predicted 20.5 us
        (64, 576, 7168): "bm64_bn128_bk128_w1x4_sk8",  # predicted 30.4 us
        (96, 7168, 256): "bm64_bn128_bk128_w1x4_sk2",  # predicted 18.6 us
        (96, 7168, 2048): "bm128_bn128_bk128_w2x4_sk4",  # predicted 24.8 us
        (96, 4608, 7168): "bm128_bn128_bk128_w2x4_sk8",  # predicted 30.9 us
        (128, 7168, 2304): "bm128_bn128_bk128_w2x4_sk4",  # predicted 26.8 us
        (128, 512, 7168): "bm64_bn128_bk128_w1x4_sk8",  # predicted 30.1 us
        (512, 4096, 512): "bm128_bn128_bk128_w2x4_sk2",  # predicted 21.0 us
        (512, 1536, 7168): "bm128_bn128_bk128_w2x4_sk6",  # predicted 36.9 us
    },
    "v3_twoblock_xcd": {  # `python -m predictor.tune --variant v3_twoblock_xcd`
        (1024, 1536, 7168): "bm128_bn128_bk128_w2x2_sk6",  # predicted 52.8 us
        (1024, 3072, 1536): "bm128_bn128_bk128_w2x2_sk3",  # predicted 33.7 us
        (1024, 576, 7168): "bm128_bn128_bk128_w2x2_sk8",  # predicted 43.9 us
        (1024, 7168, 256): "bm128_bn128_bk128_w2x2_sk1",  # predicted 23.9 us
        (1024, 7168, 2048): "bm128_bn128_bk128_w2x2_sk1",  # predicted 63.8 us
        (1024, 4608, 7168): "bm128_bn128_bk128_w2x2_sk2",  # predicted 121.4 us
        (1024, 7168, 2304): "bm128_bn128_bk128_w2x2_sk1",  # predicted 69.6 us
        (1024, 512, 7168): "bm64_bn128_bk128_w1x4_sk8",  # predicted 37.9 us
        (1024, 4096, 512): "bm128_bn128_bk128_w2x2_sk2",  # predicted 24.8 us
        (6144, 1536, 7168): "bm128_bn128_bk128_w2x2_sk1",  # predicted 200.6 us
        (6144, 3072, 1536): "bm128_bn128_bk128_w2x2_sk1",  # predicted 107.4 us
        (6144, 576, 7168): "bm128_bn128_bk128_w2x2_sk4",  # predicted 119.1 us
        (6144, 7168, 256): "bm128_bn128_bk128_w2x2_sk1",  # predicted 60.2 us
        (6144, 7168, 2048): "bm128_bn128_bk128_w2x2_sk1",  # predicted 280.9 us
        (6144, 4608, 7168): "bm128_bn128_bk128_w2x2_sk4",  # predicted 627.2 us
        (6144, 7168, 2304): "bm128_bn128_bk128_w2x2_sk1",  # predicted 311.4 us
        (6144, 512, 7168): "bm128_bn128_bk128_w2x2_sk3",  # predicted 81.7 us
        (6144, 4096, 512): "bm128_bn128_bk128_w2x2_sk1",  # predicted 71.2 us
        (64, 64, 128): "bm64_bn128_bk128_w1x4_sk1",  # predicted 18.5 us
        (64, 1536, 7168): "bm64_bn128_bk128_w1x4_sk8",  # predicted 33.7 us
        (64, 3072, 1536): "bm64_bn128_bk128_w1x4_sk6",  # predicted 21.6 us
        (64, 576, 7168): "bm64_bn128_bk128_w1x4_sk8",  # predicted 34.1 us
        (96, 7168, 256): "bm64_bn128_bk128_w1x4_sk2",  # predicted 19.2 us
        (96, 7168, 2048): "bm128_bn128_bk128_w2x2_sk8",  # predicted 24.4 us
        (96, 4608, 7168): "bm64_bn128_bk128_w1x4_sk8",  # predicted 33.8 us
        (128, 7168, 2304): "bm128_bn128_bk128_w2x2_sk6",  # predicted 26.8 us
        (128, 512, 7168): "bm64_bn128_bk128_w1x4_sk8",  # predicted 34.0 us
        (512, 4096, 512): "bm128_bn128_bk128_w2x2_sk4",  # predicted 22.4 us
        (512, 1536, 7168): "bm128_bn128_bk128_w2x2_sk8",  # predicted 43.2 us
    },
}


def table_configs(variant: str) -> dict[tuple[int, int, int], Config]:
    """The variant's table with names resolved to Configs."""
    return {shape: Config.parse(variant, name) for shape, name in SHAPE_TABLE[variant].items()}
