"""The kernels of a gfx942 code object as the hardware's launch reads them: each kernel's
descriptor (the 64-byte `<symbol>.kd` object, AMDGPUUsage "Kernel Descriptor") and the code
object's metadata note, read from the ELF file itself (no engine involved).

    for kernel in kernels(Path("hip.gfx942.co")):
        kernel.name, kernel.unified_vgprs, kernel.lds_bytes, kernel.sgprs

Used to check the ISA engine's occupancy against what the descriptor says (predictor.calibrate
--launches); the engine reads the same bytes in C++ (engines/isa/core/code_object.cpp).
`check_gfx942` reads the ELF header of one brought from another compiler (engines/isa/device_code.py).
"""
from __future__ import annotations

import struct
import subprocess
from dataclasses import dataclass
from pathlib import Path

import yaml

import machine
import toolchain

SHT_SYMTAB = 2
DESCRIPTOR_BYTES = 64
EM_AMDGPU = 224  # ELF e_machine
EF_AMDGPU_MACH_GFX942 = 0x4C  # e_flags & 0xff (LLVM AMDGPUUsage, "AMDGPU ELF Header")


class CodeObjectError(ValueError):
    """Not a readable AMDHSA code object; the message names the file."""


@dataclass(frozen=True)
class Kernel:
    name: str            # the kernel's symbol (mangled), without ".kd"
    lds_bytes: int       # GROUP_SEGMENT_FIXED_SIZE (descriptor offset 0)
    scratch_bytes: int   # PRIVATE_SEGMENT_FIXED_SIZE (offset 4), per lane
    unified_vgprs: int   # COMPUTE_PGM_RSRC1 bits 5:0: (granules + 1) x 8, arch VGPRs and AGPRs together
    accum_offset: int    # COMPUTE_PGM_RSRC3 bits 5:0: (value + 1) x 4, where the AGPRs start
    sgprs: int           # the metadata's .sgpr_count (what the engine's occupancy reads too)
    metadata_vgprs: int  # the metadata's .vgpr_count (AGPRs included on gfx942)
    metadata_agprs: int


def _is_elf64(data: bytes) -> bool:
    return len(data) >= 64 and data[:4] == b"\x7fELF" and data[4] == 2


def check_gfx942(data: bytes, path: Path) -> None:
    """Raises CodeObjectError, naming `path`, unless `data` is an AMDGPU code object for gfx942 (its
    ELF header's machine and e_flags)."""
    if not _is_elf64(data):
        raise CodeObjectError(f"{path}: not an ELF code object nor a clang offload bundle")
    machine, = struct.unpack_from("<H", data, 18)
    e_flags, = struct.unpack_from("<I", data, 48)
    if machine != EM_AMDGPU:
        raise CodeObjectError(f"{path}: an ELF for machine {machine}, not an AMDGPU code object (compile the "
                              f"device side alone: --cuda-device-only --no-gpu-bundle-output)")
    if e_flags & 0xFF != EF_AMDGPU_MACH_GFX942:
        raise CodeObjectError(f"{path}: an AMDGPU code object for another GPU (e_flags mach 0x{e_flags & 0xFF:x}); "
                              f"compile with --offload-arch={toolchain.ROCM_ARCH}")


def kernels(path: Path) -> list[Kernel]:
    data = Path(path).read_bytes()
    if not _is_elf64(data):
        raise CodeObjectError(f"{path}: not a 64-bit ELF file")
    meta = {k[".symbol"]: k for k in _metadata(path)}
    found = []
    for name, offset in _descriptors(data):
        kd = data[offset:offset + DESCRIPTOR_BYTES]
        group, private = struct.unpack_from("<II", kd, 0)
        rsrc3, rsrc1 = struct.unpack_from("<II", kd, 44)
        info = meta.get(name + ".kd")
        if info is None:
            raise CodeObjectError(f"{path}: kernel {name} has a descriptor but no metadata")
        found.append(Kernel(name, group, private, ((rsrc1 & 0x3F) + 1) * machine.fact("vgpr_granule"),
                            ((rsrc3 & 0x3F) + 1) * 4, int(info[".sgpr_count"]), int(info[".vgpr_count"]),
                            int(info.get(".agpr_count", 0))))
    return found


def _descriptors(data: bytes) -> list[tuple[str, int]]:
    """(kernel name, file offset of its descriptor) for every `*.kd` symbol."""
    shoff, = struct.unpack_from("<Q", data, 0x28)
    shentsize, shnum = struct.unpack_from("<HH", data, 0x3A)
    sections = [struct.unpack_from("<IIQQQQIIQQ", data, shoff + i * shentsize) for i in range(shnum)]
    found = []
    for _, kind, _, _, offset, size, link, _, _, entsize in sections:
        if kind != SHT_SYMTAB:
            continue
        strings = sections[link][4]
        for at in range(offset, offset + size, entsize):
            name_at, _, _, shndx, value, _ = struct.unpack_from("<IBBHQQ", data, at)
            name = data[strings + name_at:data.index(b"\0", strings + name_at)].decode()
            if name.endswith(".kd") and 0 < shndx < len(sections):
                section = sections[shndx]
                found.append((name[:-3], section[4] + value - section[3]))
    return found


def _metadata(path: Path) -> list[dict]:
    """The amdhsa.kernels list of the metadata note, as llvm-readelf-19 prints it (YAML)."""
    try:
        out = subprocess.run(["llvm-readelf-19", "--notes", str(path)], capture_output=True, text=True,
                             check=True).stdout
    except FileNotFoundError:
        raise CodeObjectError("llvm-readelf-19 not found: apt-get install llvm-19") from None
    except subprocess.CalledProcessError as exc:
        raise CodeObjectError(f"{path}: llvm-readelf-19 cannot read it: {exc.stderr.strip()}") from None
    start = out.find("---")
    if start < 0:
        raise CodeObjectError(f"{path}: no AMDGPU metadata note")
    end = out.find("\n...", start)
    document = yaml.load(out[start:end if end >= 0 else len(out)], Loader=_MetadataLoader)
    return document.get("amdhsa.kernels", [])


class _MetadataLoader(yaml.SafeLoader):
    """YAML as LLVM writes the metadata: `!str` marks a string that would read as another type."""


_MetadataLoader.add_constructor("!str", lambda loader, node: loader.construct_scalar(node))
