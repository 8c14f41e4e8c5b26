"""load_inline for the emulator: builds HIP sources for the CPU and returns a torch module.

The HIP source is rewritten by engines.source.preprocess, glued behind the C++ sources into one
translation unit with a pybind11 module, and compiled by torch's own CPU extension builder
with CXX=clang++-19 (ext_vector_type needs clang) and engines/source/include first on the include
path. Builds are cached by a hash of everything that goes into them.
"""
from __future__ import annotations

import contextlib
import functools
import hashlib
import importlib.util
import os
import platform
import re
import subprocess
import sys
import sysconfig
import warnings
from pathlib import Path

import torch
from torch.utils.cpp_extension import load as torch_load

from engines.source.errors import EmulatorBuildError
from machine import cache
from toolchain import diagnostics, headers, load_call
from toolchain.flags import host_flags
from toolchain.headers import STANDIN_DIR, TYPES_DIR
from toolchain.load_call import LoadInlineCall
from toolchain.lock import exclusive
from toolchain.pch import compile_with, precompiled
from engines.source.preprocess import INCLUDE_DIR, device_pass, module_init_name, preprocess

COMPILER = os.environ.get("EMU_CXX", "clang++-19")
# NOTE: line tables only (no variables): a fault inside a kernel can then name its source line.
BASE_FLAGS = ["-O2", "-std=c++20", "-gline-tables-only", "-Wno-unused-result", "-Wno-deprecated-declarations",
              "-Wno-unknown-attributes", "-Wno-ignored-attributes", "-Wno-unused-value", "-Wno-return-type"]
# NOTE: HIP device code defaults to -ffp-contract=fast: gfx942 code rounds `acc += s * p` once (FMA), so must we.
BASE_FLAGS += ["-ffp-contract=fast", *(["-mfma"] if platform.machine() == "x86_64" else [])]
# NOTE: gfx942's 8/16-byte vector loads and stores need only dword alignment; x86's aligned moves
# (movaps) fault below 16. Assuming at most 8 for types without an explicit alignment keeps a
# vector typedef of the user's own working at a dword-aligned address (a tensor whose size is not a
# multiple of 16 sits at such an address when it ends at its guard page: engines/source/guards.py), and
# keeps 8-byte atomics lock-free.
BASE_FLAGS += ["-fmax-type-align=8"]
ASAN_FLAGS = ["-fsanitize=address", "-fno-omit-frame-pointer", "-shared-libasan"]
DEFAULT_BUILD_ROOT = cache.ROOT / "engines" / "source"  # shared: the runtime, the PCHs
MACHINE_DIR = Path(__file__).resolve().parents[2] / "machine"
MACHINE_HEADERS = [MACHINE_DIR / "mi300x.h", MACHINE_DIR / "hip_attributes.h"]  # device_api.h includes them
# Libraries of the GPU stack, meaningless for the CPU build.
DROPPED_LIBRARY = re.compile(r"^(-l(amdhip64|hip\w*|roc\w*|hsa-runtime64|cuda\w*|cublas\w*|c10_hip|torch_hip)"
                             r"|-L\S*(rocm|cuda)\S*|-Wl,-rpath,\S*(rocm|cuda)\S*)$")

# The module's own pybind11 module: only what depends on the call. The guards and the
# translation of the emulator's errors are bound once, by the runtime (engines/source/runtime.cpp).
BINDING_TEMPLATE = """
static PyObject* emu_error_type = nullptr;
// A function load_inline binds: an error of the emulator reaches Python as EmulatorError, also
// under torch's error handling (torch::wrap_pybind_function makes any other C++ exception a
// RuntimeError).
namespace emu_binding {{
template <class R, class... A>
auto errors_as_python(R (*f)(A...)) {{
  return [f](A... args) -> R {{
    try {{
      return f(std::forward<A>(args)...);
    }} catch (const ::emu::Error& e) {{
      PyErr_SetString(emu_error_type, e.what());
      throw pybind11::error_already_set();
    }}
  }};
}}
}}  // namespace emu_binding
PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {{
  emu_error_type = pybind11::module_::import("engines.source.errors").attr("EmulatorError").cast<pybind11::object>().release().ptr();
{defs}
}}
"""



def host_ldflags(flags) -> list[str]:
    flags = flags.split() if isinstance(flags, str) else list(flags or [])
    return [f for f in flags if not DROPPED_LIBRARY.match(f)]


def asan_requested() -> bool:
    return os.environ.get("EMU_ASAN", "") not in ("", "0")


@contextlib.contextmanager
def compiler_env():
    saved = os.environ.get("CXX")
    os.environ["CXX"] = COMPILER
    try:
        yield
    finally:
        if saved is None:
            os.environ.pop("CXX", None)
        else:
            os.environ["CXX"] = saved


def translation_units(call: LoadInlineCall, split: bool = False, origin: Path | None = None) -> list[str]:
    """The C++ files to build: torch, the emulator's HIP runtime, the user's sources, one pybind11 module.

    The module defines the call's `functions` (torch's convention) and runs each source's own
    PYBIND11_MODULE body (rewritten by preprocess into a function), so both ways of binding work.
    Normally one file holds everything; `split` keeps the C++ and HIP sources in two files, as
    torch builds them, for sources that define the same names. Diagnostics name each source after
    `origin`, the submission file that made the call (diagnostics.source_label).
    """
    defs = load_call.bindings(call, lambda function: f"emu_binding::errors_as_python({function})")
    head = ["#include <torch/extension.h>", "#include <hip/hip_runtime.h>"]
    cpp_part, hip_part, inits = [], [], []
    named = [(s, f"{call.name}_cpp{i}.cpp", "cpp_sources", cpp_part) for i, s in enumerate(call.cpp_sources)]
    named += [(s, f"{call.name}_hip{i}.hip", "cuda_sources", hip_part if split else cpp_part)
              for i, s in enumerate(call.cuda_sources)]
    for src, filename, kind, part in named:
        label, first_line = diagnostics.source_label(origin, src, kind, filename)
        # NOTE: blank lines, not a #line offset: preprocess's own #line directives count from 1.
        text = preprocess("\n" * (first_line - 1) + src, label)
        text = device_pass(text) if filename.endswith(".hip") else text
        part.append(text)
        if module_init_name(label) + "(" in text and module_init_name(label) not in inits:
            inits.append(module_init_name(label))
    binding = ['#line 1 "binding.cpp"'] + [f"void {f}(pybind11::module_&);" for f in inits]
    binding.append(BINDING_TEMPLATE.format(defs="\n".join(defs + [f"  {f}(m);" for f in inits])))
    units = ["\n".join(head + cpp_part + binding)]
    return units + ["\n".join(head + hip_part)] if split else units


def translation_unit(call: LoadInlineCall) -> str:
    return translation_units(call)[0]


# User flags that leave a precompiled prelude valid (macros, include paths, warnings).
PCH_SAFE_FLAG = re.compile(r"^(-D\S+|-U\S+|-I\S+|-W(?!l,)\S+)$")
PRELUDE = "#include <torch/extension.h>\n#include <hip/hip_runtime.h>\n"


def prelude_pch(flags: list[str], user_flags: list[str]) -> Path | None:
    """A precompiled torch/extension.h + emulator runtime for these flags, built once per machine.

    Parsing torch's headers is most of a build (~20 s); with the prelude precompiled a build takes
    about half of that. None (build without) when EMU_PCH=0, a user flag could change what the
    headers mean, or the prelude does not build.
    """
    if os.environ.get("EMU_PCH", "1") == "0" or not all(PCH_SAFE_FLAG.match(f) for f in user_flags):
        return None
    from torch.utils import cpp_extension

    includes = [f"-I{folder}" for folder in header_dirs()]
    includes += [a for p in [*cpp_extension.include_paths(), sysconfig.get_paths()["include"]] for a in ("-isystem", p)]
    command = [COMPILER, "-DTORCH_API_INCLUDE_EXTENSION_H", *includes, "-fPIC", "-std=c++20", *flags]
    import torch
    generation = f"{runtime_fingerprint()[:8]}{torch.__version__}"
    return precompiled(command, PRELUDE, DEFAULT_BUILD_ROOT / "pch", "prelude", generation)


def header_dirs() -> list[Path]:
    """The emulator's runtime headers, the fp8/bf16 types every build shares, the library
    stand-ins, and a generated stand-in for every other header of ROCm 6.3 (toolchain/headers.py),
    searched in this order."""
    return [INCLUDE_DIR, *headers.source_real_dirs(), headers.standin_dir("source", headers.source_real_dirs())]


def runtime_fingerprint() -> str:
    h = hashlib.sha256()
    ours = [INCLUDE_DIR.rglob("*.h"), TYPES_DIR.rglob("*.h"), STANDIN_DIR.rglob("*.h*")]
    for header in [*sorted(p for found in ours for p in found), *MACHINE_HEADERS]:
        h.update(header.read_bytes())
    return h.hexdigest()


RUNTIME_SOURCE = Path(__file__).with_name("runtime.cpp")
FAILED = "failed.txt"  # in a build's folder: the error of a build the compiler rejected
BUILT = "built"  # in a build's folder: its module is linked and whole; holds the library's file name


@functools.cache
def compiler_version() -> str:
    return subprocess.run([COMPILER, "--version"], capture_output=True, text=True).stdout


@functools.cache
def runtime(base: tuple[str, ...]):
    """The engine's runtime (engines/source/runtime.cpp: the launch, the scheduler, the fault
    handler, the watchdog, the guards' bindings) built with these flags, once per machine and
    toolchain (keyed on its sources, the compiler and torch's version), and loaded once per
    process with its symbols visible to every module loaded after it: a module's kernels call
    into it, and all share its one state."""
    key = hashlib.sha256("\0".join([RUNTIME_SOURCE.read_text(), runtime_fingerprint(), *base, compiler_version(),
                                    torch.__version__]).encode()).hexdigest()[:16]
    name = f"emu_runtime_{key}"
    shared = DEFAULT_BUILD_ROOT / "runtime"
    folder = cache.writable_or_private(shared, shared / name / BUILT) / name
    flags = sys.getdlopenflags()
    sys.setdlopenflags(flags | os.RTLD_GLOBAL)
    try:
        module = finished_build(folder, name, True)
        if module is None:
            with compiler_env(), warnings.catch_warnings(), exclusive(folder):
                warnings.simplefilter("ignore")
                module = finished_build(folder, name, True) or _build_runtime(folder, name, base)
    finally:
        sys.setdlopenflags(flags)
    return module


def _build_runtime(folder: Path, name: str, base: tuple[str, ...]):
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "lock").unlink(missing_ok=True)  # torch's, left by a build that was killed (module_of)
    *ours, rocm = header_dirs()
    module = compile_with(prelude_pch(base, []), lambda pch_flags: torch_load(
        name=name, sources=[str(RUNTIME_SOURCE)], extra_cflags=[*base, *pch_flags], extra_include_paths=[*map(str, ours), str(rocm)],
        build_directory=str(folder), verbose=False, with_cuda=False))
    mark_built(folder, module)
    return module


def prepare() -> None:
    """Build what every module shares (the runtime, the precompiled prelude, the generated
    headers) in this process: the harness calls it before a sandboxed stage, which may not write
    them (eval/sandbox.py)."""
    base = BASE_FLAGS + (ASAN_FLAGS if asan_requested() else [])
    runtime(tuple(base))
    with compiler_env():
        prelude_pch(base, [])


def module_of(call: LoadInlineCall, origin: Path | None = None):
    """The module one load_inline call builds for the emulator; `origin` is the file that made
    the call."""
    name = call.name
    user_flags = host_flags(call.extra_cflags) + host_flags(call.extra_cuda_cflags)
    base = BASE_FLAGS + (ASAN_FLAGS if asan_requested() else [])
    flags = base + user_flags
    ldflags = host_ldflags(call.extra_ldflags) + (ASAN_FLAGS if asan_requested() else [])
    shared = runtime(tuple(base))
    *ours, rocm = header_dirs()
    # NOTE: a user's own folders come before the generated stand-ins, as before /opt/rocm/include.
    includes = [*map(str, ours), *call.extra_include_paths, str(rocm)]

    # NOTE: the submission's folder is left out of the module and of its key (file names in line
    # tables and launch sites are relative to it): a second clone finds the first one's build.
    folder = f"{origin.parent}/" if origin is not None else None
    relative = [f"-ffile-prefix-map={folder}="] if folder else []
    # NOTE: our headers too: a fault inside one is traced to the user's line in every clone
    relative += diagnostics.debug_prefix_maps(diagnostics.SOURCE_ENGINE_INCLUDE, headers.INCLUDE_DIR)

    def build(split: bool):
        units = translation_units(call, split, origin)
        keyed = [unit.replace(folder, "") for unit in units] if folder else units
        digest = hashlib.sha256("\0".join([*keyed, *flags, *ldflags, runtime_fingerprint(), diagnostics.DEBUG_REPO_ROOT]).encode()).hexdigest()[:16]
        # NOTE: a user's build_directory is meant for the ROCm toolchain's objects; the emulator's
        # host build always lives in its own cache.
        build_dir = cache.entries(origin) / "engines" / "source" / f"{name}_{digest}"
        cached = finished_build(build_dir, f"{name}_{digest}", call.is_python_module)
        if cached is not None:
            return cached
        if (build_dir / FAILED).exists():  # the compiler rejected these very inputs before
            raise EmulatorBuildError((build_dir / FAILED).read_text())
        build_dir.mkdir(parents=True, exist_ok=True)
        if not split and (build_dir / "needs_split").exists():  # this source failed as one unit before
            return build(split=True)
        files = [build_dir / f for f in ("main.cpp", "hip.cpp")[:len(units)]]
        for path, text in zip(files, units):
            if not path.exists() or path.read_text() != text:
                path.write_text(text)

        def torch_build(cflags):
            # NOTE: torch's own load, bound when the emulator was imported: the harness's worker
            # replaces cpp_extension.load with the engine's drop-in for the submission. Never
            # verbose: torch then prints the compiler's output instead of raising it with the error.
            # Builders of this folder take turns on our lock, which dies with its holder; holding
            # it, a lock file of torch's there was left by a build that was killed, and would make
            # torch wait for it forever.
            with exclusive(build_dir):
                (build_dir / "lock").unlink(missing_ok=True)
                module = torch_load(name=f"{name}_{digest}", sources=[str(f) for f in files], extra_cflags=cflags,
                                    extra_ldflags=ldflags, extra_include_paths=includes,
                                    build_directory=str(build_dir), verbose=False, with_cuda=False,
                                    is_python_module=call.is_python_module)
                mark_built(build_dir, module)
                return module
        try:
            # NOTE: the prelude only when something compiles: a cached module needs none
            return compile_with(prelude_pch(base, user_flags), lambda pch_flags: torch_build(flags + relative + pch_flags))
        except RuntimeError as e:
            # torch compiles C++ and HIP sources separately: names defined in both are legal there
            if not split and call.cpp_sources and call.cuda_sources and "redefinition of" in str(e):
                (build_dir / "needs_split").touch()
                return build(split=True)
            log = diagnostics.write_log(build_dir / "build.log", str(e))
            first = diagnostics.first_error(str(e))
            message = f"emulator build of '{name}' failed:\n{first or diagnostics.short(str(e).splitlines()[0])}" \
                      f"\nfull compiler output: {log}{unsupported_library_hint(call)}"
            if first:  # a compile error, not a build that was stopped: the same inputs fail again
                partial = build_dir / f"{FAILED}.{os.getpid()}"
                partial.write_text(message)
                partial.replace(build_dir / FAILED)
            raise EmulatorBuildError(message) from None

    with compiler_env(), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        module = build(split=False)
    from engines.source.schedules import wrap_for_schedules
    return wrap_for_schedules(module, shared)


CK_INCLUDE = re.compile(r'^\s*#\s*include\s*[<"]ck/', re.MULTILINE)


def unsupported_library_hint(call: LoadInlineCall) -> str:
    """What to do instead, for sources this engine cannot build: Composable Kernel overloads
    functions on __host__ / __device__ alone, which a CPU build cannot tell apart
    (toolchain/include/standins/README.md)."""
    if any(CK_INCLUDE.search(s) for s in [*call.cpp_sources, *call.cuda_sources]):
        return ("\nComposable Kernel (#include <ck/...>) builds for gfx942 only: run it on the ISA engine "
                "(--engine isa)")
    return ""


def finished_build(build_dir: Path, module_name: str, is_python_module: bool):
    """The module of a finished build, loaded directly: torch's load would run the build tool
    again (whose files name the clone that built the module first) and take a lock file in the
    folder, which a stage's sandbox keeps read-only (eval/sandbox.py). None when the folder holds
    no finished build."""
    mark = build_dir / BUILT
    if not mark.exists() and os.access(build_dir, os.W_OK):
        return None
    library = (mark.read_text().strip() if mark.exists() else "") or f"{module_name}.so"
    return loaded(build_dir / library, Path(library).stem, is_python_module)


def mark_built(build_dir: Path, module) -> None:
    """Marks the build whole, naming its library: torch names a second build of one module in one
    process <name>_v1.so (a build retried without its precompiled prelude, say)."""
    library = module.__file__ if hasattr(module, "__file__") else module
    (build_dir / BUILT).write_text(Path(library).name)


def loaded(library: Path, module_name: str, is_python_module: bool):
    """The built module at `library`, loaded; None when it is not there."""
    if not library.exists():
        return None
    if not is_python_module:
        torch.ops.load_library(str(library))
        return str(library)
    spec = importlib.util.spec_from_file_location(module_name, library)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


load_inline, load = load_call.drop_ins(module_of, EmulatorBuildError)
