"""Test harness of the ISA engine's core: links a small C interface (capi.cpp) with the core's
objects as the engine's runtime library compiles them (the core the engine runs), compiles
the repo's kernels for gfx942 into code objects (repo_kernels.hip) and launches them the way
their launchers do, on CPU tensors.

Used by test_core.py and bench.py; cached builds live in the machine's build cache
(machine/cache.py), under tests/engines/isa/, keyed by content: every clone shares them.
"""
from __future__ import annotations

import ctypes
import hashlib
import subprocess
from dataclasses import dataclass
from pathlib import Path

import torch

from engines.isa import core
from machine import cache
from toolchain.diagnostics import system_prefixes

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[2]
CACHE = cache.ROOT / "tests" / "engines" / "isa"
VARIANT_INDEX = {"v0_naive": 0, "v1_lds_mfma": 1, "v2_swizzle_splitk": 2, "v3_twoblock_xcd": 3}


def _digest(paths: list[Path], extra: str = "") -> str:
    h = hashlib.sha256(extra.encode())
    for p in paths:
        h.update(p.read_bytes())
    return h.hexdigest()[:16]


def build_library() -> Path:
    """capi.cpp linked with the core's objects as the engine's runtime library compiles them
    (engines.isa.build.runtime_objects, cached: no second compile of the core). -Bsymbolic: the
    core this library calls is its own, even in a process that loaded another engine runtime
    (a test double's) before it."""
    from engines.isa import build

    objects = build.runtime_objects(core.sources())
    torch_lib = build.torch_library_dir()
    capi = HERE / "capi.cpp"
    out = CACHE / f"libisa_test-{_digest([capi], ' '.join(o.name for o in objects))}.so"
    if not out.exists():
        CACHE.mkdir(parents=True, exist_ok=True)
        tmp = out.with_suffix(".tmp")
        subprocess.run(["clang++-19", *build.RUNTIME_FLAGS, "-shared", "-Wl,-Bsymbolic",
                        *(f"-I{d}" for d in core.include_dirs()), str(capi), *map(str, objects), "-o", str(tmp),
                        "-L", torch_lib, "-lc10", f"-Wl,-rpath,{torch_lib}"], check=True)
        tmp.replace(out)
    return out


def compile_source(source: Path, defines: tuple[str, ...] = (), includes: tuple[Path, ...] = (),
                   flags: tuple[str, ...] = ()) -> Path:
    """A gfx942 code object of `source`, compiled as the runner compiles (toolchain.hipcc)."""
    from engines.isa.build import HEADERS_PREFIX_MAP
    from toolchain import headers, hipcc

    deps = [source, *sorted((REPO / "kernels").rglob("*.hip")), *sorted((REPO / "kernels" / "common").glob("*.h")),
            *sorted(headers.INCLUDE_DIR.rglob("*.h"))]
    out = CACHE / f"{source.stem}-{_digest(deps, ' '.join(defines + flags))}.co"
    if out.exists():
        return out
    CACHE.mkdir(parents=True, exist_ok=True)
    cmd = hipcc.device_compile_command(source, out.with_suffix(".s"))
    cmd = ["-c" if word == "-S" else word for word in cmd]
    cmd[cmd.index("-o") + 1] = str(out.with_suffix(".tmp"))
    # NOTE: line tables name our headers as the engine's builds do, where every clone finds them ours.
    cmd[1:1] = ["--no-gpu-bundle-output", HEADERS_PREFIX_MAP, *flags, *(f"-D{d}" for d in defines), *(f"-I{i}" for i in includes)]
    subprocess.run(cmd, check=True, capture_output=True)
    out.with_suffix(".tmp").replace(out)
    return out


def compile_variant(variant: str) -> Path:
    return compile_source(HERE / "repo_kernels.hip", (f"VARIANT={VARIANT_INDEX[variant]}",), (REPO / "kernels",))


class EngineError(RuntimeError):
    pass


class Engine:
    """ctypes front of capi.cpp."""

    def __init__(self) -> None:
        lib = ctypes.CDLL(str(build_library()))
        lib.isa_test_error.restype = ctypes.c_char_p
        lib.isa_test_load.restype = ctypes.c_void_p
        lib.isa_test_load.argtypes = [ctypes.c_char_p]
        lib.isa_test_kernels.restype = ctypes.c_char_p
        lib.isa_test_kernels.argtypes = [ctypes.c_void_p]
        lib.isa_test_launch.argtypes = [ctypes.c_void_p, ctypes.c_char_p, *[ctypes.c_uint] * 6,
                                        ctypes.POINTER(ctypes.c_void_p), ctypes.c_uint]
        lib.isa_test_disasm.restype = ctypes.c_char_p
        lib.isa_test_disasm.argtypes = [ctypes.c_void_p]
        lib.isa_test_note.argtypes = [ctypes.c_void_p, ctypes.c_ulong, ctypes.c_char_p]
        lib.isa_test_forget.argtypes = [ctypes.c_void_p]
        lib.isa_test_diagnostics.restype = ctypes.c_char_p
        lib.isa_test_system_prefixes("\n".join(system_prefixes()).encode())  # as the runtime's loader does
        self.lib = lib
        self._objects: dict[Path, int] = {}

    def load(self, path: Path) -> int:
        if path not in self._objects:
            handle = self.lib.isa_test_load(str(path).encode())
            if not handle:
                raise EngineError(self.lib.isa_test_error().decode())
            self._objects[path] = handle
        return self._objects[path]

    def kernels(self, handle: int) -> list[str]:
        return self.lib.isa_test_kernels(handle).decode().split()

    def disasm(self, handle: int) -> list[tuple[int, int, bool, str, tuple[str, ...]]]:
        """(address, size in bytes, semantics implemented, table mnemonic, register operands) of
        every instruction; operands as the decoder unpacked them, in llvm-objdump's order: "s4",
        "v7", "a0" (a register range by its first register; VCC, M0, EXEC as SGPRs at their codes)."""
        rows = []
        for line in self.lib.isa_test_disasm(handle).decode().splitlines():
            addr, size, known, name, *operands = line.split()
            rows.append((int(addr, 16), int(size), known == "1", name, tuple(operands)))
        return rows

    def launch(self, handle: int, symbol: str, grid, block, args: list[ctypes.Structure | ctypes._SimpleCData],
               dynamic_lds: int = 0) -> None:
        ptrs = (ctypes.c_void_p * max(1, len(args)))(*[ctypes.cast(ctypes.pointer(a), ctypes.c_void_p) for a in args])
        grid = tuple(grid) + (1,) * (3 - len(grid))
        block = tuple(block) + (1,) * (3 - len(block))
        if self.lib.isa_test_launch(handle, symbol.encode(), *grid, *block, ptrs, dynamic_lds):
            raise EngineError(self.lib.isa_test_error().decode())

    def note(self, tensor: torch.Tensor, what: str) -> None:
        if tensor.numel():
            self.lib.isa_test_note(tensor.data_ptr(), tensor.untyped_storage().nbytes(), what.encode())

    def forget(self, tensor: torch.Tensor) -> None:
        if tensor.numel():
            self.lib.isa_test_forget(tensor.data_ptr())

    def threads(self, n: int) -> None:
        self.lib.isa_test_threads(n)

    def strict(self, on: bool) -> None:
        self.lib.isa_test_strict(int(on))

    def diagnostics(self) -> list[tuple[str, int, str]]:
        """(kind, count, message) of each diagnostic site since the last call."""
        rows = []
        for line in self.lib.isa_test_diagnostics().decode().splitlines():
            kind, count, message = line.split("\t", 2)
            rows.append((kind, int(count), message))
        return rows

    def stats(self) -> dict:
        counts = (ctypes.c_ulonglong * 5)()
        seconds = (ctypes.c_double * 2)()
        self.lib.isa_test_stats(counts, seconds)
        names = ("launches", "workgroups", "waves", "wave_instructions", "mfma_instructions")
        return {**dict(zip(names, counts)), "seconds": seconds[0], "mfma_seconds": seconds[1]}

    def reset(self) -> None:
        self.lib.isa_test_reset()


class Fp8MmArgs(ctypes.Structure):
    """kernels/common/fp8_mm_args.h."""
    _fields_ = [("a", ctypes.c_void_p), ("b", ctypes.c_void_p), ("a_scale", ctypes.c_void_p),
                ("b_scale", ctypes.c_void_p), ("c", ctypes.c_void_p), ("workspace", ctypes.c_void_p),
                ("tile_counters", ctypes.c_void_p),
                *[(name, ctypes.c_int) for name in ("m", "n", "k", "lda", "ldb", "lda_scale", "ldb_scale", "ldc",
                                                     "split_k")]]


@dataclass(frozen=True)
class Tile:
    block_m: int
    block_n: int
    waves_m: int
    waves_n: int

    @property
    def threads(self) -> int:
        return 64 * self.waves_m * self.waves_n

    def mangled(self) -> str:
        return f"ILi{self.block_m}ELi{self.block_n}ELi128ELi{self.waves_m}ELi{self.waves_n}E"


TILES = {
    "v0_naive": [Tile(16, 16, 4, 1)],
    "v1_lds_mfma": [Tile(128, 128, 2, 2)],
    "v2_swizzle_splitk": [Tile(128, 128, 2, 4), Tile(64, 128, 1, 4)],
    "v3_twoblock_xcd": [Tile(128, 128, 2, 2), Tile(64, 128, 1, 4)],
}


def _ceil(x: int, y: int) -> int:
    return -(-x // y)


def run_gemm(engine: Engine, variant: str, tile: Tile, data, split_k: int = 1,
             workspace: torch.Tensor | None = None) -> torch.Tensor:
    """One launch of `variant`'s `tile` instance on generate_input's (a, b, a_scale, b_scale, c),
    with the grid, block and aligned/unaligned choice of the variant's launcher."""
    a, b, a_scale, b_scale, c = data
    m, k = a.shape
    n = b.shape[0]
    handle = engine.load(compile_variant(variant))
    tiles = _ceil(m, tile.block_m) * _ceil(n, tile.block_n)
    if workspace is None:
        workspace = torch.zeros(split_k * tiles * tile.block_m * tile.block_n if split_k > 1 else 0,
                                dtype=torch.float32)
    counters = torch.zeros(tiles if split_k > 1 else 0, dtype=torch.int32)
    args = Fp8MmArgs(a.data_ptr(), b.data_ptr(), a_scale.data_ptr(), b_scale.data_ptr(), c.data_ptr(),
                     workspace.data_ptr() if workspace.numel() else None,
                     counters.data_ptr() if counters.numel() else None,
                     m, n, k, a.stride(1), b.stride(1), a_scale.stride(1), b_scale.stride(1), c.stride(0), split_k)
    aligned = (m % 16 == 0 and n % 16 == 0 and a.stride(1) % 16 == 0 and b.stride(1) % 16 == 0
               and a.data_ptr() % 16 == 0 and b.data_ptr() % 16 == 0)
    if variant == "v3_twoblock_xcd":
        aligned = aligned and a_scale.stride(1) % 4 == 0 and a_scale.data_ptr() % 16 == 0
    if variant == "v0_naive":
        grid, block = (_ceil(n, tile.block_n), _ceil(m, tile.block_m)), (tile.block_n, tile.block_m)
    elif variant == "v1_lds_mfma":
        grid, block = (tiles,), (tile.threads,)
    elif variant == "v2_swizzle_splitk":
        grid, block = (tiles, split_k), (tile.threads,)
    else:
        grid, block = (tiles * split_k,), (tile.threads,)
    names = [name for name in engine.kernels(handle) if tile.mangled() in name]
    if variant in ("v2_swizzle_splitk", "v3_twoblock_xcd"):
        names = [name for name in names if name.endswith("Lb1EEv9Fp8MmArgs" if aligned else "Lb0EEv9Fp8MmArgs")]
    assert len(names) == 1, (variant, tile, names)
    tensors = {"a": a, "b": b, "a_scale": a_scale, "b_scale": b_scale, "c": c, "workspace": workspace,
               "tile_counters": counters}
    for what, tensor in tensors.items():
        engine.note(tensor, what)
    try:
        engine.launch(handle, names[0], grid, block, [args])
    finally:
        for tensor in tensors.values():
            engine.forget(tensor)
    return c
