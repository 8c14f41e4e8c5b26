"""The per-shape table: which config runs each published shape, keyed by canonical names.

One row per shape (m, n, k) of the 18 benchmarks and 11 tests; any other shape takes the
general path (kernels/select.py). Rows are the predictor's picks (eval/predict: the lowest
predicted leaderboard time, not measured); regenerate them with the command beside each.
"""
from __future__ import annotations

from kernels.config import Config

SHAPE_TABLE: dict[str, dict[tuple[int, int, int], str]] = {
    "v0_naive": {},
    "v1_lds_mfma": {},
    "v2_swizzle_splitk": {  # `python -m eval.predict.tune --variant v2_swizzle_splitk`
        (1024, 1536, 7168): "bm128_bn128_bk128_w2x4_sk3",  # predicted 43.1 us
        (1024, 3072, 1536): "bm128_bn128_bk128_w2x4_sk3",  # predicted 29.1 us
        (1024, 576, 7168): "bm128_bn128_bk128_w2x4_sk6",  # predicted 29.3 us
        (1024, 7168, 256): "bm64_bn128_bk128_w1x4_sk1",  # predicted 21.9 us
        (1024, 7168, 2048): "bm128_bn128_bk128_w2x4_sk2",  # predicted 55.6 us
        (1024, 4608, 7168): "bm128_bn128_bk128_w2x4_sk1",  # predicted 98.7 us
        (1024, 7168, 2304): "bm128_bn128_bk128_w2x4_sk2",  # predicted 60.2 us
        (1024, 512, 7168): "bm128_bn128_bk128_w2x4_sk8",  # predicted 24.9 us
        (1024, 4096, 512): "bm128_bn128_bk128_w2x4_sk1",  # predicted 20.8 us
        (6144, 1536, 7168): "bm128_bn128_bk128_w2x4_sk1",  # predicted 186.5 us
        (6144, 3072, 1536): "bm128_bn128_bk128_w2x4_sk1",  # predicted 95.2 us
        (6144, 576, 7168): "bm128_bn128_bk128_w2x4_sk6",  # predicted 92.8 us
        (6144, 7168, 256): "bm128_bn128_bk128_w2x4_sk1",  # predicted 62.9 us
        (6144, 7168, 2048): "bm128_bn128_bk128_w2x4_sk1",  # predicted 253.0 us
        (6144, 4608, 7168): "bm128_bn128_bk128_w2x4_sk1",  # predicted 534.8 us
        (6144, 7168, 2304): "bm128_bn128_bk128_w2x4_sk1",  # predicted 280.2 us
        (6144, 512, 7168): "bm128_bn128_bk128_w2x4_sk3",  # predicted 74.4 us
        (6144, 4096, 512): "bm128_bn128_bk128_w2x4_sk1",  # predicted 64.1 us
        (64, 64, 128): "bm64_bn128_bk128_w1x4_sk1",  # predicted 15.9 us
        (64, 1536, 7168): "bm64_bn128_bk128_w1x4_sk8",  # predicted 23.9 us
        (64, 3072, 1536): "bm64_bn128_bk128_w1x4_sk6",  # predicted 17.0 us
        (64, 576, 7168): "bm64_bn128_bk128_w1x4_sk8",  # predicted 23.9 us
        (96, 7168, 256): "bm64_bn128_bk128_w1x4_sk2",  # predicted 15.6 us
        (96, 7168, 2048): "bm128_bn128_bk128_w2x4_sk4",  # predicted 20.5 us
        (96, 4608, 7168): "bm128_bn128_bk128_w2x4_sk8",  # predicted 25.1 us
        (128, 7168, 2304): "bm128_bn128_bk128_w2x4_sk4",  # predicted 21.9 us
        (128, 512, 7168): "bm64_bn128_bk128_w1x4_sk8",  # predicted 23.9 us
        (512, 4096, 512): "bm128_bn128_bk128_w2x4_sk2",  # predicted 17.5 us
        (512, 1536, 7168): "bm128_bn128_bk128_w2x4_sk6",  # predicted 29.6 us
    },
    "v3_twoblock_xcd": {  # `python -m eval.predict.tune --variant v3_twoblock_xcd`
        (1024, 1536, 7168): "bm128_bn128_bk128_w2x2_sk6",  # predicted 48.7 us
        (1024, 3072, 1536): "bm128_bn128_bk128_w2x2_sk3",  # predicted 29.1 us
        (1024, 576, 7168): "bm128_bn128_bk128_w2x2_sk8",  # predicted 39.0 us
        (1024, 7168, 256): "bm128_bn128_bk128_w2x2_sk1",  # predicted 23.3 us
        (1024, 7168, 2048): "bm128_bn128_bk128_w2x2_sk4",  # predicted 62.0 us
        (1024, 4608, 7168): "bm128_bn128_bk128_w2x2_sk2",  # predicted 108.8 us
        (1024, 7168, 2304): "bm128_bn128_bk128_w2x2_sk6",  # predicted 70.0 us
        (1024, 512, 7168): "bm128_bn128_bk128_w2x2_sk8",  # predicted 35.1 us
        (1024, 4096, 512): "bm128_bn128_bk128_w2x2_sk2",  # predicted 22.2 us
        (6144, 1536, 7168): "bm128_bn128_bk128_w2x2_sk1",  # predicted 202.6 us
        (6144, 3072, 1536): "bm128_bn128_bk128_w2x2_sk1",  # predicted 99.9 us
        (6144, 576, 7168): "bm128_bn128_bk128_w2x2_sk8",  # predicted 104.9 us
        (6144, 7168, 256): "bm128_bn128_bk128_w2x2_sk1",  # predicted 59.4 us
        (6144, 7168, 2048): "bm128_bn128_bk128_w2x2_sk1",  # predicted 262.4 us
        (6144, 4608, 7168): "bm128_bn128_bk128_w2x2_sk4",  # predicted 565.1 us
        (6144, 7168, 2304): "bm128_bn128_bk128_w2x2_sk1",  # predicted 291.8 us
        (6144, 512, 7168): "bm128_bn128_bk128_w2x2_sk3",  # predicted 78.8 us
        (6144, 4096, 512): "bm128_bn128_bk128_w2x2_sk2",  # predicted 63.4 us
        (64, 64, 128): "bm64_bn128_bk128_w1x4_sk1",  # predicted 17.2 us
        (64, 1536, 7168): "bm64_bn128_bk128_w1x4_sk8",  # predicted 32.2 us
        (64, 3072, 1536): "bm64_bn128_bk128_w1x4_sk6",  # predicted 19.5 us
        (64, 576, 7168): "bm64_bn128_bk128_w1x4_sk8",  # predicted 32.2 us
        (96, 7168, 256): "bm64_bn128_bk128_w1x4_sk2",  # predicted 16.9 us
        (96, 7168, 2048): "bm128_bn128_bk128_w2x2_sk8",  # predicted 22.9 us
        (96, 4608, 7168): "bm64_bn128_bk128_w1x4_sk8",  # predicted 32.8 us
        (128, 7168, 2304): "bm128_bn128_bk128_w2x2_sk6",  # predicted 25.7 us
        (128, 512, 7168): "bm64_bn128_bk128_w1x4_sk8",  # predicted 32.2 us
        (512, 4096, 512): "bm128_bn128_bk128_w2x2_sk2",  # predicted 20.6 us
        (512, 1536, 7168): "bm128_bn128_bk128_w2x2_sk8",  # predicted 39.0 us
    },
}


def table_configs(variant: str) -> dict[tuple[int, int, int], Config]:
    """The variant's table with names resolved to Configs."""
    return {shape: Config.parse(variant, name) for shape, name in SHAPE_TABLE[variant].items()}
