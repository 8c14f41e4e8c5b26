"""python -m eval.model [--fit] [--loo] [--pick --variant V [--configs a,b]] [--predict M N K CONFIG]

Without flags it prints the calibration table (published MI300X timings vs predictions).
"""
from __future__ import annotations

import argparse
import sys
from dataclasses import asdict

from eval.model import ConfigNameError, calibrate, facts_used, format_pick_table, pick, predict_case
from eval.model.efficiency import save_fitted
from eval.model.variants import known_designs


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m eval.model", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--fit", action="store_true",
                        help="refit the efficiency constants and rewrite eval/model/fitted.json")
    parser.add_argument("--loo", action="store_true",
                        help="also print leave-one-out errors (each target refitted without it)")
    parser.add_argument("--pick", action="store_true",
                        help="per-shape fastest config of a variant, and the predicted geomean")
    parser.add_argument("--variant", default="winner", help=f"one of: {', '.join(known_designs())}")
    parser.add_argument("--configs", help="comma-separated config names replacing the candidates")
    parser.add_argument("--predict", nargs=4, metavar=("M", "N", "K", "CONFIG"),
                        help="breakdown of one shape and config")
    args = parser.parse_args(argv)
    try:
        return _run(args)
    except (ConfigNameError, KeyError, ValueError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 2


def _run(args: argparse.Namespace) -> int:
    if args.predict:
        m, n, k, config = args.predict
        print(format_facts(args.variant, [config]))
        for key, value in asdict(predict_case(args.variant, int(m), int(n), int(k), config)).items():
            print(f"{key}: {value:.2f}" if isinstance(value, float) else f"{key}: {value}")
        return 0
    if args.pick:
        configs = args.configs.split(",") if args.configs else None
        picks, geomean = pick(args.variant, configs)
        print(format_facts(args.variant, configs))
        print(f"# variant {args.variant}: predicted fastest config per shape (MI300X model)")
        print(format_pick_table(picks))
        print(f"predicted leaderboard geomean (kernel + host overhead): {geomean:.1f} us")
        return 0
    effs = None
    if args.fit:
        effs = calibrate.fit_all()
        note = "fitted by python -m eval.model --fit to eval/model/calibration.yaml"
        save_fitted({design: (eff, note) for design, eff in effs.items()})
        for design, eff in effs.items():
            print(f"fitted {design}: " + ", ".join(f"{key}={value:.3g}" for key, value in asdict(eff).items()))
    print(calibrate.format_rows(calibrate.compare(effs)))
    if args.loo:
        print("# leave-one-out: each target predicted by constants fitted without it")
        print(calibrate.format_rows(calibrate.leave_one_out()))
    return 0


def format_facts(variant: str, configs: list[str] | None) -> str:
    """Per tile: the kernel facts the model uses, where each came from, and the tiling estimate."""
    lines = [f"# kernel facts per tile (source; tiling estimate in brackets)",
             f"{'tile':<24} {'source':<16} {'waves/SIMD':>10} {'VGPR+AGPR':>10} {'LDS_B':>12} "
             f"{'MFMA/K-tile':>12}  mfma"]
    for tile, used, estimate in facts_used(variant, configs):
        lines.append(f"{tile:<24} {used.source:<16} {used.waves_per_simd_limit:>4} [{estimate.waves_per_simd_limit:>3}] "
                     f"{used.vgprs_per_lane:>4} [{estimate.vgprs_per_lane:>3}] "
                     f"{used.lds_bytes:>5} [{estimate.lds_bytes:>5}] {used.mfmas_per_k_tile:>4} "
                     f"[{estimate.mfmas_per_k_tile:>4}]  {used.mfma.name}")
    return "\n".join(lines)


if __name__ == "__main__":
    sys.exit(main())
