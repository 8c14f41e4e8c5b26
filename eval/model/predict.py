"""Predicted MI300X time of one custom_kernel call: one shape, one config, one design.

    kernel = call fixed + GEMM + split-K workspace + input transpose      (device time)
    leaderboard = host overhead + kernel - call fixed + (launches - 1) * launch
    GEMM   = max(busiest CU's rounds of workgroups, cache-bandwidth floor, HBM floor)
    round  = K-tiles per workgroup * time per K-tile at that residency + fixed per round
    K-tile = max(MFMA issue / efficiency, bytes / CU port, one workgroup's latency-bound rate)

The call's fixed time (launch latency, gaps between its kernels, ramp and drain) is part of a
published kernel time, but the leaderboard's host overhead, measured on a trivial copy, already
holds one launch's latency and the wait for the GPU: that part runs under the host overhead,
not after it. Extra launches are charged to the leaderboard time only. README.md lists the
assumptions.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

from eval.model import hardware as hw
from eval.model.config_name import TileConfig
from eval.model.designs import Design
from eval.model.efficiency import Efficiency
from eval.model.kernel_facts import KernelFacts, estimate_from_tiling
from reference import contract

BLOCK_K_SCALE = contract.load()["block_k"]  # k-width of one scale block


@dataclass(frozen=True)
class Prediction:
    m: int
    n: int
    k: int
    config: str
    workgroups: int
    workgroups_per_cu: int        # occupancy
    rounds: float                 # workgroup rounds on the busiest CU (fraction = partial)
    bound: str                    # what limits a K-tile: mfma | cu-port | wg-latency
    mainloop_us: float
    floor_us: float               # max(cache re-read floor, HBM floor)
    call_fixed_us: float          # once per call; hidden under the host overhead on the leaderboard
    split_k_us: float
    transpose_us: float
    launches: int
    kernel_us: float              # device time of all launches
    leaderboard_us: float         # one timed call: kernel + host overhead + extra launches


def _k_tile_us(facts: KernelFacts, bytes_per_k_tile: int, resident: int,
               eff: Efficiency) -> tuple[float, str]:
    """Time for `resident` workgroups on one CU to each finish one K-tile, and its limiter."""
    clk = hw.CLOCK_HZ / 1e6  # cycles per us
    candidates = {
        "mfma": resident * facts.mfma_cycles_per_simd_per_k_tile / eff.mfma_efficiency / clk,
        "cu-port": resident * bytes_per_k_tile / eff.cu_bytes_per_clk / clk,
        "wg-latency": bytes_per_k_tile / eff.wg_bytes_per_clk / clk,
    }
    bound = max(candidates, key=candidates.get)
    return candidates[bound], bound


def _mainloop_us(m: int, n: int, k: int, c: TileConfig, facts: KernelFacts,
                 eff: Efficiency) -> tuple[float, float, str, int]:
    """Busiest CU's time over its workgroups: rounds of `occupancy` resident at once."""
    occupancy = facts.workgroups_per_cu
    if occupancy < 1:
        raise ValueError(f"{c.name}: a workgroup needs {facts.lds_bytes} B LDS and "
                         f"{facts.vgprs_per_lane} VGPRs/lane; it does not fit on one CU")
    workgroups = math.ceil(m / c.block_m) * math.ceil(n / c.block_n) * c.split_k
    k_tiles = math.ceil(math.ceil(k / c.block_k) / c.split_k)
    scale_bytes = 4 * (c.block_m + math.ceil(c.block_n / BLOCK_K_SCALE)) * c.block_k // BLOCK_K_SCALE
    bytes_per_k_tile = (c.block_m + c.block_n) * c.block_k + scale_bytes
    # NOTE: the dispatcher spreads workgroups over all CUs first, so the busiest CU gets
    # ceil(workgroups / CUs); 305 one-per-CU workgroups take two full rounds (tail effect).
    on_busiest_cu = math.ceil(workgroups / hw.NUM_CUS)
    full_rounds, rest = divmod(on_busiest_cu, occupancy)
    total, bound = 0.0, "mfma"
    for resident, count in ((occupancy, full_rounds), (rest, 1 if rest else 0)):
        if count:
            per_tile, bound = _k_tile_us(facts, bytes_per_k_tile, resident, eff)
            total += count * (k_tiles * per_tile + eff.round_fixed_us)
    return total, on_busiest_cu / occupancy, bound, workgroups


def _floor_us(m: int, n: int, k: int, c: TileConfig) -> float:
    """Whole-GPU floors: re-reads from the Infinity Cache, compulsory HBM traffic, FP8 peak."""
    out_bytes = 2 * m * n
    # A is re-read once per N-tile column, B once per M-tile row.
    reread = m * k * math.ceil(n / c.block_n) + n * k * math.ceil(m / c.block_m) + out_bytes
    compulsory = m * k + n * k + out_bytes
    sol = contract.load()["speed_of_light"]
    return max(reread / hw.INFINITY_CACHE_BYTES_PER_S, compulsory / hw.HBM_MEASURED_BYTES_PER_S,
               2 * m * n * k / float(sol["fp8_flops_per_s"])) * 1e6


def predict(m: int, n: int, k: int, config: TileConfig, design: Design, eff: Efficiency,
            facts: KernelFacts | None = None) -> Prediction:
    """Predicted time of one call computing an m x n x k product with `config`."""
    facts = facts or estimate_from_tiling(config, design.mfma_kind, design.lds_pad_bytes)
    mainloop, rounds, bound, workgroups = _mainloop_us(m, n, k, config, facts, eff)
    floor = _floor_us(m, n, k, config)
    launches = 1
    split_k = 0.0
    if config.split_k > 1:
        # fp32 partials written by the GEMM and read back by the reduction (a kernel of its
        # own, or the last workgroup to finish a tile) that writes bf16 C; the workspace
        # round-trips through memory at measured HBM rate.
        workspace = 2 * 4 * m * n * config.split_k + 2 * m * n
        split_k = workspace / hw.HBM_MEASURED_BYTES_PER_S * 1e6
        launches += design.split_k_reduction_launches
    transpose = 0.0
    if design.transposes_inputs:
        transpose = 2 * (m * k + n * k) / hw.HBM_MEASURED_BYTES_PER_S * 1e6
        launches += 1
    kernel = eff.call_fixed_us + max(mainloop, floor) + split_k + transpose
    host = hw.host_overhead_us()
    leaderboard = host + kernel - min(eff.call_fixed_us, host) + (launches - 1) * eff.launch_us
    return Prediction(m, n, k, config.name, workgroups, facts.workgroups_per_cu, rounds, bound,
                      mainloop, floor, eff.call_fixed_us, split_k, transpose, launches, kernel,
                      leaderboard)
