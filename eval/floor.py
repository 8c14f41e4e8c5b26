"""The harness floor: what a timing method charges a submission that does no work.

Times `custom_kernel = lambda data: data[4]` (no launch, no check) with the published
repeat loop and a named method, so the per-call cost of synchronize + host clock + Python
call is known on this machine. Usage: python -m eval.floor [--method NAME] [--device D]
"""
from __future__ import annotations

import argparse

from eval import timing
from eval.device import detect
from reference import contract
from reference.task import generate_input


def measure(method_name: str = "leaderboard", device_name: str = "auto", budget_s: float = 10.0):
    """Per-case Stats of the no-op call, over the benchmark shapes."""
    device = detect(device_name)
    method = timing.method(method_name, device)
    timing.bind_clock(device)
    rule = timing.StopRule.from_contract(contract.load()["timing"], budget_s)
    results = []
    for case in contract.cases("benchmarks"):
        data = generate_input(**case.args, device=device.kind)
        results.append((case, timing.stats(timing.repeat(rule, lambda: method.time_one(lambda: data[4], device)[0]))))
    return device, results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--method", default="leaderboard", choices=list(timing.METHODS))
    parser.add_argument("--device", default="auto", choices=["auto", "cuda", "cpu"])
    args = parser.parse_args()
    device, results = measure(args.method, args.device)
    print(f"no-op submission floor, method {args.method}, {device.name} ({device.arch})")
    for case, s in results:
        print(f"  {case.m:>5} {case.n:>5} {case.k:>5}  mean {s.mean / 1e3:7.2f} us  "
              f"best {s.best / 1e3:7.2f} us  runs {s.runs}")
    means = [s.mean / 1e3 for _, s in results]
    print(f"geometric mean of per-case means: {contract.geometric_mean(means):.2f} us")


if __name__ == "__main__":
    main()
