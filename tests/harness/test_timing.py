"""The published repeat loop's statistics and stop rule, and the method registry."""
import math

import pytest
import torch

from eval import timing
from eval.device import detect


def test_stats_use_sample_std_and_standard_error():
    s = timing.stats([10.0, 12.0, 14.0])
    assert (s.runs, s.mean, s.best, s.worst) == (3, 12.0, 10.0, 14.0)
    assert s.std == pytest.approx(2.0)
    assert s.err == pytest.approx(2.0 / math.sqrt(3))


def rule(budget_s=10.0):
    return timing.StopRule(min_repeats=3, max_repeats=100, rel_err_stop=0.001, wall_stop_s=120,
                           budget_s=budget_s)


def test_never_stops_before_three_repeats():
    assert not rule().done([1e3, 1e3], wall_s=0)


def test_stops_when_relative_error_is_small():
    assert rule().done([1e6, 1e6, 1e6], wall_s=0)
    assert not rule().done([1e6, 2e6, 3e6], wall_s=0)


def test_stops_on_budget_wall_time_and_max_repeats():
    noisy = [1e6, 2e6, 3e6]
    assert rule(budget_s=0.005).done(noisy, wall_s=0)        # mean * runs = 6 ms > 5 ms
    assert rule().done(noisy, wall_s=121)
    assert rule().done([1e6 * (1 + i % 2) for i in range(100)], wall_s=0)


def test_method_registry():
    cpu = detect("cpu")
    assert timing.method("leaderboard", cpu).name == "leaderboard"
    with pytest.raises(ValueError, match="needs a GPU"):
        timing.method("events", cpu)
    with pytest.raises(ValueError, match="unknown timing method"):
        timing.method("fastest", cpu)
    timing.bind_clock(cpu)
    with pytest.raises(timing.NotPlainTensor, match="returned int, not a plain torch.Tensor"):
        timing.method("leaderboard", cpu).time_one(lambda: 42, cpu)
    elapsed, out = timing.method("leaderboard", cpu).time_one(lambda: torch.ones(2), cpu)
    assert out.tolist() == [1.0, 1.0] and elapsed > 0


def test_a_subclass_output_fails_the_timed_call_whatever_it_would_do_later():
    cpu = detect("cpu")
    timing.bind_clock(cpu)

    class Deferred(torch.Tensor):
        pass
    with pytest.raises(timing.NotPlainTensor, match="returned Deferred"):
        timing.method("leaderboard", cpu).time_one(lambda: torch.zeros(2).as_subclass(Deferred), cpu)
