"""The Ray path of predictor (predictions.predict_rows) on 2 local CPUs with a stub predictor:
every row comes back, a failed build refuses its batch's rows, an engine error refuses one row,
and a worker that dies takes only the row that killed it."""
from __future__ import annotations

import os
import subprocess
import sys

import pytest

from predictor import measurements, parallel, predictions
from predictor.parallel import Failed

ray = pytest.importorskip("ray")


class StubPredictor:
    """Made-up launches: the GEMM time is the row's block_m; some configurations misbehave."""

    def __init__(self, broken_block_n: int, faulting_block_k: int, crashing: tuple):
        self.broken_block_n, self.faulting_block_k, self.crashing = broken_block_n, faulting_block_k, crashing

    def build(self, configs):
        if any(c.block_n == self.broken_block_n for c in configs):
            raise RuntimeError("clang says no")

    def launches(self, configs, index, shape):
        config = configs[index]
        if (config, shape) == self.crashing:
            os._exit(3)  # as a segfault in compiled code would
        if config.block_k == self.faulting_block_k:
            raise RuntimeError("IsaFault: missing wait")
        return [{"symbol": "kernel", "kernel_us": float(config.block_m)}]


@pytest.fixture(scope="module")
def two_cpus():
    ray.cloudpickle.register_pickle_by_value(sys.modules[__name__])
    with parallel.session(cpus=2):
        yield


def test_rows_come_back_with_builds_and_faults_refused_one_by_one(two_cpus, monkeypatch):
    monkeypatch.setattr(predictions, "BATCH_SIZE", 4)
    rows = [r for r in measurements.read(measurements.CALIBRATION_SET) if r.shape == (1024, 4096, 512)]
    rows = [r for r in rows if r.config.block_size == 256][:24]
    fine = [r for r in rows if r.config.block_k == 128 and r.config.block_n == 64]
    crashing = (fine[0].config, fine[0].shape)
    stub = StubPredictor(broken_block_n=256, faulting_block_k=64, crashing=crashing)
    result, cost = predictions.predict_rows(rows, stub)
    assert set(result) == {r.line for r in rows}
    for row in rows:
        outcome = result[row.line]
        if (row.config, row.shape) == crashing:
            assert isinstance(outcome, Failed) and "worker" in outcome.reason
        elif any(c.block_n == 256 for c in predictions.batches([r.config for r in rows])[_batch_of(row, rows)]):
            assert isinstance(outcome, Failed) and "clang says no" in outcome.reason
        elif row.config.block_k == 64:
            assert isinstance(outcome, Failed) and "missing wait" in outcome.reason
        else:
            assert outcome == [{"symbol": "kernel", "kernel_us": float(row.config.block_m)}]
    assert sum(not isinstance(v, Failed) for v in result.values()) >= 2
    assert len(cost.row_cpu_s) == sum(not isinstance(v, Failed) for v in result.values())
    assert len(cost.build_cpu_s) == len(predictions.batches([r.config for r in rows]))


def _batch_of(row, rows) -> int:
    groups = predictions.batches([r.config for r in rows])
    return next(i for i, batch in enumerate(groups) if row.config in batch)


def test_batches_are_near_equal_and_share_out_each_workgroup_size(monkeypatch):
    monkeypatch.setattr(predictions, "BATCH_SIZE", 4)
    configs = sorted({r.config for r in measurements.read(measurements.CALIBRATION_SET)})
    small = [c for c in configs if c.block_size == 64][:5] + [c for c in configs if c.block_size == 512][:5]
    groups = predictions.batches(small + small[:3])
    assert sorted(len(g) for g in groups) == [3, 3, 4]  # 10 distinct in 3 batches of at most 4
    assert sorted(c for g in groups for c in g) == sorted(small)
    assert all(sum(c.block_size == 64 for c in g) in (1, 2) for g in groups)  # not all in one build


def test_a_task_of_a_module_run_with_dash_m_finds_its_modules_names():
    # predictor.tune is run as `python -m`: its tasks once failed on every worker, which had
    # no such __main__ to find the module's cached builder in.
    result = subprocess.run([sys.executable, "-m", "tests.predictor.probes.main_module_task"], cwd=parallel.REPO_ROOT,
                            capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr[-2000:]
    assert result.stdout.strip().splitlines()[-1] == "[3, 5]", result.stdout + result.stderr[-2000:]


def test_a_session_hands_the_device_code_folder_to_its_tasks(monkeypatch):
    """ISA_DEVICE_CODE (calibrate --device-code) goes into the runtime environment Ray gives every
    worker, a cluster's included; without it the tasks get PYTHONPATH alone."""
    from engines.isa import device_code

    seen = []
    monkeypatch.setattr(ray, "init", lambda **options: seen.append(options["runtime_env"]["env_vars"]))
    monkeypatch.setattr(ray, "shutdown", lambda: None)
    monkeypatch.setenv(device_code.ENV, "/somewhere/device_code")
    with parallel.session(address="head:6379"):
        pass
    monkeypatch.delenv(device_code.ENV)
    with parallel.session(cpus=1):
        pass
    assert seen[0][device_code.ENV] == "/somewhere/device_code"
    assert set(seen[1]) == {"PYTHONPATH"}
