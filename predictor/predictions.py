"""Rows of the calibration schema predicted as Ray tasks: one build per batch of configurations,
then one task per (batch, shape) timing that batch's rows of the shape on one input.

    launches = predict_rows(rows, SweepPredictor(sweep.build_call(clone), hardware()))
    # {row.line: [timed launch, ...] or Failed(reason)}

Builds are the expensive part (clang-19, seconds per configuration), so a batch holds up to
BATCH_SIZE configurations dispatched by a run-time index; a batch's predictions start as soon as
its build is done, beside the builds still running. A row whose build or prediction fails (a
compile error, an engine fault or refusal, a crashed worker) comes back as Failed with the
reason; the others are unaffected.
"""
from __future__ import annotations

import math
import os
import statistics
from collections import defaultdict
from dataclasses import dataclass, field

from predictor import parallel, sweep
from predictor.measurements import Row
from predictor.parallel import Failed
from predictor.sweep import Config

BATCH_SIZE = 32


@dataclass(frozen=True)
class SweepPredictor:
    """The real predictor: the clone's build call, and the timing model's settings."""
    call: sweep.LoadInlineCall
    settings: dict

    def build(self, configs: list[Config]) -> None:
        self.module(configs)

    def module(self, configs: list[Config]):
        name = sweep.module_name(self.call, configs)
        if name not in _MODULES:  # one load per worker process: the engine caches the build on disk
            _MODULES[name] = sweep.build(self.call, configs)
        return _MODULES[name]

    def launches(self, configs: list[Config], index: int, shape: tuple[int, int, int]) -> list[dict]:
        return sweep.timed_launches(self.module(configs), index, shape, self.settings)


_MODULES: dict[str, object] = {}


def batches(configs: list[Config]) -> list[list[Config]]:
    """The configurations in near-equal batches of at most BATCH_SIZE, dealt in turn from their
    sorted order: configurations of one workgroup size (the few-thread, large-tile ones spill
    and compile for a minute each) spread over every batch, so builds finish together."""
    ordered = sorted(set(configs))
    count = math.ceil(len(ordered) / BATCH_SIZE)
    return [ordered[i::count] for i in range(count)]


@dataclass
class Cost:
    """Where the time went: CPU seconds of each build (clang included) and of each prediction."""
    build_cpu_s: list[float] = field(default_factory=list)
    row_cpu_s: list[float] = field(default_factory=list)

    def summary(self) -> str:
        rows = f"{statistics.median(self.row_cpu_s):.2f} CPU-s median" if self.row_cpu_s else "none"
        return (f"{len(self.build_cpu_s)} builds, {sum(self.build_cpu_s):.0f} CPU-s; {len(self.row_cpu_s)} "
                f"predictions, {rows}, {sum(self.row_cpu_s):.0f} CPU-s in all")


def _cpu_s() -> float:
    """CPU seconds of this process and the children it waited for (clang)."""
    times = os.times()
    return times.user + times.system + times.children_user + times.children_system


def _build(predictor, configs: list[Config]) -> tuple[str | None, float]:
    """(None when the batch built, else why not; CPU seconds it took)."""
    started = _cpu_s()
    try:
        predictor.build(configs)
    except Exception as exc:  # a compile error refuses the batch's rows, never the run
        return f"the build failed: {type(exc).__name__}: {exc}", _cpu_s() - started
    return None, _cpu_s() - started


def _predict(built: tuple[str | None, float], predictor, configs: list[Config], shape, items: list[tuple[int, int]]):
    """[(line, launches or Failed, CPU seconds)] for the (line, config index) items on one input
    of `shape`."""
    if built[0] is not None:
        return [(line, Failed(built[0]), 0.0) for line, _ in items]
    results = []
    for line, index in items:
        started = _cpu_s()
        try:
            outcome = predictor.launches(configs, index, shape)
        except Exception as exc:  # engine fault or refusal: this row is refused, the rest go on
            outcome = Failed(f"{type(exc).__name__}: {exc}")
        results.append((line, outcome, _cpu_s() - started))
    return results


def needed_batches(rows: list[Row], universe: list[Config] | None = None) -> list[list[Config]]:
    """The batches holding the rows' configurations, dealt from `universe` (every configuration
    of the file the rows come from) when given: then any sample of that file is predicted with
    the builds of the whole file's batches, so a build made once serves every later run."""
    wanted = {row.config for row in rows}
    return [batch for batch in batches(list(wanted.union(universe or ()))) if wanted.intersection(batch)]


def predict_rows(rows: list[Row], predictor, universe: list[Config] | None = None
                 ) -> tuple[dict[int, list[dict] | Failed], Cost]:
    """Every row's timed launches (or Failed), by row.line, and what they cost (batches as
    needed_batches deals them); progress bars on stderr."""
    import ray

    groups = needed_batches(rows, universe)
    where = {cfg: (b, i) for b, batch in enumerate(groups) for i, cfg in enumerate(batch)}
    shared = ray.put(predictor)
    builds = [parallel.task(_build).remote(shared, batch) for batch in groups]
    work: dict[tuple, list[tuple[int, int]]] = defaultdict(list)
    for row in sorted(rows, key=lambda r: (r.shape, where[r.config][0], r.line)):  # a worker keeps one input
        batch, index = where[row.config]
        work[(batch, row.shape)].append((row.line, index))
    results, cost = _run(builds, groups, shared, work)
    return {row.line: results[row.line] for row in rows}, cost


def _run(builds, groups, shared, work: dict) -> tuple[dict[int, list[dict] | Failed], Cost]:
    """Runs the prediction tasks beside the builds; a task whose worker died is retried one row
    per task, so that only the row that crashes it is refused."""
    keys = list(work)
    refs = [parallel.task(_predict).remote(builds[b], shared, groups[b], shape, work[(b, shape)]) for b, shape in keys]
    built = parallel.progress_bar(len(builds), "build", "builds")
    bar = parallel.progress_bar(sum(map(len, work.values())), "row", "predictions")
    results: dict[int, list[dict] | Failed] = {}
    cost = Cost()
    try:
        for position, value in parallel.finished(builds + refs):
            if position < len(builds):
                cost.build_cpu_s.append(0.0 if isinstance(value, Failed) else value[1])
                built.update(1)
                continue
            batch, shape = key = keys[position - len(builds)]
            if isinstance(value, Failed) and len(work[key]) > 1:
                singles = [parallel.task(_predict).remote(builds[batch], shared, groups[batch], shape, [item])
                           for item in work[key]]
                value = [triple for i, single in parallel.finished(singles) for triple in _triples(single, [work[key][i]])]
            for line, outcome, cpu_s in _triples(value, work[key]):
                results[line] = outcome
                if not isinstance(outcome, Failed):
                    cost.row_cpu_s.append(cpu_s)
            bar.update(len(work[key]))
    finally:
        built.close()
        bar.close()
    return results, cost


def _triples(value, items: list[tuple[int, int]]) -> list[tuple[int, object, float]]:
    """A task's [(line, launches or Failed, CPU s)]; a task that failed as a whole fails each item."""
    return [(line, value, 0.0) for line, _ in items] if isinstance(value, Failed) else value
