"""The published repeat loop's statistics and stop rule, and the method registry."""
import math

import pytest
import torch

from eval import timing
from eval.device import DeviceInfo, detect


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


class FakeGpu:
    """A host clock, a device clock and events for the leaderboard method's cross-check.

    `host_rate` scales what the host clock reads (1.0 honest, 0.1 a clock slowed tenfold);
    `late_ns[i]` delays the i-th event record (a descheduled host thread, a slow launch)."""

    def __init__(self, host_rate=1.0, late_ns=(0, 0)):
        self.now, self.host_rate, self.late_ns, self.records = 0, host_rate, list(late_ns), 0
        gpu = self

        class Event:
            def __init__(self, enable_timing):
                assert enable_timing

            def record(self):
                gpu.now += gpu.late_ns[gpu.records % 2]
                gpu.records += 1
                self.at = gpu.now

            def synchronize(self):
                pass

            def elapsed_time(self, other):
                return (other.at - self.at) / 1e6  # milliseconds, as torch gives it
        self.Event = Event

    def read_ns(self):
        return int(self.now * self.host_rate)

    def time_call(self, fn):
        """The compiled clock's time_call, on this fake host clock."""
        start = self.read_ns()
        output = fn()
        return self.read_ns() - start, output, True

    def call(self, work_ns):
        def run():
            self.now += work_ns
            return "out"
        return run


@pytest.fixture
def fake_gpu(monkeypatch):
    def install(**kwargs):
        gpu = FakeGpu(**kwargs)
        monkeypatch.setattr(timing, "_Event", gpu.Event)
        monkeypatch.setattr(timing, "_clock", gpu)
        return gpu
    return install


GPU = DeviceInfo("cuda", "NVIDIA H100", "sm_90", "2.11.0", "", "13.0")


def test_honest_clock_passes_however_late_the_events_run(fake_gpu):
    # As measured on an H100: a 30.6 us call whose second event ran 220 us late. The events
    # and the host readings compared with them bracket the same interval, so no delay of the
    # host thread or of a launch can make the events read more than the host.
    gpu = fake_gpu(late_ns=(5_000, 221_700))
    elapsed, out = timing.METHODS["leaderboard"].time_one(gpu.call(30_600), GPU)
    assert (elapsed, out) == (30_600, "out")


def test_slowed_host_clock_fails_with_both_numbers(fake_gpu):
    gpu = fake_gpu(host_rate=0.1)
    with pytest.raises(timing.ClockMismatch) as failure:
        timing.METHODS["leaderboard"].time_one(gpu.call(250_000), GPU)
    assert str(failure.value).startswith("the host clock read 25.0 us around device events that read "
                                         "250.0 us (the timed call read 25.0 us)")


def test_the_bound_holds_to_the_event_timer_resolution(fake_gpu):
    gpu = fake_gpu(host_rate=0.97)  # 3% slow: inside the 2% + 10 us margin only for short calls
    timing.METHODS["leaderboard"].time_one(gpu.call(100_000), GPU)
    with pytest.raises(timing.ClockMismatch):
        timing.METHODS["leaderboard"].time_one(gpu.call(2_000_000), GPU)


def test_a_clock_anomaly_fails_only_its_own_case(monkeypatch):
    # Not the warm-up's (it times no case), nor the cases after it: unlike a failed check,
    # the harness's own cross-check does not end a leaderboard run.
    from eval.worker import Stage
    from reference.contract import Case

    class Pipe:
        def __init__(self):
            self.sent = []

        def send(self, message):
            self.sent.append(message)

    cases = [Case(64, 64, 128, seed) for seed in (1, 2, 3)]
    job = {"mode": "leaderboard", "method": "leaderboard", "engine": "source", "device": "cpu",
           "cases": [(i, c.args) for i, c in enumerate(cases)], "submission": ""}
    stage = Stage(Pipe(), job)
    stage.device = detect("cpu")

    def time_case(slot, case, budget_s, recheck, method):
        if slot in (-1, 1):
            raise timing.ClockMismatch(f"the host clock read 1.0 us around device events that read 300.0 us ({slot})")
        return True, "", [1e3, 1e3, 1e3]
    monkeypatch.setattr(stage, "time_case", time_case)
    stage.run_timed()
    rows = {m["slot"]: m for m in stage.conn.sent if m["kind"] == "row"}
    assert [rows[slot]["passed"] for slot in range(3)] == [True, False, True]
    assert rows[1]["message"] == "the host clock read 1.0 us around device events that read 300.0 us (1)"
