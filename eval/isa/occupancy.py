"""Waves per SIMD on a CDNA3 (gfx942) CU from a kernel's resources and workgroup size."""

from __future__ import annotations

import math

# NOTE: CDNA3 facts. Each SIMD has 512 unified VGPRs per lane shared by arch VGPRs and AGPRs,
# allocated in granules of 8; a wave's AGPRs start at its arch-VGPR count rounded up to 4
# (.amdhsa_accum_offset). At most 8 waves per SIMD, 4 SIMDs per CU, 64 KiB of LDS per CU
# allocated in 512-byte granules, and a workgroup's waves all live on one CU.
UNIFIED_VGPRS_PER_LANE = 512
VGPR_GRANULE = 8
ACCUM_OFFSET_GRANULE = 4
MAX_WAVES_PER_SIMD = 8
SIMDS_PER_CU = 4
LDS_BYTES_PER_CU = 65536
LDS_GRANULE = 512
WAVE_SIZE = 64


def _round_up(value: int, granule: int) -> int:
    return -(-value // granule) * granule


def vgpr_budget(arch_vgprs: int, agprs: int) -> int:
    """Unified registers one wave holds."""
    if agprs == 0:
        return _round_up(max(arch_vgprs, 1), VGPR_GRANULE)
    return _round_up(_round_up(arch_vgprs, ACCUM_OFFSET_GRANULE) + agprs, VGPR_GRANULE)


def waves_limited_by_vgprs(arch_vgprs: int, agprs: int) -> int:
    return min(MAX_WAVES_PER_SIMD, UNIFIED_VGPRS_PER_LANE // vgpr_budget(arch_vgprs, agprs))


def waves_limited_by_sgprs(sgprs: int) -> int:
    # NOTE: gfx9 SGPR file per SIMD (800); LLVM's table (AMDGPUBaseInfo getOccupancyWithNumSGPRs)
    # allows 10/9/8/7 waves up to 80/88/100/more SGPRs, so only > 100 bites at 8 waves.
    for limit, waves in ((80, 10), (88, 9), (100, 8)):
        if sgprs <= limit:
            return min(MAX_WAVES_PER_SIMD, waves)
    return 7


def waves_limited_by_lds(lds_bytes: int, workgroup_size: int) -> int:
    if lds_bytes == 0:
        return MAX_WAVES_PER_SIMD
    if lds_bytes > LDS_BYTES_PER_CU:
        return 0
    workgroups_per_cu = LDS_BYTES_PER_CU // _round_up(lds_bytes, LDS_GRANULE)
    waves_per_workgroup = math.ceil(workgroup_size / WAVE_SIZE)
    return min(MAX_WAVES_PER_SIMD, workgroups_per_cu * waves_per_workgroup // SIMDS_PER_CU)


def waves_per_simd(arch_vgprs: int, agprs: int, sgprs: int, lds_bytes: int, workgroup_size: int) -> int:
    """Resident waves per SIMD, counting only whole workgroups (0: the workgroup cannot launch)."""
    register_limit = min(waves_limited_by_vgprs(arch_vgprs, agprs), waves_limited_by_sgprs(sgprs))
    # A workgroup spreads its waves over the 4 SIMDs; it is resident entirely or not at all.
    per_simd_per_workgroup = math.ceil(math.ceil(workgroup_size / WAVE_SIZE) / SIMDS_PER_CU)
    register_limit = register_limit // per_simd_per_workgroup * per_simd_per_workgroup
    return min(register_limit, waves_limited_by_lds(lds_bytes, workgroup_size))
