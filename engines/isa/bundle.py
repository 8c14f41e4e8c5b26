"""The clang offload bundle that clang's HIP pipeline embeds as a fat binary, written and read here.

Debian's clang-19 ships no clang-offload-bundler, so the build compiles the device code object
and the host code in two clang runs and bundles in between, as the bundler would: the magic
`__CLANG_OFFLOAD_BUNDLE__`, the entry count, one (offset, size, id length, id) record per entry,
then the entries. clang's HIP toolchain bundles an empty host entry plus one code object per
--offload-arch, each aligned to 4096 bytes. Layout facts: clang's ClangOffloadBundler docs.
A bundle another compiler wrote (device code brought from ROCm's hipcc: device_code.py) is read
with `read_bundle`; a compressed one (`CCOB`, --offload-compress) is not.
"""
from __future__ import annotations

import struct

MAGIC = b"__CLANG_OFFLOAD_BUNDLE__"
COMPRESSED_MAGIC = b"CCOB"
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


class BundleError(ValueError):
    """Bytes that are not an uncompressed clang offload bundle; the message says what they are."""


def read_bundle(data: bytes) -> dict[str, bytes]:
    """The bundle's entries, `{id: bytes}` (ids as write_bundle names them, target features kept)."""
    if data.startswith(COMPRESSED_MAGIC):
        raise BundleError("a compressed offload bundle (--offload-compress): unbundle it with clang-offload-bundler "
                          "--unbundle, or build with --no-offload-compress")
    if not data.startswith(MAGIC):
        raise BundleError("not a clang offload bundle (no __CLANG_OFFLOAD_BUNDLE__ magic)")
    try:
        (count,) = struct.unpack_from("<Q", data, len(MAGIC))
        position, entries = len(MAGIC) + 8, {}
        for _ in range(count):
            offset, size, id_size = struct.unpack_from("<QQQ", data, position)
            name = data[position + 24:position + 24 + id_size].decode()
            position += 24 + id_size
            if offset + size > len(data):
                raise BundleError(f"a truncated offload bundle (entry {name} ends past the file)")
            entries[name] = data[offset:offset + size]
    except (struct.error, UnicodeDecodeError) as exc:
        raise BundleError(f"a damaged offload bundle ({exc})") from None
    return entries
