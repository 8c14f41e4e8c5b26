"""The predictor against measured MI300X kernel times: evaluate it on any file of the calibration
schema, or fit its constants on the calibration set with leave-one-shape-out.

    python -m predictor.calibrate --evaluate CSV --source CLONE [--sample N | --one-per-config] [--json OUT]
                                  [--launches OUT.csv]
    python -m predictor.calibrate --fit --source CLONE [--sample N]
    ... --export-device-code DIR     write the run's builds' device code for another compiler, and stop
    ... --device-code DIR            predict with the code objects it made (engines/isa/device_code.py)

CLONE is your clone of github.com/Snektron/gpumode-amd-fp8-mm, whose kernel the measurements
time (predictor/data/README.md); the configurations are generated from it (sweep.py). Each
row's predicted GEMM kernel time (sweep.gemm_kernel_us) is compared with its gemm_kernel_us.
Builds and predictions run as Ray tasks on this machine's cores, or on a cluster (--address).
--evaluate never changes calibration.yaml; --fit rewrites the `fitted:` values of the constants
named under `fit:` there, except when fitted on a subset (--sample, --one-per-config).
The measured binaries were built by ROCm's hipcc, ours by clang-19: --export-device-code and
--device-code let a machine with ROCm's compiler (no MI300X needed) make the code objects timed.
"""
from __future__ import annotations

import argparse
import json
import re
import sys
import time
from pathlib import Path

from predictor import CALIBRATION, CALL_CONSTANTS, calibration, hardware
from predictor import fit as fitting
from predictor import launch_table, measurements, parallel, ranking, sweep
from predictor.measurements import Row
from predictor.parallel import Failed
from predictor.predictions import SweepPredictor, batches, predict_rows
import engines.isa
from engines.isa import device_code
from engines.isa.errors import IsaBuildError


def predicted_us(rows: list[Row], launches: dict, constants: dict) -> tuple[list[float | None], list[dict]]:
    """Each row's predicted GEMM kernel time (None where refused), and the refusals as
    [{"row": line in the CSV, "reason": ...}]."""
    predicted, refused = [], []
    for row in rows:
        outcome = launches[row.line]
        try:
            if isinstance(outcome, Failed):
                raise RuntimeError(outcome.reason)
            predicted.append(sweep.gemm_kernel_us(outcome, constants))
        except (RuntimeError, ValueError) as exc:
            predicted.append(None)
            refused.append({"row": row.line, "reason": str(exc)})
    return predicted, refused


def evaluation(rows: list[Row], predicted: list[float | None], refused: list[dict]) -> dict:
    """The JSON --evaluate writes."""
    measured = [row.gemm_kernel_us for row in rows]
    shapes = fitting.by_shape([row.shape_name for row in rows], measured, predicted)
    overall = fitting.score(measured, predicted)
    return {"median_abs_error": overall.median_abs_error, "spearman": {s: v.spearman for s, v in shapes.items()},
            "refused": refused, "points": overall.points}


def print_evaluation(rows: list[Row], predicted: list[float | None], refused: list[dict]) -> None:
    measured = [row.gemm_kernel_us for row in rows]
    shapes = [row.shape_name for row in rows]
    print(f"{'shape':<16} {'points':>6} {'refused':>7} {'median |err|':>12} {'Spearman':>8}")
    for shape, s in fitting.by_shape(shapes, measured, predicted).items():
        print(f"{shape:<16} {s.points:>6} {shapes.count(shape) - s.points:>7} {_pct(s.median_abs_error):>12} "
              f"{_num(s.spearman):>8}")
    overall = fitting.score(measured, predicted)
    print(f"{'all':<16} {overall.points:>6} {len(refused):>7} {_pct(overall.median_abs_error):>12}")
    print("\nhow often the configuration predicted faster was measured faster, by predicted gap "
          "(calibration.yaml `ranking:` keeps the whole set's):")
    print(ranking.table(*ranking.of_rows(shapes, [row.config.name for row in rows], measured, predicted)))
    for item in refused[:10]:
        print(f"  refused row {item['row']}: {item['reason'].splitlines()[0][:200]}")
    if len(refused) > 10:
        print(f"  ... and {len(refused) - 10} more (all in --json)")


def _pct(value: float | None) -> str:
    return "-" if value is None else f"{value:.1%}"


def _num(value: float | None) -> str:
    return "-" if value is None else f"{value:.3f}"


def subset(rows: list[Row], args) -> list[Row]:
    """The rows --sample or --one-per-config asks for (all of them without either); a sample is
    drawn a build batch at a time (the batches predict_rows deals from the whole file)."""
    if args.one_per_config:
        return measurements.one_per_config(rows, args.seed)
    return measurements.sample(rows, args.sample, args.seed, batches(measurements.build_universe(rows)))


def outside_device_code(args, call, universe: list) -> bool:
    """--export-device-code: writes the device code of the builds this run would make (True: stop
    there). --device-code: checks that the folder holds each build's code object, and has the
    builds take them."""
    if not (args.export_device_code or args.device_code):
        return False
    names = {sweep.module_name(call, batch): batch for batch in batches(universe)}
    if args.export_device_code:
        out = Path(args.export_device_code)
        for number, batch in enumerate(names.values(), 1):
            unit = sweep.export_device_code(call, batch, out)
            print(f"exported {number}/{len(names)}: {unit}", file=sys.stderr, flush=True)
        print(f"next: `sh {out / device_code.SCRIPT}` where ROCm's clang is (CLANG=... for another), then this "
              f"command with --device-code {out} instead of --export-device-code")
        return True
    folder = Path(args.device_code)
    missing = [name for name in names if not (folder / f"{name}.co").is_file()]
    if missing:
        shown = ", ".join(f"{name}.co" for name in missing[:3]) + (", ..." if len(missing) > 3 else "")
        raise ValueError(f"--device-code {folder}: no code object for {len(missing)} of this run's {len(names)} "
                         f"builds ({shown}); write their sources with --export-device-code {folder} and compile them")
    for name in names:
        device_code.read(folder / f"{name}.co")
    engines.isa.set_device_code(str(folder))
    return False


def evaluate(args) -> int:
    every = measurements.read(Path(args.evaluate), args.as_labelled)
    rows, universe = subset(every, args), measurements.build_universe(every)
    call = sweep.build_call(Path(args.source).resolve())
    if outside_device_code(args, call, universe):
        return 0
    with parallel.session(args.address, args.cpus):
        launches, cost = predict_rows(rows, SweepPredictor(call, hardware()), universe)
    predicted, refused = predicted_us(rows, launches, calibration()["fitted"])
    print_evaluation(rows, predicted, refused)
    print(f"cost: {cost.summary()}")
    if args.json:
        Path(args.json).write_text(json.dumps(evaluation(rows, predicted, refused), indent=2) + "\n")
    if args.launches:
        records = launch_table.table(rows, launches, predicted, launch_table.descriptors(call, rows, universe))
        launch_table.write(Path(args.launches), records)
        print(launch_table.summary(records))
    return 0


def parameters() -> list[fitting.Parameter]:
    entries = calibration().get("fit") or {}
    unknown = [name for name in entries if name not in calibration()["fitted"]]
    if unknown:
        raise ValueError(f"calibration.yaml fit: {', '.join(unknown)} has no value under fitted: to rewrite")
    return [fitting.Parameter.of(name, entry) for name, entry in entries.items()]


def model(rows: list[Row], call, universe: list | None = None):
    """constants -> each row's predicted time; predictions rerun only for new timing-model settings
    (with the builds of `universe`'s batches, as predict_rows deals them)."""
    cache: dict[tuple, dict] = {}

    def predict(constants: dict) -> list[float | None]:
        engine = {k: v for k, v in constants.items() if k not in CALL_CONSTANTS}
        key = tuple(sorted(engine.items()))
        if key not in cache:
            cache[key], cost = predict_rows(rows, SweepPredictor(call, hardware(engine)), universe)
            print(f"predicted at {engine or 'the stored settings'}: {cost.summary()}", file=sys.stderr)
        return predicted_us(rows, cache[key], {**calibration()["fitted"], **constants})[0]
    return predict


def print_fit(report: fitting.FitReport, params: list[fitting.Parameter]) -> None:
    print(f"{'shape':<16} {'points':>6} {'in-sample |err|':>15} {'Spearman':>8} {'left-out |err|':>14} "
          f"{'Spearman':>8}  fitted without it")
    for shape, inside in report.in_sample.items():
        out = report.left_out[shape]
        fold = ", ".join(f"{k} {v:g}" for k, v in report.fold_constants[shape].items())
        print(f"{shape:<16} {inside.points:>6} {_pct(inside.median_abs_error):>15} {_num(inside.spearman):>8} "
              f"{_pct(out.median_abs_error):>14} {_num(out.spearman):>8}  {fold}")
    print(f"median |error| over every point: in sample {_pct(report.median_in_sample)}, "
          f"leave-one-shape-out {_pct(report.median_left_out)}")
    for p in params:
        value = report.constants[p.name]
        print(f"{p.name}: prior {p.prior:g} -> fitted {value:g} ({value - p.prior:+g}){_edge(p, value)}")


def _edge(parameter: fitting.Parameter, value: float) -> str:
    """A warning when the fit stopped at an end of the grid: the best value may lie beyond it."""
    if len(parameter.grid) < 2 or value not in (parameter.grid[0], parameter.grid[-1]):
        return ""
    end = "lower" if value == parameter.grid[0] else "upper"
    return (f"; at the {end} end of its grid: the data would move it further (widen fit.{parameter.name} in "
            f"{CALIBRATION.name} where that stays physical, else the model misses something)")


def fit(args) -> int:
    params = parameters()
    if not params:
        raise ValueError("calibration.yaml names no constant under fit:")
    every = measurements.read(measurements.CALIBRATION_SET, args.as_labelled)
    rows = subset(every, args)
    call = sweep.build_call(Path(args.source).resolve())
    if outside_device_code(args, call, measurements.build_universe(every)):
        return 0
    with parallel.session(args.address, args.cpus):
        report = fitting.fit(model(rows, call, measurements.build_universe(every)), [r.gemm_kernel_us for r in rows],
                             [r.shape_name for r in rows], params)
    print_fit(report, params)
    if args.sample is None and not args.one_per_config:
        write_fitted(report.constants)
        print(f"wrote the fitted values to {CALIBRATION}")
    else:
        print("calibration.yaml unchanged: fitted on a subset (--sample or --one-per-config)")
    return 0


def write_fitted(values: dict) -> None:
    text = CALIBRATION.read_text()
    for key, value in values.items():
        text, count = re.subn(rf"^(  {key}: )\S+$", rf"\g<1>{value:g}" if isinstance(value, float) else rf"\g<1>{value}",
                              text, flags=re.M)
        if count != 1:
            raise RuntimeError(f"calibration.yaml has no single fitted line for {key}")
    CALIBRATION.write_text(text)


def make_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m predictor.calibrate", description=__doc__.splitlines()[0])
    mode = parser.add_mutually_exclusive_group(required=True)
    mode.add_argument("--evaluate", metavar="CSV", help="predict every row of CSV (the calibration schema) and compare")
    mode.add_argument("--fit", action="store_true",
                      help=f"fit calibration.yaml's fit: constants on {measurements.CALIBRATION_SET.name}, "
                           "with leave-one-shape-out errors")
    parser.add_argument("--source", required=True, metavar="DIR",
                        help="your clone of Snektron/gpumode-amd-fp8-mm (the measured kernel's repository)")
    subset = parser.add_mutually_exclusive_group()
    subset.add_argument("--sample", type=int, metavar="N", help="a random sample of N rows (default: every row)")
    subset.add_argument("--one-per-config", action="store_true",
                        help="one row of each configuration, its shape drawn with --seed (every configuration once)")
    parser.add_argument("--as-labelled", action="store_true",
                        help="predict each row as its fused_transpose column says (default: the kernel it timed; "
                             "section 3 timed the fused kernel in both halves, predictor/data/README.md)")
    parser.add_argument("--seed", type=int, default=0, help="the sample's or the drawn shapes' seed (default 0)")
    parser.add_argument("--json", metavar="OUT", help="--evaluate: write median_abs_error, spearman, refused, points")
    parser.add_argument("--launches", metavar="OUT",
                        help="--evaluate: a CSV of every row's prediction and GEMM occupancy, the engine's beside the "
                             "kernel descriptor's")
    code = parser.add_mutually_exclusive_group()
    code.add_argument("--export-device-code", metavar="DIR",
                      help="write the device code of every build the run would make into DIR, with DIR/compile.sh "
                           "for another compiler (ROCm's clang, as the measurements' hipcc), and stop")
    code.add_argument("--device-code", metavar="DIR",
                      help="predict with the code objects in DIR (compile.sh's output) instead of clang-19's")
    parser.add_argument("--address", metavar="RAY_ADDRESS", help="run on this Ray cluster (default: a local one)")
    parser.add_argument("--cpus", type=int, metavar="N", help="local Ray: CPUs to use (default: all)")
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = make_parser()
    args = parser.parse_args(argv)
    if (args.json or args.launches) and args.fit:
        parser.error("--json and --launches go with --evaluate")
    started = time.monotonic()
    try:
        status = fit(args) if args.fit else evaluate(args)
    except (measurements.MeasurementsError, sweep.SweepSourceError, ValueError, IsaBuildError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    print(f"took {time.monotonic() - started:.0f} s", file=sys.stderr)
    return status


if __name__ == "__main__":
    sys.exit(main())
