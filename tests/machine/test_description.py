"""machine/mi300x.yaml: every fact has a source, the C++ header is generated from it, and the
parts of the project that state MI300X facts read them from there."""
from __future__ import annotations

import pytest

import machine
from machine import gen_header


def test_every_fact_has_a_number_and_a_source():
    for key, entry in machine.description()["facts"].items():
        assert set(entry) == {"value", "source"}, key
        assert isinstance(entry["value"], (int, float)) and entry["source"].strip(), key


def test_the_header_is_current():
    assert gen_header.main(["--check"]) == 0


def test_the_fp8_mfmas_take_the_calculators_cycles():
    cycles = machine.mfma_cycles()
    assert cycles["v_mfma_f32_16x16x32_fp8_fp8"] == 16 and cycles["v_mfma_f32_32x32x16_fp8_fp8"] == 32


def test_an_unknown_fact_is_named():
    with pytest.raises(KeyError, match="no fact 'warp_count'"):
        machine.fact("warp_count")


def test_peak_fp8_rate_is_the_cu_rate_times_the_clock():
    # 4096 fp8 FLOP per clock per CU (anchors.md) at 2.1 GHz on 304 CUs
    assert machine.fact("fp8_flops_per_s") == pytest.approx(4096 * 304 * 2.1e9, rel=1e-4)
