"""Every kind of gfx942 matrix instruction on the ISA engine (multi-block, f32, xf32, f64, i8,
f16/bf16, fp8/bf8, SMFMAC) against an exact numpy computation: operands are placed with the
calculator's register layouts (mfma_layout), CBSZ/ABID/BLGP and SMFMAC's index included.

Values are chosen so that every sum is exact: any summation order gives the same bits, and
the only rounding is the one to the result type.
"""
from __future__ import annotations

import ctypes
import re
import shutil
import sys
import zlib
from pathlib import Path

import numpy as np
import pytest
import torch

sys.path.insert(0, str(Path(__file__).resolve().parent))
import harness  # noqa: E402
import mfma_layout  # noqa: E402
from mfma_layout import Instruction  # noqa: E402

pytestmark = pytest.mark.skipif(shutil.which("clang++-19") is None, reason="needs clang-19 for gfx942")

# (instruction, cbsz, abid, blgp, register file) of every matrix kernel in micro_kernels.hip; the
# register file ("a" or "v") of the *_ASM kernels' operands, "" where the compiler chooses
KERNELS = [(name, int(cbsz), int(abid), int(blgp or 0), file) for name, cbsz, abid, blgp, file in re.findall(
    r"^(?:DENSE|SPARSE)(?:_ASM)?\((v_\w+), (\d+), (\d+), (?:(\d+), )?(?:([av]), )?",
    (harness.HERE / "micro_kernels.hip").read_text(), re.MULTILINE)]
NAMES = [f"{name}_c{cbsz}a{abid}b{blgp}" + (f"_{file}gpr" if file else "") for name, cbsz, abid, blgp, file in KERNELS]


# ---- values with exact sums, and their bits ----------------------------------------------------
def _fp8_values(dtype: torch.dtype, low: float, high: float) -> tuple[np.ndarray, np.ndarray]:
    """(codes, values) of the 8-bit codes whose magnitude is 0 or within [low, high]."""
    codes = torch.arange(256, dtype=torch.uint8)
    values = codes.view(dtype).double()
    keep = (values == 0) | ((values.abs() >= low) & (values.abs() <= high))
    return codes[keep].numpy().astype(np.uint64), values[keep].numpy()


def random_elements(kind: str, shape, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """(bits as uint64, exact value) of random elements of type `kind`."""
    if kind in ("fp8", "bf8"):
        dtype = torch.float8_e4m3fnuz if kind == "fp8" else torch.float8_e5m2fnuz
        codes, values = _fp8_values(dtype, 2.0 ** -4, 2.0 ** 4)
        pick = rng.integers(0, len(codes), shape)
        return codes[pick], values[pick]
    if kind in ("i8", "i32"):
        v = rng.integers(-128, 128, shape) if kind == "i8" else rng.integers(-2**20, 2**20, shape)
        return (v & (0xff if kind == "i8" else 0xffffffff)).astype(np.uint64), v.astype(np.float64)
    if kind == "xf32":  # full f32 mantissas: the engine reads them rounded to 10 bits
        v = rng.uniform(-2, 2, shape).astype(np.float32)
        return v.view(np.uint32).astype(np.uint64), xf32(v)
    v = rng.integers(-32, 33, shape) / 4.0
    if kind == "f16":
        return v.astype(np.float16).view(np.uint16).astype(np.uint64), v
    if kind == "bf16":
        return (v.astype(np.float32).view(np.uint32) >> 16).astype(np.uint64), v
    if kind == "f64":
        return v.view(np.uint64), v
    return v.astype(np.float32).view(np.uint32).astype(np.uint64), v


def xf32(v: np.ndarray) -> np.ndarray:
    """f32 values with their mantissa rounded to 10 bits, nearest even (the XF32 model)."""
    bits = v.view(np.uint32).astype(np.uint64)
    rounded = ((bits + 0xfff + ((bits >> 13) & 1)) & ~np.uint64(0x1fff)).astype(np.uint32)
    return rounded.view(np.float32).astype(np.float64)


def random_sparse(kind: str, ins: Instruction, rng: np.random.Generator):
    """A of an SMFMAC: two kept values per group of 4 positions, at places p0 < p1."""
    bits, values = random_elements(kind, (ins.m, ins.k // 2), rng)
    places = np.array([(p0, p1) for p0 in range(4) for p1 in range(p0 + 1, 4)])[rng.integers(0, 6, (ins.m, ins.k // 4))]
    dense = np.zeros((1, ins.m, ins.k))
    for i in range(ins.m):
        for group in range(ins.k // 4):
            for half in range(2):
                dense[0, i, 4 * group + places[i, group, half]] = values[i, 2 * group + half]
    return bits, values, places, dense


# ---- register images -----------------------------------------------------------------------------
def place(image: np.ndarray, slot, bits: int) -> None:
    register, lane, bit = slot
    image[register, lane] |= np.uint64(int(bits) << bit)


def to_tensor(image: np.ndarray) -> torch.Tensor:
    """uint64 image with values up to 64 bits at their register -> the kernel's dword image."""
    words = np.zeros((image.shape[0] + 1, 64), dtype=np.uint32)
    words[:-1] |= (image & 0xffffffff).astype(np.uint32)
    words[1:] |= (image >> 32).astype(np.uint32)
    return torch.from_numpy(words[:-1].view(np.int32).copy())


def blgp_lane(blgp: int, lane: int) -> int:
    return [lane, lane % 32, lane % 32 + 32, (lane + 16) % 64][blgp] if blgp < 4 else lane % 16 + 16 * (blgp - 4)


def dense_operands(ins: Instruction, cbsz: int, abid: int, blgp: int, rng):
    """Register images of A and B, and the A and B each block multiplies (CBSZ/ABID, BLGP applied)."""
    a_bits, a = random_elements(ins.a, (ins.blocks, ins.m, ins.k), rng)
    b_bits, b = random_elements(ins.b, (ins.blocks, ins.k, ins.m), rng)
    images = {name: np.zeros((ins.dwords(name), 64), dtype=np.uint64) for name in "AB"}
    b_at = {}
    for key, slot in mfma_layout.layout(ins, "A").items():
        place(images["A"], slot, a_bits[key])
    for key, slot in mfma_layout.layout(ins, "B").items():
        place(images["B"], slot, b_bits[key])
        b_at[slot] = b[key]
    if ins.acc == "f64":  # BLGP: negate A, B, C
        return images, a * (-1) ** (blgp & 1), b * (-1) ** (blgp >> 1 & 1)
    used_a = np.stack([a[(block >> cbsz << cbsz) + abid] for block in range(ins.blocks)])
    used_b = np.zeros_like(b)
    for key, (register, lane, bit) in mfma_layout.layout(ins, "B").items():
        used_b[key] = b_at[(register, blgp_lane(blgp, lane), bit)]
    return images, used_a, used_b


def sparse_operands(ins: Instruction, cbsz: int, abid: int, rng):
    """Register images of A, B and the index, and the dense A and B they stand for."""
    a_bits, _, places, dense_a = random_sparse(ins.a, ins, rng)
    b_bits, b = random_elements(ins.b, (1, ins.k, ins.m), rng)
    index_set = abid if cbsz == 0 else 0
    images = {name: np.zeros((ins.dwords(name), 64), dtype=np.uint64) for name in "ABK"}
    for (_, i, k), slot in mfma_layout.layout(ins, "A").items():
        group = k // 4
        half_bits = mfma_layout.BITS[ins.a]
        place(images["A"], slot, int(a_bits[i, 2 * group]) | int(a_bits[i, 2 * group + 1]) << half_bits)
    for (_, i, k), slot in mfma_layout.layout(ins, "K", index_set).items():
        p0, p1 = places[i, k // 4]
        place(images["K"], slot, p0 | p1 << 2)
    for key, slot in mfma_layout.layout(ins, "B").items():
        place(images["B"], slot, b_bits[key])
    return images, dense_a, b


def expected_d(ins: Instruction, c: np.ndarray, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    exact = c + a @ b  # every sum is exact in float64
    if ins.acc == "f32":
        return exact.astype(np.float32).view(np.uint32).astype(np.uint64)
    if ins.acc == "i32":
        return exact.astype(np.int64).astype(np.uint64) & 0xffffffff
    return exact.view(np.uint64)


@pytest.mark.parametrize("name,cbsz,abid,blgp,kernel", [(*k[:4], n) for k, n in zip(KERNELS, NAMES)], ids=NAMES)
def test_matrix_instruction_matches_numpy(engine, micro, name, cbsz, abid, blgp, kernel):
    ins = mfma_layout.parse(name)
    rng = np.random.default_rng(zlib.crc32(kernel.encode()))
    if ins.sparse:
        images, a, b = sparse_operands(ins, cbsz, abid, rng)
    else:
        images, a, b = dense_operands(ins, cbsz, abid, blgp, rng)
    c_bits, c = random_elements(ins.acc, (ins.blocks, ins.m, ins.m), rng)
    d_layout = mfma_layout.layout(ins, "D")
    c_image = np.zeros((ins.dwords("D"), 64), dtype=np.uint64)
    for key, slot in d_layout.items():
        place(c_image, slot, c_bits[key])
    if ins.acc == "f64" and blgp & 4:
        c = -c
    d = torch.zeros(ins.dwords("D"), 64, dtype=torch.int32)
    index = to_tensor(images.get("K", np.zeros((1, 64), dtype=np.uint64)))
    tensors = [to_tensor(images["A"]), to_tensor(images["B"]), to_tensor(c_image), index, d]
    engine.launch(micro, kernel, (1,), (64,),
                  [ctypes.c_void_p(t.data_ptr()) for t in tensors])
    words = d.numpy().view(np.uint32).astype(np.uint64)
    want = expected_d(ins, c, a, b)
    wide = ins.acc == "f64"
    wrong = [(key, hex(want[key])) for key, (register, lane, _) in d_layout.items()
             if (words[register, lane] | (words[register + 1, lane] << 32 if wide else 0)) != want[key]]
    assert not wrong, f"{len(wrong)} of {len(d_layout)} D elements differ, e.g. {wrong[:3]}"


# ---- the layout rules against the calculator's tables ------------------------------------------
TABLES = sorted({path.name.split(".")[0] for path in mfma_layout.SPEC.glob("v_*.matrix_layout*.csv")})


@pytest.mark.parametrize("name", TABLES)
def test_layout_rules_reproduce_the_calculator_tables(name):
    ins = mfma_layout.parse(name)
    for path in sorted(mfma_layout.SPEC.glob(f"{name}.*.matrix_layout*.csv")):
        operand, variant = path.name.split(".")[1], path.name.split(".matrix_layout")[1].removesuffix(".csv")
        index_set = int(variant.removeprefix(".cbsz0_abid")) if variant else 0
        table = mfma_layout.table_layout(name, operand, variant)
        assert mfma_layout.rule_layout(ins, operand, index_set) == table, path.name


def test_a_broadcast_larger_than_the_blocks_is_a_fault(engine, micro):
    tensors = [torch.zeros(16, 64, dtype=torch.int32) for _ in range(5)]
    with pytest.raises(harness.EngineError, match="CBSZ/ABID name a broadcast"):
        engine.launch(micro, "v_mfma_f32_16x16x1_4b_f32_c3a0b0", (1,), (64,),
                      [ctypes.c_void_p(t.data_ptr()) for t in tensors])
