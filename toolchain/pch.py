"""Precompiled headers: torch's headers parsed once per machine instead of once per build.

Parsing torch/extension.h is most of a small C++ build (~20 s here); a translation unit that
starts with the same includes, compiled with the same flags, reads them from a PCH in a few
seconds. Both engines use this: the source engine for its prelude (torch + its HIP runtime),
the ISA engine for the bindings file (main.cpp) of every load_inline build.

    pch = precompiled(command, "#include <torch/extension.h>\n", folder, "bindings", generation)
    # -> folder/bindings_<generation>_<hash of command and text>.pch, or None when it does not build

A PCH is only valid for the exact flags it was made with, so the command is part of its name.
`generation` names what else it was made from (our headers, torch's version): PCHs of the same
tag from another generation are removed when a new one is built (they are ~150 MB each).
"""
from __future__ import annotations

import contextlib
import hashlib
import os
import re
import subprocess
from pathlib import Path

from machine import cache
from toolchain.lock import exclusive


# What clang says when a PCH no longer fits (a header changed, torch reinstalled, other flags): the
# build is retried without it. Any other failure is the user's; the command line names the .pch
# file, so its mere mention says nothing.
_STALE = re.compile(r"precompiled header|PCH file|AST file")
# NOTE: without it, every translation unit reading the PCH instantiates the templates torch's
# headers use (pybind11 casters, torch::nn modules' clone, ...) again: a third of a small build.
BUILD_FLAGS = ["-fpch-instantiate-templates"]
# NOTE: the headers' contents are in a PCH's name (`generation`, the command); their mtimes are
# not, and a clone made again at the same path gives every header a new one: clang would call the
# PCH stale and the build would go on without it (and under another module name, torch's
# versioning of a second load in one process).
BUILD_FLAGS += ["-Xclang", "-fno-pch-timestamp"]


def is_stale(compiler_output: str) -> bool:
    return bool(_STALE.search(compiler_output))


def compile_with(pch: Path | None, compile):
    """compile(extra_flags) with `pch` included (no PCH: without); when clang says the PCH is
    stale, the PCH is removed (rebuilt next time) and the compile runs again without it. Any
    other failure is raised as it came."""
    if pch is None:
        return compile([])
    try:
        return compile(["-include-pch", str(pch)])
    except Exception as exc:
        if not is_stale(str(exc)):
            raise
        pch.unlink(missing_ok=True)
        return compile([])


def precompiled(command: list[str], text: str, folder: Path, tag: str, generation: str) -> Path | None:
    """The PCH of `text` compiled by `command` (a compiler and its flags, ending before the
    input), built once and shared by every process; None when it does not build."""
    key = hashlib.sha256("\0".join([*command, *BUILD_FLAGS, text]).encode()).hexdigest()[:16]
    name = f"{tag}_{generation}_{key}.pch"
    folder = cache.writable_or_private(folder, folder / name)  # a sandboxed stage builds its own
    pch = folder / name
    if pch.exists():
        return pch
    with exclusive(pch):  # processes needing the same PCH take turns: one builds it
        return pch if pch.exists() else _build(command, text, folder, tag, generation, pch)


def _build(command: list[str], text: str, folder: Path, tag: str, generation: str, pch: Path) -> Path | None:
    for stale in folder.glob(f"{tag}_*"):
        if not stale.name.startswith(f"{tag}_{generation}_") and stale.suffix != ".lock":
            stale.unlink(missing_ok=True)
    header = pch.with_suffix(".h")
    header_tmp, pch_tmp = (pch.with_suffix(f".{os.getpid()}.{ext}.tmp") for ext in ("h", "pch"))
    try:
        # NOTE: clang checks the mtime of every input of a PCH: the header is created once,
        # atomically, and never rewritten (another process may be building from it).
        header_tmp.write_text(text)
        with contextlib.suppress(FileExistsError):
            os.link(header_tmp, header)
        subprocess.run([*command, *BUILD_FLAGS, "-x", "c++-header", str(header), "-o", str(pch_tmp)], check=True,
                       capture_output=True, timeout=600)
        os.replace(pch_tmp, pch)
    except (OSError, subprocess.SubprocessError):
        return None
    finally:
        header_tmp.unlink(missing_ok=True)
        pch_tmp.unlink(missing_ok=True)
    return pch
