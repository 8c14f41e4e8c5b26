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
from collections import defaultdict
from dataclasses import dataclass

from eval.predict import parallel, sweep
from eval.predict.measurements import Row
from eval.predict.parallel import Failed
from eval.predict.sweep import Config

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
    """The configurations, sorted, in near-equal batches of at most BATCH_SIZE."""
    ordered = sorted(set(configs))
    count = math.ceil(len(ordered) / BATCH_SIZE)
    ends = [round(len(ordered) * (i + 1) / count) for i in range(count)]
    return [ordered[start:end] for start, end in zip([0, *ends], ends)]


def _build(predictor, configs: list[Config]) -> str | None:
    """None when the batch built, else why not."""
    try:
        predictor.build(configs)
    except Exception as exc:  # a compile error refuses the batch's rows, never the run
        return f"the build failed: {type(exc).__name__}: {exc}"
    return None


def _predict(build_error: str | None, predictor, configs: list[Config], shape, items: list[tuple[int, int]]):
    """[(line, launches or Failed)] for the (line, config index) items on one input of `shape`."""
    if build_error is not None:
        return [(line, Failed(build_error)) for line, _ in items]
    results = []
    for line, index in items:
        try:
            results.append((line, predictor.launches(configs, index, shape)))
        except Exception as exc:  # engine fault or refusal: this row is refused, the rest go on
            results.append((line, Failed(f"{type(exc).__name__}: {exc}")))
    return results


def predict_rows(rows: list[Row], predictor) -> dict[int, list[dict] | Failed]:
    """Every row's timed launches (or Failed), by row.line; progress bars on stderr."""
    import ray

    groups = batches([row.config for row in rows])
    where = {cfg: (b, i) for b, batch in enumerate(groups) for i, cfg in enumerate(batch)}
    shared = ray.put(predictor)
    builds = [parallel.task(_build).remote(shared, batch) for batch in groups]
    work: dict[tuple, list[tuple[int, int]]] = defaultdict(list)
    for row in sorted(rows, key=lambda r: (r.shape, where[r.config][0], r.line)):  # a worker keeps one input
        batch, index = where[row.config]
        work[(batch, row.shape)].append((row.line, index))
    results = _run(builds, groups, shared, work)
    return {row.line: results[row.line] for row in rows}


def _run(builds, groups, shared, work: dict) -> dict[int, list[dict] | Failed]:
    """Runs the prediction tasks beside the builds; a task whose worker died is retried one row
    per task, so that only the row that crashes it is refused."""
    keys = list(work)
    refs = [parallel.task(_predict).remote(builds[b], shared, groups[b], shape, work[(b, shape)]) for b, shape in keys]
    built = parallel.progress_bar(len(builds), "build", "builds")
    bar = parallel.progress_bar(sum(map(len, work.values())), "row", "predictions")
    results: dict[int, list[dict] | Failed] = {}
    try:
        for position, value in parallel.finished(builds + refs):
            if position < len(builds):
                built.update(1)
                continue
            batch, shape = key = keys[position - len(builds)]
            if isinstance(value, Failed) and len(work[key]) > 1:
                singles = [parallel.task(_predict).remote(builds[batch], shared, groups[batch], shape, [item])
                           for item in work[key]]
                value = [pair for i, single in parallel.finished(singles) for pair in _pairs(single, [work[key][i]])]
            results.update(_pairs(value, work[key]))
            bar.update(len(work[key]))
    finally:
        built.close()
        bar.close()
    return results


def _pairs(value, items: list[tuple[int, int]]) -> list[tuple[int, object]]:
    """A task's [(line, launches or Failed)]; a task that failed as a whole fails each of its items."""
    return [(line, value) for line, _ in items] if isinstance(value, Failed) else value
