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
        (1024, 1536, 7168): "bm64_bn128_bk128_w1x4_sk3",  # predicted 55.2 us
        (1024, 3072, 1536): "bm128_bn128_bk128_w2x4_sk3",  # predicted 38.4 us
        (1024, 576, 7168): "bm128_bn128_bk128_w2x4_sk6",  # predicted 38.0 us
        (1024, 7168, 256): "bm64_bn128_bk128_w1x4_sk1",  # predicted 25.3 us
        (1024, 7168, 2048): "bm128_bn128_bk128_w2x4_sk2",  # predicted 74.6 us
        (1024, 4608, 7168): "bm128_bn128_bk128_w2x4_sk1",  # predicted 134.1 us
        (1024, 7168, 2304): "bm128_bn128_bk128_w2x4_sk2",  # predicted 81.0 us
        (1024, 512, 7168): "bm128_bn128_bk128_w2x4_sk8",  # predicted 32.1 us
        (1024, 4096, 512): "bm128_bn128_bk128_w2x4_sk1",  # predicted 24.4 us
        (6144, 1536, 7168): "bm64_bn128_bk128_w1x4_sk1",  # predicted 242.1 us
        (6144, 3072, 1536): "bm128_bn128_bk128_w2x4_sk1",  # predicted 126.1 us
        (6144, 576, 7168): "bm128_bn128_bk128_w2x4_sk6",  # predicted 130.7 us
        (6144, 7168, 256): "bm128_bn128_bk128_w2x4_sk1",  # predicted 77.9 us
        (6144, 7168, 2048): "bm128_bn128_bk128_w2x4_sk1",  # predicted 364.5 us
        (6144, 4608, 7168): "bm64_bn128_bk128_w1x4_sk1",  # predicted 760.7 us
        (6144, 7168, 2304): "bm128_bn128_bk128_w2x4_sk1",  # predicted 382.0 us
        (6144, 512, 7168): "bm64_bn128_bk128_w1x4_sk3",  # predicted 101.3 us
        (6144, 4096, 512): "bm64_bn128_bk128_w1x4_sk1",  # predicted 78.5 us
        (64, 64, 128): "bm64_bn128_bk128_w1x4_sk1",  # predicted 17.6 us
        (64, 1536, 7168): "bm64_bn128_bk128_w1x4_sk8",  # predicted 30.5 us
        (64, 3072, 1536): "bm64_bn128_bk128_w1x4_sk6",  # predicted 20.4 us
        (64, 576, 7168): "bm64_bn128_bk128_w1x4_sk8",  # predicted 30.1 us
        (96, 7168, 256): "bm64_bn128_bk128_w1x4_sk2",  # predicted 18.5 us
        (96, 7168, 2048): "bm128_bn128_bk128_w2x4_sk4",  # predicted 25.1 us
        (96, 4608, 7168): "bm128_bn128_bk128_w2x4_sk8",  # predicted 31.7 us
        (128, 7168, 2304): "bm128_bn128_bk128_w2x4_sk4",  # predicted 27.2 us
        (128, 512, 7168): "bm64_bn128_bk128_w1x4_sk8",  # predicted 30.7 us
        (512, 4096, 512): "bm128_bn128_bk128_w2x4_sk2",  # predicted 21.2 us
        (512, 1536, 7168): "bm64_bn128_bk128_w1x4_sk6",  # predicted 38.9 us
    },
    "v3_twoblock_xcd": {  # `python -m eval.predict.tune --variant v3_twoblock_xcd`
        (1024, 1536, 7168): "bm128_bn128_bk128_w2x2_sk6",  # predicted 55.8 us
        (1024, 3072, 1536): "bm128_bn128_bk128_w2x2_sk3",  # predicted 34.6 us
        (1024, 576, 7168): "bm128_bn128_bk128_w2x2_sk8",  # predicted 45.3 us
        (1024, 7168, 256): "bm128_bn128_bk128_w2x2_sk1",  # predicted 24.1 us
        (1024, 7168, 2048): "bm128_bn128_bk128_w2x2_sk4",  # predicted 68.5 us
        (1024, 4608, 7168): "bm128_bn128_bk128_w2x2_sk2",  # predicted 126.3 us
        (1024, 7168, 2304): "bm128_bn128_bk128_w2x2_sk4",  # predicted 83.2 us
        (1024, 512, 7168): "bm64_bn128_bk128_w1x4_sk8",  # predicted 38.4 us
        (1024, 4096, 512): "bm128_bn128_bk128_w2x2_sk2",  # predicted 25.8 us
        (6144, 1536, 7168): "bm128_bn128_bk128_w2x2_sk1",  # predicted 237.6 us
        (6144, 3072, 1536): "bm128_bn128_bk128_w2x2_sk1",  # predicted 116.7 us
        (6144, 576, 7168): "bm128_bn128_bk128_w2x2_sk2",  # predicted 114.0 us
        (6144, 7168, 256): "bm128_bn128_bk128_w2x2_sk1",  # predicted 62.8 us
        (6144, 7168, 2048): "bm128_bn128_bk128_w2x2_sk1",  # predicted 301.0 us
        (6144, 4608, 7168): "bm128_bn128_bk128_w2x2_sk4",  # predicted 688.4 us
        (6144, 7168, 2304): "bm128_bn128_bk128_w2x2_sk1",  # predicted 330.8 us
        (6144, 512, 7168): "bm128_bn128_bk128_w2x2_sk3",  # predicted 91.6 us
        (6144, 4096, 512): "bm128_bn128_bk128_w2x2_sk1",  # predicted 75.8 us
        (64, 64, 128): "bm64_bn128_bk128_w1x4_sk1",  # predicted 18.2 us
        (64, 1536, 7168): "bm64_bn128_bk128_w1x4_sk8",  # predicted 34.3 us
        (64, 3072, 1536): "bm64_bn128_bk128_w1x4_sk6",  # predicted 21.6 us
        (64, 576, 7168): "bm64_bn128_bk128_w1x4_sk8",  # predicted 33.9 us
        (96, 7168, 256): "bm64_bn128_bk128_w1x4_sk2",  # predicted 19.0 us
        (96, 7168, 2048): "bm128_bn128_bk128_w2x2_sk8",  # predicted 24.1 us
        (96, 4608, 7168): "bm64_bn128_bk128_w1x4_sk8",  # predicted 35.7 us
        (128, 7168, 2304): "bm128_bn128_bk128_w2x2_sk6",  # predicted 26.7 us
        (128, 512, 7168): "bm64_bn128_bk128_w1x4_sk8",  # predicted 34.6 us
        (512, 4096, 512): "bm128_bn128_bk128_w2x2_sk4",  # predicted 22.2 us
        (512, 1536, 7168): "bm128_bn128_bk128_w2x2_sk8",  # predicted 44.7 us
    },
}


def table_configs(variant: str) -> dict[tuple[int, int, int], Config]:
    """The variant's table with names resolved to Configs."""
    return {shape: Config.parse(variant, name) for shape, name in SHAPE_TABLE[variant].items()}
