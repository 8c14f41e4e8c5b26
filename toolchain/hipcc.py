"""The offline gfx942 device compile: Debian clang-19 run the way the runner's hipcc runs it.

The runner builds a submission with torch's load_inline, which calls hipcc with torch's HIP
defines, the installed torch's headers and the call's own flags; hipcc adds -O3 (when no -O is
given) and two inlining options. We reproduce that device compile (and only it) with
clang++-19 --cuda-device-only -S, against the real headers of the installed torch wheel; only
what a ROCm build of torch alone ships (ATen/hip, c10/hip, rocThrust's complex) and libraries
this machine cannot have (rocWMMA, hipCUB, CK, hipBLASLt) come from toolchain/include.

A device compile reads torch's umbrella headers (torch/types.h, torch/extension.h,
ATen/ATen.h) as toolchain/include/torch_device declares them: the parts of torch a kernel's
source reaches, not all of torch, whose parsing is most of a device compile. `compile_device`
falls back to all of torch's headers when a text needs them.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import os
import re
import shutil
import subprocess
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TypeVar

import toolchain
from machine import cache
from toolchain import headers
from toolchain.load_call import LoadInlineCall
from toolchain.flags import device_flags
from toolchain.cpp_text import mask_comments_and_strings
from toolchain.headers import DEVICE_TORCH_DIR, INCLUDE_DIR, STANDIN_DIR, TORCH_HIP_DIR, TYPES_DIR

CLANG = "clang++-19"

# Debian's rocm-device-libs (5.2.3) ships ocml/ockl bitcode but no gfx942 ISA-version file.
SYSTEM_DEVICE_LIBS = Path("/usr/lib/x86_64-linux-gnu/amdgcn/bitcode")
DEVICE_LIB_CACHE = cache.ROOT / "gfx942-bitcode"

# What hipcc (ROCm 6.x hipBin_amd.h) adds to a HIP compile that names no -O level.
HIPCC_DEFAULT_FLAGS = ("-O3", "-mllvm", "-amdgpu-early-inline-all=true", "-mllvm", "-amdgpu-function-calls=false")
# What torch.utils.cpp_extension adds for a ROCm build (COMMON_HIP_FLAGS, COMMON_HIPCC_FLAGS,
# -DWITH_HIP, and -fno-gpu-rdc because the flags name an --offload-arch).
TORCH_HIP_FLAGS = (
    "-DWITH_HIP", "-D__HIP_PLATFORM_AMD__=1", "-DUSE_ROCM=1", "-DHIPBLAS_V2", "-fPIC",
    "-DCUDA_HAS_FP16=1", "-D__HIP_NO_HALF_OPERATORS__=1", "-D__HIP_NO_HALF_CONVERSIONS__=1",
    "-DHIP_ENABLE_WARP_SYNC_BUILTINS=1", "-fno-gpu-rdc",
)
# The -std torch's cpp_extension puts before a ROCm build's arch flags (torch >= 2.10).
TORCH_STD = "-std=c++20"
# Searched first by a device compile: torch's umbrella headers as device code reaches them.
DEVICE_TORCH_FLAGS = ("-isystem", str(DEVICE_TORCH_DIR))
# Texts whose device compile reads all of torch's headers straight away, and why.
ALL_OF_TORCH = (
    (re.compile(r"\busing\s+namespace\s+(::\s*)?(torch|at|c10)\b"),
     "it opens a torch namespace, so its unqualified names see all of torch's overloads"),
    (re.compile(r"\bPYBIND11_MODULE\b|\bpybind11\s*::|\bpy\s*::"), "it binds Python itself (pybind11)"),
)
T = TypeVar("T")


class ToolchainMissing(RuntimeError):
    pass


@functools.cache
def device_lib_dir() -> Path:
    """A folder clang accepts as --rocm-device-lib-path for gfx942: the system bitcode plus a
    generated oclc_isa_version_942.bc (it only defines __oclc_ISA_version = 9402)."""
    if not (SYSTEM_DEVICE_LIBS / "ocml.bc").exists():
        raise ToolchainMissing(f"{SYSTEM_DEVICE_LIBS}/ocml.bc missing: apt-get install rocm-device-libs")
    DEVICE_LIB_CACHE.mkdir(parents=True, exist_ok=True)
    # Builds run in parallel (Ray workers, pytest-xdist) and may all find the folder new: each
    # step tolerates another process doing it at the same moment.
    for lib in SYSTEM_DEVICE_LIBS.glob("*.bc"):
        with contextlib.suppress(FileExistsError):  # linked already, by this process or another
            (DEVICE_LIB_CACHE / lib.name).symlink_to(lib)
    isa_version = DEVICE_LIB_CACHE / "oclc_isa_version_942.bc"
    if not isa_version.exists():
        own = os.getpid()  # this process's files: never half-written by another
        source = DEVICE_LIB_CACHE / f"oclc_isa_version_942.{own}.c"
        partial = isa_version.with_suffix(f".{own}.tmp")
        source.write_text('__attribute__((visibility("protected"))) const '
                          "__attribute__((address_space(4))) int __oclc_ISA_version = 9402;\n")
        try:
            subprocess.run(["clang-19", "-x", "c", "-target", "amdgcn-amd-amdhsa", "-mcpu=" + toolchain.ROCM_ARCH,
                            "-nogpulib", "-O2", "-c", "-emit-llvm", str(source), "-o", str(partial)], check=True)
        finally:
            source.unlink()
        partial.replace(isa_version)  # atomic: parallel runs never see half a file
    return DEVICE_LIB_CACHE


def device_compile_command(source: Path, asm_out: Path, call: LoadInlineCall | None = None,
                           torch_flags: Sequence[str] = DEVICE_TORCH_FLAGS) -> list[str]:
    """The exact clang command for one HIP translation unit, device side only: a kernel file
    with the leaderboard's flags, or a submission with the flags its load_inline call makes.
    `torch_flags` () reads all of torch's headers (compile_device)."""
    if shutil.which(CLANG) is None:
        raise ToolchainMissing(f"{CLANG} not found: apt-get install clang-19 lld-19")
    user = load_inline_flags(call) if call else list(toolchain.LEADERBOARD_HIP_FLAGS)
    optimised = any(flag.startswith("-O") for flag in user)
    return [
        CLANG, "-x", "hip", "--cuda-device-only", "-S",
        *user,
        *([] if optimised else HIPCC_DEFAULT_FLAGS[:1]), *HIPCC_DEFAULT_FLAGS[1:],
        *([] if call else TORCH_HIP_FLAGS),
        cuid(source.read_text()),
        f"--rocm-device-lib-path={device_lib_dir()}",
        # Searched before the system HIP 5.2 headers: HIP 6.3's additions to them, the fp8/bf16
        # types they lack, the library stand-ins, the ROCm-only torch headers; then the installed
        # torch's own headers.
        *torch_flags, *[arg for folder in header_dirs() for arg in ("-isystem", str(folder))],
        # Our clang 19 is newer than the runner's: it warns where that one does not, which a
        # submission's -Werror would turn into errors.
        "-Wno-unused-command-line-argument", "-Wno-deprecated-ofast",
        "-MD", "-MF", str(asm_out.with_suffix(".d")),
        str(source), "-o", str(asm_out),
    ]


def cuid(text: str) -> str:
    """The compilation unit's id clang names a symbol of the code object after: from the text,
    so a code object never depends on the folders, include flags or output names of its build
    (clang's own default hashes the command line)."""
    return "-cuid=" + hashlib.sha256(text.encode()).hexdigest()[:16]


def all_of_torch(text: str) -> str:
    """Why the device compile of `text` reads all of torch's headers from the start ("" when
    torch_device's serve)."""
    code = mask_comments_and_strings(text)
    return next((why for pattern, why in ALL_OF_TORCH if pattern.search(code)), "")


def compile_device(text: str, attempt: Callable[[tuple[str, ...]], T], refused: type[Exception],
                   progress: Callable[[str], None]) -> T:
    """`attempt(torch_flags)`: the device compile of `text` with torch_device's headers, or with
    all of torch's (torch_flags ()) when the text needs them or the compiler refuses it with
    torch_device's; `progress` is told why. A text all of torch's headers refuse is refused
    as the runner refuses it: the error is theirs."""
    why = all_of_torch(text)
    if not why:
        try:
            return attempt(DEVICE_TORCH_FLAGS)
        except refused as error:
            first = next((line.strip() for line in str(error).splitlines() if "error:" in line), "")
            why = "with toolchain/include/torch_device's the compiler refused it" + (f" ({first})" if first else "")
    progress(f"device code compiled against all of torch's headers: {why}")
    return attempt(())


def header_dirs() -> list[Path]:
    import sysconfig

    from torch.utils import cpp_extension

    python = sysconfig.get_path("include", scheme="posix_prefix")
    torch_dirs = [Path(folder) for folder in cpp_extension.include_paths()]
    # Every other header of ROCm 6.3 (toolchain/rocm_headers.txt): a generated stand-in.
    rocm = headers.standin_dir("isa", headers.isa_real_dirs())
    return [INCLUDE_DIR, TYPES_DIR, *headers.library_dirs(), STANDIN_DIR, TORCH_HIP_DIR, *torch_dirs, *([Path(python)] if python else []), rocm]


def load_inline_flags(call: LoadInlineCall) -> list[str]:
    """What torch's cpp_extension passes hipcc for a load_inline call on ROCm, in its order
    (_write_ninja_file_and_build_library): defines and user include paths, extra_cflags,
    torch's HIP flags, -std, the arch flags, extra_cuda_cflags. We build gfx942 only, so the
    user's arch flags are replaced by ours, and flags that only make sense for the host or
    write files of their own are dropped."""
    defines = ["-DWITH_HIP", f"-DTORCH_EXTENSION_NAME={call.name}", "-DTORCH_API_INCLUDE_EXTENSION_H"]
    includes = [f"-I{folder}" for folder in call.extra_include_paths]
    flags = [*defines, *includes, *device_flags(call.extra_cflags), *TORCH_HIP_FLAGS[1:-1], TORCH_STD]
    rdc = any("gpu-rdc" in flag for flag in call.extra_cflags + call.extra_cuda_cflags)
    flags += ["--offload-arch=" + toolchain.ROCM_ARCH] + ([] if rdc else ["-fno-gpu-rdc"])
    return flags + device_flags(call.extra_cuda_cflags)
