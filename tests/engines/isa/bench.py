"""Benchmark of the ISA engine (not a test): the 11 test cases of the packed submission
(submission.py's variant and per-shape configs) executed instruction by instruction on the CPU.

    python tests/engines/isa/bench.py [--threads 2] [--cases tests|benchmarks] [--only 0 3]

Prints per case the config, wall time, wave instructions per second and the share of time in
MFMA arithmetic, and checks each output with the reference check. Times are CPU times of the
engine ("emulated"), nothing about MI300X.
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import harness  # noqa: E402

from kernels import config as configs  # noqa: E402
from kernels import pack  # noqa: E402
from kernels.select import general_config  # noqa: E402
from kernels.table import SHAPE_TABLE  # noqa: E402
from reference import contract  # noqa: E402
from reference.task import check_implementation, clone_input, generate_input  # noqa: E402


def choose(variant: str, m: int, n: int, k: int) -> tuple[int, int]:
    """(tile index, split_k) the packed submission picks for this shape."""
    instances = configs.instances(variant)
    name = SHAPE_TABLE[variant].get((m, n, k))
    if name is None:
        tiles = tuple((c.block_m, c.block_n, max(1, 8 // (c.waves_m * c.waves_n))) for c in instances)
        return general_config(m, n, k, tiles, configs.SPLIT_K_CHOICES[variant])
    chosen = configs.Config.parse(variant, name)
    index = next(i for i, c in enumerate(instances) if c.name.removesuffix("_sk1") == chosen.name.rsplit("_sk", 1)[0])
    return index, chosen.split_k


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", choices=configs.VARIANTS, default=pack.TARGETS["submission.py"])
    parser.add_argument("--cases", choices=("tests", "benchmarks"), default="tests")
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--only", type=int, nargs="*")
    args = parser.parse_args(argv)
    engine = harness.Engine()
    engine.threads(args.threads)
    harness.compile_variant(args.variant)
    total = {"seconds": 0.0, "instructions": 0, "mfma_seconds": 0.0, "mfmas": 0}
    failures = 0
    for index, case in enumerate(contract.cases(args.cases)):
        if args.only and index not in args.only:
            continue
        m, n, k = case.args["m"], case.args["n"], case.args["k"]
        tile_index, split_k = choose(args.variant, m, n, k)
        tile = harness.TILES[args.variant][tile_index]
        data = generate_input(**case.args, device="cpu")
        pristine = clone_input(data)
        engine.reset()
        start = time.perf_counter()
        out = harness.run_gemm(engine, args.variant, tile, data, split_k)
        seconds = time.perf_counter() - start
        ok, message = check_implementation(pristine, out)
        failures += not ok
        s = engine.stats()
        total["seconds"] += seconds
        total["instructions"] += s["wave_instructions"]
        total["mfma_seconds"] += s["mfma_seconds"]
        total["mfmas"] += s["mfma_instructions"]
        print(f"{args.cases}.{index} m={m} n={n} k={k} bm{tile.block_m}_bn{tile.block_n}_sk{split_k}: "
              f"{'pass' if ok else 'FAIL ' + message.splitlines()[0]} {seconds:.2f} s, "
              f"{s['wave_instructions'] / max(seconds, 1e-9) / 1e6:.2f} M wave instr/s, "
              f"{s['mfma_instructions']} MFMA, MFMA share {s['mfma_seconds'] / max(s['seconds'] * args.threads, 1e-9):.0%}",
              flush=True)
    print(f"total: {total['seconds']:.1f} s on {args.threads} thread(s), {total['instructions'] / 1e6:.1f} M wave "
          f"instructions ({total['instructions'] / max(total['seconds'], 1e-9) / 1e6:.2f} M/s), {total['mfmas']} MFMA, "
          f"MFMA share {total['mfma_seconds'] / max(total['seconds'] * args.threads, 1e-9):.0%}, "
          f"{'all pass' if not failures else f'{failures} FAILED'}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
