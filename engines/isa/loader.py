"""Loads a built extension next to its HIP runtime and wraps its functions.

The wrapper tells the runtime which tensors each call passes (so an out-of-allocation access
names the argument it missed) and turns a fault recorded during the call into IsaFault, even
when the submission swallowed the launch error: on an MI300X a memory fault kills the process.
"""
from __future__ import annotations

import ctypes
import functools
import importlib.util
import re
import types
from pathlib import Path

from engines.isa import diagnostics
from engines.isa.errors import IsaBuildError, IsaFault
from toolchain import host_api
from toolchain.calls import labelled_tensors
from toolchain.diagnostics import system_prefixes
from toolchain.symbols import demangle

_FAULT_BUFFER = 1 << 16
LOADED: list[ctypes.CDLL] = []  # every runtime loaded in this process (extensions link their own)


@functools.cache
def runtime(library: Path) -> ctypes.CDLL:
    """The runtime library, loaded once. The extension links it (DT_NEEDED, rpath), so its HIP
    calls bind to its own runtime; loading it locally keeps two runtimes in one process (the
    tests' double beside the real one) from answering each other's calls."""
    lib = ctypes.CDLL(str(library), mode=ctypes.RTLD_LOCAL)
    LOADED.append(lib)
    lib.isa_rt_note_allocation.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_char_p]
    lib.isa_rt_forget_allocation.argtypes = [ctypes.c_void_p]
    lib.isa_rt_take_fault.argtypes = [ctypes.c_char_p, ctypes.c_size_t]
    lib.isa_rt_take_fault.restype = ctypes.c_size_t
    lib.isa_rt_launch_count.restype = ctypes.c_uint64
    lib.isa_rt_install_allocator()
    lib.isa_rt_set_system_prefixes("\n".join(system_prefixes()).encode())
    return lib


def take_fault(lib: ctypes.CDLL) -> str | None:
    buffer = ctypes.create_string_buffer(_FAULT_BUFFER)
    return buffer.value.decode(errors="replace") if lib.isa_rt_take_fault(buffer, _FAULT_BUFFER) else None


def note_arguments(lib: ctypes.CDLL, function: str, args, kwargs) -> None:
    """Names each tensor argument's storage as the source engine does (re-noting a base replaces
    the allocator's name)."""
    for what, tensor in labelled_tensors(function, args, kwargs):
        storage = tensor.untyped_storage()
        if storage.nbytes() == 0 or tensor.device.type != "cpu":
            continue
        lib.isa_rt_note_allocation(storage.data_ptr(), storage.nbytes(), what.encode())


def wrap(lib: ctypes.CDLL, name: str, function):
    @functools.wraps(function)
    def call(*args, **kwargs):
        note_arguments(lib, name, args, kwargs)
        take_fault(lib)  # a fault left over from an earlier, already reported call
        try:
            result = function(*args, **kwargs)
        except Exception as exc:
            fault = take_fault(lib)
            if fault is not None:
                raise IsaFault(f"{name}(): {diagnostics.shortened(fault)}") from None
            raise
        finally:
            diagnostics.report(diagnostics.take(lib))
        fault = take_fault(lib)
        if fault is not None:
            raise IsaFault(f"{name}(): a launch faulted and the submission carried on: {diagnostics.shortened(fault)}")
        return result
    return call


def _undefined_symbol(error: ImportError) -> str | None:
    match = re.search(r"undefined symbol: (\S+)", str(error))
    return demangle([match.group(1)])[0] if match else None


def import_extension(path: Path, module_name: str):
    spec = importlib.util.spec_from_file_location(module_name, path)
    try:
        module = importlib.util.module_from_spec(spec)  # dlopen: undefined symbols show here
        spec.loader.exec_module(module)
    except ImportError as exc:
        symbol = _undefined_symbol(exc)
        if symbol is None:
            raise
        name = symbol.split("(", 1)[0]
        if host_api.is_host_api(name):
            raise IsaBuildError(f"ISA engine could not load '{module_name}':\n{host_api.message(name)}") from None
        raise IsaBuildError(f"ISA engine could not load '{module_name}':\n{symbol} is declared but defined nowhere "
                            f"(not by the submission, torch or the ISA engine's HIP runtime)") from None
    return module


def load(library: Path, module_name: str, runtime_library: Path, is_python_module: bool = True):
    """The built extension `library` (linked to `runtime_library`) imported as module
    `module_name`, each function wrapped to raise the engine's faults; or, for a library of
    operators alone, loaded into torch.ops and its path returned."""
    lib = runtime(runtime_library)
    if not is_python_module:
        import torch

        torch.ops.load_library(str(library))
        return str(library)
    module = import_extension(library, module_name)
    wrapped = types.ModuleType(module_name, module.__doc__)
    wrapped.__file__ = str(library)
    for attribute in dir(module):
        value = getattr(module, attribute)
        is_function = callable(value) and not isinstance(value, type) and not attribute.startswith("__")
        setattr(wrapped, attribute, wrap(lib, attribute, value) if is_function else value)
    wrapped.isa_launch_count = lib.isa_rt_launch_count
    return wrapped
