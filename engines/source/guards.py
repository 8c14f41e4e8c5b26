"""Reads past the end of a tensor on the source engine, caught and reported as the ISA engine
reports them: once per kernel, naming the tensor (the kernel parameter pointing into it, the
call's argument, its dtype, shape and size) and the source line; the read gives zeros.

Around each call of a module function, every tensor argument's storage is copied into a twin
that ends exactly where an inaccessible guard page begins (emu/guards.h has the picture); the
call runs on the twins and their bytes are copied back after it. The first access past a tensor
in each kernel faults in its guard, the emulator's fault handler records it and opens the page
(zeros), and the kernel runs on. After the call: a read is a diagnostic (an error in strict mode,
`--strict` or EMU_STRICT=1), a write past a tensor fails the call (on a GPU it corrupts another
tensor or faults).
"""
from __future__ import annotations

import ctypes
import functools
import mmap
import os
import sys

import torch

from engines.source.errors import EmulatorError
from engines.source.symbolize import source_line
from toolchain.calls import labelled_tensors

PAGE = mmap.PAGESIZE
_libc = ctypes.CDLL(None, use_errno=True)
_libc.mprotect.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int]
_printed: set[str] = set()  # kernels whose read past a tensor this process already reported
_previous: list = []  # the last call's twins, alive until the next call: a result viewing one stays valid
_strict = [os.environ.get("EMU_STRICT", "") not in ("", "0")]


def set_strict(on: bool) -> None:
    _strict[0] = on


class Twin:
    """A storage's bytes at the end of a fresh mapping, a guard page after them."""

    def __init__(self, storage: torch.UntypedStorage):
        self.original = storage
        self.nbytes = storage.nbytes()
        pages = -(-self.nbytes // PAGE) * PAGE
        self.region = mmap.mmap(-1, pages + PAGE)
        base = ctypes.addressof(ctypes.c_char.from_buffer(self.region))
        self.guard = (base + pages, base + pages + PAGE)
        if _libc.mprotect(self.guard[0], PAGE, 0) != 0:
            raise OSError(ctypes.get_errno(), "mprotect of a guard page failed")
        self.bytes = torch.frombuffer(self.region, dtype=torch.uint8, count=self.nbytes, offset=pages - self.nbytes)
        self.bytes.copy_(self.view_of(storage, torch.uint8))
        self.storage = self.bytes.untyped_storage()

    @staticmethod
    def view_of(storage: torch.UntypedStorage, dtype: torch.dtype, like: torch.Tensor | None = None) -> torch.Tensor:
        out = torch.empty(0, dtype=dtype)
        if like is None:
            return out.set_(storage, 0, (storage.nbytes(),), (1,))
        return out.set_(storage, like.storage_offset(), like.size(), like.stride())

    def copy_back(self) -> None:
        self.view_of(self.original, torch.uint8).copy_(self.bytes)


def _substitute(value, swap):
    if isinstance(value, torch.Tensor):
        return swap(value)
    if isinstance(value, (list, tuple)):
        return type(value)(_substitute(v, swap) for v in value)
    return value


def guarded(runtime, fn, name: str):
    """fn with its tensors on guarded twins, registered with the engine's runtime (its
    guard_begin and guard_end); reports reads past them after each call."""
    @functools.wraps(fn)
    def call(*args, **kwargs):
        labelled = labelled_tensors(name, args, kwargs)
        twins: dict[int, Twin] = {}
        for _, tensor in labelled:
            storage = tensor.untyped_storage()
            if storage.nbytes() and storage.data_ptr() not in twins and tensor.device.type == "cpu":
                twins[storage.data_ptr()] = Twin(storage)

        def to_twin(t):
            twin = twins.get(t.untyped_storage().data_ptr())
            return t if twin is None else Twin.view_of(twin.storage, t.dtype, t)

        with torch.no_grad():
            args_, kwargs_ = _substitute(args, to_twin), {k: _substitute(v, to_twin) for k, v in kwargs.items()}
        order = list(twins.values())
        _previous[:] = order
        runtime.guard_begin([(t.bytes.data_ptr(), *t.guard) for t in order])
        try:
            result = fn(*args_, **kwargs_)
        finally:
            hits = runtime.guard_end()
            with torch.no_grad():
                for twin in order:
                    twin.copy_back()
        back = {t.storage.data_ptr(): t.original for t in order}
        result = _substitute(result, lambda t: t if t.untyped_storage().data_ptr() not in back
                             else Twin.view_of(back[t.untyped_storage().data_ptr()], t.dtype, t))
        labels: dict[int, str] = {}
        for label, tensor in labelled:  # a storage passed twice is named by its first argument
            labels.setdefault(tensor.untyped_storage().data_ptr(), label)
        _report(hits, [labels[t.original.data_ptr()] for t in order])
        return result
    return call


def _describe(params: str, param: int, tensor: str) -> str:
    names = params.split(",") if params else []
    parameter = (f"`{names[param]}`" if 0 <= param < len(names) and names[param]
                 else f"kernel argument {param}" if param >= 0 else "")
    return f"{parameter} ({tensor})" if parameter else tensor


def _report(hits, tensors: list[str]) -> None:
    for kernel, params, param, guard, write, obj, offset in hits:
        who = kernel or "host code"
        where = source_line(obj, offset) if obj else None
        at = f" at {where}" if where else ""
        tensor = _describe(params, param, tensors[guard] if 0 <= guard < len(tensors) else "a tensor")
        if write:
            raise EmulatorError(f"[emulator] {who}{at}: write past the end of {tensor}: on a GPU it corrupts "
                                f"another tensor or faults")
        message = f"{who}{at}: read past the end of {tensor}: zeros here, whatever lies past it on the GPU"
        if _strict[0]:
            raise EmulatorError(f"[emulator] {message} (--strict)")
        if who not in _printed:
            _printed.add(who)
            print(f"source engine diagnostic (read past the end of a tensor; --strict makes it a failure): {message}",
                  file=sys.stderr, flush=True)
