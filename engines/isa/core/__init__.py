"""The ISA engine's core: C++ sources that execute gfx942 code objects on the CPU (engine.h).

Nothing here is imported at run time; builders (engines/isa/build.py, the tests) compile
`sources()` with `include_dirs()` on the include path: plain C++20, no dependencies.
"""
from __future__ import annotations

from pathlib import Path

CORE_DIR = Path(__file__).resolve().parent


def sources() -> list[Path]:
    """Every translation unit of the core, in a stable order."""
    return sorted(CORE_DIR.glob("*.cpp"))


MACHINE_DIR = CORE_DIR.parents[2] / "machine"
NUMERIC_DIR = CORE_DIR.parents[2] / "toolchain" / "include" / "types"  # gfx942_numeric.h


def include_dirs() -> list[Path]:
    """The core's headers, the machine description's (mi300x.h, occupancy.h) and the number
    formats' codec every build shares (gfx942_numeric.h)."""
    return [CORE_DIR, MACHINE_DIR, NUMERIC_DIR]


def headers() -> list[Path]:
    """Every header a core build depends on (build caches key on them)."""
    return sorted(p for d in include_dirs() for p in d.glob("*.h"))
