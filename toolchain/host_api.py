"""Host APIs a submission may call that the CPU engines cannot serve, and the one message that
says so.

Both engines simulate one MI300X host: HIP's device queries, memory, streams, events and
kernel launches; torch's streams, guards and device properties in C++; torch.cuda's device
queries, 'cuda' tensors, streams, events and graphs in Python (toolchain/simulated_host.py).
Whatever else a ROCm host offers (HIP graphs, code-object modules, hipRTC, the BLAS
libraries, torch's caching allocator, ...) fails with `message(name)` wherever an engine
meets it: the compile error that names it (`hint`), the symbol the ISA engine's runtime does
not define when the module loads, or the call itself.
"""
from __future__ import annotations

import functools
import re
from pathlib import Path

# What a name belongs to, first match wins; the message says it in brackets.
FAMILIES = (
    (re.compile(r"Graph(?!ics)|(Begin|End)Capture|IsCapturing|GetCaptureInfo"), "HIP graphs"),
    (re.compile(r"^(hip|cu)(Ext)?Module|^hipFunction_t$|^CUfunction$"), "code-object modules"),
    (re.compile(r"^(hiprtc|nvrtc)"), "runtime compilation"),
    (re.compile(r"blas|Blas|BLAS|solver|Solver"), "the BLAS libraries"),
    (re.compile(r"CachingAllocator|Allocator|MemPool|caching_allocator|mem_pool"), "torch's device allocator"),
    (re.compile(r"^(torch\.cuda|at::cuda|c10::cuda|at::hip|c10::hip)\b|^<(c10|ATen)/(cuda|hip)/"), "torch's CUDA library"),
    (re.compile(r"^(hip|HIP)"), "HIP runtime"),
    (re.compile(r"^(cuda|CUDA|cu[A-Z])"), "CUDA runtime"),
)
TORCH_GPU_NAMESPACES = re.compile(r"^(at|c10)::(cuda|hip)(::|$)")
TORCH_GPU_HEADER = re.compile(r"^(c10|ATen)/(cuda|hip)/")
HIP_HEADERS = Path("/usr/include/hip")  # Debian's HIP: the names a ROCm host declares
_LIBRARY_PREFIX = re.compile(r"^(hipblas|rocblas|hiprtc|hipfft|hipsparse|hipsolver|rocsolver|miopen|cublas|nvrtc)",
                             re.IGNORECASE)


def family(name: str) -> str:
    return next(label for pattern, label in FAMILIES + ((re.compile(""), "GPU host API"),) if pattern.search(name))


def message(name: str) -> str:
    """The line every engine fails with when `name` (a function, type, header or torch.cuda
    attribute) is reached."""
    return (f"{name} ({family(name)}) is not available on the CPU engines, whose simulated MI300X serves device "
            f"queries, memory, streams, events and kernel launches only")


@functools.cache
def hip_names() -> frozenset[str]:
    """Every hip*/HIP_* identifier the installed HIP headers declare (empty without them)."""
    names: set[str] = set()
    for header in sorted(HIP_HEADERS.rglob("*.h")) if HIP_HEADERS.is_dir() else []:
        if "nvidia" in header.parts[-2] or "nvcc" in header.parts[-2]:
            continue
        names.update(re.findall(r"\b(hip[A-Z]\w*|HIP_[A-Z]\w*)\b", header.read_text(errors="replace")))
    return frozenset(names)


@functools.cache
def _hipified() -> dict[str, str]:
    """torch's hipify table, CUDA name -> HIP name (for CUDA spellings on the source engine)."""
    try:
        from torch.utils.hipify.cuda_to_hip_mappings import CUDA_TO_HIP_MAPPINGS
    except ImportError:
        return {}
    return {cuda: mapped if isinstance(mapped, str) else mapped[0]
            for table in CUDA_TO_HIP_MAPPINGS for cuda, mapped in table.items()}


def is_host_api(name: str) -> bool:
    """A name a real ROCm (or CUDA) host provides: torch's GPU namespaces and headers, HIP's
    declarations, the GPU libraries, or a CUDA name hipify maps to one of them."""
    if TORCH_GPU_NAMESPACES.match(name) or TORCH_GPU_HEADER.match(name.strip("<>")):
        return True
    bare = name.rsplit("::", 1)[-1]
    if bare in hip_names() or _LIBRARY_PREFIX.match(bare):
        return True
    mapped = _hipified().get(bare)
    return mapped is not None and (mapped in hip_names() or bool(_LIBRARY_PREFIX.match(mapped)))


# clang's words for a name it cannot find, and the name each one gives
_MISSING = (
    re.compile(r"use of undeclared identifier '(?P<name>[\w:]+)'"),
    re.compile(r"unknown type name '(?P<name>[\w:]+)'"),
    re.compile(r"no (member|type|template) named '(?P<name>\w+)' in namespace '(?P<scope>[\w:]+)'"),
    re.compile(r"'(?P<header>[\w./-]+)' file not found"),
)


def missing_name(error: str, included: str | None = None) -> str | None:
    """The host API a clang error says is missing, if it is one: the name (qualified), or the
    header (`<c10/cuda/...>`) the user included (`included`, when the error is deeper inside it)."""
    for pattern in _MISSING:
        match = pattern.search(error)
        if match is None:
            continue
        if "header" in match.groupdict():
            header = included or match["header"]
            return f"<{header}>" if TORCH_GPU_HEADER.match(header) else None
        scope = match.groupdict().get("scope")
        name = f"{scope}::{match['name']}" if scope else match["name"]
        return name if is_host_api(name) else None
    return None


def hint(error: str, included: str | None = None) -> str | None:
    """`message` for the host API a compile error names, else None."""
    name = missing_name(error, included)
    return message(name) if name else None
