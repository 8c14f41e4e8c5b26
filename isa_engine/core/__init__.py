"""The ISA engine's core: C++ sources that execute gfx942 code objects on the CPU (engine.h).

Nothing here is imported at run time; builders (isa_engine/build.py, the tests) compile
`sources()` with `include_dir()` on the include path: plain C++20, no dependencies.
"""
from __future__ import annotations

from pathlib import Path

CORE_DIR = Path(__file__).resolve().parent


def sources() -> list[Path]:
    """Every translation unit of the core, in a stable order."""
    return sorted(CORE_DIR.glob("*.cpp"))


def include_dir() -> Path:
    return CORE_DIR
