"""One process at a time on a build output: `with exclusive(path):` holds `<path>.lock`, so
processes building the same inputs at once (test workers, parallel prediction tasks) take turns
and the later ones find the finished output."""
from __future__ import annotations

import contextlib
import fcntl
from pathlib import Path


@contextlib.contextmanager
def exclusive(path: Path):
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path.with_name(path.name + ".lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)
