"""Varied wave schedules: run each call several times and compare, to expose missing barriers.

With EMU_SCHEDULES=n (n > 1) every function of a built module runs n times on copies of its
arguments, under schedule 0 (waves in order, each until it blocks at a barrier), schedule 1
(waves and lanes in reverse order) and seeded random interleavings (2, 4, ...). Any tensor that
ends up different between schedules means the kernel's result depends on the order of waves
(or of lanes between two cross-lane points): a race, usually a missing __syncthreads().

By default (EMU_SCHEDULES unset) the first call of each function with new argument shapes also
runs under schedule 1, reversed wave order, and only a difference beyond float rounding counts
(reordered float atomics are not a race): one extra run per shape catches the common missing
barrier (the test mode's cases take twice as long; timed repeats of one shape are checked once).
EMU_SCHEDULES=1 turns that off, EMU_SCHEDULES=n checks every call under n schedules, bit for bit.
"""
from __future__ import annotations

import functools
import os

import torch

from engines.source.errors import EmulatorError
from engines.source.guards import guarded
from engines.source.symbolize import symbolized
from toolchain.calls import CALL_OBSERVERS, tensors_of


def schedule_count() -> int | None:
    """EMU_SCHEDULES, or None for the default check of each function's first call."""
    value = os.environ.get("EMU_SCHEDULES", "")
    return int(value) if value else None


def schedule_ids(n: int) -> list[int]:
    """0, 1, then even random seeds (odd ids other than 1 would repeat the reversed order)."""
    return [0, 1] + [2 * i for i in range(1, n - 1)] if n > 1 else [0]


def same(a: torch.Tensor, b: torch.Tensor) -> bool:
    """Bitwise equality (NaN payloads included)."""
    if a.shape != b.shape or a.dtype != b.dtype:
        return False
    return torch.equal(a.contiguous().reshape(-1).view(torch.uint8), b.contiguous().reshape(-1).view(torch.uint8))


def run_with_schedule(fn, schedule: int, args, kwargs):
    saved = os.environ.get("EMU_SCHEDULE")
    os.environ["EMU_SCHEDULE"] = str(schedule)
    try:
        return fn(*args, **kwargs)
    finally:
        if saved is None:
            os.environ.pop("EMU_SCHEDULE", None)
        else:
            os.environ["EMU_SCHEDULE"] = saved


def close(a: torch.Tensor, b: torch.Tensor) -> bool:
    """Equal up to float rounding: what a different order of float atomics may change."""
    if a.shape != b.shape or a.dtype != b.dtype:
        return False
    if not a.is_floating_point():
        return same(a, b)
    return torch.allclose(a.float(), b.float(), rtol=1e-3, atol=1e-5, equal_nan=True)


def compare_runs(name: str, first: list[torch.Tensor], other: list[torch.Tensor], schedule: int,
                 exact: bool = True) -> None:
    for index, (a, b) in enumerate(zip(first, other)):
        if not (same(a, b) if exact else close(a, b)):
            differing = int((a.float() != b.float()).sum())
            raise EmulatorError(
                f"[emulator] {name}: result tensor #{index} differs between wave schedules 0 and {schedule} "
                f"({differing} elements)\nthe kernel depends on the order waves run in: a missing "
                f"__syncthreads() between LDS writes and another wave's reads?")


def checked(fn, name: str, n: int | None, first_calls: set):
    """fn under several schedules: n of them on every call, or (n None) schedules 0 and 1 on
    the first call with each set of argument shapes, compared up to float rounding."""
    @functools.wraps(fn)
    def run(*args, **kwargs):
        signature = (name, *(tuple(t.shape) for t in tensors_of(args)))
        if n is None and signature in first_calls:
            return fn(*args, **kwargs)
        first_calls.add(signature)
        pristine = [t.clone() for t in tensors_of(args)]
        result = run_with_schedule(fn, 0, args, kwargs)
        reference = [t.clone() for t in tensors_of(args) + tensors_of(result)]
        for schedule in schedule_ids(n or 2)[1:]:
            copies = [p.clone() for p in pristine]
            it = iter(copies)
            fresh_args = [next(it) if isinstance(a, torch.Tensor) else a for a in args]
            again = run_with_schedule(fn, schedule, fresh_args, kwargs)
            compare_runs(name, reference, tensors_of(fresh_args) + tensors_of(again), schedule, exact=n is not None)
        return result
    return run


def observed(fn):
    @functools.wraps(fn)
    def run(*args, **kwargs):
        try:
            result = fn(*args, **kwargs)
        except EmulatorError as exc:
            text = symbolized(str(exc))
            if text == str(exc):
                raise
            raise type(exc)(text) from None
        for observer in list(CALL_OBSERVERS):
            observer(fn, args, kwargs, result)
        return result
    return run


class ScheduledModule:
    """A built module whose functions run under several schedules (they must agree) and are
    reported to CALL_OBSERVERS."""

    def __init__(self, module, runtime, n: int | None):
        self._module, self._runtime, self._n = module, runtime, n
        self._first_calls: set = set()

    def __getattr__(self, attr):
        value = getattr(self._module, attr)
        if not callable(value) or isinstance(value, type):
            return value
        value = guarded(self._runtime, value, attr)  # each run of it: tensors end at guard pages
        n = self._n if self._n is not None else schedule_count()  # built with the default: EMU_SCHEDULES now
        if n is not None and n <= 1:
            return observed(value)
        return observed(checked(value, attr, n, self._first_calls))

    def __dir__(self):
        return dir(self._module)


def wrap_for_schedules(module, runtime):
    """`module`'s functions, run as above; `runtime`: the engine's runtime the module was built
    against (engines/source/build.py), which guards their tensors."""
    return ScheduledModule(module, runtime, schedule_count())
