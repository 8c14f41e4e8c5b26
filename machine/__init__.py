"""The MI300X machine description (mi300x.yaml) and its one occupancy rule (occupancy.h).

    from machine import fact, occupancy
    fact("cus")                                    # 304
    occupancy(unified_vgprs=128, sgprs=40, lds_bytes=32768, workgroup_size=256)

C++ reads the same facts from the generated mi300x.h. `occupancy` runs occupancy.h itself,
compiled once into a small shared library in the machine's build cache (machine/cache.py), so the
offline report, the simulated host and the ISA engine's timing model cannot disagree.
"""
from __future__ import annotations

import ctypes
import functools
import hashlib
import os
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

import yaml

from machine import cache

DIR = Path(__file__).resolve().parent
YAML = DIR / "mi300x.yaml"
HEADER = DIR / "mi300x.h"
BUILD_DIR = cache.ROOT / "machine"


@functools.cache
def description() -> dict:
    return yaml.safe_load(YAML.read_text())


def fact(key: str):
    """One fact's value (KeyError names the key when there is no such fact)."""
    facts = description()["facts"]
    if key not in facts:
        raise KeyError(f"{YAML.name} has no fact {key!r}")
    return facts[key]["value"]


def facts() -> dict:
    return {key: entry["value"] for key, entry in description()["facts"].items()}


def mfma_cycles() -> dict[str, float]:
    return dict(description()["mfma_cycles"])


@dataclass(frozen=True)
class Occupancy:
    workgroups_per_cu: int  # 0: the workgroup cannot launch
    waves_per_simd: int     # resident waves on the busiest SIMD
    limiter: str            # what stopped one more workgroup


_LIMITERS = ("wave slots", "VGPRs", "SGPRs", "LDS", "barriers")


@functools.cache
def _library() -> ctypes.CDLL:
    source = DIR / "occupancy.cpp"
    digest = hashlib.sha256(b"".join(p.read_bytes() for p in (source, DIR / "occupancy.h", HEADER))).hexdigest()[:16]
    folder = cache.writable_or_private(BUILD_DIR, BUILD_DIR / f"libmachine_{digest}.so")  # a stage builds its own
    library = folder / f"libmachine_{digest}.so"
    if not library.exists():
        folder.mkdir(parents=True, exist_ok=True)
        fd, partial = tempfile.mkstemp(dir=folder, suffix=".so")
        os.close(fd)
        compiler = os.environ.get("CXX_HOST", "g++")
        result = subprocess.run([compiler, "-O2", "-std=c++17", "-shared", "-fPIC", "-o", partial, str(source)],
                                capture_output=True, text=True)
        if result.returncode != 0:
            os.unlink(partial)
            raise RuntimeError(f"building the occupancy rule with {compiler} failed:\n{result.stderr}")
        os.replace(partial, library)  # atomic: parallel builders never load a half-written file
    lib = ctypes.CDLL(str(library))
    lib.machine_occupancy.argtypes = [ctypes.c_uint32] * 4 + [ctypes.POINTER(ctypes.c_uint32)]
    return lib


def occupancy(unified_vgprs: int, sgprs: int, lds_bytes: int, workgroup_size: int) -> Occupancy:
    """Resident workgroups per CU (machine/occupancy.h). `unified_vgprs`: the kernel
    descriptor's per-wave VGPR allocation, AGPRs included."""
    for name, value in (("unified_vgprs", unified_vgprs), ("sgprs", sgprs), ("lds_bytes", lds_bytes),
                        ("workgroup_size", workgroup_size)):
        if not 0 <= int(value) < 2 ** 32:
            raise ValueError(f"occupancy: {name}={value} is out of range")
    out = (ctypes.c_uint32 * 3)()
    _library().machine_occupancy(unified_vgprs, sgprs, lds_bytes, workgroup_size, out)
    return Occupancy(out[0], out[1], _LIMITERS[out[2]])

