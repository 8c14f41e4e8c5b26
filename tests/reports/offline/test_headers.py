"""The stand-in fp8/bf16 headers convert exactly like torch on the host, and use the gfx942
conversion instructions on the device."""

import csv
import subprocess
from pathlib import Path

import numpy as np
import pytest
import torch

from reports.offline import compile_to_asm
from toolchain.headers import INCLUDE_DIR, TYPES_DIR

DATA = Path(__file__).parent / "data"
DECODE_TABLE = Path(__file__).resolve().parents[2] / "data" / "spec" / "fp8" / "fp8_e4m3fnuz_decode.csv"


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
    for row, got in zip(rows, decoded[:256], strict=True):
        expected = float(row["value"])
        assert (np.isnan(got) and np.isnan(expected)) or got == expected, row["code_hex"]
    e5m2 = torch.arange(256, dtype=torch.uint8).view(torch.float8_e5m2fnuz).float().numpy()
    assert np.array_equal(decoded[256:], e5m2, equal_nan=True)


def _probe_inputs() -> np.ndarray:
    rng = np.random.default_rng(1234)
    every_code = [torch.arange(256, dtype=torch.uint8).view(dtype).float().numpy()
                  for dtype in (torch.float8_e4m3fnuz, torch.float8_e5m2fnuz)]
    finite = [np.sort(codes[np.isfinite(codes)]) for codes in every_code]
    midpoints = [(values[:-1] + values[1:]) / 2 for values in finite]  # exact ties: round-to-nearest-even decides
    specials = np.array([0.0, -0.0, 239.9, 240.0, 247.9, 248.0, 300.0, -300.0, 57344.0, 61439.0, 61440.0, 1e30,
                         np.inf, -np.inf, np.nan, 2.0**-11, 3 * 2.0**-11, -(2.0**-12), 2.0**-18, 1e-30],
                        dtype=np.float32)
    scaled = (rng.standard_normal(4000) * np.exp2(rng.uniform(-20, 17, 4000))).astype(np.float32)
    return np.concatenate([*every_code, *midpoints, specials, scaled]).astype(np.float32)


def test_float_conversions_match_torch(probe):
    x = _probe_inputs()
    stdin = "\n".join(f"{bits:08x}" for bits in x.view(np.uint32))
    out = subprocess.run([probe], input=stdin, capture_output=True, text=True, check=True).stdout.split()
    e4m3_nosat, e4m3_sat, bf16, e5m2_nosat, e5m2_sat = (np.array([int(v, 16) for v in out[i::5]]) for i in range(5))
    torch_x = torch.from_numpy(x)
    # torch's fp8 FNUZ casts do not saturate: out of range -> NaN (0x80), as gfx942's cvt.
    checks = []
    for dtype, largest, nosat, sat in ((torch.float8_e4m3fnuz, 240, e4m3_nosat, e4m3_sat),
                                       (torch.float8_e5m2fnuz, 57344, e5m2_nosat, e5m2_sat)):
        checks += [(f"{dtype} no-sat", nosat, torch_x.to(dtype).view(torch.uint8).numpy()),
                   (f"{dtype} sat", sat, torch_x.clamp(-largest, largest).to(dtype).view(torch.uint8).numpy())]
    for name, got, expected in checks:
        bad = np.flatnonzero(got != expected)
        assert bad.size == 0, f"{name}: {[(float(x[i]), hex(got[i]), hex(expected[i])) for i in bad[:5]]}"
    expected_bf16 = torch_x.to(torch.bfloat16).view(torch.int16).numpy().astype(np.uint16)
    finite = ~np.isnan(x)  # NaN payloads may differ; both must stay NaN
    assert np.array_equal(bf16[finite], expected_bf16[finite])
    assert np.all((bf16[~finite] & 0x7F80) == 0x7F80) and np.all(bf16[~finite] & 0x7F)


def test_device_conversions_use_gfx942_instructions():
    text = compile_to_asm(DATA / "fp8_convert.hip")
    for kind in ("fp8", "bf8"):
        assert f"v_cvt_f32_{kind}" in text, f"{kind} -> float should be one hardware convert"
        assert f"v_cvt_pk_{kind}_f32" in text, f"float -> {kind} should be the hardware packed convert"
