"""The offline gfx942 device compile: Debian clang-19 run the way the runner's hipcc runs it.

The runner builds a submission with torch's load_inline, which calls hipcc with torch's HIP
defines plus the leaderboard flags; hipcc adds -O3 and two inlining options when no -O is
given. We reproduce that device compile (and only it) with clang++-19 --cuda-device-only -S.
"""

from __future__ import annotations

import functools
import os
import shutil
import subprocess
from pathlib import Path

import toolchain

CLANG = "clang++-19"
CXXFILT = "llvm-cxxfilt-19"
REPO_ROOT = Path(toolchain.__file__).resolve().parent.parent
INCLUDE_DIR = REPO_ROOT / "toolchain" / "include"
TORCH_STUB_DIR = INCLUDE_DIR / "torch_stub"

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


class ToolchainMissing(RuntimeError):
    pass


@functools.cache
def device_lib_dir() -> Path:
    """A folder clang accepts as --rocm-device-lib-path for gfx942: the system bitcode plus a
    generated oclc_isa_version_942.bc (it only defines __oclc_ISA_version = 9402)."""
    if not (SYSTEM_DEVICE_LIBS / "ocml.bc").exists():
        raise ToolchainMissing(f"{SYSTEM_DEVICE_LIBS}/ocml.bc missing: apt-get install rocm-device-libs")
    DEVICE_LIB_CACHE.mkdir(parents=True, exist_ok=True)
    for lib in SYSTEM_DEVICE_LIBS.glob("*.bc"):
        link = DEVICE_LIB_CACHE / lib.name
        if not link.exists():
            link.symlink_to(lib)
    isa_version = DEVICE_LIB_CACHE / "oclc_isa_version_942.bc"
    if not isa_version.exists():
        source = DEVICE_LIB_CACHE / "oclc_isa_version_942.c"
        source.write_text('__attribute__((visibility("protected"))) const '
                          "__attribute__((address_space(4))) int __oclc_ISA_version = 9402;\n")
        partial = isa_version.with_suffix(".tmp")
        subprocess.run(["clang-19", "-x", "c", "-target", "amdgcn-amd-amdhsa", "-mcpu=" + toolchain.ROCM_ARCH,
                        "-nogpulib", "-O2", "-c", "-emit-llvm", str(source), "-o", str(partial)], check=True)
        partial.replace(isa_version)  # atomic: parallel runs never see half a file
    return DEVICE_LIB_CACHE


def device_compile_command(source: Path, asm_out: Path) -> list[str]:
    """The exact clang command for one HIP translation unit, device side only."""
    if shutil.which(CLANG) is None:
        raise ToolchainMissing(f"{CLANG} not found: apt-get install clang-19 lld-19")
    return [
        CLANG, "-x", "hip", "--cuda-device-only", "-S",
        *toolchain.LEADERBOARD_HIP_FLAGS,
        *HIPCC_DEFAULT_FLAGS,
        *TORCH_HIP_FLAGS,
        f"--rocm-device-lib-path={device_lib_dir()}",
        # Searched before the system HIP 5.2 headers: adds the fp8/bf16 headers they lack,
        # and torch/types.h (declarations only) for launchers.
        "-isystem", str(INCLUDE_DIR), "-isystem", str(TORCH_STUB_DIR),
        "-Wno-unused-command-line-argument",
        str(source), "-o", str(asm_out),
    ]


def demangle(symbols: list[str]) -> list[str]:
    if not symbols or shutil.which(CXXFILT) is None:
        return list(symbols)
    out = subprocess.run([CXXFILT], input="\n".join(symbols), capture_output=True, text=True, check=True)
    return out.stdout.splitlines()
