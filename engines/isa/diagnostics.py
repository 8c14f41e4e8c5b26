"""The ISA engine's diagnostics (engine.h): what an MI300X runs through but is likely a bug —
missing s_waitcnt, LDS races, LDS accesses past the workgroup's allocation, global reads past
every allocation. The leaderboard judges outputs, so by default they are printed (once per
kernel and kind, with the user's source line) and the run goes on; in strict mode
(ISA_ENGINE_STRICT=1, `eval/run.py --strict`) the engine faults on the first one instead."""
from __future__ import annotations

import ctypes
import re
import sys
from dataclasses import dataclass

from toolchain.symbols import demangle, short_name

_printed: set[tuple[str, str]] = set()  # (kernel, kind) already printed by this process


@dataclass(frozen=True)
class Diagnostic:
    kind: str
    kernel: str
    count: int
    message: str


def take(lib: ctypes.CDLL) -> list[Diagnostic]:
    """The diagnostics the runtime kept since the last take."""
    lib.isa_rt_take_diagnostics.argtypes = [ctypes.c_char_p, ctypes.c_size_t]
    lib.isa_rt_take_diagnostics.restype = ctypes.c_size_t
    size = 1 << 14
    while True:
        buffer = ctypes.create_string_buffer(size)
        length = lib.isa_rt_take_diagnostics(buffer, size)
        if length < size:
            break
        size = length + 1
    rows = []
    for line in buffer.value.decode(errors="replace").splitlines():
        kind, kernel, count, message = line.split("\t", 3)
        rows.append(Diagnostic(kind, kernel, int(count), message))
    return rows


_MANGLED = re.compile(r"\b_Z[\w.$]+")


def readable(message: str) -> str:
    """Kernel symbols in a fault demangled and shortened to the kernel's name and template
    arguments (`staged_row_kernel`, `gemm<128, 64>`), never its parameter list."""
    symbols = sorted(set(_MANGLED.findall(message)))
    if not symbols:
        return message
    for symbol, name in zip(symbols, demangle(symbols)):
        name = short_name(name)
        message = message.replace(symbol, name if len(name) <= 80 else name[:76] + " ...")
    return message


_SOURCE_LINE = re.compile(r" at (?:[^\s()]*/)?([^/\s()]+:\d+)(?: \(.*)?$")
_WHERE = re.compile(r" at (?P<inst>[\w.]+) \(0x[0-9a-f]+\) at (?P<line>[^\s/]+:\d+)$")


def shortened(message: str) -> str:
    """A fault or diagnostic of the core as the user reads it: the kernel's demangled short name,
    then where (file:line, no folder or signature, and the instruction), then what:
    `_Z6kernelPf: what at global_load_dword (0x10) at /work/x.py:28 (kernel(float*))` ->
    `kernel at x.py:28 (global_load_dword): what`."""
    text = _SOURCE_LINE.sub(r" at \1", readable(message))
    where = _WHERE.search(text)
    kernel, colon, what = text[:where.start()].partition(": ") if where else ("", "", "")
    return f"{kernel} at {where['line']} ({where['inst']}): {what}" if colon else text


def report(diagnostics: list[Diagnostic], stream=None) -> list[str]:
    """Prints each (kernel, kind) once per process: its first site, and how many more there were.
    Returns the lines printed."""
    stream = stream or sys.stderr
    groups: dict[tuple[str, str], list[Diagnostic]] = {}
    for d in diagnostics:
        groups.setdefault((d.kernel, d.kind), []).append(d)
    lines = []
    for key, sites in groups.items():
        if key in _printed:
            continue
        _printed.add(key)
        times = sum(d.count for d in sites)
        more = f", {len(sites) - 1} more site(s) in this kernel" if len(sites) > 1 else ""
        lines.append(f"isa engine diagnostic ({key[1]}, {times} time(s){more}; --strict makes it a failure): "
                     f"{shortened(sites[0].message)}")
    for line in lines:
        print(line, file=stream, flush=True)
    return lines
