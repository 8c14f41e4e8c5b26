"""python -m eval.model [--fit] [--pick --variant V [--configs a,b]] [--predict M N K CONFIG]

Without flags it prints the calibration table (published MI300X timings vs predictions).
"""
from __future__ import annotations

import argparse
import sys
from dataclasses import asdict

from eval.model import ConfigNameError, calibrate, format_pick_table, pick, predict_case
from eval.model.efficiency import save_fitted
from eval.model.variants import known_designs


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m eval.model", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--fit", action="store_true",
                        help="refit the efficiency constants and rewrite eval/model/fitted.json")
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
        for key, value in asdict(predict_case(args.variant, int(m), int(n), int(k), config)).items():
            print(f"{key}: {value:.2f}" if isinstance(value, float) else f"{key}: {value}")
        return 0
    if args.pick:
        configs = args.configs.split(",") if args.configs else None
        picks, geomean = pick(args.variant, configs)
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
    return 0


if __name__ == "__main__":
    sys.exit(main())
