"""The offline gfx942 device compile: Debian clang-19 run the way the runner's hipcc runs it.

The runner builds a submission with torch's load_inline, which calls hipcc with torch's HIP
defines, the installed torch's headers and the call's own flags; hipcc adds -O3 (when no -O is
given) and two inlining options. We reproduce that device compile (and only it) with
clang++-19 --cuda-device-only -S, against the real headers of the installed torch wheel; only
what a ROCm build of torch alone ships (ATen/hip, c10/hip, rocThrust's complex) and libraries
this machine cannot have (rocWMMA, hipCUB, CK, hipBLASLt) come from toolchain/include.
"""

from __future__ import annotations

import contextlib
import functools
import os
import shutil
import subprocess
from pathlib import Path

import toolchain
from toolchain import headers
from toolchain.load_call import LoadInlineCall
from toolchain.flags import device_flags
from toolchain.headers import INCLUDE_DIR, STANDIN_DIR, TORCH_HIP_DIR, TYPES_DIR

CLANG = "clang++-19"

# Debian's rocm-device-libs (5.2.3) ships ocml/ockl bitcode but no gfx942 ISA-version file.
SYSTEM_DEVICE_LIBS = Path("/usr/lib/x86_64-linux-gnu/amdgcn/bitcode")
DEVICE_LIB_CACHE = Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "amd-fp8-mm" / "gfx942-bitcode"

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


def device_compile_command(source: Path, asm_out: Path, call: LoadInlineCall | None = None) -> list[str]:
    """The exact clang command for one HIP translation unit, device side only: a kernel file
    with the leaderboard's flags, or a submission with the flags its load_inline call makes."""
    if shutil.which(CLANG) is None:
        raise ToolchainMissing(f"{CLANG} not found: apt-get install clang-19 lld-19")
    user = load_inline_flags(call) if call else list(toolchain.LEADERBOARD_HIP_FLAGS)
    optimised = any(flag.startswith("-O") for flag in user)
    return [
        CLANG, "-x", "hip", "--cuda-device-only", "-S",
        *user,
        *([] if optimised else HIPCC_DEFAULT_FLAGS[:1]), *HIPCC_DEFAULT_FLAGS[1:],
        *([] if call else TORCH_HIP_FLAGS),
        f"--rocm-device-lib-path={device_lib_dir()}",
        # Searched before the system HIP 5.2 headers: HIP 6.3's additions to them, the fp8/bf16
        # types they lack, the library stand-ins, the ROCm-only torch headers; then the installed
        # torch's own headers.
        *[arg for folder in header_dirs() for arg in ("-isystem", str(folder))],
        # Our clang 19 is newer than the runner's: it warns where that one does not, which a
        # submission's -Werror would turn into errors.
        "-Wno-unused-command-line-argument", "-Wno-deprecated-ofast",
        "-MD", "-MF", str(asm_out.with_suffix(".d")),
        str(source), "-o", str(asm_out),
    ]


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
