"""Fixtures of the ISA engine's core tests: the test build of the core and the micro kernels."""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
import harness  # noqa: E402


@pytest.fixture(scope="module")
def engine() -> harness.Engine:
    return harness.Engine()


@pytest.fixture(scope="module")
def micro(engine):
    return engine.load(harness.compile_source(harness.HERE / "micro_kernels.hip"))
