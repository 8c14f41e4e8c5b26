"""MI300X (gfx942) facts the model computes with, and the contract numbers it reads.

Hardware facts are from shared/spec/anchors.md and the CDNA3 ISA guide; the speed-of-light
constants and the per-call host overhead are read from leaderboard_shapes.yaml, never retyped.
"""
from __future__ import annotations

from dataclasses import dataclass

from reference import contract

# NOTE: 304 CUs on 8 XCDs, 4 SIMDs per CU, 2.1 GHz peak engine clock.
NUM_CUS = 304
SIMDS_PER_CU = 4
CLOCK_HZ = 2.1e9
# NOTE: 64 KiB of LDS per CU; a kernel may allocate all of it.
LDS_BYTES_PER_CU = 65536
# NOTE: 512 VGPRs (ArchVGPR + AccVGPR) per lane per SIMD, allocated in granules of 8;
# at most 8 waves per SIMD; at most 16 waves (1024 work-items) per workgroup.
VGPRS_PER_SIMD_LANE = 512
VGPR_GRANULE = 8
MAX_WAVES_PER_SIMD = 8
# NOTE: measured HBM bandwidth (anchors.md: about 4.2 TB/s of the 5.3 TB/s peak).
HBM_MEASURED_BYTES_PER_S = 4.2e12
# NOTE: Infinity Cache (MALL) peak bandwidth, AMD's MI300X figure (17.2 TB/s). It only
# caps re-reads; all challenge inputs (at most 7168*6144 + 4608*7168 bytes) fit its 256 MB.
INFINITY_CACHE_BYTES_PER_S = 17.2e12


@dataclass(frozen=True)
class Mfma:
    """One fp8 MFMA instruction: its M x N x K footprint and issue cycles on one SIMD."""

    name: str
    m: int
    n: int
    k: int
    cycles: int


# NOTE: v_mfma_f32_16x16x32_fp8_fp8 takes 16 cycles, v_mfma_f32_32x32x16_fp8_fp8 32 cycles;
# both run 512 FLOP/cycle/SIMD, i.e. 4096 FLOP/clk/CU, the 2614.9 TFLOP/s dense peak.
MFMAS = {
    "16x16x32": Mfma("v_mfma_f32_16x16x32_fp8_fp8", 16, 16, 32, 16),
    "32x32x16": Mfma("v_mfma_f32_32x32x16_fp8_fp8", 32, 32, 16, 32),
}


def host_overhead_us() -> float:
    """Per-call Python + launch + synchronize time the leaderboard timing adds to each case."""
    return float(contract.load()["speed_of_light"]["host_overhead_us"])
