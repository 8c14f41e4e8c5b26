"""Named timing methods and the published repeat loop.

`leaderboard` is exactly the published measurement: synchronize, host clock, call,
synchronize, host clock, done by the harness's compiled clock (eval/clock.py), which
`bind_clock` binds before a submission is imported. Stricter methods get their own names;
every result records which one produced it. A method times one call and returns
(elapsed_ns, output); an output that is not a plain torch.Tensor (a subclass could do its
work when first touched, after the clock stopped) raises NotPlainTensor.
"""
from __future__ import annotations

import math
import time
from dataclasses import dataclass
from typing import Callable

import torch

from eval import clock
from eval.device import DeviceInfo, synchronize
from machine import fact

Call = Callable[[], object]
_Event = torch.cuda.Event
_TENSOR = torch.Tensor
# NOTE: bound when the harness is imported, before any submission is: a submission that
# rebinds time.perf_counter_ns or torch.cuda.synchronize changes neither (eval/integrity.py
# also rejects it for trying).
perf_counter_ns = time.perf_counter_ns
_clock = None  # the compiled clock, once bind_clock ran
def bind_clock(device: DeviceInfo) -> None:
    """Bind the compiled clock to this device's synchronize; before any submission is imported."""
    global _clock
    if _clock is not None:
        return
    module = clock.load()
    module.bind(torch._C._cuda_synchronize if device.is_gpu else None, torch.Tensor)
    _clock = module


class NotPlainTensor(Exception):
    """A timed call returned something other than a plain torch.Tensor."""


def _plain(output) -> None:
    if type(output) is not _TENSOR:
        raise NotPlainTensor(f"a timed call of custom_kernel returned {type(output).__name__}, not a plain "
                             f"torch.Tensor: a subclass could do its work after the clock stopped")


def _leaderboard(call: Call, device: DeviceInfo) -> tuple[float, object]:
    """The published measurement: synchronize, host clock, call, synchronize, host clock, in
    the compiled clock: nothing else runs between two timed calls but what the published loop
    runs."""
    if _clock is None:
        raise RuntimeError("the harness's clock is not bound (eval.timing.bind_clock)")
    elapsed, output, exact = _clock.time_call(call)
    if not exact:
        _plain(output)
    return elapsed, output


def _events(call: Call, device: DeviceInfo) -> tuple[float, object]:
    start, end = _Event(enable_timing=True), _Event(enable_timing=True)
    synchronize(device)
    start.record()
    output = call()
    end.record()
    end.synchronize()
    _plain(output)
    return start.elapsed_time(end) * 1e6, output


# NOTE: writing twice the MI300X's Infinity Cache (which holds more than its L2s) evicts every
# input, so `cold` measures reads that come from HBM.
_INFINITY_CACHE_BYTES = fact("infinity_cache_bytes")
_FLUSH_BYTES = 2 * _INFINITY_CACHE_BYTES
_flush_buffer: torch.Tensor | None = None


def _cold_events(call: Call, device: DeviceInfo) -> tuple[float, object]:
    global _flush_buffer
    if _flush_buffer is None:
        _flush_buffer = torch.empty(_FLUSH_BYTES, dtype=torch.uint8, device="cuda")
    _flush_buffer.fill_(1)
    return _events(call, device)


PREDICTED = "predicted"


@dataclass(frozen=True)
class Method:
    name: str
    needs_gpu: bool
    time_one: Callable[[Call, DeviceInfo], tuple[float, object]] | None  # None: not a measurement
    doc: str


METHODS = {m.name: m for m in (
    Method("leaderboard", False, _leaderboard,
           "the published loop: synchronize, host perf_counter_ns around the call, synchronize"),
    Method("events", True, _events, "device events around the call, warm caches"),
    Method("cold", True, _cold_events,
           f"device events after writing {_FLUSH_BYTES >> 20} MB to evict the L2s and the "
           f"{_INFINITY_CACHE_BYTES >> 20} MB Infinity Cache"),
    Method(PREDICTED, False, None,
           "no GPU, --engine isa: the MI300X time the timing model predicts (predictor/), "
           "unchecked; correctness is the test mode's"),
)}


def checked(name: str, mode: str) -> bool:
    """Whether a stage of `mode` timed with method `name` checks its outputs: predicted stages
    do not (each timed launch runs only the busiest CU's workgroups); their test stage does."""
    return name != PREDICTED or mode == "test"


def method(name: str, device: DeviceInfo) -> Method:
    if name not in METHODS:
        raise ValueError(f"unknown timing method {name!r}; choose from {', '.join(METHODS)}")
    chosen = METHODS[name]
    if chosen.needs_gpu and not device.is_gpu:
        raise ValueError(f"timing method {name!r} needs a GPU; on the CPU use 'leaderboard' or 'predicted'")
    if name == PREDICTED and device.is_gpu:
        raise ValueError("the predicted method runs on the CPU's ISA engine: add --device cpu --engine isa "
                         "(on this GPU, measure with 'leaderboard' or 'events')")
    return chosen


@dataclass(frozen=True)
class Stats:
    runs: int
    mean: float
    std: float
    err: float
    best: float
    worst: float


def stats(durations: list[float]) -> Stats:
    """Mean, sample standard deviation, standard error of the mean, best and worst."""
    runs = len(durations)
    mean = sum(durations) / runs
    var = sum((d - mean) ** 2 for d in durations) / (runs - 1) if runs > 1 else 0.0
    std = math.sqrt(var)
    return Stats(runs, mean, std, std / math.sqrt(runs), min(durations), max(durations))


@dataclass(frozen=True)
class StopRule:
    """When the published repeat loop stops (leaderboard_shapes.yaml `timing:`)."""

    min_repeats: int
    max_repeats: int
    rel_err_stop: float
    wall_stop_s: float
    budget_s: float

    @classmethod
    def from_contract(cls, timing: dict, budget_s: float) -> "StopRule":
        return cls(timing["min_repeats"], timing["max_repeats"], timing["rel_err_stop"],
                   timing["wall_stop_s"], budget_s)

    def done(self, durations: list[float], wall_s: float) -> bool:
        if len(durations) >= self.max_repeats:
            return True
        if len(durations) < self.min_repeats:
            return False
        s = stats(durations)
        return (s.err / s.mean < self.rel_err_stop
                or s.mean * s.runs > self.budget_s * 1e9
                or wall_s > self.wall_stop_s)


def repeat(rule: StopRule, time_once: Callable[[], float]) -> list[float]:
    """The published repeat loop: call time_once() (elapsed ns) until the stop rule is met;
    the durations, in order (the parent computes their statistics, eval/judge.py)."""
    durations: list[float] = []
    start = perf_counter_ns()
    while not rule.done(durations, (perf_counter_ns() - start) / 1e9):
        durations.append(time_once())
    return durations
