"""The harness's compiled clock (eval/clock.cpp): the timed region of a measurement, where
rebinding a Python name cannot reach it.

`load()` builds it once (a second on any C++ compiler, cached by its source and the Python
version in the machine's build cache, machine/cache.py) and imports it. The parent builds it
before any stage starts, so a stage, where that cache is read-only (eval/sandbox.py), finds it
ready.
"""
from __future__ import annotations

import functools
import hashlib
import importlib.util
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

from machine.cache import ROOT as CACHE_ROOT
from toolchain.lock import exclusive

SOURCE = Path(__file__).with_name("clock.cpp")
BUILD_DIR = CACHE_ROOT / "harness"
MODULE = "harness_clock"


class ClockUnavailable(Exception):
    """The compiled clock could not be built here."""


def library() -> Path:
    """The built extension, compiled first when it is not there."""
    key = hashlib.sha256(SOURCE.read_bytes() + sys.version.encode()).hexdigest()[:16]
    built = BUILD_DIR / f"{MODULE}_{key}{sysconfig.get_config_var('EXT_SUFFIX') or '.so'}"
    if built.exists():
        return built
    compiler = shutil.which("c++") or shutil.which("clang++-19") or shutil.which("g++")
    if compiler is None:
        raise ClockUnavailable("no C++ compiler found (make setup installs clang-19)")
    with exclusive(built):
        if not built.exists():
            partial = built.with_suffix(".tmp")
            result = subprocess.run([compiler, "-O2", "-shared", "-fPIC", "-std=c++17",
                                     f"-I{sysconfig.get_paths()['include']}", str(SOURCE), "-o", str(partial)],
                                    capture_output=True, text=True)
            if result.returncode != 0:
                raise ClockUnavailable(f"{compiler} could not build {SOURCE.name}: "
                                       f"{(result.stderr or result.stdout).strip()[-2000:]}")
            partial.replace(built)
    return built


@functools.cache
def load():
    """The imported extension: bind(synchronize, torch.Tensor), time_call(fn), read_ns()."""
    spec = importlib.util.spec_from_file_location(MODULE, library())
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module
