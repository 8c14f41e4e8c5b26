"""The clang offload bundle that clang's HIP pipeline embeds as a fat binary, written here.

Debian's clang-19 ships no clang-offload-bundler, so the build compiles the device code object
and the host code in two clang runs and bundles in between, as the bundler would: the magic
`__CLANG_OFFLOAD_BUNDLE__`, the entry count, one (offset, size, id length, id) record per entry,
then the entries. clang's HIP toolchain bundles an empty host entry plus one code object per
--offload-arch, each aligned to 4096 bytes. Layout facts: clang's ClangOffloadBundler docs.
"""
from __future__ import annotations

import struct

MAGIC = b"__CLANG_OFFLOAD_BUNDLE__"
HOST_ID = "host-x86_64-unknown-linux-gnu-"
ALIGNMENT = 4096


def device_id(arch: str) -> str:
    return f"hipv4-amdgcn-amd-amdhsa--{arch}"


def write_bundle(code_objects: dict[str, bytes]) -> bytes:
    """`{arch: code object ELF}` -> the bundle bytes clang would embed in .hip_fatbin."""
    entries = [(HOST_ID, b"")] + [(device_id(arch), code) for arch, code in code_objects.items()]
    header_size = len(MAGIC) + 8 + sum(24 + len(name) for name, _ in entries)
    offsets, position = [], header_size
    for _, data in entries:
        if data:
            position = -(-position // ALIGNMENT) * ALIGNMENT
        offsets.append(position)
        position += len(data)
    out = bytearray(MAGIC + struct.pack("<Q", len(entries)))
    for (name, data), offset in zip(entries, offsets):
        out += struct.pack("<QQQ", offset, len(data), len(name)) + name.encode()
    for (_, data), offset in zip(entries, offsets):
        if data:
            out += bytes(offset - len(out)) + data
    return bytes(out)
