"""Emulated wall time of submissions on the published test cases (printed only).

    python -m engines.source.bench                     # naive and MFMA test kernels, 11 test cases
    python -m engines.source.bench --switch            # also: cost of one fiber switch
    python -m engines.source.bench --submission PATH   # any submission file, as the CPU worker runs it:
        [--cases 0,4] [--json]                         #   on the simulated MI300X host (toolchain/simulated_host.py),
                                                       #   `task`/`utils` importable, load_inline -> source engine

Times are host seconds on this CPU (EMU_THREADS worker threads), never MI300X numbers.
"""
from __future__ import annotations

import argparse
import importlib.util
import json
import sys
import time
from pathlib import Path

import torch.utils.cpp_extension as cpp_extension

import engines.source
from reference import RUNNER_ENV, contract, task

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "tests" / "engines" / "source" / "data"
KERNELS = ["naive", "mfma"]

SWITCH_SOURCE = r"""
#include <hip/hip_runtime.h>
__global__ void wave_sync_loop(int iterations) {
  for (int i = 0; i < iterations; ++i) __syncwarp();
}
void run(int64_t iterations) { wave_sync_loop<<<1, 64>>>(int(iterations)); }
"""


def import_file(path: Path, module_name: str):
    cpp_extension.load_inline = engines.source.load_inline
    spec = importlib.util.spec_from_file_location(module_name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def time_case(submission, case) -> tuple[float, bool, str]:
    data = task.generate_input(**case.args, device="cpu")
    pristine = task.clone_input(data)
    start = time.perf_counter()
    out = submission.custom_kernel(data)
    elapsed = time.perf_counter() - start
    ok, message = task.check_implementation(pristine, out)
    return elapsed, ok, message


def switch_cost_ns() -> float:
    module = engines.source.load_inline("switch_cost", "", SWITCH_SOURCE, functions=["run"])
    iterations = 20000
    start = time.perf_counter()
    module.run(iterations)
    # each wave sync: 64 switches into lanes and 64 back
    return (time.perf_counter() - start) / (iterations * 128) * 1e9


def bench_test_kernels(switch: bool) -> None:
    submissions = {k: import_file(DATA / f"{k}_submission.py", f"bench_{k}") for k in KERNELS}
    print(f"{'case':38s}" + "".join(f"{k + ' (s)':>14s}" for k in KERNELS))
    totals = dict.fromkeys(KERNELS, 0.0)
    for case in contract.cases("tests"):
        cells = []
        for kernel, submission in submissions.items():
            seconds, ok, _ = time_case(submission, case)
            totals[kernel] += seconds
            cells.append(f"{seconds:12.2f}{'  ' if ok else ' !'}")
        print(f"{case.spec:38s}" + "".join(cells))
    print(f"{'total':38s}" + "".join(f"{totals[k]:12.2f}  " for k in KERNELS))
    print("(emulated on this CPU; '!' marks a failed check)")
    if switch:
        print(f"fiber switch: {switch_cost_ns():.1f} ns")


def bench_submission(path: Path, indices: list[int] | None, as_json: bool) -> int:
    """Run one submission file as the CPU worker would; one line per case. Exit status 1 on a failure."""
    from toolchain import simulated_host

    simulated_host.install()
    sys.path[:0] = [str(RUNNER_ENV), str(path.parent)]
    start = time.perf_counter()
    try:
        submission = import_file(path, f"bench_{path.stem}")
    except Exception as exc:  # a build or import failure is this submission's result, not a traceback
        print(json.dumps({"case": "import", "ok": False, "message": f"{type(exc).__name__}: {exc}"}) if as_json
              else f"import failed: {type(exc).__name__}: {exc}")
        return 1
    import_s = time.perf_counter() - start
    cases = contract.cases("tests")
    cases = [cases[i] for i in indices] if indices is not None else cases
    total, failed = 0.0, 0
    if not as_json:
        print(f"{path.name}: import and build {import_s:.1f} s")
    for case in cases:
        try:
            seconds, ok, message = time_case(submission, case)
        except Exception as exc:
            seconds, ok, message = 0.0, False, f"{type(exc).__name__}: {exc}"
        total += seconds
        failed += not ok
        if as_json:
            print(json.dumps({"case": case.spec, "ok": ok, "seconds": round(seconds, 3), "message": message}))
        else:
            print(f"{case.spec:38s}{seconds:10.2f} s  {'pass' if ok else 'FAIL ' + message}")
    if not as_json:
        print(f"{'total (' + str(len(cases)) + ' cases)':38s}{total:10.2f} s  (emulated on this CPU)")
    return 1 if failed else 0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--switch", action="store_true", help="also measure the fiber switch cost")
    parser.add_argument("--submission", type=Path, help="time this submission file instead of the test kernels")
    parser.add_argument("--cases", help="comma-separated test case indices (default: all 11)")
    parser.add_argument("--json", action="store_true", help="one JSON object per case")
    args = parser.parse_args()
    if args.submission:
        indices = [int(i) for i in args.cases.split(",")] if args.cases else None
        sys.exit(bench_submission(args.submission.resolve(), indices, args.json))
    bench_test_kernels(args.switch)


if __name__ == "__main__":
    main()
