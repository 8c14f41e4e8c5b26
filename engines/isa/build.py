"""The ISA engine's builds: the runner's build of a submission, linked to our HIP runtime.

The runner (ROCm torch) writes `main.cpp` (torch/extension.h, cpp_sources, the pybind module)
and `cuda.cu` (load_inline's prelude and cuda_sources), hipifies them, compiles main.cpp with
the host compiler and the .hip file with hipcc for gfx942, and links against libamdhip64.
We do the same with Debian's clang-19 and the real HIP 5.2 and torch headers, in three steps
because Debian ships no clang-offload-bundler:

  hip.hip --clang --cuda-device-only--> hip.gfx942.co (AMDHSA ELF) --bundle.py--> hip.hipfb
  hip.hip --clang --cuda-host-only -fcuda-include-gpubinary hip.hipfb--> hip.o
  main.cpp --clang++--> main.o;   main.o hip.o --link--> <module>.so  (needs libisa_hip.so)

libisa_hip.so (engines/isa/core + engines/isa/runtime) stands where libamdhip64 would: every
launch the host code makes runs on the ISA engine. Builds are cached by a hash of their inputs:
the compiled objects by the sources, flags and headers alone, the linked module by those and the
runtime, so a change to the engine relinks a cached build instead of compiling it again. An
Extension that carries a code object from another compiler (drop_in.py takes it from
ISA_DEVICE_CODE, device_code.py) skips the device compile: that code object is bundled in its
place, and is part of the key.
"""
from __future__ import annotations

import contextlib
import functools
import hashlib
import os
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

import toolchain
from engines.isa import bundle, core
from engines.isa.errors import IsaBuildError
from machine import cache
from toolchain import diagnostics, source
from toolchain import load_call
from toolchain.load_call import LoadInlineCall
from toolchain.cpp_text import host_view
from toolchain.headers import INCLUDE_DIR, TORCH_HIP_DIR
from toolchain.lock import exclusive
from toolchain.pch import compile_with, precompiled
from toolchain.hipcc import (CLANG, HIPCC_DEFAULT_FLAGS, ToolchainMissing, compile_device, cuid, device_lib_dir,
                             header_dirs, load_inline_flags)

PACKAGE_DIR = Path(__file__).resolve().parent
CORE_DIR = PACKAGE_DIR / "core"
RUNTIME_DIR = PACKAGE_DIR / "runtime"
REPO_ROOT = PACKAGE_DIR.parents[1]
# Modules in the space of the calling file (machine/cache.py entries, as the source engine's);
# the runtime, its objects and the PCH shared.
SHARED_BUILD_ROOT = cache.ROOT / "engines" / "isa"
# Bumped when a build's output changes with the same inputs (2: the module keeps load_inline's name).
CACHE_VERSION = 2
RUNTIME_FLAGS = ("-O3", "-std=c++20", "-fPIC", "-g1", "-D__HIP_PLATFORM_AMD__=1", "-DUSE_ROCM=1")
# Line tables only on the device side, so a fault can name the source line, and the kernel
# parameters' names in the metadata, so a diagnostic can name the tensor; neither changes the code
# (a build cached without the names gives "kernel argument <n>" instead).
DEVICE_DEBUG_FLAGS = ("-gline-tables-only", "-fhip-kernel-arg-name")
# Stands for the clone's folder in keys and, for our headers, in the device line tables (where
# toolchain.diagnostics.system_prefixes finds them): every clone gets one key. The calling file's
# folder is left out of the key only: a build reused from another folder names that folder's copy
# of the same file in a fault's line.
KEYED_REPO = diagnostics.DEBUG_REPO_ROOT
HEADERS_PREFIX_MAP, = diagnostics.debug_prefix_maps(INCLUDE_DIR)
IMPLICIT_HEADER = "#include <torch/extension.h>\n"  # load_inline's first line of main.cpp


@dataclass
class Extension:
    """Everything one build needs, as load_inline's arguments make it."""
    name: str
    main_cpp: str
    hip: str | None          # the hipified .hip text, None without cuda_sources
    cpp_flags: list[str]
    hip_flags: list[str]
    ldflags: list[str]
    build_directory: Path | None = None
    verbose: bool = False
    device_code: bytes | None = None  # a code object from another compiler, in place of the device compile
    folder: str = ""  # the calling file's folder, with its "/": #line directives name the file under it
    space: Path = field(default_factory=lambda: cache.entries() / "engines" / "isa")  # where its build is cached

    def digest(self) -> str:
        """The compiled objects' key: everything but the runtime they are linked with, with no
        path of the clone or of the calling file's folder in it (a second clone finds the first
        one's build; -cuid is a digest of the text, whose #line paths differ from clone to clone)."""
        hip_flags = [flag for flag in self.hip_flags if not flag.startswith("-cuid=")]
        parts = [str(CACHE_VERSION), self.main_cpp, self.hip or "", *self.cpp_flags, "\0", *hip_flags, "\0",
                 *self.ldflags, _headers_digest()]
        if self.device_code is not None:  # NOTE: appended only then, so clang-19's builds keep their keys
            parts.append(hashlib.sha256(self.device_code).hexdigest())
        keyed = "\0".join(parts)
        keyed = keyed.replace(self.folder, "") if self.folder else keyed
        return hashlib.sha256(keyed.replace(str(REPO_ROOT), KEYED_REPO).encode()).hexdigest()[:16]


@functools.cache
def _headers_digest() -> str:
    """Our headers (toolchain/include): a build made with older ones is not reused."""
    return _tree_digest(sorted(p for p in INCLUDE_DIR.rglob("*.h*") if p.is_file()), ())


def progress(message: str) -> None:
    print(f"isa: {message}", file=sys.stderr, flush=True)


def torch_library_dir() -> str:
    from torch.utils import cpp_extension

    return cpp_extension.library_paths()[0]


def run(step: str, command: list[str], cwd: Path, verbose: bool = False) -> None:
    if verbose:
        progress(" ".join(command))
    try:
        result = subprocess.run(command, cwd=cwd, capture_output=True, text=True)
    except FileNotFoundError as exc:
        raise IsaBuildError(f"{step}: {exc.filename} not found: apt-get install clang-19 lld-19") from exc
    if result.returncode != 0:
        output = (result.stderr + result.stdout).strip()
        log = diagnostics.write_log(cwd / "build.log", f"{' '.join(command)}\n\n{output}\n")
        error = diagnostics.first_error(output) or diagnostics.short(output.splitlines()[-1] if output else "no output")
        # NOTE: a compiler killed by a signal (out of memory, a stopped stage) may succeed next time
        failure = IsaBuildError if result.returncode < 0 else CompileError
        raise failure(f"ISA engine build failed at {step}:\n{error}\nfull compiler output: {log}")


class CompileError(IsaBuildError):
    """The compiler refused the sources: the same sources and flags fail the same way."""


def _tree_digest(paths: list[Path], flags: tuple[str, ...]) -> str:
    """The files' names (relative to the clone for its own) and bytes, and the flags."""
    h = hashlib.sha256("\0".join(flags).encode())
    for path in paths:
        name = path.relative_to(REPO_ROOT) if path.is_relative_to(REPO_ROOT) else path
        h.update(str(name).encode() + b"\0" + path.read_bytes())
    return h.hexdigest()[:16]


def runtime_library(core_sources: list[Path] | None = None) -> Path:
    """libisa_hip-<hash>.so built from the core and the runtime (cached); `core_sources`
    replaces engines/isa/core/*.cpp (tests build the runtime around a test double)."""
    if core_sources is None:
        core_sources = sorted(CORE_DIR.glob("*.cpp"))
        if not core_sources:
            raise IsaBuildError("the ISA engine's core (engines/isa/core/*.cpp) is not there yet")
    sources = list(core_sources) + sorted(RUNTIME_DIR.glob("*.cpp"))
    headers = _runtime_headers()
    digest = _tree_digest(sources + headers, RUNTIME_FLAGS)
    out_dir = cache.writable_or_private(SHARED_BUILD_ROOT, SHARED_BUILD_ROOT / f"runtime_{digest}") / f"runtime_{digest}"
    library = out_dir / f"libisa_hip-{digest}.so"
    if library.exists():
        return library
    with exclusive(out_dir):
        if not library.exists():
            _build_runtime(sources, out_dir, library)
    return library


def _runtime_headers() -> list[Path]:
    return core.headers() + sorted(p for d in (RUNTIME_DIR, TORCH_HIP_DIR) for p in d.rglob("*.h"))


def _build_runtime(sources: list[Path], out_dir: Path, library: Path) -> None:
    out_dir.mkdir(parents=True, exist_ok=True)
    partial = library.with_suffix(".tmp")
    torch_lib = torch_library_dir()
    run("linking libisa_hip", ["clang++-19", "-shared", *map(str, runtime_objects(sources)), "-o", str(partial),
                               f"-Wl,-soname,{library.name}", "-L", torch_lib, "-lc10", f"-Wl,-rpath,{torch_lib}"],
        out_dir)
    partial.replace(library)  # atomic: a parallel build never loads half a library


def runtime_objects(sources: list[Path]) -> list[Path]:
    """The objects of core or runtime sources, each cached by its text, every header and the
    flags: a change to one source (a timing rule, a runtime call) recompiles that source alone,
    and a runtime around a test double shares the runtime's objects."""
    obj_dir = cache.writable_or_private(SHARED_BUILD_ROOT) / "runtime_objects"
    headers = _tree_digest(_runtime_headers(), RUNTIME_FLAGS)
    objects = [obj_dir / f"{path.parent.name}_{path.stem}-{_tree_digest([path], (headers,))}.o" for path in sources]
    if all(obj.exists() for obj in objects):
        return objects
    # NOTE: processes that want the same objects at once (test workers) take turns: the later
    # ones find them compiled instead of compiling them again.
    with exclusive(obj_dir):
        _compile_runtime_objects([(path, obj) for path, obj in zip(sources, objects) if not obj.exists()], obj_dir)
    return objects


def _compile_runtime_objects(missing: list[tuple[Path, Path]], obj_dir: Path) -> None:
    """Compile each (source, object) pair, one compiler per core: the sources are independent,
    and a cold runtime is most of the first build's time."""
    obj_dir.mkdir(parents=True, exist_ok=True)
    includes = [*(a for d in core.include_dirs() for a in ("-I", str(d))), "-I", str(RUNTIME_DIR), *include_flags([])]

    def compile_one(path: Path, obj: Path) -> None:
        partial = obj.with_suffix(f".{os.getpid()}.tmp")
        shown = path.relative_to(REPO_ROOT) if path.is_relative_to(REPO_ROOT) else path.name
        progress(f"compiling the ISA engine runtime: {shown}")
        run(f"compiling {path.name}", ["clang++-19", *RUNTIME_FLAGS, *includes, "-c", str(path), "-o", str(partial)],
            obj_dir)
        partial.replace(obj)
    with ThreadPoolExecutor(max_workers=os.cpu_count() or 1) as pool:
        for done in [pool.submit(compile_one, path, obj) for path, obj in missing]:
            done.result()


def include_flags(extra_include_paths) -> list[str]:
    """The user's folders, then what the offline report searches: our fp8/bf16 headers, the
    library and ROCm-torch stand-ins, the installed torch's own headers."""
    user = [f"-I{os.path.abspath(p)}" for p in extra_include_paths or []]
    return user + [arg for folder in header_dirs() for arg in ("-isystem", str(folder))]


def extension(call: LoadInlineCall, origin: Path | None = None) -> Extension:
    """The Extension the ROCm runner would build for a load_inline call; `origin` is the file
    that made the call, when known."""
    cpp = list(call.cpp_sources)
    if not call.no_implicit_headers:
        cpp.insert(0, IMPLICIT_HEADER.rstrip())
    cpp += ["PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {", *load_call.bindings(call), "}"] if call.functions else []
    hip_text = host_view(source.runner_text(call, origin)) if call.cuda_sources else None
    includes = include_flags(call.extra_include_paths)
    cpp_flags = [f"-DTORCH_EXTENSION_NAME={call.name}", "-DTORCH_API_INCLUDE_EXTENSION_H", *includes, "-fPIC",
                 "-std=c++20", *call.extra_cflags]
    # The runner's hipcc command (toolchain.hipcc): hipcc adds -O3 when no -O level is given.
    hip_flags = load_inline_flags(call)
    optimised = any(flag.startswith("-O") for flag in hip_flags)
    hip_flags += [*([] if optimised else HIPCC_DEFAULT_FLAGS[:1]), *HIPCC_DEFAULT_FLAGS[1:], "-fPIC", *includes]
    hip_flags += [cuid(hip_text)] if hip_text is not None else []
    return Extension(call.name, host_view("\n".join(cpp)), hip_text, cpp_flags, hip_flags, list(call.extra_ldflags),
                     Path(call.build_directory) if call.build_directory else None, call.verbose,
                     folder=f"{origin.resolve().parent}/" if origin is not None else "",
                     space=cache.entries(origin) / "engines" / "isa")


def _compile_hip(ext: Extension, build_dir: Path) -> None:
    (build_dir / "hip.hip").write_text(ext.hip)
    started = time.monotonic()
    if ext.device_code is not None:
        progress(f"{ext.name}: device code from another compiler (engines/isa/device_code.py), not compiled here")
        code_object = build_dir / f"hip.{toolchain.ROCM_ARCH}.co"
        code_object.write_bytes(ext.device_code)
    else:
        progress(f"compiling {ext.name} for {toolchain.ROCM_ARCH} (device code) ...")
        code_object = compile_device(ext.hip, lambda torch_flags: device_pass(ext, build_dir, torch_flags),
                                     CompileError, lambda note: progress(f"{ext.name}: {note}"))
    (build_dir / "hip.hipfb").write_bytes(bundle.write_bundle({toolchain.ROCM_ARCH: code_object.read_bytes()}))
    progress(f"compiling {ext.name} (host code) ...")
    run("the host compile", [CLANG, "-x", "hip", *_hip_flags(ext), "--cuda-host-only", "-Xclang",
                             "-fcuda-include-gpubinary", "-Xclang", "hip.hipfb", "-c", "hip.hip", "-o", "hip.o"],
        build_dir, ext.verbose)
    progress(f"compiled {ext.name}'s HIP source in {time.monotonic() - started:.0f} s")


def device_pass(ext: Extension, build_dir: Path, torch_flags: tuple[str, ...]) -> Path:
    """build_dir/hip.hip compiled to its gfx942 code object, `torch_flags` searched first (torch's
    umbrella headers as toolchain/include/torch_device declares them, or () for all of torch's)."""
    code_object = build_dir / f"hip.{toolchain.ROCM_ARCH}.co"
    run("the device compile", [CLANG, "-x", "hip", *torch_flags, *_hip_flags(ext), *DEVICE_DEBUG_FLAGS,
                               HEADERS_PREFIX_MAP,
                               "--cuda-device-only", "--no-gpu-bundle-output", "-c", "hip.hip", "-o", code_object.name],
        build_dir, ext.verbose)
    return code_object


def _hip_flags(ext: Extension) -> list[str]:
    try:
        device_libs = f"--rocm-device-lib-path={device_lib_dir()}"
    except ToolchainMissing as exc:
        raise IsaBuildError(str(exc)) from exc
    return [*ext.hip_flags, device_libs, "-Wno-unused-command-line-argument"]


def build(ext: Extension, runtime: Path) -> tuple[Path, str]:
    """Builds (or finds in the cache) the extension; returns (.so path, module name). The build
    directory holds the objects, compiled once; each runtime gets its own link of them."""
    digest = ext.digest()
    cached_name = f"{ext.name}_isa_{digest}"
    build_dir = ext.build_directory or ext.space / cached_name
    library = build_dir / f"{cached_name}_{runtime.parent.name}.so"
    # NOTE: the module keeps load_inline's name, as torch's does: a source's own
    # PYBIND11_MODULE(<that name>, m) must define the PyInit_ the import looks for.
    if not library.exists():
        with exclusive(build_dir):
            if not library.exists():
                _link(ext, runtime, _compile_once(ext, build_dir, digest), build_dir, library)
    return library, ext.name


def _compile_once(ext: Extension, build_dir: Path, digest: str) -> list[Path]:
    """The extension's objects; sources the compiler refused are refused again from the record
    of that failure, without compiling (a harness run's build pass and its stages build the same
    sources)."""
    failed = build_dir / f"refused-{digest}.txt"
    if failed.exists():
        raise CompileError(failed.read_text())
    try:
        return _compile(ext, build_dir, digest)
    except CompileError as exc:
        with contextlib.suppress(OSError):  # a stage's build folder is read-only
            failed.write_text(str(exc))
        raise


def _compile(ext: Extension, build_dir: Path, digest: str) -> list[Path]:
    """main.o (and hip.o), compiled unless an earlier build of the same inputs (`digest`) left
    them (the digest is written last, once they are whole: a build directory given by the caller
    may hold another source's objects)."""
    done = build_dir / "objects.digest"
    objects = [build_dir / "main.o"] + ([build_dir / "hip.o"] if ext.hip is not None else [])
    if done.exists() and done.read_text() == digest:
        return objects
    build_dir.mkdir(parents=True, exist_ok=True)
    (build_dir / "main.cpp").write_text(ext.main_cpp)
    if ext.hip is not None:
        _compile_hip(ext, build_dir)
    progress(f"compiling {ext.name} (bindings) ...")
    compile_with(bindings_pch(ext), lambda pch_flags: run(
        "the bindings compile", [CLANG, *ext.cpp_flags, *pch_flags, "-c", "main.cpp", "-o", "main.o"], build_dir,
        ext.verbose))
    done.write_text(digest)
    return objects


def _link(ext: Extension, runtime: Path, objects: list[Path], build_dir: Path, library: Path) -> None:
    torch_lib = torch_library_dir()
    partial = library.with_suffix(".tmp")
    run("linking", [CLANG, "-shared", *map(str, objects), "-o", str(partial),
                    "-L", str(runtime.parent), f"-l:{runtime.name}", f"-Wl,-rpath,{runtime.parent}",
                    "-L", torch_lib, "-lc10", "-ltorch", "-ltorch_cpu", "-ltorch_python", f"-Wl,-rpath,{torch_lib}",
                    *ext.ldflags], build_dir, ext.verbose)
    partial.replace(library)


def bindings_pch(ext: Extension) -> Path | None:
    """torch/extension.h precompiled with this build's flags, when main.cpp starts with it (as
    load_inline writes it unless no_implicit_headers): every bindings compile with the same flags
    reads it instead of parsing torch again. The module's name is left out: torch's headers do
    not read it."""
    if not ext.main_cpp.startswith(IMPLICIT_HEADER):
        return None
    import torch

    flags = [f for f in ext.cpp_flags if not f.startswith("-DTORCH_EXTENSION_NAME=")]
    return precompiled([CLANG, *flags], IMPLICIT_HEADER, SHARED_BUILD_ROOT / "pch", "bindings",
                       f"{_headers_digest()[:8]}{torch.__version__}")
