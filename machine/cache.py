"""Where this host keeps what the workbench builds: one folder per machine and user, shared by
every clone of the repository and every run.

    from machine import cache
    cache.ROOT / "engines" / "source"       # what every build shares (runtimes, PCHs, headers)
    cache.entries(Path("submission.py"))     # the modules that file's load_inline calls build

`${AMD_FP8_MM_CACHE}` when set, else `${XDG_CACHE_HOME:-~/.cache}/amd-fp8-mm` (scripts/setup.sh
keeps its stamp there too). It sits in the lowest layer, beside the machine's facts, because the
occupancy rule's library (machine/__init__.py) is built there as well as the engines' and the
harness's builds. Every entry is named by a digest of what it was built from (sources, flags,
compiler, torch's version), never by the path of the clone that built it, so a second clone
finds the first one's builds.

Two kinds of entries:
  - shared (everything outside `entries/`): the engines' runtimes, precompiled headers, generated
    headers; built from the repository's files alone, so by trusted code;
  - modules (`entries/<space>/`): what load_inline calls build. A harness's stage builds in the
    space of its submission file (named by a digest of the file's bytes); a sandboxed stage
    (eval/sandbox.py) sees only that space and writes it only in the build pass, and the shared
    entries are read-only there, so what a submission plants can reach no other submission's
    verdict. A build outside a stage (tests, tools) goes to the space of the file that made the
    load_inline call, so it is found again by that file's runs, or to the local space.
"""
from __future__ import annotations

import hashlib
import os
from pathlib import Path

ENVIRONMENT = "AMD_FP8_MM_CACHE"
# Set by the harness for a stage: the space every build of that stage uses.
SPACE_ENVIRONMENT = "AMD_FP8_MM_SPACE"
LOCAL_SPACE = "local"  # builds made outside a stage by no file


def _root() -> Path:
    chosen = os.environ.get(ENVIRONMENT)
    if chosen:
        return Path(chosen).resolve()
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache").resolve() / "amd-fp8-mm"


ROOT = _root()
ENTRIES = ROOT / "entries"


def space_of(submission: Path) -> str:
    """The space of a submission file: a digest of its bytes (not of its path)."""
    return hashlib.sha256(Path(submission).read_bytes()).hexdigest()[:16]


def entries(origin: Path | None = None) -> Path:
    """The folder of a module build: the stage's space when the harness set one, else the space
    of `origin` (the file whose load_inline call builds it: a test or a tool building a submission
    file shares the builds of that file's runs), else the local space."""
    space = os.environ.get(SPACE_ENVIRONMENT)
    if not space and origin is not None:
        try:
            space = space_of(origin)
        except OSError:
            pass
    return ENTRIES / (space or LOCAL_SPACE)


def writable_or_private(shared: Path, needed: Path | None = None) -> Path:
    """`shared` (a folder of shared entries) where this process may write it or it holds
    `needed` already, else a folder of the same name in the stage's own space: a stage that
    finds a shared entry missing builds its own copy instead of writing where others read."""
    if (needed is not None and needed.exists()) or _may_write(shared):
        return shared
    return entries() / "shared" / shared.relative_to(ROOT)


def _may_write(folder: Path) -> bool:
    existing = folder
    while not existing.exists():
        existing = existing.parent
    return os.access(existing, os.W_OK)
