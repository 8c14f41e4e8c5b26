"""The fastest a device can do a case's arithmetic: a time below it is not a result.

The floor of a case is its 2mnk operations at the device's peak dense 8-bit matrix rate (FP8,
or INT8 where the device has no FP8). It leaves memory out on purpose: inputs a benchmark reuses
can sit in a cache faster than HBM (the MI300X's Infinity Cache holds 256 MB), so only the
arithmetic is a floor no honest call goes below. The `SOL x` column is the MI300X's own speed of
light (reference/contract.py), memory included.

  leaderboard mode on a GPU   a case whose mean is below the floor fails: every timed call has
                              a fresh input, so its work cannot have been done before the call
  benchmark mode on a GPU     a note: the published loop reuses one input object, and work cached
                              per input object is allowed there
  predicted times             a note: a prediction below the MI300X's floor is the model's error
"""
from __future__ import annotations

import machine

# Peak dense 8-bit matrix rates (operations per second) from the vendors' data sheets, matched
# against torch's device name, most specific first. A name that matches none has no floor.
PEAK_OPS_PER_S = (
    ("MI355X", 5.0330e15),   # AMD: 10.1 PFLOPS FP8 with sparsity
    ("MI350X", 4.6140e15),   # AMD: 9.2 PFLOPS FP8 with sparsity
    ("MI325X", 2.6149e15),
    ("MI300X", float(machine.fact("fp8_flops_per_s"))),
    ("MI300A", 1.9615e15),
    ("MI250", 0.3830e15),    # INT8
    ("MI210", 0.1811e15),    # INT8
    ("B300", 5.0e15),
    ("B200", 4.5e15),
    ("H200", 1.979e15),
    ("H100", 1.979e15),      # SXM (PCIe: 1.513): the higher, so no H100 fails for its form factor
    ("H800", 1.979e15),
    ("H20", 0.296e15),
    ("L40S", 0.733e15),
    ("L4", 0.2425e15),
    ("A100", 0.624e15),      # INT8
    ("A10", 0.250e15),       # INT8
)
MI300X = "AMD Instinct MI300X"


def peak_ops_per_s(device_name: str) -> float | None:
    """The device's peak dense 8-bit rate, or None for a device the table does not know."""
    return next((peak for key, peak in PEAK_OPS_PER_S if key in device_name.upper()), None)


def floor_us(device_name: str, m: int, n: int, k: int) -> float | None:
    """The case's arithmetic at the device's peak, in microseconds (None: no floor known)."""
    peak = peak_ops_per_s(device_name)
    return None if peak is None else 2 * m * n * k / peak * 1e6


def below_floor(device_name: str, m: int, n: int, k: int, mean_us: float) -> str:
    """Why `mean_us` cannot be a time of this case on the device, or ''."""
    floor = floor_us(device_name, m, n, k)
    if floor is None or mean_us >= floor:
        return ""
    return (f"a mean of {mean_us:.3g} us is below the {device_name}'s speed of light for {m}x{n}x{k} "
            f"({floor:.3g} us: 2mnk operations at its peak 8-bit rate of "
            f"{peak_ops_per_s(device_name) / 1e12:.0f} TFLOP/s)")
