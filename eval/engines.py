"""The CPU engines a HIP submission can run on when there is no GPU, behind one interface.

Each engine is a package exposing torch's build entry points, `load_inline(...)` and `load(...)`
(source files), both reading their arguments through toolchain/load_call.py and returning a
module whose functions run the submission's kernels on CPU tensors. The harness picks one
by name (`eval/run.py --engine`) and knows nothing of its insides.

  source  engines/source/: the HIP source compiled for x86 with the builtins re-implemented
  isa     engines/isa/: the gfx942 code object clang emits, executed instruction by instruction
"""
from __future__ import annotations

import importlib

ENGINES = {
    "source": ("engines.source", "the HIP source compiled for the host CPU, wave64 semantics emulated"),
    "isa": ("engines.isa", "the compiled gfx942 machine code, executed instruction by instruction"),
}
DEFAULT = "source"


def names() -> list[str]:
    return list(ENGINES)


def describe() -> str:
    return "; ".join(f"{name}: {doc}" for name, (_, doc) in ENGINES.items())


def set_strict(name: str, on: bool) -> None:
    """Strict mode for the engine's diagnostics (reads past a tensor on both; races, missing waits
    and reads past LDS on the ISA engine): they fail the run instead of being printed."""
    setter = getattr(importlib.import_module(ENGINES[name][0]), "set_strict", None)
    if setter is not None:
        setter(on)


def prepare(name: str) -> None:
    """Build what all of the engine's builds share, here: a stage's sandbox keeps it read-only
    (eval/sandbox.py)."""
    preparer = getattr(importlib.import_module(ENGINES[name][0]), "prepare", None)
    if preparer is not None:
        preparer()


def set_device_code(name: str, folder: str) -> None:
    """Run the code objects another compiler made (one per module, in `folder`) instead of
    compiling the device code here; raises ValueError for an engine that runs no machine code."""
    setter = getattr(importlib.import_module(ENGINES[name][0]), "set_device_code", None)
    if setter is None:
        raise ValueError(f"the {name} engine compiles the HIP source for this CPU and runs no gfx942 code object: "
                         "--device-code needs --engine isa")
    setter(folder)


def entry_point(name: str, function: str = "load_inline"):
    """The engine's drop-in for torch.utils.cpp_extension.<function> ("load_inline" or "load");
    raises ImportError when the engine cannot be loaded here."""
    if name not in ENGINES:
        raise ValueError(f"unknown engine {name!r}: expected one of {', '.join(ENGINES)}")
    return getattr(importlib.import_module(ENGINES[name][0]), function)
