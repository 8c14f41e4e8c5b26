"""The published repeat loop's statistics and stop rule, and the method registry."""
import math

import pytest
import torch

from eval import channel, timing
from reference.contract import Case
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


class _Parent:
    """The worker's end of the channel with a parent that answers every check, failing one."""

    def __init__(self, log: list[str], fail_at: int | None = None):
        self.log, self.fail_at, self.checks = log, fail_at, 0

    def send(self, message: dict) -> None:
        if message["kind"] == "check":
            self.log.append("check")
            self.checks += 1

    def recv(self) -> dict:
        failed = self.checks == self.fail_at
        return {"kind": "verdict", "ok": not failed, "message": "mismatch" if failed else ""}


def _leaderboard_case(parent: _Parent, log: list[str], monkeypatch):
    import eval.worker as worker
    from eval.device import detect

    monkeypatch.setattr(worker, "_verify", lambda *_: None)  # the integrity check has tests of its own
    stage = worker.Stage(parent, {"cases": [], "mode": "leaderboard"})
    stage.device = detect("cpu")
    stage.snapshot = None

    def kernel(data):
        log.append("call")
        return data[4]
    stage.kernel = kernel
    case = Case(m=64, n=64, k=128, seed=1)
    return stage.time_case(0, case, 1.0, True, timing.method("leaderboard", stage.device))


def test_leaderboard_mode_checks_every_timed_call_in_batches_between_them(monkeypatch):
    import eval.worker as worker

    log: list[str] = []
    batch = 10
    monkeypatch.setattr(worker, "RECHECK_BYTES", batch * channel.check_bytes(Case(m=64, n=64, k=128, seed=1)))
    ok, _, durations = _leaderboard_case(_Parent(log), log, monkeypatch)
    assert ok and len(durations) > batch
    assert log[:2] == ["call", "check"]  # the untimed first call, checked at once
    timed = "".join("c" if entry == "call" else "k" for entry in log[2:])
    batches = timed.split("k" * batch)[:-1]  # whole batches: a run of calls, then their checks
    assert batches and all(run == "c" * batch for run in batches), timed
    assert timed.count("c") == timed.count("k") == len(durations)  # every timed call checked


def test_a_failed_check_of_a_batch_fails_the_case_with_its_message(monkeypatch):
    log: list[str] = []
    ok, message, durations = _leaderboard_case(_Parent(log, fail_at=4), log, monkeypatch)
    assert not ok and message == "mismatch" and durations is None
    assert log.count("check") == 4  # nothing is checked after the failure


@pytest.mark.parametrize("kind", ["cuda", "cpu"])
def test_on_a_gpu_the_worker_also_does_the_published_loops_own_check_after_each_call(monkeypatch, kind):
    import dataclasses

    import eval.worker as worker
    from reference.task import generate_input

    log: list[str] = []
    monkeypatch.setattr(worker, "check_implementation", lambda data, output: log.append("own check"))
    monkeypatch.setattr(worker, "_verify", lambda *_: None)
    cpu = detect("cpu")
    timing.bind_clock(cpu)
    stage = worker.Stage(_Parent(log), {"cases": [], "mode": "leaderboard"})
    stage.device = dataclasses.replace(cpu, kind=kind)  # the worker's view; the tensors stay on the CPU
    monkeypatch.setattr(stage, "input_of", lambda case, seed=None: generate_input(
        case.m, case.n, case.k, case.seed if seed is None else seed, device="cpu"))
    stage.snapshot = None

    def kernel(data):
        log.append("call")
        return data[4]
    stage.kernel = kernel
    ok, _, durations = stage.time_case(0, Case(m=64, n=64, k=128, seed=1), 1.0, True, timing.method("leaderboard", cpu))
    assert ok and durations
    if kind == "cpu":
        assert "own check" not in log
        return
    assert log[:3] == ["call", "check", "own check"]  # the untimed call: the parent's verdict, then the loop's own check
    assert all(log[i + 1] == "own check" for i, entry in enumerate(log) if entry == "call" and i > 0)
    assert log.count("own check") == len(durations) + 1
    assert len([key for key in stage.staging if key[0] == "output"]) == min(100, worker.recheck_batch(
        Case(m=64, n=64, k=128, seed=1), 100))  # a batch's buffers, made before the loop


class _Sent:
    """The worker's end of the channel: what the worker sends, kept."""

    def __init__(self):
        self.messages: list[dict] = []

    def send(self, message: dict) -> None:
        self.messages.append(message)


def test_a_predicted_profile_row_carries_the_calls_predicted_time_as_the_predicted_benchmarks(monkeypatch):
    """The worker reports the predicted call time (ns) as the row's one duration, and the parent,
    holding the row as a predicted benchmark row, makes it the mean the profile's table shows."""
    import eval.worker as worker
    import predictor.profile
    from eval import judge
    from eval.verdict import Checker
    from predictor import Prediction

    case = Case(m=1024, n=7168, k=256, seed=5364)
    channel_end = _Sent()
    monkeypatch.setattr(worker, "_verify", lambda *_: None)
    stage = worker.Stage(channel_end, {"cases": [(3, case.args)], "mode": "profile", "method": "predicted"})
    stage.snapshot = None
    monkeypatch.setattr(stage, "predict_case", lambda _: Prediction(call_us=123.4))
    monkeypatch.setattr(predictor.profile, "format_profile", lambda prediction, title: f"{prediction.call_us} us a call")
    stage.run_predicted_profile()
    (row,) = [message for message in channel_end.messages if message["kind"] == "row"]
    assert row["passed"] and row["durations"] == [pytest.approx(123_400.0)]

    def parent():
        job = {"mode": "profile", "method": "predicted", "engine": "isa", "submission": "mine.py"}
        return judge.Listener("profile", [(3, case)], job, Checker("profile", [case], "cpu", True),
                              judge.stop_rule("profile", True))
    settled = parent().row(row)
    assert settled["passed"] and settled["runs"] == 1 and settled["mean_us"] == pytest.approx(123.4)
    two = parent().row(dict(row, durations=[1e5, 2e5]))  # the parent still judges the worker's claim
    assert not two["passed"] and "a predicted case with more than one time" in two["message"]
