"""Behaviour of the cost model: directions and shapes of effects, never absolute timings."""
import math

import pytest

from eval.model import parse_config, pick, predict
from eval.model.designs import CK, WINNER
from eval.model.hardware import NUM_CUS, host_overhead_us
from eval.model.kernel_facts import estimate_from_tiling
from eval.model.variants import efficiency_for
from reference import contract

WINNER_EFF = efficiency_for(WINNER)
CK_EFF = efficiency_for(CK)
SHAPES = [(c.m, c.n, c.k) for c in contract.cases("benchmarks") + contract.cases("tests")]


def kernel_us(m, n, k, name, design=WINNER, eff=WINNER_EFF):
    return predict(m, n, k, parse_config(name), design, eff).kernel_us


@pytest.mark.parametrize("design, eff", [(WINNER, WINNER_EFF), (CK, CK_EFF)], ids=["winner", "ck"])
def test_more_flops_is_never_faster(design, eff):
    for config in design.configs():
        for m, n, k in SHAPES:
            base = predict(m, n, k, config, design, eff).kernel_us
            for grown in ((2 * m, n, k), (m, 2 * n, k), (m, n, 2 * k), (m + 1, n, k), (m, n, k + 128)):
                assert predict(*grown, config, design, eff).kernel_us >= base - 1e-9, (config, grown)


def test_split_k_helps_a_shape_with_few_tiles():
    # 1024x576x7168 with 256x128 tiles: 4 x 5 = 20 workgroups for 304 CUs.
    unsplit = kernel_us(1024, 576, 7168, "bm256_bn128_bk128_w2x4_sk1")
    best_split = min(kernel_us(1024, 576, 7168, f"bm256_bn128_bk128_w2x4_sk{s}") for s in (2, 4, 8))
    assert best_split < 0.5 * unsplit


def test_split_k_does_not_help_a_shape_that_fills_the_gpu():
    assert (kernel_us(6144, 7168, 2048, "bm256_bn128_bk128_w2x4_sk1")
            < kernel_us(6144, 7168, 2048, "bm256_bn128_bk128_w2x4_sk2"))


def test_one_tile_past_a_full_wave_costs_about_a_second_wave():
    name = "bm256_bn128_bk128_w2x4_sk1"
    assert estimate_from_tiling(parse_config(name)).workgroups_per_cu == 1
    full = predict(1024, 128 * NUM_CUS // 4, 7168, parse_config(name), WINNER, WINNER_EFF)
    one_more = predict(1280, 128 * 61, 7168, parse_config(name), WINNER, WINNER_EFF)
    assert (full.workgroups, one_more.workgroups) == (NUM_CUS, NUM_CUS + 1)
    assert (full.rounds, one_more.rounds) == (1, 2)
    assert 1.95 < one_more.mainloop_us / full.mainloop_us < 2.05
    # The whole call grows less (transpose and floors scale with bytes, not rounds).
    assert 1.7 < one_more.kernel_us / full.kernel_us < 2.05


def test_occupancy_follows_lds_and_registers():
    big = estimate_from_tiling(parse_config("bm256_bn128_bk128_w2x4_sk1"))
    small = estimate_from_tiling(parse_config("bm64_bn64_bk128_w2x2_sk1"))
    assert big.lds_bytes > 65536 // 2 and big.workgroups_per_cu == 1
    assert small.workgroups_per_cu > 1
    # MFMA issue: 256x128x128 is 2*256*128*128 FLOP at 4096 FLOP/clk/CU = 2048 clk per SIMD.
    assert big.mfma_cycles_per_simd_per_k_tile == 2 * 256 * 128 * 128 // 4096


def test_leaderboard_time_hides_the_call_fixed_time_under_the_host_overhead():
    one = predict(1024, 7168, 256, parse_config("bm256_bn128_bk128_w2x4_sk1"), CK, CK_EFF)
    assert one.launches == 1 and CK_EFF.call_fixed_us > 0
    assert math.isclose(one.leaderboard_us - one.kernel_us, host_overhead_us() - CK_EFF.call_fixed_us)
    split = predict(1024, 576, 7168, parse_config("bm256_bn128_bk128_w2x4_sk4"), WINNER, WINNER_EFF)
    assert split.launches == 3  # transpose, GEMM, split-K reduction
    assert math.isclose(split.leaderboard_us - split.kernel_us,
                        host_overhead_us() - WINNER_EFF.call_fixed_us + 2 * WINNER_EFF.launch_us)


def test_round_fixed_time_is_paid_once_per_workgroup_round():
    config = parse_config("bm256_bn128_bk128_w2x4_sk1")
    free = WINNER_EFF.replace(round_fixed_us=0.0)
    for m, n, k in [(1024, 7168, 256), (6144, 7168, 2048)]:
        base = predict(m, n, k, config, WINNER, free)
        paid = predict(m, n, k, config, WINNER, free.replace(round_fixed_us=2.0))
        assert base.rounds == math.ceil(base.rounds)  # one workgroup per CU: whole rounds
        assert math.isclose(paid.mainloop_us - base.mainloop_us, 2.0 * base.rounds)


def test_variants_reduce_split_k_in_kernel():
    from eval.model import predict_case
    kernels = pytest.importorskip("kernels.config")
    variant = "v2_swizzle_splitk"
    assert variant in kernels.VARIANTS
    tile = kernels.instances(variant)[0].name[:-len("_sk1")]
    assert predict_case(variant, 1024, 576, 7168, f"{tile}_sk4").launches == 1
    assert predict_case("winner", 1024, 576, 7168, "bm256_bn128_bk128_w2x4_sk4").launches == 3


def test_pick_covers_every_published_shape_with_a_candidate():
    picks, geomean = pick("winner")
    assert [(p.case.m, p.case.n, p.case.k) for p in picks] == SHAPES
    assert all(p.best.config in WINNER.candidates for p in picks)
    by_shape = {(p.case.m, p.case.n, p.case.k): p.best.config for p in picks}
    assert not by_shape[(1024, 576, 7168)].endswith("_sk1")
    lb = [p.best.leaderboard_us for p in picks if p.kind == "benchmarks"]
    assert geomean == pytest.approx(contract.geometric_mean(lb))
    assert geomean > host_overhead_us()


def test_pick_honours_an_explicit_config_list():
    picks, _ = pick("winner", ["bm128_bn128_bk128_w2x2_sk1"])
    assert {p.best.config for p in picks} == {"bm128_bn128_bk128_w2x2_sk1"}


def test_configs_that_cannot_fit_on_a_cu_are_refused():
    with pytest.raises(ValueError, match="does not fit"):
        predict(1024, 1024, 1024, parse_config("bm512_bn512_bk128_w4x4_sk1"), WINNER, WINNER_EFF)
