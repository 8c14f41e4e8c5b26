"""Scratch the leaderboard's runtime allocates for a launch, and when that costs a launch time
the predicted time leaves out. ROCm 6.3's ROCr sizes a kernel's scratch (spilled registers,
private arrays) for the whole device at full occupancy; up to a limit it stays on the queue,
above it every launch stops the queue to allocate it and frees it after ("use-once"). The
calibration set's kernels that spill this much measured a median 100-330 us a launch above
their predicted time, alike on every shape; clang-19's spills are not hipcc's, so the
prediction does not add it (calibration.yaml `runtime:`; docs/predictor.md, "Scratch the
runtime allocates")."""
from __future__ import annotations

from predictor import calibration
from machine import fact


def _runtime(key: str) -> int:
    return int(calibration()["runtime"][key]["value"])


def _round_up(value: int, granule: int) -> int:
    return -(-value // granule) * granule


def device_scratch_bytes(bytes_per_lane: int) -> int:
    """The scratch ROCr allocates for a kernel with `bytes_per_lane` of private segment."""
    lane = _round_up(bytes_per_lane, _runtime("scratch_lane_granule_bytes"))
    cus = _round_up(fact("cus"), _runtime("scratch_cu_granule"))
    return lane * fact("wave_size") * cus * _runtime("scratch_waves_per_cu")


def largest_kept_bytes_per_lane() -> int:
    """The most private segment a lane may have for its scratch to stay on the queue."""
    granule = _runtime("scratch_lane_granule_bytes")
    per_granule = device_scratch_bytes(granule)
    return _runtime("scratch_single_limit_bytes") // per_granule * granule


def use_once_note(kernel: dict) -> str | None:
    """A line for a timed launch whose scratch goes over the runtime's single limit, else None."""
    per_lane = int(kernel.get("scratch_bytes_per_lane", 0))
    size, limit = device_scratch_bytes(per_lane), _runtime("scratch_single_limit_bytes")
    if size <= limit:
        return None
    return (f"scratch: {per_lane} bytes a lane is {size / 2**20:.0f} MiB for the device, over the "
            f"{limit / 2**20:.0f} MiB ROCm 6.3's runtime keeps on a queue: on the leaderboard's runners every "
            f"launch stops the queue to allocate it and frees it after (the calibration set's kernels that "
            f"spill this much measured a median 100-330 us a launch above their prediction): not in the "
            f"predicted time; at most {largest_kept_bytes_per_lane()} bytes a lane avoids it")
