"""Pins leaderboard_shapes.yaml to the published contract (spec/leaderboard.md, anchors.md)."""
import pytest

from reference import contract

PUBLISHED_TESTS = [
    (64, 64, 128, 6635), (64, 1536, 7168, 6635), (64, 3072, 1536, 1236), (64, 576, 7168, 542),
    (96, 7168, 256, 1234), (96, 7168, 2048, 4153), (96, 4608, 7168, 412), (128, 7168, 2304, 624),
    (128, 512, 7168, 2514), (512, 4096, 512, 543), (512, 1536, 7168, 12341),
]
PUBLISHED_NK_SEEDS = [
    (1536, 7168, 8135, 6543), (3072, 1536, 6251, 234), (576, 7168, 12346, 9863),
    (7168, 256, 5364, 764243), (7168, 2048, 6132, 76547), (4608, 7168, 7531, 65436),
    (7168, 2304, 12345, 452345), (512, 7168, 6563, 12341), (4096, 512, 17512, 45245),
]
PUBLISHED_SOL_US = [8.62, 3.70, 3.23, 3.17, 11.50, 25.87, 12.93, 2.87, 2.08,
                    51.74, 22.17, 19.40, 17.26, 68.98, 155.22, 77.61, 17.25, 10.49]


def test_tests_in_published_order():
    assert [(c.m, c.n, c.k, c.seed) for c in contract.cases("tests")] == PUBLISHED_TESTS


def test_benchmarks_in_published_order():
    expected = [(1024, n, k, s1) for n, k, s1, _ in PUBLISHED_NK_SEEDS]
    expected += [(6144, n, k, s2) for n, k, _, s2 in PUBLISHED_NK_SEEDS]
    assert [(c.m, c.n, c.k, c.seed) for c in contract.cases("benchmarks")] == expected


def test_tolerance_limits_and_budgets():
    c = contract.load()
    assert c["tolerance"] == {"rtol": 2e-2, "atol": 1e-3}
    assert c["stage_limit_s"] == 180
    assert c["ranked_stages"] == ["test", "benchmark", "leaderboard"]
    assert c["ranking"] == "geometric_mean"
    assert c["timing"] == {"min_repeats": 3, "max_repeats": 100, "rel_err_stop": 0.001,
                           "wall_stop_s": 120, "seed_step": 13}
    assert c["modes"]["benchmark"] == {"warmup_budget_s": 0.1, "case_budget_s": 10, "recheck": False}
    assert c["modes"]["leaderboard"] == {"warmup_budget_s": 0.01, "case_budget_s": 30, "recheck": True}
    assert c["published_top_score_us"] == 103.392
    assert c["popcorn_header"] == ["#!POPCORN leaderboard amd-fp8-mm", "#!POPCORN gpu MI300"]


def test_speed_of_light_matches_published_table():
    sol = [contract.speed_of_light_us(c.m, c.n, c.k) for c in contract.cases("benchmarks")]
    assert sol == pytest.approx(PUBLISHED_SOL_US, abs=0.006)
    assert contract.geometric_mean(sol) == pytest.approx(14.0, abs=0.05)


def test_secret_seed_pairing():
    assert contract.secret_seed(10, 5) == 10 + 15 * 16 // 2
    assert contract.secret_seed(6635, 0) == 6635 + 6635 * 6636 // 2
