"""Register layouts of gfx942's matrix instructions, for the tests: where each element of A, B,
C/D and SMFMAC's index lives, as (dword register, lane, bit offset).

From AMD's matrix instruction calculator: its tables (tests/data/spec/mfma/*.matrix_layout*.csv)
where we ship one, else its gfx9 layout rules (`rule_layout`, restated from the calculator's
algorithm); test_mfma checks the rules against every table we ship.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

SPEC = Path(__file__).resolve().parents[2] / "data" / "spec" / "mfma"
BITS = {"fp8": 8, "bf8": 8, "i8": 8, "f16": 16, "bf16": 16, "f32": 32, "xf32": 32, "f64": 64}

Key = tuple[int, int, int]   # (block, row, column) of a matrix element; SMFMAC A/K: first k of its group
Slot = tuple[int, int, int]  # (dword register of the operand, lane, bit offset)


@dataclass(frozen=True)
class Instruction:
    name: str
    sparse: bool
    acc: str     # f32, i32 or f64
    m: int       # every block is m x m
    k: int
    blocks: int
    a: str       # element types of A and B
    b: str

    @property
    def kpl(self) -> int:
        """k positions of one block per lane (SMFMAC: dense positions)."""
        return self.k * self.m * self.blocks // 64

    def dwords(self, operand: str) -> int:
        """Registers per lane of A, B, D or K (SMFMAC's index)."""
        if operand == "D":
            return self.m * self.m * self.blocks // 64 * (2 if self.acc == "f64" else 1)
        if operand == "K":
            return 1
        if self.sparse:
            return 2 if operand == "A" else 4
        return max(1, self.kpl * BITS[self.a] // 32)


def parse(name: str) -> Instruction:
    match = re.fullmatch(r"v_(mfma|smfmac)_(f32|i32|f64)_(\d+)x\d+x(\d+)(?:_(\d+)b)?_([a-z0-9]+)(?:_([a-z0-9]+))?",
                         name)
    assert match, name
    kind, acc, m, k, blocks, a, b = match.groups()
    return Instruction(name, kind == "smfmac", acc, int(m), int(k), int(blocks or 1), a, b or a)


def _register(header: str) -> tuple[int, int]:
    """'v3' -> (3, 0), 'v1.[31:16]' -> (1, 16), 'v[3:2]' (a 64-bit pair) -> (2, 0)."""
    pair = re.fullmatch(r"v\[(\d+):(\d+)\]", header)
    if pair:
        return int(pair.group(2)), 0
    match = re.fullmatch(r"v(\d+)(?:\.\[(\d+):(\d+)\])?", header)
    return int(match.group(1)), int(match.group(3) or 0)


def table_layout(name: str, operand: str, variant: str = "") -> dict[Key, Slot] | None:
    """The calculator's table of `operand` (A, B, D or K), None when we ship none."""
    path = SPEC / f"{name}.{operand}.matrix_layout{variant}.csv"
    if not path.exists():
        return None
    lines = path.read_text().splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("lane,"))
    columns = [_register(cell) for cell in lines[start].split(",")[1:]]
    where = {}
    for line in lines[start + 1:]:
        cells = line.split(",")
        for (register, bit), cell in zip(columns, cells[1:]):
            first = cell.split()[0]  # SMFMAC: the 4 positions of a group; the first names it
            block = re.search(r"\.B(\d+)", first)
            row, col = map(int, re.findall(r"\[(\d+)\]", first))
            where[(int(block.group(1)) if block else 0, row, col)] = (register, int(cells[0]), bit)
    return where


def _output_slot(ins: Instruction, block: int, i: int, j: int) -> Slot:
    """C/D: 32-bit results in multi-rows 4 registers tall and m lanes wide (64-bit: 1 row of
    register pairs); a register holds as many multi-rows or blocks as fit."""
    n, height = ins.m, 1 if ins.acc == "f64" else 4
    rows_per_register = 64 // n
    blocks_per_register = -(-64 // (n * ins.m // height))
    register = block * (ins.m * n // 64) + i // (height * rows_per_register) * height + i % height
    lane = block % blocks_per_register * n + i // height % rows_per_register * blocks_per_register * n + j
    return register * (2 if ins.acc == "f64" else 1), lane, 0


def rule_layout(ins: Instruction, operand: str, index_set: int = 0) -> dict[Key, Slot]:
    """The calculator's gfx9 rules: a dense A/B element (i, k) of block b sits in lane
    m*b + m*blocks*(k // kpl) + i, element k % kpl of the lane's operand."""
    where = {}
    bits = BITS[ins.a if operand == "A" else ins.b]
    for block in range(ins.blocks):
        for outer in range(ins.m):
            if operand == "D":
                for j in range(ins.m):
                    where[(block, outer, j)] = _output_slot(ins, block, outer, j)
                continue
            for k in range(ins.k):
                lane = ins.m * block + ins.m * ins.blocks * (k // ins.kpl) + outer
                if operand == "B":
                    bit = k % ins.kpl * bits
                    where[(block, k, outer)] = (bit // 32, lane, bit % 32)
                elif not ins.sparse:
                    bit = k % ins.kpl * bits
                    where[(block, outer, k)] = (bit // 32, lane, bit % 32)
                elif k % 4 == 0:  # SMFMAC: a group's two kept values, and its nibble of the index set
                    group = k % ins.kpl // 4
                    bit = 2 * bits * group if operand == "A" else 4 * group + ins.kpl * index_set
                    where[(block, outer, k)] = (bit // 32, lane, bit % 32)
    return where


def layout(ins: Instruction, operand: str, index_set: int = 0) -> dict[Key, Slot]:
    variant = f".cbsz0_abid{index_set}" if index_set else ""
    return table_layout(ins.name, operand, variant) or rule_layout(ins, operand, index_set)
