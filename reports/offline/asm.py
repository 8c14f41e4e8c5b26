"""Reading clang's AMDGPU assembly: per-kernel resource numbers and the hottest loop's mix.

Sources inside one `.s` file, all emitted by clang 19 for gfx942:
  - the `amdhsa.kernels` YAML in `.amdgpu_metadata` (registers, spills, LDS, workgroup size);
  - the `; Kernel info:` comments after each function (code size, AGPRs, compiler occupancy);
  - the instructions, whose loop headers LLVM marks `; =>This Inner Loop Header: Depth=N`.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field

import yaml

_FUNCTION_START = re.compile(r"^([\w.$]+):\s*(?:;.*)?$")
_LABEL = re.compile(r"^(\.?[\w.$]+):\s*(;.*)?$")
_LOOP_HEADER = re.compile(r"Loop Header: Depth=(\d+)")
_INFO = re.compile(r"^; (\w+)(?: =|:) (\d+)")
_IN_LOOP = re.compile(r"in Loop: Header=(BB\d+_\d+)")
_PARENT_LOOP = re.compile(r"Parent Loop (BB\d+_\d+)")


@dataclass
class Loop:
    label: str
    depth: int
    parent: str | None  # enclosing loop's header, e.g. "BB0_6"
    instructions: list[str]  # mnemonics of every block in the loop, nested loops included

    @property
    def mfma_count(self) -> int:
        return sum(1 for m in self.instructions if is_mfma(m))


@dataclass
class AsmKernel:
    symbol: str
    metadata: dict
    info: dict[str, int]
    instructions: list[str] = field(default_factory=list)
    loops: list[Loop] = field(default_factory=list)


def is_mfma(mnemonic: str) -> bool:
    return mnemonic.startswith(("v_mfma_", "v_smfmac_"))


def parse(asm: str) -> list[AsmKernel]:
    metadata = _kernel_metadata(asm)
    lines = asm.splitlines()
    kernels = []
    for symbol, meta in metadata.items():
        body, info = _function_body(lines, symbol)
        kernel = AsmKernel(symbol, meta, info, [line.mnemonic for line in body if line.mnemonic])
        kernel.loops = _loops(body)
        kernels.append(kernel)
    return kernels


def _kernel_metadata(asm: str) -> dict[str, dict]:
    start = asm.find(".amdgpu_metadata")
    end = asm.find(".end_amdgpu_metadata")
    if start < 0 or end < 0:
        return {}
    block = asm[start + len(".amdgpu_metadata"):end]
    document = yaml.safe_load(block.split("\n...")[0])  # YAML runs from `---` to `...`
    return {kernel[".name"]: kernel for kernel in document.get("amdhsa.kernels", [])}


@dataclass(frozen=True)
class _Line:
    label: str = ""     # a label line, with its comment (loop header marks live there)
    mnemonic: str = ""  # or an instruction
    operands: str = ""


def _function_body(lines: list[str], symbol: str) -> tuple[list[_Line], dict[str, int]]:
    """The function's labels and instructions, and its `; Kernel info:` numbers."""
    begin = next(i for i, line in enumerate(lines) if _FUNCTION_START.match(line) and line.split(":")[0] == symbol)
    body: list[_Line] = []
    info: dict[str, int] = {}
    in_info = False
    for line in lines[begin + 1:]:
        stripped = line.strip()
        if stripped.startswith("; Kernel info:"):
            in_info = True
            continue
        if in_info:
            match = _INFO.match(stripped)
            if match:
                info[match.group(1)] = int(match.group(2))
                continue
            if stripped.startswith(";"):
                continue
            break
        if stripped.startswith(".Lfunc_end"):
            continue
        if _LABEL.match(stripped):
            # Only basic blocks start a block: `-g` adds `.LtmpN:` (and `.Lfunc_begin0:`)
            # labels for line info in the middle of blocks; they are not jump targets.
            if stripped.startswith(".LBB"):
                body.append(_Line(label=stripped))
        elif stripped.startswith("; %bb."):  # an unlabelled block; its comment names its loop
            body.append(_Line(label=stripped))
        elif stripped.startswith(";") and not stripped.startswith(";DEBUG_") and body and body[-1].label:
            # LLVM wraps long loop annotations onto comment lines under the label.
            body[-1] = _Line(label=body[-1].label + " " + stripped)
        elif stripped and not stripped.startswith((";", ".")):
            mnemonic, _, operands = stripped.partition(" ")
            body.append(_Line(mnemonic=mnemonic, operands=operands.strip()))
    return body, info


def _loops(body: list[_Line]) -> list[Loop]:
    """Loops from LLVM's block annotations. Blocks of a loop need not be contiguous (a rotated
    loop's latch may sit above its header), so membership comes from each block's
    `in Loop: Header=BBx_y` / `Parent Loop BBx_y` comments, not from branch targets."""
    depth: dict[str, int] = {}
    parent: dict[str, str | None] = {}
    owner: list[str | None] = []  # innermost loop of each body entry
    current: str | None = None
    for line in body:
        if line.label:
            header = _LOOP_HEADER.search(line.label)
            member = _IN_LOOP.search(line.label)
            if header:
                name = "BB" + line.label.split(":")[0].removeprefix(".LBB")
                depth[name] = int(header.group(1))
                enclosing = _PARENT_LOOP.search(line.label)
                parent[name] = enclosing.group(1) if enclosing else None
                current = name
            else:
                current = member.group(1) if member else None
        owner.append(current)

    def inside(loop: str | None, outer: str) -> bool:
        while loop is not None:
            if loop == outer:
                return True
            loop = parent.get(loop)
        return False

    loops = []
    for name in depth:
        indices = [i for i, loop in enumerate(owner) if inside(loop, name)]
        mnemonics = [body[i].mnemonic for i in indices if body[i].mnemonic]
        loops.append(Loop(".L" + name, depth[name], parent[name], mnemonics))
    return loops


def hottest_loop(kernel: AsmKernel) -> Loop | None:
    """The loop with the most MFMAs (ties: the deeper one); without MFMAs, the longest
    innermost loop. None if the kernel has no loop."""
    if not kernel.loops:
        return None
    if any(loop.mfma_count for loop in kernel.loops):
        return max(kernel.loops, key=lambda loop: (loop.mfma_count, loop.depth, -len(loop.instructions)))
    parents = {loop.parent for loop in kernel.loops}
    innermost = [loop for loop in kernel.loops if loop.label.removeprefix(".L") not in parents]
    return max(innermost, key=lambda loop: len(loop.instructions))


def instruction_mix(mnemonics: list[str]) -> Counter:
    """Counts by class; MFMA, LDS and global/buffer memory instructions keep their mnemonic
    (kind and width), e.g. `mfma_f32_16x16x32_fp8_fp8`, `ds_read_b128`, `global_load_dwordx4`."""
    mix: Counter = Counter()
    for mnemonic in mnemonics:
        mix[classify(mnemonic)] += 1
    return mix


def classify(mnemonic: str) -> str:
    if is_mfma(mnemonic):
        return mnemonic[2:]
    if mnemonic.startswith(("ds_read", "ds_write", "ds_load", "ds_store")):
        return mnemonic
    if mnemonic.startswith(("global_", "buffer_", "flat_")):
        return mnemonic
    if mnemonic == "s_waitcnt":
        return "s_waitcnt"
    if mnemonic == "s_barrier":
        return "s_barrier"
    if mnemonic.startswith("ds_"):
        return "ds_other"
    if mnemonic.startswith("s_"):
        return "salu"
    if mnemonic.startswith("v_"):
        return "valu"
    return "other"
