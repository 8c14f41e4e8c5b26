"""What a `load_inline` or `load` call of torch.utils.cpp_extension asks for, read once for
every engine and for the offline report's capture.

`from_load_inline(*args, **kwargs)` and `from_load(*args, **kwargs)` bind a call as the
installed torch binds it (positions, defaults) and give a LoadInlineCall: sources as lists,
`functions` as {name: docstring}, include folders absolute. `load`'s source files become the
load_inline call they amount to: device files (.cu, .cuh, .hip) as cuda_sources, the rest as
cpp_sources, nothing prepended, their folders on the include path (quoted includes beside
them resolve). `bindings` writes the module definitions load_inline adds for `functions`.
"""
from __future__ import annotations

import dataclasses
import inspect
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

import torch.utils.cpp_extension as _cpp_extension

# NOTE: read when this module is first imported, before the harness or the capture replace
# torch's builders with their own: the engines import it at their own import.
_SIGNATURES = {name: inspect.signature(getattr(_cpp_extension, name)) for name in ("load_inline", "load")}
_DEVICE_SUFFIXES = (".cu", ".cuh", ".hip")


class CallError(ValueError):
    """A load_inline or load call that torch would refuse, or that no engine can build."""


@dataclass(frozen=True)
class LoadInlineCall:
    name: str
    cuda_sources: list[str]
    cpp_sources: list[str] = field(default_factory=list)
    functions: dict[str, str] | None = None  # name -> docstring, as load_inline binds them
    extra_cflags: list[str] = field(default_factory=list)
    extra_cuda_cflags: list[str] = field(default_factory=list)
    extra_ldflags: list[str] = field(default_factory=list)
    extra_include_paths: list[str] = field(default_factory=list)  # absolute, as load_inline makes them
    build_directory: str | None = None
    verbose: bool = False
    with_cuda: bool | None = None
    is_python_module: bool = True
    with_pytorch_error_handling: bool = True
    no_implicit_headers: bool = False

    def record(self) -> dict:
        """The call as plain values (JSON), for LoadInlineCall(**record)."""
        return dataclasses.asdict(self)


def _strings(value) -> list[str]:
    if value is None:
        return []
    return [value] if isinstance(value, str) else [str(item) for item in value]


def _flags(bound: dict, key: str) -> list[str]:
    return [flag.strip() for flag in _strings(bound.get(key))]


def _functions(value) -> dict[str, str] | None:
    if value is None:
        return None
    if isinstance(value, str):
        value = [value]
    if isinstance(value, (list, tuple)):
        return {str(name): str(name) for name in value}
    if isinstance(value, dict):
        return {str(name): str(doc) for name, doc in value.items()}
    raise CallError(f"load_inline: 'functions' must be a list or dict, not {type(value).__name__}")


def _bind(function: str, args: tuple, kwargs: dict) -> dict:
    signature = _SIGNATURES[function]
    try:
        bound = signature.bind(*args, **kwargs)
    except TypeError as error:
        raise CallError(f"{function}{signature}: {error}") from None
    bound.apply_defaults()
    return bound.arguments


def _call(bound: dict, folders: list[str] = (), **given) -> LoadInlineCall:
    """The call of the bound arguments: what load_inline and load share, `folders` before the
    user's include paths, and `given` (the sources and what differs between the two)."""
    folders = [*folders, *_strings(bound.get("extra_include_paths"))]
    directory = bound.get("build_directory")
    return LoadInlineCall(
        name=str(bound["name"]), extra_cflags=_flags(bound, "extra_cflags"),
        extra_cuda_cflags=_flags(bound, "extra_cuda_cflags"), extra_ldflags=_flags(bound, "extra_ldflags"),
        extra_include_paths=[os.path.abspath(p) for p in folders],
        build_directory=None if directory is None else str(directory), verbose=bool(bound.get("verbose")),
        with_cuda=bound.get("with_cuda"), is_python_module=bool(bound.get("is_python_module", True)), **given)


def from_load_inline(*args, **kwargs) -> LoadInlineCall:
    """A call of cpp_extension.load_inline, read."""
    bound = _bind("load_inline", args, kwargs)
    if bound.get("sycl_sources"):
        raise CallError(f"load_inline('{bound['name']}'): sycl_sources cannot be built for an MI300X (HIP only)")
    return _call(bound, cuda_sources=_strings(bound.get("cuda_sources")),
                 cpp_sources=_strings(bound.get("cpp_sources")), functions=_functions(bound.get("functions")),
                 with_pytorch_error_handling=bool(bound.get("with_pytorch_error_handling", True)),
                 no_implicit_headers=bool(bound.get("no_implicit_headers", False)))


def from_load(*args, **kwargs) -> LoadInlineCall:
    """A call of cpp_extension.load (source files), read as the load_inline call it amounts to."""
    bound = _bind("load", args, kwargs)
    paths = [Path(p) for p in _strings(bound["sources"])]
    missing = [str(p) for p in paths if not p.is_file()]
    if missing:
        raise CallError(f"load('{bound['name']}'): source file(s) not found: {', '.join(missing)}")
    device = [p for p in paths if p.suffix in _DEVICE_SUFFIXES]
    return _call(bound, cuda_sources=[p.read_text() for p in device],
                 cpp_sources=[p.read_text() for p in paths if p not in device], functions=None,
                 no_implicit_headers=True, folders=list(dict.fromkeys(str(p.resolve().parent) for p in paths)))


def bindings(call: LoadInlineCall, bound: Callable[[str], str] = str) -> list[str]:
    """The m.def lines load_inline writes into its PYBIND11_MODULE for `call.functions`;
    `bound(name)` is the C++ expression bound for a function (the function itself, or an
    engine's wrapper of it)."""
    lines = []
    for name, doc in (call.functions or {}).items():
        target = bound(name)
        if call.with_pytorch_error_handling:
            target = f"torch::wrap_pybind_function({target})"
        lines.append(f'  m.def("{name}", {target}, "{doc}");')
    return lines


def drop_ins(module_of: Callable[[LoadInlineCall, Path | None], object], error: type[Exception]):
    """An engine's (load_inline, load): torch's arguments read here, the call built by the
    engine's `module_of(call, origin)`, `origin` the .py that made the call; a call torch would
    refuse raises `error`."""
    from toolchain import diagnostics

    def drop_in(reader):
        def build(*args, **kwargs):
            try:
                call = reader(*args, **kwargs)
            except CallError as exc:
                raise error(str(exc)) from None
            return module_of(call, diagnostics.calling_file())
        build.__name__ = build.__qualname__ = reader.__name__.removeprefix("from_")
        build.__doc__ = f"Drop-in for torch.utils.cpp_extension.{build.__name__}, built by {module_of.__module__}."
        return build

    return drop_in(from_load_inline), drop_in(from_load)
