"""The model's efficiency constants: a few fitted per design to published MI300X timings, the
rest priors.

`fitted.json` (next to this file) holds the fitted ones, keyed by design; `python -m eval.model
--fit` rewrites it from calibration.yaml, which names the constants each set may move. Priors
are documented here because no calibration set can separate them from the fitted constants.
"""
from __future__ import annotations

import json
from dataclasses import asdict, dataclass, fields
from pathlib import Path

FITTED_FILE = Path(__file__).resolve().parent / "fitted.json"

# Prior: the fraction of MFMA issue rate a workgroup sustains when nothing else limits it.
# Well-tuned MI300X GEMM main loops reach roughly 70% of the MFMA peak in steady state.
MFMA_EFFICIENCY_PRIOR = 0.7
# NOTE: a CU's L1 <-> L2 path moves 64 bytes per clock; several resident workgroups share it.
CU_BYTES_PER_CLK = 64.0
# Prior: each kernel launch beyond the first adds host + gap time to a leaderboard call
# ("a few us", anchors.md). Published kernel times are device-side, so it is not fitted.
LAUNCH_US_PRIOR = 3.0
# Prior: a workgroup round's own fixed time, the latency of its first K-tile load before the
# MFMAs start (about one memory round trip) plus issuing its epilogue stores. Only shapes with
# several rounds per CU (m=6144) see it apart from the per-call fixed time, and none has a
# per-case timing: the leaderboard geomean is the one number that can move it.
ROUND_FIXED_US_PRIOR = 1.0


@dataclass(frozen=True)
class Efficiency:
    """Constants of one kernel design family (fitted ones first)."""

    wg_bytes_per_clk: float      # A+B bytes one workgroup streams per clock (latency bound)
    call_fixed_us: float         # once per call: launch latency, inter-kernel gaps, ramp, drain
    round_fixed_us: float = ROUND_FIXED_US_PRIOR  # per workgroup round: first load + epilogue
    cu_bytes_per_clk: float = CU_BYTES_PER_CLK   # what all resident workgroups share
    mfma_efficiency: float = MFMA_EFFICIENCY_PRIOR
    launch_us: float = LAUNCH_US_PRIOR           # per extra launch, leaderboard time only

    def replace(self, **changes: float) -> "Efficiency":
        return Efficiency(**{**asdict(self), **changes})


def load_fitted(design: str, path: Path = FITTED_FILE) -> Efficiency:
    """The constants fitted for `design`; KeyError if it has none (see fitted.json)."""
    with open(path) as f:
        stored = json.load(f)[design]["constants"]
    known = {field.name for field in fields(Efficiency)}
    return Efficiency(**{key: value for key, value in stored.items() if key in known})


def save_fitted(fitted: dict[str, tuple[Efficiency, str]], path: Path = FITTED_FILE) -> None:
    """Write {design: (constants, note)}; designs not in `fitted` keep their stored entry."""
    record = json.loads(path.read_text()) if path.exists() else {}
    for design, (eff, note) in fitted.items():
        record[design] = {"note": note,
                          "constants": {key: round(value, 4) for key, value in asdict(eff).items()}}
    path.write_text(json.dumps(record, indent=2, sort_keys=True) + "\n")
