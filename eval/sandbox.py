"""The box every stage of a run starts in: bubblewrap (Debian's `bubblewrap`, set up by
`make setup`).

Inside, the worker that imports and calls the submission sees:
  - its own PID namespace: when the stage ends, the harness kills the box's first process and
    the kernel kills everything the submission started, detached or not;
  - the whole file system read-only (the checkout, the home folder, the Python installation),
    but for a fresh private /tmp and the folders the stage is given to write; the caches a
    GPU runtime fills as it compiles (Triton's) are pointed into that /tmp (`environment`);
  - no network (an empty network namespace), and no terminal to signal (setsid);
  - /dev: a minimal one on the CPU; on a GPU machine the host's (the GPU's device nodes, and
    /dev/shm, where torch keeps the counters of device tensors shared with the parent: the
    parent removes what a stage leaves there, `remove_shared_memory_left`).

What a stage may write: a build pass (the submission imported, nothing called, so it has seen
no input, output or clock) writes its own submission's space of the build cache
(machine/cache.py: the modules its load_inline calls build, in a folder named by a digest of the
file's bytes); a stage that calls the submission writes only its private /tmp, which vanishes
with the box. Every stage sees its own space only (the other submissions' spaces are hidden
behind an empty folder) and the cache's shared entries (the engines' runtimes, precompiled
headers) read-only: the parent builds those before the first stage (`eval/engines.py`
prepare). So no file a stage writes reaches a later stage except its own submission's builds,
and no stage reads or plants another submission's.

Where bubblewrap is missing or cannot start (no user namespaces, some containers), `probe`
says why; the run prints it once and goes on unsandboxed, and the report records it.
"""
from __future__ import annotations

import functools
import os
import shutil
import site
import sys
import subprocess
from dataclasses import dataclass
from pathlib import Path

from machine import cache

REPO = Path(__file__).resolve().parent.parent
TMP_BYTES = 2 * 1024 ** 3  # the private /tmp (memory-backed)
TMP = Path("/tmp")
PYTHON_FOLDERS = tuple(Path(p).resolve() for p in {sys.prefix, sys.base_prefix, *site.getsitepackages()})


def space(submission: Path) -> Path:
    """The folder of a submission's builds in the build cache: what its build pass may write
    and its stages read."""
    return cache.ENTRIES / cache.space_of(submission)


@dataclass(frozen=True)
class Sandbox:
    available: bool
    description: str  # what the report records: "bubblewrap 0.8.0", or "none: <why>"

    def wrap(self, argv: list[str], *, gpu: bool, build: bool, submission: Path | None,
             visible: tuple[Path, ...] = ()) -> list[str]:
        """`argv` run inside the box (unchanged where no box is available) for a stage of
        `submission` (None: of no submission, no space of the build cache); `visible`: folders
        the stage reads that the private /tmp would hide (the submission's own)."""
        if not self.available:
            return argv
        box = [shutil.which("bwrap"), "--ro-bind", "/", "/", "--proc", "/proc",
               *(["--dev-bind", "/dev", "/dev"] if gpu else ["--dev", "/dev", "--unshare-ipc"]),
               "--size", str(TMP_BYTES), "--tmpfs", "/tmp",
               "--unshare-pid", "--unshare-net", "--unshare-uts",
               "--die-with-parent", "--new-session", "--chdir", str(REPO)]
        # NOTE: the private /tmp hides whatever lay under /tmp: the checkout, the Python
        # installation, the build cache and the submission's folder are bound again (read-only)
        # where they were; a file right in /tmp is bound alone (/tmp itself stays the box's).
        shown = [REPO, *PYTHON_FOLDERS, cache.ROOT, *visible, *([submission] if submission else [])]
        for path in sorted(set(shown), key=lambda p: len(p.parts)):  # a folder before what lies in it
            if path.is_relative_to(TMP) and path != TMP:
                box += ["--ro-bind", str(path), str(path)]
        cache.ENTRIES.mkdir(parents=True, exist_ok=True)
        box += ["--tmpfs", str(cache.ENTRIES)]
        if submission is not None:
            own = space(submission)
            own.mkdir(parents=True, exist_ok=True)
            box += ["--bind" if build else "--ro-bind", str(own), str(own)]
        box += ["--remount-ro", str(cache.ENTRIES)]  # the empty folder over the other spaces
        return [*box, "--", *argv]


def environment(submission: Path) -> dict[str, str]:
    """The environment of a stage of `submission`: the parent's, with every build in the
    submission's space of the build cache (torch's extension builds, a GPU's load_inline,
    included), and the caches a GPU runtime writes as it compiles in the private /tmp: Triton's
    (by default under the home folder, read-only in the box, where its first kernel launch fails
    with "Read-only file system"). torch's own (inductor) caches already follow TMPDIR."""
    return dict(os.environ, **{cache.SPACE_ENVIRONMENT: cache.space_of(submission)},
                TORCH_EXTENSIONS_DIR=str(space(submission) / "torch_extensions"), TMPDIR=str(TMP),
                TRITON_CACHE_DIR=str(TMP / "triton"))


@functools.cache
def probe() -> Sandbox:
    """Whether bubblewrap can start a box here, tried once per process."""
    bwrap = shutil.which("bwrap")
    if bwrap is None:
        return Sandbox(False, "none: bubblewrap is not installed (make setup installs it)")
    trial = Sandbox(True, "")
    try:
        result = subprocess.run(trial.wrap(["true"], gpu=False, build=False, submission=None), capture_output=True,
                                text=True, timeout=30)
        version = subprocess.run([bwrap, "--version"], capture_output=True, text=True, timeout=30).stdout.strip()
    except (OSError, subprocess.TimeoutExpired) as exc:
        return Sandbox(False, f"none: bubblewrap did not start ({exc})")
    if result.returncode != 0:
        why = " ".join(result.stderr.split()) or f"exit status {result.returncode}"
        return Sandbox(False, f"none: bubblewrap cannot start a box here ({why})")
    return Sandbox(True, version or "bubblewrap")


SHARED_MEMORY = Path("/dev/shm")


def shared_memory() -> set[str]:
    """The names in the host's /dev/shm (a GPU stage can write there)."""
    try:
        return set(os.listdir(SHARED_MEMORY))
    except OSError:
        return set()


def _mapped_shared_memory() -> set[str]:
    """The /dev/shm names some live process has mapped (another stage's, still running)."""
    names = set()
    for maps in Path("/proc").glob("[0-9]*/maps"):
        try:
            text = maps.read_text()
        except OSError:
            continue
        names.update(line.rsplit("/dev/shm/", 1)[1].split()[0] for line in text.splitlines() if "/dev/shm/" in line)
    return names


def remove_shared_memory_left(before: set[str]) -> None:
    """Remove what a GPU stage left in /dev/shm, so that it reaches no later stage; what a live
    process still maps (another stage running beside this one) stays."""
    left = shared_memory() - before
    if not left:
        return
    for name in left - _mapped_shared_memory():
        path = SHARED_MEMORY / name
        try:
            shutil.rmtree(path) if path.is_dir() and not path.is_symlink() else path.unlink()
        except OSError:
            pass
