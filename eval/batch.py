"""Judge many submissions at once: each one a Ray task running the harness as `eval/run.py` runs it.

    python -m eval.batch INPUT [--mode test|benchmark|leaderboard|ranked] [--method predicted]
                         [--engine ...] [--shapes ...] [--address RAY] [--cpus N]
                         [--out results.parquet] [--resume]

INPUT is a folder of .py files, a list file (one path a line), or a Parquet / CSV file in the
schema of GPU MODE's dataset export (eval/dataset.py); rows of other leaderboards are skipped
and counted. Each distinct source (by sha256) is judged once, by `eval/run.py` in a subprocess
of its Ray task (the same pre-flight, build step, sandboxed stages and report as a run by hand),
with a wall-clock limit; a task that crashes, hangs or is killed becomes a failed row with its
reason. Builds are shared through the engines' caches, which are keyed by content.

Output: one Parquet table and a CSV beside it, a row per submission and stage case (the run
report's columns, the submission id, its source hash and, where the input carries them, its
measured score); the CSV grows as tasks finish, so --resume after an interruption skips the
submissions it holds. At the end, a summary: verdicts, each failed submission with its reason,
the predicted scores' distribution and, where measured scores exist, predicted against measured
(median |error|, Spearman, a scatter PNG beside the output), each distinct source counted once.
Exit status 0 when every submission passed, 1 when any failed (as eval/run.py's), 2 for an
input it cannot read.
"""
from __future__ import annotations

import argparse
import hashlib
import os
import re
import signal
import subprocess
import sys
import time
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

import pandas as pd

from eval import cli, dataset, report
from predictor import parallel
from predictor.fit import spearman
from reference import contract
from toolchain import diagnostics

REPO = Path(__file__).resolve().parent.parent
WORK = REPO / "build" / "batch"  # each distinct source's file and its run's report, by hash
MODES = ("test", "benchmark", "leaderboard", "ranked")
CPU_LIMIT_S = 3600.0  # a submission's whole run on the CPU engines (eval/run.py's stage limit)
LISTED_FAILURES = 20  # failed submissions the summary names; a dataset export can hold thousands
REASON_CHARS = 160  # of a failure reason in the summary (the table holds it whole)
EXTRA = ("submission_id", "source_hash", "input", "measured_score_us", "predicted_score_us", "wall_s")
BATCH_COLUMNS = EXTRA + report.COLUMNS


class InputError(Exception):
    """An input the batch cannot read, with why."""


@dataclass
class Item:
    """One submission to judge: its id, file name, text and what the input says it measured."""
    submission_id: str
    file_name: str
    code: str
    measured_score_us: float | None = None
    source_hash: str = field(init=False)

    def __post_init__(self):
        self.source_hash = hashlib.sha256(self.code.encode()).hexdigest()[:16]


def gather(path: Path, leaderboard_id: int | None) -> tuple[list[Item], int]:
    """The submissions INPUT names, and how many rows of other leaderboards it skipped."""
    if path.is_dir():
        files = sorted(p for p in path.iterdir() if p.suffix == ".py" and p.is_file())
        if not files:
            raise InputError(f"{path}: no .py files")
        return [Item(str(p.relative_to(path)), p.name, p.read_text(errors="replace")) for p in files], 0
    if not path.is_file():
        raise InputError(f"{path}: no such file or folder")
    if path.suffix == ".py":
        raise InputError(f"{path} is one submission file, not a batch: judge it with python eval/run.py "
                         f"--submission {path}; a batch is a folder of .py files, a list file or a dataset export")
    if path.suffix in (".parquet", ".csv"):
        try:
            export = dataset.read(path, leaderboard_id)
        except dataset.DatasetError as exc:
            raise InputError(str(exc)) from None
        items = [Item(e.submission_id, e.file_name, e.code, e.measured_score_us) for e in export.entries]
        return items, export.other_leaderboards
    items = []
    for number, line in enumerate(path.read_text().splitlines(), 1):
        name = line.strip()
        if not name or name.startswith("#"):
            continue
        file = (path.parent / name) if not Path(name).is_absolute() else Path(name)
        if not file.is_file():
            raise InputError(f"{path}:{number}: {name}: no such file")
        items.append(Item(name, file.name, file.read_text(errors="replace")))
    if not items:
        raise InputError(f"{path}: lists no files")
    return items, 0


def records(frame: pd.DataFrame) -> list[dict]:
    """A table's rows as dicts, missing cells None."""
    return frame.astype(object).where(frame.notna(), None).to_dict("records")


def safe_name(name: str) -> str:
    """A file name the harness can import: the stem's letters, digits and underscores, .py."""
    stem = re.sub(r"\W", "_", Path(name).stem) or "submission"
    return (stem if not stem[0].isdigit() else f"s_{stem}") + ".py"


def run_command(path: Path, csv_path: Path, args) -> list[str]:
    command = [sys.executable, str(REPO / "eval" / "run.py"), args.mode, "--submission", str(path),
               "--csv", str(csv_path), "--device", args.device]
    if args.mode != "test":
        command += ["--method", args.method]
    if args.engine:
        command += ["--engine", args.engine]
    for shape in args.shapes or ():
        command += ["--shapes", shape]
    return command


def _die_with_parent() -> None:
    """In the harness's process, before it starts: killed when its Ray worker goes (a stopped
    batch leaves no run behind). Linux's PR_SET_PDEATHSIG."""
    import ctypes

    ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)


def judge(csv_path: str, command: list[str], limit_s: float) -> dict:
    """Run the harness on one file (a Ray task): its report rows, or why there are none."""
    started = time.monotonic()
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                               start_new_session=True, preexec_fn=_die_with_parent, cwd=str(REPO))
    try:
        output, _ = process.communicate(timeout=limit_s)
        reason = None
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        output, _ = process.communicate()
        reason = f"no verdict within {limit_s:.0f} s: the run was stopped"
    # Wall time only: the sandboxed stages' processes are not reaped by this one, so its
    # children's CPU time would leave theirs out.
    spent = {"wall_s": time.monotonic() - started}
    if reason is None and Path(csv_path).is_file():
        return {"rows": records(report.read_frame(csv_path)), **spent}
    tail = " | ".join(line for line in (output or "").splitlines()[-3:] if line.strip())
    if reason is None:
        reason = f"the harness ended with status {process.returncode} and no report" + (f": {tail}" if tail else "")
    return {"failure": reason, **spent}


def failed_row(item: Item, args, reason: str) -> dict:
    """The row of a submission whose run gave no report (crashed, hung, killed)."""
    return {"submission": Path(safe_name(item.file_name)).stem, "mode": args.mode, "passed": False,
            "error": reason[:2000]}


def predicted_score(rows: list[dict]) -> float | None:
    """The geomean of the last timed stage's means over every benchmark shape, when the run
    timed them all and each passed (the leaderboard's score); else None."""
    timed = [r for r in rows if r.get("mode") in ("benchmark", "leaderboard") and r.get("secret_seed") is None]
    if not timed:
        return None
    last = timed[-1]["mode"]
    stage = [r for r in timed if r["mode"] == last]
    shapes = {(c.m, c.n, c.k) for c in contract.cases("benchmarks")}
    means = {(r["m"], r["n"], r["k"]): r.get("mean_us") for r in stage if r.get("passed")}
    if set(means) != shapes or any(v is None or not v > 0 for v in means.values()):
        return None
    return contract.geometric_mean([float(v) for v in means.values()])


def rows_of(item: Item, result: dict, args, input_name: str) -> list[dict]:
    base = {"submission_id": item.submission_id, "source_hash": item.source_hash, "input": input_name,
            "measured_score_us": item.measured_score_us, "wall_s": result.get("wall_s")}
    if "failure" in result:
        return [{**base, **failed_row(item, args, result["failure"])}]
    score = predicted_score(result["rows"])
    return [{**base, **row, "predicted_score_us": score} for row in result["rows"]]


class Output:
    """The batch's table: the CSV journal, appended as tasks finish, and the Parquet beside it."""

    def __init__(self, parquet: Path, resume: bool):
        self.parquet, self.csv = parquet, parquet.with_suffix(".csv")
        self.rows: list[dict] = []
        if resume and self.csv.is_file():
            self.rows = records(pd.read_csv(self.csv, dtype={"submission_id": str}))
        elif self.csv.exists() and not resume:
            self.csv.unlink()
        self.parquet.parent.mkdir(parents=True, exist_ok=True)

    def done(self) -> set[str]:
        return {str(r["submission_id"]) for r in self.rows}

    def add(self, rows: list[dict]) -> None:
        frame = pd.DataFrame(rows, columns=list(BATCH_COLUMNS))
        frame.to_csv(self.csv, mode="a", header=not self.csv.exists() or self.csv.stat().st_size == 0, index=False)
        self.rows += rows

    def finish(self) -> pd.DataFrame:
        frame = pd.DataFrame(self.rows, columns=list(BATCH_COLUMNS))
        frame["passed"] = frame["passed"].map(lambda v: None if v is None else str(v).lower() in ("true", "1"))
        frame.astype({c: "string" for c in ("submission_id", "source_hash", "submission", "error")}).to_parquet(
            self.parquet, index=False)
        return frame


def verdicts(frame: pd.DataFrame) -> pd.DataFrame:
    """One row a submission: whether every row of it passed, its file's stem, source, scores and
    first failure reason."""
    return frame.groupby("submission_id").agg(
        passed=("passed", lambda s: bool(s.fillna(False).all())), name=("submission", "first"),
        source=("source_hash", "first"), predicted=("predicted_score_us", "first"),
        measured=("measured_score_us", "first"),
        error=("error", lambda s: next((e for e in s if isinstance(e, str) and e), "")))


def failure_lines(per_submission: pd.DataFrame) -> list[str]:
    """The failed submissions, each with its reason; past LISTED_FAILURES, how many more."""
    failed = per_submission[~per_submission["passed"]]
    lines = []
    for sid, row in failed.head(LISTED_FAILURES).iterrows():
        name = f" ({row['name']})" if isinstance(row["name"], str) and row["name"] != Path(sid).stem else ""
        reason = (row["error"].splitlines() or ["failed"])[0]
        lines.append(f"  FAILED {sid}{name}: {diagnostics.short(reason, REASON_CHARS)}")
    if len(failed) > LISTED_FAILURES:
        lines.append(f"  and {len(failed) - LISTED_FAILURES} more failed (the table's error column says why)")
    return lines


def summary(frame: pd.DataFrame, skipped: int, scatter: Path) -> list[str]:
    """The closing lines: verdicts, the failed submissions, predicted scores, predicted against measured."""
    per_submission = verdicts(frame)
    sources = per_submission.drop_duplicates("source")
    passed = int(per_submission["passed"].sum())
    lines = [f"{len(per_submission)} submissions ({len(sources)} distinct sources): {passed} passed, "
             f"{len(per_submission) - passed} failed" + (f"; {skipped} rows of other leaderboards skipped" if skipped else "")]
    lines += failure_lines(per_submission)
    scores = pd.to_numeric(sources["predicted"], errors="coerce").dropna()
    if len(scores):
        q = scores.quantile([0, 0.25, 0.5, 0.75, 1]).tolist()
        lines.append(f"predicted scores (us, {len(scores)} sources): min {q[0]:.1f}, quartiles {q[1]:.1f} / "
                     f"{q[2]:.1f} / {q[3]:.1f}, max {q[4]:.1f}")
    both = sources.assign(predicted=pd.to_numeric(sources["predicted"], errors="coerce"),
                          measured=pd.to_numeric(sources["measured"], errors="coerce")).dropna(
                              subset=["predicted", "measured"])
    if len(both):
        errors = (both["predicted"] / both["measured"] - 1).abs()
        rho = spearman(both["predicted"].tolist(), both["measured"].tolist())
        lines.append(f"predicted against measured ({len(both)} sources): median |error| {100 * errors.median():.1f}%"
                     + (f", Spearman {rho:.2f}" if rho is not None else ""))
        draw_scatter(both, scatter)
        lines.append(f"scatter: {scatter}")
    return lines


def draw_scatter(both: pd.DataFrame, path: Path) -> None:
    from matplotlib.figure import Figure

    figure = Figure(figsize=(5, 5))
    ax = figure.subplots()
    ax.scatter(both["measured"], both["predicted"], s=12)
    top = max(both["measured"].max(), both["predicted"].max()) * 1.05
    ax.plot([0, top], [0, top], color="gray", linewidth=0.8)
    ax.set(xlim=(0, top), ylim=(0, top), xlabel="measured score (us)", ylabel="predicted score (us)",
           title="predicted against measured, one point a source")
    figure.savefig(path, dpi=120, bbox_inches="tight")


def make_parser() -> argparse.ArgumentParser:
    p = cli.Parser(prog="python -m eval.batch", description=__doc__.splitlines()[0],
                   formatter_class=argparse.RawDescriptionHelpFormatter,
                   epilog="examples:\n  python -m eval.batch my_kernels/ --mode test\n"
                          "  python -m eval.batch submissions.parquet --method predicted --out results.parquet --resume\n")
    p.add_argument("input", type=Path, help="a folder of .py files, a list file, or a dataset export (.parquet/.csv)")
    p.add_argument("--mode", choices=MODES, help="what eval/run.py runs on each (default: benchmark with "
                   "--method predicted, else test)")
    p.add_argument("--method", default="leaderboard", help="timing method of the timed modes (predicted: the "
                   "predicted MI300X time on the ISA engine)")
    p.add_argument("--engine", help="the CPU engine (eval/run.py --engine)")
    p.add_argument("--device", default="auto", choices=["auto", "cuda", "cpu"])
    p.add_argument("--shapes", nargs="+", action="extend", metavar="SHAPE", help="eval/run.py --shapes")
    p.add_argument("--leaderboard-id", type=int, help=f"{dataset.LEADERBOARD}'s id in a dataset export without "
                   "leaderboards.parquet beside it")
    p.add_argument("--address", help="a Ray cluster's address (default: this machine's cores)")
    p.add_argument("--cpus", type=int, help="local cores to use (default: all)")
    p.add_argument("--limit-s", type=float, default=CPU_LIMIT_S,
                   help=f"wall-clock limit of one submission's run, seconds (default {CPU_LIMIT_S:.0f})")
    p.add_argument("--out", type=Path, help="the Parquet table (default: eval/reports/batch-<time>.parquet; "
                   "the CSV beside it)")
    p.add_argument("--resume", action="store_true", help="skip the submissions the output's CSV already holds")
    return p


def main(argv: list[str] | None = None) -> int:
    args = make_parser().parse_args(argv)
    args.mode = args.mode or ("benchmark" if args.method == "predicted" else "test")
    if args.resume and not args.out:
        print("error: --resume needs the --out of the run it resumes", file=sys.stderr)
        return 2
    try:
        items, skipped = gather(args.input, args.leaderboard_id)
    except InputError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    out = args.out or report.REPORTS_DIR / f"batch-{datetime.now():%Y%m%d-%H%M%S}.parquet"
    output = Output(out, args.resume)
    done = output.done()
    todo = [item for item in items if item.submission_id not in done]
    by_source: dict[str, list[Item]] = {}
    for item in todo:
        by_source.setdefault(item.source_hash, []).append(item)
    print(f"batch: {len(items)} submissions, {len(todo)} to judge ({len(by_source)} distinct sources), "
          f"{len(items) - len(todo)} already in {output.csv}; mode {args.mode}", file=sys.stderr)
    started = time.monotonic()
    if by_source:
        with parallel.session(args.address, args.cpus):
            refs, order = [], []
            for digest, group in by_source.items():
                folder = WORK / digest
                folder.mkdir(parents=True, exist_ok=True)
                path = folder / safe_name(group[0].file_name)
                path.write_text(group[0].code)
                csv_path = folder / f"report-{args.mode}.csv"
                csv_path.unlink(missing_ok=True)
                refs.append(parallel.task(judge).remote(str(csv_path), run_command(path, csv_path, args), args.limit_s))
                order.append(group)
            bar = parallel.progress_bar(len(refs), "source", "judged")
            try:
                for index, result in parallel.finished(refs):
                    if isinstance(result, parallel.Failed):
                        result = {"failure": f"the task was lost: {result.reason}"}
                    for item in order[index]:
                        output.add(rows_of(item, result, args, args.input.name))
                    bar.update(1)
            finally:
                bar.close()
    frame = output.finish()
    print("\n".join(summary(frame, skipped, out.with_suffix(".png"))))
    print(f"table: {out} (and {output.csv})   wall time: {time.monotonic() - started:.1f} s")
    return 0 if verdicts(frame)["passed"].all() else 1


if __name__ == "__main__":
    try:
        sys.exit(main())
    except KeyboardInterrupt:
        print("\ninterrupted: what finished is in the output's CSV; run again with --resume to go on", file=sys.stderr)
        sys.exit(130)
