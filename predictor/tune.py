"""Tune a kernel variant with the predictor: for every ranked and test shape, the tile and
split-K with the lowest predicted leaderboard time, as rows for kernels/table.py.

    python -m predictor.tune --variant v3_twoblock_xcd
    python -m predictor.tune --variant v3_twoblock_xcd --tiles bm128_bn128_bk128_w2x2 bm256_bn128_bk128_w4x2

Prints the table rows, the shapes whose pick is predicted within 5% of the next candidate (a gap
the calibration set's measured order often broke), the predicted geomean over the 18 benchmarks
(leaderboard timing, host time included) beside the published top three, and the time the tuning
took. Predicted, not
measured. Every candidate is a Ray task (predictor/parallel.py): this machine's cores, or a
cluster with --address.
"""
from __future__ import annotations

import argparse
import functools
import math
import sys
import time

from predictor import calibration, hardware, parallel, ranking
from predictor.parallel import Failed
from predictor.variants import PackedVariant, candidates
from kernels import config as configs
from reference import contract


@functools.cache
def packed(variant: str, tiles: tuple[str, ...]) -> PackedVariant:
    """The variant built once per process (the ISA engine caches the build on disk)."""
    return PackedVariant(variant, list(tiles))


def _build(variant: str, tiles: tuple[str, ...]) -> None:
    packed(variant, tiles)


def _time(_built, variant: str, tiles: tuple[str, ...], shape: tuple[int, int, int], cfg: configs.Config,
          settings: dict):
    return packed(variant, tiles).time(*shape, cfg, settings)


class NoCandidate(RuntimeError):
    """Every candidate of a shape failed to build or to be predicted."""


def best_configs(variant: str, tiles: tuple[str, ...],
                 shapes: list[tuple[int, int, int]]) -> dict[tuple, tuple[str, float, float | None]]:
    """shape -> (config name, predicted call us, the runner-up's us or None) of the fastest
    candidate; every candidate of every shape is one Ray task, after one build task."""
    settings, constants = hardware(), calibration()["fitted"]
    built = parallel.task(_build).remote(variant, tiles)
    jobs = [(shape, cfg) for shape in shapes for cfg in candidates(variant, list(tiles), shape[2])]
    refs = [parallel.task(_time).remote(built, variant, tiles, shape, cfg, settings) for shape, cfg in jobs]
    timed: dict[tuple, list] = {shape: [] for shape in shapes}
    bar = parallel.progress_bar(len(refs), "config", "candidates")
    for position, result in parallel.finished(refs):
        shape, cfg = jobs[position]
        if isinstance(result, Failed):  # the binding refuses a config for this shape, or the engine does
            bar.write(f"  {cfg.name} cannot run {'x'.join(map(str, shape))}: {result.reason}", file=sys.stderr)
        else:
            timed[shape].append(result)
        bar.update(1)
    bar.close()
    best = {}
    for shape, results in timed.items():
        if not results:
            raise NoCandidate(f"no candidate of {variant} could be predicted for {'x'.join(map(str, shape))} "
                              "(each one's reason is above)")
        times = sorted(results, key=lambda t: t.call_us(constants))
        best[shape] = (times[0].config, times[0].call_us(constants),
                       times[1].call_us(constants) if len(times) > 1 else None)
    return best


CLOSE = 0.05  # a pick within this of its runner-up is one the calibration set's order often broke


def close_calls(best: dict[tuple, tuple[str, float, float | None]]) -> str | None:
    """A line naming the shapes whose pick is predicted less than CLOSE faster than the next
    candidate, with how often such a gap held on the MI300X; None when there are none."""
    close = [shape for shape, (_, us, runner_up) in best.items() if runner_up is not None and runner_up < us * (1 + CLOSE)]
    if not close:
        return None
    shapes = ", ".join("x".join(map(str, shape)) for shape in close)
    bands = [band for band in ranking.stored("per_shape") if band.high is not None and band.high <= CLOSE]
    held = " and ".join(f"{band.percent} at {band.label}" for band in bands)
    return (f"{len(close)} of {len(best)} picks are predicted under {CLOSE:.0%} faster than the next candidate "
            f"({shapes}): on the calibration set such a gap held on one shape in {held} of pairs, "
            "so either may be faster on the MI300X")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", default="v3_twoblock_xcd", choices=configs.VARIANTS)
    parser.add_argument("--tiles", nargs="+", metavar="TILE",
                        help="tiles to build and try (default: the variant's packed tiles), e.g. bm256_bn128_bk128_w4x2")
    parser.add_argument("--address", metavar="RAY_ADDRESS", help="run on this Ray cluster (default: a local one)")
    parser.add_argument("--cpus", type=int, metavar="N", help="local Ray: CPUs to use (default: all)")
    args = parser.parse_args(argv)
    started = time.monotonic()
    tiles = tuple(args.tiles or [c.name.removesuffix("_sk1") for c in configs.instances(args.variant)])
    benchmarks = [(c.m, c.n, c.k) for c in contract.cases("benchmarks")]
    tests = [(c.m, c.n, c.k) for c in contract.cases("tests") if (c.m, c.n, c.k) not in benchmarks]
    try:
        configs.candidates(args.variant, list(tiles))  # a tile name that is not one: said before Ray starts
        with parallel.session(args.address, args.cpus):
            best = best_configs(args.variant, tiles, benchmarks + tests)
    except (ValueError, NoCandidate) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    print(f'    "{args.variant}": {{  # `python -m predictor.tune --variant {args.variant}`')
    for shape, (name, us, _) in best.items():
        print(f'        {shape!r}: "{name}",  # predicted {us:.1f} us')
    print("    },")
    if note := close_calls(best):
        print(note)
    score = math.exp(sum(math.log(best[s][1]) for s in benchmarks) / len(benchmarks))
    top = calibration()["published_scores"]
    print(f"predicted leaderboard geomean of {args.variant} ({', '.join(tiles)}): {score:.1f} us "
          f"(published #1 {top[0]}, #2 {top[1]}, #3 {top[2]} us, measured on MI300X)")
    print(f"tuning took {time.monotonic() - started:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
