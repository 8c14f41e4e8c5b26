"""Which of a user's compiler flags reach which of our builds: one filter, two rule sets.

load_inline hands each string of extra_cflags / extra_cuda_cflags to the shell as it is, so one
string may hold several flags; the filter reads words. `device_flags` keeps what the runner's
hipcc applies to the gfx942 device compile (offline report, ISA engine): we build for gfx942
only, so the user's arch flags go, and so do host-only tuning and flags that write files of their
own. `host_flags` keeps what still means something when device code is compiled as host C++ for
the CPU (the source engine): macros, include folders, warnings. `code_flags` keeps, of a build's
own flags, what shapes the code once the source is preprocessed (engines/isa/device_code.py).
"""
from __future__ import annotations

import re

# Reach no build of ours: another target, or files written beside the sources.
_NO_BUILD = r"--offload-arch=.*|--amdgpu-target=.*|--?save-temps(=.*)?|-fopenmp.*"
DEVICE_DROPPED = re.compile(rf"^({_NO_BUILD}|-march=.*|-mtune=.*|-mcpu=.*|-pthread)$")
# A host build also drops what would break the emulator's own headers (-std below C++20, fast
# math, -Werror on warnings about code we generate) and what means nothing on the host.
HOST_DROPPED = re.compile(rf"^({_NO_BUILD}|--gpu-max-threads-per-block=.*|-fgpu-.*|-fno-gpu-.*|--cuda-.*|-x|hip"
                          r"|c\+\+|-m.*|-std=.*|-O.*|-ffast-math|-funsafe-math-optimizations|-ffinite-math-only"
                          r"|-fno-honor-(nans|infinities)|-Werror(=.*)?|-pedantic-errors|-lineinfo|-g.*"
                          r"|--use_fast_math|-use_fast_math|--expt-.*|-Xptxas.*|-ffp-contract=.*"
                          r"|-fno-exceptions|-fno-rtti|-fPIC|-shared|-c)$")
# Host-build flags whose next word goes with them.
HOST_DROPPED_WITH_ARGUMENT = frozenset({"-mllvm", "-Xclang", "-Xarch_device", "-Xoffload-linker", "-x",
                                        "--offload-arch", "-Xcompiler", "-Xptxas", "--gpu-architecture", "-arch"})
# What the preprocessor alone reads (macros, include folders), and those of them with a word after.
PREPROCESSOR_ONLY = re.compile(r"^(-D|-U|-I).*$")
PREPROCESSOR_WITH_ARGUMENT = frozenset({"-isystem", "-include", "-idirafter", "-iquote"})


def kept(flags, dropped: re.Pattern, with_argument: frozenset = frozenset(), split: bool = True) -> list[str]:
    """The words of `flags` (one string, or a list of them) that `dropped` does not match; a
    word in `with_argument` is dropped with the word after it. split=False: each string is one
    word (a command line already split, whose paths may hold spaces)."""
    strings = [flags] if isinstance(flags, str) else [str(flag) for flag in flags or []]
    out, skip = [], False
    for word in (word for string in strings for word in (string.split() if split else [string])):
        if skip:
            skip = False
        elif word in with_argument:
            skip = True
        elif not dropped.match(word):
            out.append(word)
    return out


def device_flags(flags) -> list[str]:
    """The user's flags the gfx942 device compile gets."""
    return kept(flags, DEVICE_DROPPED)


def host_flags(flags) -> list[str]:
    """The user's flags a host-CPU build of device code gets."""
    return kept(flags, HOST_DROPPED, HOST_DROPPED_WITH_ARGUMENT)


def code_flags(command: list[str]) -> list[str]:
    """A build's flags (one word each) less those only the preprocessor reads."""
    return kept(command, PREPROCESSOR_ONLY, PREPROCESSOR_WITH_ARGUMENT, split=False)
