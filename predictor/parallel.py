"""Builds and predictions as Ray tasks: this machine's cores by default, a Ray cluster given its
address (`ray start --head` on one node, `ray start --address HEAD:6379` on the others, each
with this checkout and what the tasks read at the same paths, set up by `make setup`).

    with parallel.session(address=None, cpus=None):
        refs = [parallel.task(f).remote(x) for x in xs]
        for index, value in parallel.finished(refs): ...   # Failed(reason) for a task that died

Each task takes one CPU and is never retried (a deterministic failure would only repeat);
the ISA engine's build cache (engines/isa/build.py) is shared by the tasks of one machine.
"""
from __future__ import annotations

import contextlib
import functools
import importlib
import logging
import os
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterator

REPO_ROOT = Path(__file__).resolve().parents[1]
OBJECT_STORE_BYTES = 256 << 20  # results are small dicts: keep Ray's shared memory small here


@dataclass(frozen=True)
class Failed:
    """A task that raised or whose worker died; `reason` says why in one paragraph."""
    reason: str


@contextlib.contextmanager
def session(address: str | None = None, cpus: int | None = None) -> Iterator[None]:
    import ray

    from engines.isa import device_code

    path = os.pathsep.join(filter(None, [str(REPO_ROOT), os.environ.get("PYTHONPATH")]))
    # The builds' settings reach the tasks as the driver has them (a cluster's nodes: the same paths).
    env = {"PYTHONPATH": path}
    if os.environ.get(device_code.ENV):
        env[device_code.ENV] = os.environ[device_code.ENV]
    # Ray's own log lines stay out of the user's output: its start-up warnings (token
    # authentication, say) are about Ray, not the work; the tasks' output stays in Ray's logs.
    options = dict(runtime_env={"env_vars": env}, log_to_driver=False, logging_level=logging.ERROR)
    if address:
        ray.init(address=address, **options)
    else:
        ray.init(num_cpus=cpus or os.cpu_count(), include_dashboard=False, object_store_memory=OBJECT_STORE_BYTES,
                 **options)
    try:
        yield
    finally:
        ray.shutdown()


@functools.cache
def task(function: Callable):
    """`function` as a Ray task of one CPU, never retried. A function of a module run with
    `python -m` (predictor.tune) is taken from that module imported by its name: a worker has
    no such __main__, and a task pickled from it could not find the module's other names."""
    import ray

    return ray.remote(num_cpus=1, max_retries=0)(_importable(function))


def _importable(function: Callable) -> Callable:
    spec = getattr(sys.modules.get("__main__"), "__spec__", None)
    if function.__module__ != "__main__" or spec is None:
        return function
    return getattr(importlib.import_module(spec.name), function.__name__)


def finished(refs: list) -> Iterator[tuple[int, object]]:
    """(index in refs, value) as each task finishes; Failed for one that raised or died."""
    import ray

    pending = {ref: index for index, ref in enumerate(refs)}
    while pending:
        done, _ = ray.wait(list(pending), num_returns=1)
        for ref in done:
            yield pending.pop(ref), _value(ref)


def _value(ref) -> object:
    import ray

    try:
        return ray.get(ref)
    except ray.exceptions.RayTaskError as exc:
        cause = exc.cause if exc.cause is not None else exc
        return Failed(f"{type(cause).__name__}: {cause}")
    except ray.exceptions.RayError as exc:  # the worker died (a crash in compiled code), or the node
        return Failed(f"the task's worker was lost ({type(exc).__name__}): {str(exc).splitlines()[0]}")


def progress_bar(total: int, unit: str, label: str):
    from tqdm import tqdm

    return tqdm(total=total, unit=unit, desc=label, file=sys.stderr, dynamic_ncols=True, leave=True)
