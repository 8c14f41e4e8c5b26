"""How closely the harness times what the published evaluator times, on this machine's GPU.

Prints, in order: the harness floor (eval.floor: the no-op submission under the published
measurement), then for each submission the per-case benchmark means of `eval/run.py
benchmark`, and, given the published evaluator (--published DIR holding its eval.py, which
you fetch yourself from GPU MODE's reference-kernels, problems/amd/eval.py; the project does
not ship it), the same cases through that evaluator, with per-case ratios and their
geometric mean. Each round's per-case means come first, for both evaluators, so that rounds
falling into two groups (a host whose CPU speed changes, on calls of many small launches) show
as such; the table holds their medians. The published eval.py runs beside the runner modules
the harness provides (reference/runner_env: task, utils; the project's `reference`), so both
use the same reference.

    python -m eval.fidelity                                  # floor and harness times only
    python -m eval.fidelity --published build/published_eval --out eval/reports/fidelity.csv

The default submissions are the reference and a per-input cached-work submission
(examples/cached_operand_submission.py): the published loop never times its one-time work.
"""
from __future__ import annotations

import argparse
import csv
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from eval import floor, report
from reference import RUNNER_ENV, contract

REPO = Path(__file__).resolve().parent.parent
DEFAULT_SUBMISSIONS = [REPO / "examples" / "reference_submission.py",
                       REPO / "examples" / "cached_operand_submission.py"]


def harness_means(submission: Path, mode: str, cases: list[int]) -> list[float | None]:
    """Per-case means (us) of eval/run.py on `submission`; None for a failed case."""
    with tempfile.TemporaryDirectory() as tmp:
        csv_path = Path(tmp) / "run.csv"
        subprocess.run([sys.executable, str(REPO / "eval" / "run.py"), mode, "--submission", str(submission),
                        "--csv", str(csv_path), "--shapes", *map(str, cases)],
                       check=False, stdout=subprocess.DEVNULL)
        rows = report.read_rows(csv_path) if csv_path.exists() else []
    means = {int(row["case"]): row["mean_us"] for row in rows if row["passed"]}
    return [means.get(i) for i in cases]


def published_means(evaluator: Path, submission: Path, mode: str, cases: list[int]) -> list[float | None]:
    """Per-case means (us) of the published eval.py, run as the runner runs it."""
    specs = [contract.cases("benchmarks")[i].spec for i in cases]
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        shutil.copy(evaluator / "eval.py", work / "eval.py")
        shutil.copy(submission, work / "submission.py")
        (work / "tests.txt").write_text("\n".join(specs) + "\n")
        log = work / "popcorn.txt"
        env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(RUNNER_ENV), str(REPO)]))
        with open(log, "w") as sink:
            env["POPCORN_FD"] = str(sink.fileno())
            subprocess.run([sys.executable, "eval.py", mode, "tests.txt"], cwd=work, env=env,
                           pass_fds=(sink.fileno(),), check=False, stdout=subprocess.DEVNULL)
        values = dict(line.split(": ", 1) for line in log.read_text().splitlines() if ": " in line)
    return [float(values[f"benchmark.{slot}.mean"]) / 1e3 if f"benchmark.{slot}.mean" in values else None
            for slot in range(len(cases))]


def _cell(value: float | None, width: int, spec: str) -> str:
    return format(value, f">{width}{spec}") if value is not None else f"{'-':>{width}}"


def _median(values: list[float | None]) -> float | None:
    values = [v for v in values if v is not None]
    return statistics.median(values) if values else None


def round_lines(title: str, cases: list[int], rounds: list[dict[str, list[float | None]]]) -> list[str]:
    """Each round's per-case means, one line per evaluator in the order they ran (the first
    marked *), so that a reading whose rounds fall into two groups shows as such, not only as
    its median. `rounds`: per round, {evaluator: per-case means (None: the case failed)}, in
    running order."""
    paired = any(len(means) > 1 for means in rounds)
    lines = [f"\n{title}: per-round means, us" + (" (* ran first in its round)" if paired else ""),
             f"{'round':>5} {'evaluator':<11}" + "".join(f"{f'case {i}':>10}" for i in cases)]
    for number, means in enumerate(rounds, 1):
        for position, (name, values) in enumerate(means.items()):
            lines.append(f"{number:>5} {name + ('*' if position == 0 and len(means) > 1 else ''):<11}"
                         + "".join(_cell(v, 10, ".1f") for v in values))
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter, epilog=__doc__)
    parser.add_argument("--published", type=Path, metavar="DIR",
                        help="directory holding the published eval.py (not shipped with the project)")
    parser.add_argument("--submission", action="append", type=Path, metavar="PATH",
                        help="submission to time (repeatable; default: the reference and the cached-work one)")
    parser.add_argument("--mode", default="benchmark", choices=["benchmark", "leaderboard"])
    parser.add_argument("--shapes", nargs="+", type=int, metavar="I",
                        help="benchmark case indexes (default: all)")
    parser.add_argument("--rounds", type=int, default=2, metavar="N",
                        help="runs of each evaluator per submission, alternating which goes first; "
                             "each round's per-case means are printed, the table shows their medians "
                             "(default: 2)")
    parser.add_argument("--out", type=Path, metavar="CSV", help="also write the per-case table here")
    args = parser.parse_args(argv)
    if args.rounds < 1:
        parser.error("--rounds must be at least 1")
    if args.published and not (args.published / "eval.py").is_file():
        parser.error(f"--published {args.published}: no eval.py there")
    cases = args.shapes or list(range(len(contract.cases("benchmarks"))))
    submissions = args.submission or DEFAULT_SUBMISSIONS

    device, floors = floor.measure("leaderboard")
    if not device.is_gpu:
        print("note: no GPU here; these are CPU timings, which say nothing about a GPU", file=sys.stderr)
    floor_means = [s.mean / 1e3 for _, s in floors]
    print(f"harness floor (no-op submission, published measurement) on {device.name}: geometric mean "
          f"{contract.geometric_mean(floor_means):.2f} us, per case {min(floor_means):.2f}-{max(floor_means):.2f} us")

    table = []
    for submission in submissions:
        rounds = []
        for round_ in range(args.rounds):
            # Alternate which evaluator goes first: GPU clocks and caches warm up over a run.
            order = ["harness", "published"] if args.published else ["harness"]
            means = {}
            for name in (order if round_ % 2 else order[::-1]):
                print(f"round {round_ + 1}/{args.rounds}: {submission.name} ({args.mode}) with the {name} ...",
                      file=sys.stderr, flush=True)
                means[name] = (harness_means(submission, args.mode, cases) if name == "harness"
                               else published_means(args.published, submission, args.mode, cases))
            rounds.append(means)
        print("\n".join(round_lines(f"{submission.stem} ({args.mode})", cases, rounds)))
        for slot, index in enumerate(cases):
            mine = _median([r["harness"][slot] for r in rounds])
            published = _median([r["published"][slot] for r in rounds if "published" in r])
            ratio = mine / published if mine and published else None
            table.append({"submission": submission.stem, "case": index, "spec": contract.cases("benchmarks")[index].spec,
                          "harness_us": mine, "published_us": published, "ratio": ratio})

    print(f"\n{args.mode} means on {device.name}, median of {args.rounds} round(s) (harness / published evaluator)")
    print(f"{'submission':<28} {'case':>4} {'harness us':>11} {'published us':>13} {'ratio':>7}")
    for row in table:
        print(f"{row['submission']:<28} {row['case']:>4} {_cell(row['harness_us'], 11, '.1f')} "
              f"{_cell(row['published_us'], 13, '.1f')} {_cell(row['ratio'], 7, '.3f')}")
    for name in dict.fromkeys(row["submission"] for row in table):
        mine = [r for r in table if r["submission"] == name]
        ours = [r["harness_us"] for r in mine if r["harness_us"]]
        ratios = [r["ratio"] for r in mine if r["ratio"]]
        line = f"{name}: harness geomean {contract.geometric_mean(ours):.1f} us" if ours else f"{name}: no passing case"
        if ratios:
            line += (f"; ratio to published geomean {contract.geometric_mean(ratios):.3f}, "
                     f"per case {min(ratios):.3f}-{max(ratios):.3f}")
        print(line)
    if args.out:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        with open(args.out, "w", newline="") as f:
            writer = csv.DictWriter(f, fieldnames=list(table[0]))
            writer.writeheader()
            writer.writerows(table)
        print(f"table: {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
