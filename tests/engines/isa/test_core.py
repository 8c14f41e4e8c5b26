"""The ISA engine's core on the CPU: decoder against llvm-objdump, instruction semantics on
small kernels with known results, memory-model checks, and the repo's kernels end to end
(against the reference check and bit for bit against the source-level emulator).

Numbers here are "emulated": they say what gfx942 code computes, nothing about MI300X speed.
"""
from __future__ import annotations

import ctypes
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import torch

sys.path.insert(0, str(Path(__file__).resolve().parent))
import harness  # noqa: E402

from reference.task import check_implementation, clone_input, generate_input  # noqa: E402

pytestmark = pytest.mark.skipif(shutil.which("clang++-19") is None, reason="needs clang-19 for gfx942")

VARIANTS = list(harness.TILES)
SPEC = harness.REPO / "tests" / "data" / "spec"


def ptr(tensor: torch.Tensor) -> ctypes.c_void_p:
    return ctypes.c_void_p(tensor.data_ptr())


# ---- tables and decoder ---------------------------------------------------------------------
def test_generated_tables_are_current():
    pytest.importorskip("tinygrad")
    done = subprocess.run([sys.executable, "-m", "engines.isa.gen_tables", "--check"], cwd=harness.REPO)
    assert done.returncode == 0


# Scalar registers llvm-objdump names, at their operand codes.
_NAMED_SGPRS = {"flat_scratch": 102, "flat_scratch_lo": 102, "flat_scratch_hi": 103, "xnack_mask": 104,
                "xnack_mask_lo": 104, "xnack_mask_hi": 105, "vcc": 106, "vcc_lo": 106, "vcc_hi": 107, "m0": 124,
                "exec": 126, "exec_lo": 126, "exec_hi": 127}
_REGISTER = re.compile(r"\b(?:(s|v|a|ttmp)(?:(\d+)|\[(\d+):\d+\])(?!\w)|(" + "|".join(_NAMED_SGPRS) + r")\b)")


def _registers(operands: str) -> tuple[str, ...]:
    """The register operands of llvm-objdump's operand text as the decoder test names them: a
    range by its first register, trap temporaries and named SGPRs by their operand codes."""
    names = []
    for kind, single, first, named in _REGISTER.findall(operands):
        if named:
            names.append(f"s{_NAMED_SGPRS[named]}")
        elif kind == "ttmp":
            names.append(f"s{108 + int(single or first)}")
        else:
            names.append(f"{kind}{single or first}")
    return tuple(names)


def _objdump(path: Path) -> dict[int, tuple[str, tuple[str, ...]]]:
    """Address -> (mnemonic, register operands) of every instruction llvm-objdump-19 prints."""
    text = subprocess.run(["llvm-objdump-19", "-d", "--mcpu=gfx942", str(path)], capture_output=True, text=True,
                          check=True).stdout
    rows = {}
    for line in text.splitlines():
        match = re.match(r"^\s+([a-z_0-9]+)\b(.*?)//\s+([0-9A-F]+):", line)
        if match:
            rows[int(match.group(3), 16)] = (match.group(1), _registers(match.group(2)))
    return rows


def _base(name: str) -> str:
    return re.sub(r"_(e32|e64|sdwa|dpp)$", "", name)


@pytest.mark.parametrize("source", ["micro", *VARIANTS])
def test_decoder_agrees_with_llvm_objdump(engine, source):
    """Every instruction: its size, its mnemonic and its register operands (kind and number:
    v7 vs a7 vs s7) as llvm-objdump-19 reads them."""
    path = (harness.compile_source(harness.HERE / "micro_kernels.hip") if source == "micro"
            else harness.compile_variant(source))
    ours = {addr: row for addr, *row in engine.disasm(engine.load(path))}
    theirs = _objdump(path)
    assert theirs, "llvm-objdump printed no instructions"
    for addr, (mnemonic, operands) in theirs.items():
        assert addr in ours, f"0x{addr:x} {mnemonic}: no instruction decoded at this address (a size is wrong)"
        size, known, name, decoded = ours[addr]
        assert _base(mnemonic).startswith(_base(name)), f"0x{addr:x}: objdump {mnemonic}, decoder {name}"
        if mnemonic not in ("s_code_end", "v_sad_u8"):  # v_sad_u8: the unimplemented-instruction test's
            assert known, f"0x{addr:x} {mnemonic}: no semantics"
        assert decoded == operands, f"0x{addr:x} {mnemonic}: objdump {' '.join(operands)}, decoder {' '.join(decoded)}"


# ---- instruction semantics on micro kernels --------------------------------------------------
def test_fp8_decode_matches_the_spec_table(engine, micro):
    codes = torch.arange(256, dtype=torch.uint8)
    out = torch.zeros(256)
    engine.launch(micro, "fp8_decode", (4,), (64,), [ptr(codes), ptr(out), ctypes.c_int(256)])
    rows = [line for line in (SPEC / "fp8" / "fp8_e4m3fnuz_decode.csv").read_text().splitlines()
            if not line.startswith("#")]
    header = rows[0].split(",")
    assert len(rows) == 257
    for row in rows[1:]:
        cols = dict(zip(header, row.split(",")))
        code = int(cols["code"], 0)
        expected = float(cols["value"])
        got = out[code].item()
        assert (got == expected) or (expected != expected and got != got), (code, got, expected)


def test_integer_and_float_lane_math(engine, micro):
    x = torch.randint(-100000, 100000, (300,), dtype=torch.int32, generator=torch.Generator().manual_seed(1))
    out_i, out_f = torch.zeros(300, dtype=torch.int32), torch.zeros(300)
    engine.launch(micro, "lane_math", (5,), (64,), [ptr(x), ptr(out_i), ptr(out_f), ctypes.c_int(300)])
    v = x.long()
    trunc_div = lambda a, d: torch.where(a < 0, -((-a) // d), a // d)  # noqa: E731  C's division
    r = (v * 7 + 3) ^ (v >> 2)
    r = torch.where(v & 1 == 1, r + trunc_div(v, 5), r - (v - 3 * trunc_div(v, 3)))
    assert torch.equal(out_i, r.int())
    assert torch.equal(out_f, torch.sqrt((v & 1023).float()) * 0.5 + v.float() / 3.0)


def _layout(name: str, operand: str) -> dict[tuple[int, int], tuple[int, int]]:
    """Calculator table: matrix element (row, col) -> (lane, item) of `operand` (A, B or D)."""
    lines = (SPEC / "mfma" / f"{name}.{operand}.matrix_layout.csv").read_text().splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("lane,"))
    where = {}
    for line in lines[start + 1:]:
        cols = line.split(",")
        for item, cell in enumerate(cols[1:]):
            row, col = map(int, re.findall(r"\[(\d+)\]", cell))
            where[(row, col)] = (int(cols[0]), item)
    return where


def test_mfma_fp8_uses_the_calculator_layout(engine, micro):
    gen = torch.Generator().manual_seed(3)
    a = torch.randint(0, 256, (16, 32), dtype=torch.uint8, generator=gen)
    b = torch.randint(0, 256, (32, 16), dtype=torch.uint8, generator=gen)
    a[a == 0x80] = 0
    b[b == 0x80] = 0
    # the kernel packs operands with the calculator's layout; check that layout first
    layout_a = _layout("v_mfma_f32_16x16x32_fp8_fp8", "A")
    assert all(layout_a[(i, k)] == (8 * (k // 8) // 8 * 16 + i, k % 8) for i in range(16) for k in range(32))
    layout_d = _layout("v_mfma_f32_16x16x32_fp8_fp8", "D")
    assert all(layout_d[(i, j)] == (16 * (i // 4) + j, i % 4) for i in range(16) for j in range(16))
    d = torch.zeros(16, 16)
    engine.launch(micro, "mfma_16x16x32", (1,), (64,), [ptr(a), ptr(b), ptr(d)])
    fp8 = lambda t: t.view(torch.float8_e4m3fnuz).double()  # noqa: E731
    # products are exact in double: the single rounding to f32 is the only one
    assert torch.equal(d, (fp8(a) @ fp8(b)).float())
    # a kernel that packs A against the layout computes something else (a reference check fails)
    engine.launch(micro, "mfma_wrong_layout", (1,), (64,), [ptr(a), ptr(b), ptr(d)])
    assert not torch.allclose(d, (fp8(a) @ fp8(b)).float(), rtol=1e-2, atol=1e-2)


def test_lds_exchange_across_waves_with_a_barrier(engine, micro):
    x = torch.arange(512, dtype=torch.int32)
    out = torch.zeros(512, dtype=torch.int32)
    engine.launch(micro, "lds_reverse", (2,), (256,), [ptr(x), ptr(out)])
    assert torch.equal(out.view(2, 256), x.view(2, 256).flip(1))


def test_cross_lane_operations(engine, micro):
    v = torch.randint(0, 1000, (64,), dtype=torch.int32, generator=torch.Generator().manual_seed(5))
    out = torch.zeros(64, 5, dtype=torch.int32)
    engine.launch(micro, "cross_lane", (1,), (64,), [ptr(v), ptr(out)])
    t = torch.arange(64)
    assert torch.equal(out[:, 0], torch.where(t % 16 == 15, 0, v[torch.clamp(t + 1, max=63)]))  # row_shl:1
    assert torch.equal(out[:, 1], v[(t + 5) % 64])  # ds_bpermute
    assert torch.equal(out[:, 2], v[t ^ 1])  # ds_swizzle SWAP,1
    ballot = sum(1 << i for i in range(64) if v[i] & 1)
    assert [int(x) & 0xFFFFFFFF for x in out[:, 3]] == [(ballot >> (32 * (i % 2))) & 0xFFFFFFFF for i in range(64)]
    assert torch.equal(out[:, 4], v[0].expand(64))  # readfirstlane


def test_buffer_out_of_range_loads_zero_and_drops_stores(engine, micro):
    data = torch.arange(64, dtype=torch.int32)
    out = torch.full((64,), -1, dtype=torch.int32)
    engine.launch(micro, "buffer_oob", (1,), (64,), [ptr(data), ptr(out), ctypes.c_int(40 * 4)])
    assert torch.equal(out[:40], torch.arange(40, dtype=torch.int32)) and (out[40:] == 0).all()
    assert torch.equal(data[:40], torch.arange(40, dtype=torch.int32) + 100)
    assert torch.equal(data[40:], torch.arange(40, 64, dtype=torch.int32))


def test_buffer_load_into_lds(engine, micro):
    data = torch.arange(64, dtype=torch.int32) * 3
    out = torch.zeros(64, dtype=torch.int32)
    engine.launch(micro, "buffer_to_lds", (1,), (64,), [ptr(data), ptr(out)])
    assert torch.equal(out, data.flip(0))


def test_fp8_encode_rounds_to_nearest_even_and_overflows_to_nan(engine, micro):
    values = torch.cat([torch.randn(200, generator=torch.Generator().manual_seed(2)) * 50,
                        torch.tensor([0.0, -0.0, 240.0, 247.9, 248.0, 1e-5, float("nan"), 0.0009765625 * 1.5])])
    out = torch.zeros(values.numel(), dtype=torch.uint8)
    engine.launch(micro, "fp8_encode", (4,), (64,), [ptr(values), ptr(out), ctypes.c_int(values.numel())])
    assert torch.equal(out[:200], values[:200].to(torch.float8_e4m3fnuz).view(torch.uint8))
    # NOTE: MODE.FP16_OVFL = 0 (clang's default): a value rounding past 240 becomes NaN (0x80)
    assert out[200:].tolist() == [0x00, 0x00, 0x7F, 0x7F, 0x80, 0x00, 0x80, 0x02]


def test_private_array_in_per_lane_scratch(engine, micro):
    x = torch.randint(0, 1000, (128,), dtype=torch.int32, generator=torch.Generator().manual_seed(4))
    out = torch.zeros(128, dtype=torch.int32)
    engine.launch(micro, "private_array", (1,), (128,), [ptr(x), ptr(out)])
    t = torch.arange(128)
    buf = torch.zeros(48, 128, dtype=torch.int64)  # buf[(i * 7 + t) % 48] = i * 1000 + t
    for i in range(48):
        buf[(i * 7 + t) % 48, t] = i * 1000 + t
    assert torch.equal(out, (buf[x.long() % 48, t] + buf[(x.long() + 5) % 48, t]).int())


def test_scratch_addressed_by_the_offset_alone(engine, micro):
    """scratch_* with SVE = 0 and saddr off reads no VGPR; the kernel's flat store to its private
    slot (a FLAT instruction whose unused saddr field clang encodes as 0) reads no SGPR."""
    x = torch.arange(128, dtype=torch.int32) * 3 + 1
    out = torch.zeros(128, dtype=torch.int32)
    engine.launch(micro, "scratch_offset_only", (1,), (128,), [ptr(x), ptr(out)])
    assert torch.equal(out, x)


def test_fp8_conversion_selectors(engine, micro):
    gen = torch.Generator().manual_seed(6)
    words = torch.randint(0, 256, (64, 4), dtype=torch.uint8, generator=gen)
    words[words == 0x80] = 0
    floats = torch.randn(128, generator=gen) * 20
    out, packed = torch.zeros(64, 8), torch.zeros(64, 2, dtype=torch.int32)
    engine.launch(micro, "fp8_selectors", (1,), (64,), [ptr(words.view(torch.int32)), ptr(floats), ptr(out), ptr(packed)])
    decoded = words.view(torch.float8_e4m3fnuz).float()
    assert torch.equal(out[:, :4], decoded)  # byte_sel 0..3
    assert torch.equal(out[:, 4:], decoded)  # word_sel 0: bytes 0,1; word_sel 1: bytes 2,3
    pair = floats.view(64, 2).to(torch.float8_e4m3fnuz).view(torch.uint8).to(torch.int32)
    low = pair[:, 0] | (pair[:, 1] << 8)
    assert torch.equal(packed[:, 0], (0x5A5A0000 | low).int())  # word 0 written, word 1 kept
    assert torch.equal(packed[:, 1], (low | (low << 16)).int())


def test_agpr_operands_of_memory_moves_and_mfma(engine, micro):
    """AGPRs as data of every memory kind, v_accvgpr_read/write/mov, and MFMA with C and D in
    AGPRs and in VGPRs (micro_kernels.hip's agpr_operands lists what each output went through)."""
    gen = torch.Generator().manual_seed(8)
    x = torch.randint(0, 1 << 20, (64, 4), dtype=torch.int32, generator=gen)
    out = torch.zeros(64, 8, dtype=torch.int32)
    a = torch.randint(0, 256, (16, 32), dtype=torch.uint8, generator=gen)
    b = torch.randint(0, 256, (32, 16), dtype=torch.uint8, generator=gen)
    a[a == 0x80] = 0
    b[b == 0x80] = 0
    c = torch.randint(-64, 64, (16, 16), generator=gen) / 8.0
    d = torch.zeros(3, 16, 16)
    engine.launch(micro, "agpr_operands", (1,), (64,), [ptr(x), ptr(out), ptr(a), ptr(b), ptr(c), ptr(d)])
    t = torch.arange(64, dtype=torch.int32)
    assert torch.equal(out[:, :4], x.flip(0))
    assert torch.equal(out[:, 4], t + x[:, 3])
    assert torch.equal(out[:, 5], x[:, 0])
    assert torch.equal(out[:, 6], x[:, 0] + x[:, 1])
    assert torch.equal(out[:, 7], x[:, 2])
    fp8 = lambda m: m.view(torch.float8_e4m3fnuz).double()  # noqa: E731
    product = fp8(a) @ fp8(b)
    assert torch.equal(d[0], (product + c.double()).float())
    assert torch.equal(d[1], (product + c.double()).float())
    assert torch.equal(d[2], product.float())


# ---- memory-model checks: diagnostics by default (the hardware runs on), faults when strict ---
@pytest.fixture
def strict(engine):
    engine.strict(True)
    yield
    engine.strict(False)


def diagnosed(engine, kind: str) -> list[tuple[int, str]]:
    return [(count, message) for k, count, message in engine.diagnostics() if k == kind]


def test_lds_race_without_barrier_is_a_diagnostic_and_the_kernel_runs_on(engine, micro):
    x, out = torch.arange(256, dtype=torch.int32), torch.zeros(256, dtype=torch.int32)
    engine.diagnostics()
    engine.launch(micro, "lds_race", (1,), (256,), [ptr(x), ptr(out)])
    (count, message), *_ = diagnosed(engine, "LDS race")
    assert count >= 1 and re.search(r"LDS race: wave \d+ (reads|writes) byte \d+", message)


def test_lds_race_fails_the_launch_when_strict(engine, micro, strict):
    x, out = torch.arange(256, dtype=torch.int32), torch.zeros(256, dtype=torch.int32)
    with pytest.raises(harness.EngineError, match=r"LDS race: wave \d+ (reads|writes) byte \d+"):
        engine.launch(micro, "lds_race", (1,), (256,), [ptr(x), ptr(out)])


def test_waves_writing_the_same_value_are_no_race(engine, micro):
    out = torch.zeros(256, dtype=torch.int32)
    engine.diagnostics()
    engine.launch(micro, "same_value_writes", (1,), (256,), [ptr(out), ctypes.c_int(0)])
    assert (out == 42).all() and not diagnosed(engine, "LDS race")
    engine.launch(micro, "same_value_writes", (1,), (256,), [ptr(out), ctypes.c_int(1)])
    assert diagnosed(engine, "LDS race")


def test_lds_read_past_the_allocation_reads_zero_and_is_a_diagnostic(engine, micro):
    path = harness.compile_source(harness.HERE / "micro_kernels.hip", flags=("-gline-tables-only",))
    handle = engine.load(path)
    out = torch.full((64,), -1, dtype=torch.int32)
    engine.diagnostics()
    engine.launch(handle, "lds_read_past", (1,), (64,), [ptr(out), ctypes.c_int(100)])
    # dwords 100..127 are the array's; 128..163 lie past its 512-byte allocation
    assert torch.equal(out[:28], torch.arange(101, 129, dtype=torch.int32)) and not out[28:].any()
    line = next(i for i, text in enumerate((harness.HERE / "micro_kernels.hip").read_text().splitlines(), 1)
                if "tile)[threadIdx.x + past]" in text)
    ((count, message),) = diagnosed(engine, "LDS outside the allocation")
    assert count == 36  # one per lane past it
    assert "reads 0 as on gfx942" in message and f"micro_kernels.hip:{line}" in message


STANDIN_LOAD = r"""
#include <hip/hip_runtime.h>
#include <rocwmma/rocwmma.hpp>

// A 32x32 float accumulator tile loaded from `offset` floats into a 4 KiB LDS array (its whole
// allocation): with an offset, the stand-in's load_matrix_sync reads past the allocation.
extern "C" __global__ void standin_load_past(float* out, int offset) {
  __shared__ float tile[1024];
  for (int i = threadIdx.x; i < 1024; i += 64) tile[i] = i;
  __syncthreads();
  rocwmma::fragment<rocwmma::accumulator, 32, 32, 16, float> acc;
  rocwmma::load_matrix_sync(acc, tile + offset, 32, rocwmma::mem_row_major);  // the user's line
  rocwmma::store_matrix_sync(out, acc, 32, rocwmma::mem_row_major);
}
"""


def test_a_diagnostic_inside_a_stand_in_header_names_the_users_line(engine, tmp_path):
    """The access is an instruction of rocwmma.hpp (ours) inlined into the kernel: the diagnostic
    names the user's call, never a line of our header."""
    source = tmp_path / "standin_user.hip"
    source.write_text(STANDIN_LOAD)
    handle = engine.load(harness.compile_source(source, flags=("-gline-tables-only",)))
    out = torch.zeros(1024, dtype=torch.float32)
    engine.diagnostics()
    engine.launch(handle, "standin_load_past", (1,), (64,), [ptr(out), ctypes.c_int(64)])
    assert torch.equal(out[:960], torch.arange(64, 1024, dtype=torch.float32)) and not out[960:].any()
    line = next(i for i, text in enumerate(STANDIN_LOAD.splitlines(), 1) if "the user's line" in text)
    ((count, message),) = diagnosed(engine, "LDS outside the allocation")
    assert f"standin_user.hip:{line}" in message and "rocwmma" not in message


def test_lds_read_past_the_allocation_fails_when_strict(engine, micro, strict):
    out = torch.zeros(64, dtype=torch.int32)
    with pytest.raises(harness.EngineError, match="past the workgroup's 512 bytes"):
        engine.launch(micro, "lds_read_past", (1,), (64,), [ptr(out), ctypes.c_int(100)])


def test_missing_waitcnt_in_inline_asm_is_a_diagnostic(engine, micro):
    x, out = torch.arange(64, dtype=torch.int32), torch.zeros(64, dtype=torch.int32)
    engine.diagnostics()
    engine.launch(micro, "missing_wait", (1,), (64,), [ptr(x), ptr(out)])
    assert torch.equal(out, x + 1)  # the engine's load has landed
    ((count, message),) = diagnosed(engine, "missing s_waitcnt")
    assert re.search(r"missing s_waitcnt: v\d+ is read while its vmcnt load is outstanding.* at "
                     r"v_add_u32_e64 \(0x[0-9a-f]+\)", message)


@pytest.mark.parametrize("kernel,register,reader", [("missing_wait", r"v\d+", "v_add_u32_e64"),
                                                    ("agpr_missing_wait", "a3", r"v_accvgpr_read(_b32)?")])
def test_missing_waitcnt_fails_when_strict(engine, micro, strict, kernel, register, reader):
    x, out = torch.arange(64, dtype=torch.int32), torch.zeros(64, dtype=torch.int32)
    with pytest.raises(harness.EngineError, match=rf"missing s_waitcnt: {register} is read while its vmcnt load"
                                                  rf" is outstanding.* at {reader} \(0x[0-9a-f]+\)"):
        engine.launch(micro, kernel, (1,), (64,), [ptr(x), ptr(out)])


def test_strict_diagnostic_names_the_source_line_from_the_line_table(engine, strict):
    path = harness.compile_source(harness.HERE / "micro_kernels.hip", flags=("-gline-tables-only",))
    handle = engine.load(path)
    x, out = torch.arange(64, dtype=torch.int32), torch.zeros(64, dtype=torch.int32)
    line = next(i for i, text in enumerate((harness.HERE / "micro_kernels.hip").read_text().splitlines(), 1)
                if "global_load_dword %0" in text)
    with pytest.raises(harness.EngineError, match=rf"missing s_waitcnt.* at .*micro_kernels.hip:{line} \(missing_wait\)"):
        engine.launch(handle, "missing_wait", (1,), (64,), [ptr(x), ptr(out)])


def test_out_of_allocation_store_names_the_tensor(engine, micro):
    out = torch.zeros(64, dtype=torch.int32)
    engine.note(out, "out")
    try:
        engine.launch(micro, "out_of_bounds", (1,), (64,), [ptr(out), ctypes.c_int(64)])  # in bounds
        with pytest.raises(harness.EngineError, match=r"out-of-allocation access of 4 bytes .* past the start of out"):
            engine.launch(micro, "out_of_bounds", (1,), (64,), [ptr(out), ctypes.c_int(65)])
    finally:
        engine.forget(out)


def test_a_load_past_the_end_of_a_tensor_reads_zeros_there(engine, micro):
    """What lies past a tensor is some other memory on the GPU: no fault, and the engine reads 0."""
    data = torch.arange(1, 251, dtype=torch.int32)  # 62.5 int4: lane 62 straddles the end
    out = torch.full((256,), -1, dtype=torch.int32)
    engine.note(data, "data")
    engine.note(out, "out")
    try:
        engine.launch(micro, "load_past_end", (1,), (64,), [ptr(data), ptr(out)])
    finally:
        engine.forget(data)
        engine.forget(out)
    assert torch.equal(out, torch.cat([data, torch.zeros(6, dtype=torch.int32)]))


def test_a_load_past_a_tensor_names_the_kernel_parameter_pointing_into_it(engine):
    path = harness.compile_source(harness.HERE / "micro_kernels.hip", flags=("-gline-tables-only", "-fhip-kernel-arg-name"))
    handle = engine.load(path)
    data, out = torch.arange(1, 251, dtype=torch.int32), torch.zeros(256, dtype=torch.int32)
    engine.note(data, "data (1000 bytes)")
    engine.note(out, "out")
    engine.diagnostics()
    try:
        engine.launch(handle, "load_past_end", (1,), (64,), [ptr(data), ptr(out)])
    finally:
        engine.forget(data)
        engine.forget(out)
    line = next(i for i, text in enumerate((harness.HERE / "micro_kernels.hip").read_text().splitlines(), 1)
                if "void load_past_end" in text)
    ((count, message),) = diagnosed(engine, "read past the end of a tensor")
    assert count == 2  # lanes 62 (straddling the end) and 63
    assert re.search(r"read of 16 bytes, \d+ past the end of `in` \(data \(1000 bytes\)\): zeros here", message)
    assert f"micro_kernels.hip:{line}" in message


def test_unimplemented_instruction_is_a_fault_naming_it(engine, micro):
    out = torch.zeros(64, dtype=torch.int32)
    with pytest.raises(harness.EngineError, match=r"unimplemented: unknown or unimplemented instruction at "
                                                  r"v_sad_u8(_e64)? \(0x[0-9a-f]+\)"):
        engine.launch(micro, "unimplemented", (1,), (64,), [ptr(out)])


def test_unknown_kernel_is_a_fault(engine, micro):
    with pytest.raises(harness.EngineError, match="no kernel nope"):
        engine.launch(micro, "nope", (1,), (64,), [])


# ---- the repo's kernels ----------------------------------------------------------------------
# (m, n, k, split_k): a test shape, an off-grid shape (byte-wise staging path), forced split-K
CASES = [(64, 256, 512, 1), (100, 200, 512, 1), (96, 512, 1024, 4)]


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("case", CASES, ids=lambda c: "m{}_n{}_k{}_sk{}".format(*c))
def test_repo_kernel_passes_the_reference_check(engine, variant, case):
    m, n, k, split_k = case
    if split_k > 1 and variant in ("v0_naive", "v1_lds_mfma"):
        pytest.skip("no split-K in this variant")
    for tile in harness.TILES[variant]:
        data = generate_input(m=m, n=n, k=k, seed=11, device="cpu")
        pristine = clone_input(data)
        out = harness.run_gemm(engine, variant, tile, data, split_k)
        ok, message = check_implementation(pristine, out)
        assert ok, f"{variant} {tile}: {message}"


@pytest.fixture(scope="module")
def source_engine_modules():
    """The source-level emulator's build of each packed variant (built with FMA contraction, as
    HIP compiles device code: engines.source.build.BASE_FLAGS)."""
    from kernels import emulate

    return {variant: emulate.load_packed(variant) for variant in VARIANTS}


def _both_engines(engine, module, variant, tile_index, case):
    m, n, k, split_k = case
    tile = harness.TILES[variant][tile_index]
    data = generate_input(m=m, n=n, k=k, seed=7, device="cpu")
    a, b, a_scale, b_scale, c = data
    tiles = -(-m // tile.block_m) * -(-n // tile.block_n)
    workspace = torch.zeros(split_k * tiles * tile.block_m * tile.block_n if split_k > 1 else 0)
    counters = torch.zeros(tiles if split_k > 1 else 0, dtype=torch.int32)
    source = module._module.fp8_mm(a, b, a_scale, b_scale, c.clone(), workspace, counters, tile_index, split_k)
    isa = harness.run_gemm(engine, variant, tile, (a, b, a_scale, b_scale, c.clone()), split_k)
    return source.view(torch.int16), isa.view(torch.int16)


IDENTITY_CASES = [
    ("v0_naive", 0, (100, 200, 256, 1)),
    ("v1_lds_mfma", 0, (128, 256, 512, 1)),
    ("v2_swizzle_splitk", 0, (128, 256, 1024, 3)),
    ("v2_swizzle_splitk", 1, (100, 200, 512, 2)),
    ("v3_twoblock_xcd", 0, (64, 256, 512, 1)),
    ("v3_twoblock_xcd", 1, (100, 200, 512, 2)),
    ("v3_twoblock_xcd", 1, (128, 512, 1024, 1)),
    ("v3_twoblock_xcd", 0, (96, 512, 1024, 4)),
]


@pytest.mark.parametrize("variant,tile_index,case", IDENTITY_CASES,
                         ids=[f"{v}-t{t}-m{c[0]}_n{c[1]}_k{c[2]}_sk{c[3]}" for v, t, c in IDENTITY_CASES])
def test_both_engines_are_bit_identical(engine, source_engine_modules, variant, tile_index, case):
    source, isa = _both_engines(engine, source_engine_modules[variant], variant, tile_index, case)
    assert torch.equal(source, isa), f"{(source != isa).sum().item()} of {isa.numel()} bf16 outputs differ"
