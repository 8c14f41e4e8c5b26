"""The general path: a config for any shape (m >= 1, n >= 1, k a multiple of 128).

This file is inlined verbatim into packed submissions, so it imports nothing and holds only
the rule; the per-shape table (kernels/table.py) names the configs of the ranked shapes.
The rule is a coarse cycle estimate, good enough to avoid idle CUs and needless split-K.
"""
import math

NUM_CUS = 304                # NOTE: MI300X compute units (8 XCDs x 38)
FP8_FLOP_PER_CLK_CU = 4096   # NOTE: dense fp8 MFMA rate of one CU
L2_BYTES_PER_CLK_CU = 64     # NOTE: L2 -> CU fill bandwidth
HBM_BYTES_PER_CLK = 2000     # NOTE: about 4.2 TB/s measured, at 2.1 GHz
K_TILE_OVERHEAD_CLK = 300    # barriers, scale math and LDS round trips per K-tile


def estimate_clk(m, n, k, block_m, block_n, blocks_per_cu, split_k):
    """Rough kernel time in clocks for one tile shape and split-K factor."""
    k_tiles = k // 128
    out_tiles = math.ceil(m / block_m) * math.ceil(n / block_n)
    rounds = math.ceil(out_tiles * split_k / (NUM_CUS * blocks_per_cu))
    compute = 2 * block_m * block_n * 128 * blocks_per_cu / FP8_FLOP_PER_CLK_CU
    loads = (block_m + block_n) * 128 * blocks_per_cu / L2_BYTES_PER_CLK_CU
    per_k_tile = max(compute, loads) + K_TILE_OVERHEAD_CLK
    main_loop = rounds * math.ceil(k_tiles / split_k) * per_k_tile
    reduction = 0 if split_k == 1 else 2 * split_k * m * n * 4 / HBM_BYTES_PER_CLK
    return main_loop + reduction


def general_config(m, n, k, tiles, split_choices):
    """(index into tiles, split_k) with the lowest estimate; tiles are (block_m, block_n,
    blocks_per_cu) of the compiled instances."""
    best = None
    for index, (block_m, block_n, blocks_per_cu) in enumerate(tiles):
        for split_k in split_choices:
            if split_k > k // 128:
                continue
            clk = estimate_clk(m, n, k, block_m, block_n, blocks_per_cu, split_k)
            if best is None or clk < best[0]:
                best = (clk, index, split_k)
    return best[1], best[2]
