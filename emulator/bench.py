"""Emulated wall time of the test submissions on every published test case (printed only).

    python -m emulator.bench            # naive and MFMA kernels, 11 test cases
    python -m emulator.bench --switch   # also: cost of one fiber switch
"""
from __future__ import annotations

import argparse
import importlib.util
import time
from pathlib import Path

import torch.utils.cpp_extension as cpp_extension

import emulator
from reference import contract, task

DATA = Path(__file__).resolve().parent.parent / "tests" / "emulator" / "data"
KERNELS = ["naive", "mfma"]

SWITCH_SOURCE = r"""
#include <hip/hip_runtime.h>
__global__ void wave_sync_loop(int iterations) {
  for (int i = 0; i < iterations; ++i) __syncwarp();
}
void run(int64_t iterations) { wave_sync_loop<<<1, 64>>>(int(iterations)); }
"""


def load_submission(kernel: str):
    cpp_extension.load_inline = emulator.load_inline
    path = DATA / f"{kernel}_submission.py"
    spec = importlib.util.spec_from_file_location(f"bench_{kernel}", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def time_case(submission, case) -> tuple[float, bool]:
    data = task.generate_input(**case.args, device="cpu")
    pristine = task.clone_input(data)
    start = time.perf_counter()
    out = submission.custom_kernel(data)
    elapsed = time.perf_counter() - start
    return elapsed, task.check_implementation(pristine, out)[0]


def switch_cost_ns() -> float:
    module = emulator.load_inline("switch_cost", "", SWITCH_SOURCE, functions=["run"])
    iterations = 20000
    start = time.perf_counter()
    module.run(iterations)
    # each wave sync: 64 switches into lanes and 64 back
    return (time.perf_counter() - start) / (iterations * 128) * 1e9


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--switch", action="store_true", help="also measure the fiber switch cost")
    args = parser.parse_args()
    submissions = {k: load_submission(k) for k in KERNELS}
    print(f"{'case':38s}" + "".join(f"{k + ' (s)':>14s}" for k in KERNELS))
    totals = dict.fromkeys(KERNELS, 0.0)
    for case in contract.cases("tests"):
        cells = []
        for kernel, submission in submissions.items():
            seconds, ok = time_case(submission, case)
            totals[kernel] += seconds
            cells.append(f"{seconds:12.2f}{'  ' if ok else ' !'}")
        print(f"{case.spec:38s}" + "".join(cells))
    print(f"{'total':38s}" + "".join(f"{totals[k]:12.2f}  " for k in KERNELS))
    print("(emulated on this CPU; '!' marks a failed check)")
    if args.switch:
        print(f"fiber switch: {switch_cost_ns():.1f} ns")


if __name__ == "__main__":
    main()
