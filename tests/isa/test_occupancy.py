"""CDNA3 waves-per-SIMD rules on hand-worked cases."""

from eval.isa.occupancy import waves_per_simd


def test_unified_register_budget():
    assert waves_per_simd(64, 0, 32, 0, 256) == 8     # 64 regs: 512/64 = 8
    assert waves_per_simd(128, 0, 32, 0, 256) == 4
    assert waves_per_simd(256, 256, 32, 0, 256) == 1  # the full 512-register budget
    # AGPRs start at the arch count rounded up to 4: 61 -> 64, +64 AGPRs = 128 -> 4 waves
    assert waves_per_simd(61, 64, 32, 0, 256) == 4
    assert waves_per_simd(65, 64, 32, 0, 256) == 3    # 68 + 64 = 132 -> 136 -> 3 waves


def test_sgprs_only_bite_above_100():
    assert waves_per_simd(16, 0, 100, 0, 256) == 8
    assert waves_per_simd(16, 0, 102, 0, 256) == 7


def test_lds_per_cu():
    assert waves_per_simd(16, 0, 32, 65536, 256) == 1  # one 4-wave workgroup per CU
    assert waves_per_simd(16, 0, 32, 32768, 512) == 4  # two 8-wave workgroups
    assert waves_per_simd(16, 0, 32, 65540, 256) == 0  # does not fit


def test_whole_workgroups_only():
    # 1024 threads = 16 waves = 4 per SIMD; 3 waves of registers hold no whole workgroup
    assert waves_per_simd(160, 0, 32, 0, 1024) == 0
    assert waves_per_simd(128, 0, 32, 0, 1024) == 4
