"""An evaluation's rows one by one, with each GEMM kernel's occupancy two ways: as the ISA
engine's timing model placed it, and as the kernel descriptor in the built code object says
(read from the file by toolchain.code_object, put through machine.occupancy). The --launches
CSV of `python -m predictor.calibrate --evaluate`.
"""
from __future__ import annotations

import csv
from pathlib import Path

import machine
import toolchain
from predictor import sweep
from predictor.measurements import Row
from predictor.parallel import Failed
from predictor.predictions import needed_batches
from predictor.sweep import Config
from toolchain import code_object

FIELDS = ("csv_line", "shape", "config", "measured_us", "predicted_us", "cu_us", "l2_floor_us", "hbm_floor_us",
          "busiest_cu_workgroups", "workgroups_per_cu",
          "descriptor_workgroups_per_cu", "occupancy_limiter", "unified_vgprs", "sgprs", "lds_bytes", "scratch_bytes",
          "refused")


def descriptors(call: sweep.LoadInlineCall, rows: list[Row], universe: list[Config] | None = None
                ) -> dict[str, code_object.Kernel]:
    """Every kernel of the evaluation's builds by symbol (builds that failed have none); `universe`
    as the evaluation was given it (predictions.needed_batches)."""
    found: dict[str, code_object.Kernel] = {}
    for batch in needed_batches(rows, universe):
        try:
            module = sweep.build(call, batch)  # built by the evaluation: found in the engine's cache
        except Exception:  # the build failed: its rows are refused with the reason already
            continue
        path = Path(module.__file__).parent / f"hip.{toolchain.ROCM_ARCH}.co"
        found.update({kernel.name: kernel for kernel in code_object.kernels(path)})
    return found


def table(rows: list[Row], launches: dict, predicted: list[float | None],
          kernels: dict[str, code_object.Kernel]) -> list[dict]:
    out = []
    for row, us in zip(rows, predicted):
        record = {"csv_line": row.line, "shape": row.shape_name, "config": row.config.name,
                  "measured_us": row.gemm_kernel_us, "predicted_us": "" if us is None else round(us, 3)}
        outcome = launches[row.line]
        if isinstance(outcome, Failed):
            record["refused"] = outcome.reason.splitlines()[0][:200]
        else:
            gemm = outcome[-1]
            record.update({key: round(gemm[key], 3) if isinstance(gemm[key], float) else gemm[key]
                           for key in ("cu_us", "l2_floor_us", "hbm_floor_us", "busiest_cu_workgroups",
                                       "workgroups_per_cu") if key in gemm})
            kernel = kernels.get(gemm["symbol"])
            if kernel is not None:
                occ = machine.occupancy(kernel.unified_vgprs, kernel.sgprs, kernel.lds_bytes, row.config.block_size)
                record.update(descriptor_workgroups_per_cu=occ.workgroups_per_cu, occupancy_limiter=occ.limiter,
                              unified_vgprs=kernel.unified_vgprs, sgprs=kernel.sgprs, lds_bytes=kernel.lds_bytes,
                              scratch_bytes=kernel.scratch_bytes)
        out.append(record)
    return out


def write(path: Path, records: list[dict]) -> None:
    with Path(path).open("w", newline="") as handle:
        writer = csv.DictWriter(handle, FIELDS, restval="")
        writer.writeheader()
        writer.writerows(records)


def summary(records: list[dict]) -> str:
    launched = [r for r in records if not r.get("refused")]
    checked = [r for r in launched if r.get("descriptor_workgroups_per_cu", "") != ""]
    agree = sum(r["workgroups_per_cu"] == r["descriptor_workgroups_per_cu"] for r in checked)
    return (f"occupancy: {agree} of {len(checked)} launched rows place as many workgroups per CU as their kernel "
            f"descriptor allows ({len(records) - len(launched)} refused, {len(launched) - len(checked)} without a "
            f"descriptor found)")
