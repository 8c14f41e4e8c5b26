"""The stand-in fp8/bf16 headers convert exactly like torch on the host, and use the gfx942
conversion instructions on the device."""

import csv
import subprocess
from pathlib import Path

import numpy as np
import pytest
import torch

from eval.isa import compile_to_asm
from toolchain.headers import INCLUDE_DIR, TYPES_DIR

DATA = Path(__file__).parent / "data"
DECODE_TABLE = Path(__file__).resolve().parents[1] / "data" / "spec" / "fp8" / "fp8_e4m3fnuz_decode.csv"


@pytest.fixture(scope="module")
def probe(tmp_path_factory):
    exe = tmp_path_factory.mktemp("probe") / "header_probe"
    subprocess.run(["clang++-19", "-std=c++20", "-O1", "-D__HIP_PLATFORM_AMD__", "-isystem", str(INCLUDE_DIR),
                    "-isystem", str(TYPES_DIR), str(DATA / "header_probe.cpp"), "-o", str(exe)], check=True)
    return exe


def _floats_from_bits(lines):
    return np.array([int(line, 16) for line in lines], dtype=np.uint32).view(np.float32)


def test_decode_matches_the_spec_table(probe):
    decoded = _floats_from_bits(subprocess.run([probe, "decode"], capture_output=True, text=True).stdout.split())
    with DECODE_TABLE.open() as handle:
        rows = list(csv.DictReader(line for line in handle if not line.startswith("#")))
    for row, got in zip(rows, decoded, strict=True):
        expected = float(row["value"])
        assert (np.isnan(got) and np.isnan(expected)) or got == expected, row["code_hex"]


def _probe_inputs() -> np.ndarray:
    rng = np.random.default_rng(1234)
    every_code = torch.arange(256, dtype=torch.uint8).view(torch.float8_e4m3fnuz).float().numpy()
    finite = np.sort(every_code[np.isfinite(every_code)])
    midpoints = (finite[:-1] + finite[1:]) / 2  # exact ties: round-to-nearest-even decides
    specials = np.array([0.0, -0.0, 239.9, 240.0, 247.9, 248.0, 300.0, -300.0, 1e30, np.inf, -np.inf, np.nan,
                         2.0**-11, 3 * 2.0**-11, -(2.0**-12), 1e-30], dtype=np.float32)
    scaled = (rng.standard_normal(4000) * np.exp2(rng.uniform(-14, 9, 4000))).astype(np.float32)
    return np.concatenate([every_code, midpoints, specials, scaled]).astype(np.float32)


def test_float_conversions_match_torch(probe):
    x = _probe_inputs()
    stdin = "\n".join(f"{bits:08x}" for bits in x.view(np.uint32))
    out = subprocess.run([probe], input=stdin, capture_output=True, text=True, check=True).stdout.split()
    fp8_nosat, fp8_sat, bf16 = (np.array([int(v, 16) for v in out[i::3]]) for i in range(3))
    torch_x = torch.from_numpy(x)
    # torch's float8_e4m3fnuz cast does not saturate: out of range -> NaN (0x80), as gfx942's cvt.
    expected_nosat = torch_x.to(torch.float8_e4m3fnuz).view(torch.uint8).numpy()
    expected_sat = torch_x.clamp(-240, 240).to(torch.float8_e4m3fnuz).view(torch.uint8).numpy()
    expected_bf16 = torch_x.to(torch.bfloat16).view(torch.int16).numpy().astype(np.uint16)
    for name, got, expected in (("no-sat", fp8_nosat, expected_nosat), ("sat", fp8_sat, expected_sat)):
        bad = np.flatnonzero(got != expected)
        assert bad.size == 0, f"fp8 {name}: {[(float(x[i]), hex(got[i]), hex(expected[i])) for i in bad[:5]]}"
    finite = ~np.isnan(x)  # NaN payloads may differ; both must stay NaN
    assert np.array_equal(bf16[finite], expected_bf16[finite])
    assert np.all((bf16[~finite] & 0x7F80) == 0x7F80) and np.all(bf16[~finite] & 0x7F)


def test_device_conversions_use_gfx942_instructions():
    text = compile_to_asm(DATA / "fp8_convert.hip")
    assert "v_cvt_f32_fp8" in text, "fp8 -> float should be one hardware convert"
    assert "v_cvt_pk_fp8_f32" in text, "float -> fp8 should be the hardware packed convert"
