"""Tune a kernel variant with the predictor: for every ranked and test shape, the tile and
split-K with the lowest predicted leaderboard time, as rows for kernels/table.py.

    python -m eval.predict.tune --variant v3_twoblock_xcd
    python -m eval.predict.tune --variant v3_twoblock_xcd --tiles bm128_bn128_bk128_w2x2 bm256_bn128_bk128_w4x2

Prints the table rows, the predicted geomean over the 18 benchmarks (leaderboard timing, host
time included) beside the published top three, and the time the tuning took. Predicted, not
measured.
"""
from __future__ import annotations

import argparse
import math
import sys
import time

from eval.predict import calibration, hardware
from eval.predict.variants import PackedVariant
from kernels import config as configs
from reference import contract


def best_configs(variant: PackedVariant, shapes: list[tuple[int, int, int]]) -> dict[tuple, tuple[str, float]]:
    """shape -> (config name, predicted call us) of the fastest candidate."""
    settings, constants = hardware(), calibration()["fitted"]
    best = {}
    for number, (m, n, k) in enumerate(shapes, 1):
        timed = []
        for cfg in variant.candidates(k):
            try:
                timed.append(variant.time(m, n, k, cfg, settings))
            except RuntimeError as exc:  # the binding refuses a config for this shape
                print(f"  {cfg.name} cannot run {m}x{n}x{k}: {exc}", file=sys.stderr)
        choice = min(timed, key=lambda t: t.call_us(constants))
        best[(m, n, k)] = (choice.config, choice.call_us(constants))
        print(f"  [{number}/{len(shapes)}] {m}x{n}x{k}: {choice.config} {best[(m, n, k)][1]:.1f} us "
              f"({len(timed)} candidates)", file=sys.stderr, flush=True)
    return best


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", default="v3_twoblock_xcd", choices=configs.VARIANTS)
    parser.add_argument("--tiles", nargs="+", metavar="TILE",
                        help="tiles to build and try (default: the variant's packed tiles), e.g. bm256_bn128_bk128_w4x2")
    args = parser.parse_args(argv)
    started = time.monotonic()
    tiles = args.tiles or [c.name.removesuffix("_sk1") for c in configs.instances(args.variant)]
    variant = PackedVariant(args.variant, tiles)
    benchmarks = [(c.m, c.n, c.k) for c in contract.cases("benchmarks")]
    tests = [(c.m, c.n, c.k) for c in contract.cases("tests") if (c.m, c.n, c.k) not in benchmarks]
    best = best_configs(variant, benchmarks + tests)
    print(f'    "{args.variant}": {{  # `python -m eval.predict.tune --variant {args.variant}`')
    for shape, (name, us) in best.items():
        print(f'        {shape!r}: "{name}",  # predicted {us:.1f} us')
    print("    },")
    score = math.exp(sum(math.log(best[s][1]) for s in benchmarks) / len(benchmarks))
    top = calibration()["calibration"]["scores"]["top"]
    print(f"predicted leaderboard geomean of {args.variant} ({', '.join(tiles)}): {score:.1f} us "
          f"(published #1 {top[0]}, #2 {top[1]}, #3 {top[2]} us, measured on MI300X)")
    print(f"tuning took {time.monotonic() - started:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
