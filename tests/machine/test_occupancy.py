"""The one occupancy rule (machine/occupancy.h) on hand-worked MI300X cases."""
from __future__ import annotations

import pytest

from machine import occupancy


def resident(vgprs, sgprs, lds, threads):
    return occupancy(vgprs, sgprs, lds, threads).workgroups_per_cu


def test_unified_registers_give_waves_per_simd():
    # 512 unified registers per lane per SIMD, 8 waves at most; four SIMDs per CU
    assert resident(64, 32, 0, 256) == 8       # 8 waves per SIMD x 4 SIMDs / 4 waves
    assert resident(128, 32, 0, 256) == 4      # 512 / 128 = 4 waves per SIMD
    assert resident(512, 32, 0, 256) == 1      # the whole register file
    assert resident(132, 32, 0, 256) == 3      # granules of 8: 136 -> 3 waves per SIMD


def test_one_wave_workgroups_fill_every_wave_slot():
    # no barrier taken: 4 SIMDs x 8 waves
    assert resident(64, 32, 0, 64) == 32
    assert resident(128, 32, 0, 64) == 16
    assert occupancy(128, 32, 0, 64).limiter == "VGPRs"


def test_multi_wave_workgroups_take_one_of_16_barriers():
    assert resident(32, 32, 0, 128) == 16      # 32 slots / 2 waves, also 16 barriers
    assert resident(256, 32, 0, 128) == 4      # 2 waves per SIMD x 4 SIMDs / 2 waves


def test_lds_in_512_byte_granules():
    assert resident(64, 32, 65536, 256) == 1
    assert resident(64, 32, 32768, 512) == 2
    assert resident(64, 32, 16385, 64) == 3    # 16896 bytes allocated: 3 fit in 64 KiB
    assert occupancy(64, 32, 16385, 64).limiter == "LDS"
    assert resident(64, 32, 65540, 256) == 0   # does not fit at all


def test_sgprs_only_bite_above_100():
    assert resident(16, 100, 0, 64) == 32
    assert resident(16, 102, 0, 64) == 28      # 7 waves per SIMD


def test_whole_workgroups_only():
    # 1024 threads = 16 waves: needs 4 waves per SIMD of registers
    assert resident(160, 32, 0, 1024) == 0     # 3 waves per SIMD
    assert resident(128, 32, 0, 1024) == 1
    assert occupancy(128, 32, 0, 1024).waves_per_simd == 4


def test_out_of_range_input_is_refused():
    with pytest.raises(ValueError, match="workgroup_size"):
        occupancy(64, 32, 0, -1)
