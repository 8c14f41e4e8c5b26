"""Kernel symbols as people read them: demangled (llvm-cxxfilt-19), then shortened to the
kernel's name and template arguments. The offline report names its rows with them; the ISA
engine its faults and missing runtime functions."""
from __future__ import annotations

import shutil
import subprocess

CXXFILT = "llvm-cxxfilt-19"


def demangle(symbols: list[str]) -> list[str]:
    """Each symbol demangled; unchanged when llvm-cxxfilt-19 is not installed."""
    if not symbols or shutil.which(CXXFILT) is None:
        return list(symbols)
    out = subprocess.run([CXXFILT], input="\n".join(symbols), capture_output=True, text=True, check=True)
    return out.stdout.splitlines()


def short_name(demangled: str) -> str:
    """`void f<Cfg<1, 2> >(int*, ...)` -> `f<Cfg<1, 2> >`."""
    name = demangled.removeprefix("void ")
    depth = 0
    for index, char in enumerate(name):
        depth += {"<": 1, ">": -1}.get(char, 0)
        if char == "(" and depth == 0:
            return name[:index]
    return name
