"""Varied wave schedules: run each call several times and compare, to expose missing barriers.

With EMU_SCHEDULES=n (n > 1) every function of a built module runs n times on copies of its
arguments, under schedule 0 (waves in order, each until it blocks at a barrier), schedule 1
(waves and lanes in reverse order) and seeded random interleavings (2, 4, ...). Any tensor that
ends up different between schedules means the kernel's result depends on the order of waves
(or of lanes between two cross-lane points): a race, usually a missing __syncthreads().
"""
from __future__ import annotations

import functools
import os
import re
import subprocess
from pathlib import Path

import torch

from emulator.errors import EmulatorError


def schedule_count() -> int:
    return int(os.environ.get("EMU_SCHEDULES", "1") or 1)


def schedule_ids(n: int) -> list[int]:
    """0, 1, then even random seeds (odd ids other than 1 would repeat the reversed order)."""
    return [0, 1] + [2 * i for i in range(1, n - 1)] if n > 1 else [0]


def tensors_of(value) -> list[torch.Tensor]:
    if isinstance(value, torch.Tensor):
        return [value]
    if isinstance(value, (list, tuple)):
        return [t for v in value for t in tensors_of(v)]
    return []


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


def compare_runs(name: str, first: list[torch.Tensor], other: list[torch.Tensor], schedule: int) -> None:
    for index, (a, b) in enumerate(zip(first, other)):
        if not same(a, b):
            differing = int((a.float() != b.float()).sum())
            raise EmulatorError(
                f"[emulator] {name}: result tensor #{index} differs between wave schedule 0 and schedule "
                f"{schedule} ({differing} elements): the kernel depends on the order waves run in "
                f"(missing __syncthreads() between LDS writes and reads of another wave?)")


def checked(fn, name: str, n: int):
    @functools.wraps(fn)
    def run(*args, **kwargs):
        pristine = [t.clone() for t in tensors_of(args)]
        result = run_with_schedule(fn, 0, args, kwargs)
        reference = [t.clone() for t in tensors_of(args) + tensors_of(result)]
        for schedule in schedule_ids(n)[1:]:
            copies = [p.clone() for p in pristine]
            it = iter(copies)
            fresh_args = [next(it) if isinstance(a, torch.Tensor) else a for a in args]
            again = run_with_schedule(fn, schedule, fresh_args, kwargs)
            compare_runs(name, reference, tensors_of(fresh_args) + tensors_of(again), schedule)
        return result
    return run


# Called after every call of an emulated module's function as observer(fn, args, kwargs,
# result): a CUDA-graph capture (eval/simulated_host.py) records kernel launches this way.
CALL_OBSERVERS: list = []


PC_MARKER = re.compile(r" \[pc (/\S+)\+(0x[0-9a-f]+)\]")


def symbolized(message: str) -> str:
    """The emulator's "[pc object+offset]" marker replaced by "at file:line (function)"."""
    m = PC_MARKER.search(message)
    if not m:
        return message
    try:
        out = subprocess.run(["llvm-symbolizer-19", "--obj", m.group(1), "--relative-address", m.group(2)],
                             capture_output=True, text=True, timeout=60).stdout.split("\n")
        function, place = out[0].strip(), out[1].strip()
    except (OSError, subprocess.SubprocessError, IndexError):
        return message
    if not place or place.startswith("??"):
        return PC_MARKER.sub("", message)
    file, line = place.split(":")[:2]
    return PC_MARKER.sub("", message) + f"; faulting line {Path(file).name}:{line} (in {function})"


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

    def __init__(self, module, n: int):
        self._module, self._n = module, n

    def __getattr__(self, attr):
        value = getattr(self._module, attr)
        if not callable(value):
            return value
        return observed(checked(value, attr, self._n) if self._n > 1 else value)

    def __dir__(self):
        return dir(self._module)


def wrap_for_schedules(module):
    return ScheduledModule(module, schedule_count())
