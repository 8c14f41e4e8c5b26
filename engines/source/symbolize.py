"""Where a work-item was when a signal stopped it: the source engine's "[pc object+offset ...]"
marker turned into the user's source line (llvm-symbolizer on the built module's line tables)."""
from __future__ import annotations

import re
import subprocess
from pathlib import Path

from toolchain import diagnostics


PC_MARKER = re.compile(r" \[pc ((?:/\S+\+0x[0-9a-f]+ ?)+)\]")  # the instruction, then the calls it is in


def frames(obj: str, offset: int | str) -> list[tuple[str, str, str]]:
    """(function, file, line) of an instruction of a built module, innermost inlined frame first."""
    try:
        out = subprocess.run(["llvm-symbolizer-19", "--obj", obj, "--relative-address", "--inlining", hex(int(offset))
                              if isinstance(offset, int) else offset], capture_output=True, text=True,
                             timeout=60).stdout.strip().split("\n")
    except (OSError, subprocess.SubprocessError):
        return []
    found = []
    for function, place in zip(out[::2], out[1::2]):
        if place.strip() and not place.startswith("??"):
            file, line = place.strip().split(":")[:2]
            found.append((function.strip(), file, line))
    return found


def in_user_source(found: list[tuple[str, str, str]]) -> tuple[str, str, str] | None:
    """The innermost of `frames` in the user's own source: where a header's helper ran is no help."""
    return next((frame for frame in found if diagnostics.is_user_file(frame[1])), None)


def source_line(obj: str, offset: int) -> str | None:
    """`file.py:28`: the innermost frame of that instruction in the user's own source."""
    user = in_user_source(frames(obj, offset))
    return f"{Path(user[1]).name}:{user[2]}" if user else None


def symbolized(message: str) -> str:
    """The emulator's "[pc object+offset ...]" marker replaced by "at file:line (in function)": the
    innermost place in the user's own source, through inlined helpers and calls alike."""
    m = PC_MARKER.search(message)
    if not m:
        return message
    first = user = None
    for place in m.group(1).split():
        obj, offset = place.rsplit("+", 1)
        if not diagnostics.is_user_file(str(Path(obj).resolve())):
            continue  # the C library's memset, say: its own source's line is no help
        found = frames(obj, offset)
        first = first or (found[0] if found else None)
        user = in_user_source(found)
        if user:
            break
    function, file, line = user or first or (None, None, None)
    if file is None:
        return PC_MARKER.sub("", message)
    return PC_MARKER.sub(lambda _: f" at {Path(file).name}:{line} (in {function})", message, count=1)
