#!/usr/bin/env python3
"""The local amd-fp8-mm leaderboard: run submissions the way GPU MODE's runner does.

Each submission file first goes through the bot's pre-flight (eval/preflight.py); a file
the bot would refuse gets failed rows with the bot's message. The harness's build step
(the file imported, its load_inline builds cached) comes next, then every stage (mode) in its
own worker process, each in a sandbox (eval/sandbox.py), with the official per-stage limit; a
submission that fails to import, raises, hangs or crashes its process gives a failed row with
a one-paragraph reason, and the run goes on. `ranked` ends with the bot's secret-seed run. Exit status 0
means every check of every stage passed.
"""
from __future__ import annotations

import argparse
import secrets
import sys
import time
from datetime import datetime
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
if sys.path[0] == str(REPO / "eval"):  # run as a script: import the project, not eval/'s siblings
    sys.path[0] = str(REPO)

from eval import cli, clock, engines, judge, preflight, report, sandbox, timing  # noqa: E402
from eval.device import DeviceInfo, detect  # noqa: E402
from eval.summary import print_secret_run, print_stage, print_verdicts  # noqa: E402
from reference import contract  # noqa: E402
from reference.contract import Case  # noqa: E402

STAGES = {"test": ["test"], "benchmark": ["benchmark"], "leaderboard": ["leaderboard"],
          "profile": ["profile"], "ranked": contract.load()["ranked_stages"]}
CPU_STAGE_LIMIT_S = 3600  # the emulator is slow; the official limit is for an MI300X
CUSTOM_SEED = 1
SECRET_SEEDS = 2 ** 31  # the bot draws a leaderboard's secret seed from [0, 2^31)

EXAMPLES = """
examples:
  python eval/run.py                       ranked on submission.py (GPU), test mode (no GPU)
  python eval/run.py test --shapes 0 4     two of the published test cases
  python eval/run.py benchmark --shapes 1024,1536,7168 --method events
  python eval/run.py ranked --submission examples/reference_submission.py --submission submission.py
  python eval/run.py leaderboard --secret-seed 1234 --popcorn
  python eval/run.py ranked --preflight-only --submission my.py   would the bot accept the file?
  python eval/run.py benchmark --method predicted     predicted MI300X times (no GPU; the ISA engine)
  python eval/run.py profile --method predicted --shapes 0   where the cycles go
"""


MODE_HELP = {
    "test": "each test case once, checked",
    "benchmark": "the benchmark cases timed on one input",
    "leaderboard": "timed with a fresh input (seed += 13) and a check every repeat, stopping at the first failure",
    "profile": "one call per case under the torch profiler",
    "ranked": "test, benchmark, leaderboard, like a ranked submission, then the bot's secret-seed run of the three",
}
UNTIMED = ("test",)  # modes --method means nothing to


def make_parser(mode: str | None = None) -> argparse.ArgumentParser:
    """The command line; with `mode`, the help of that mode alone (`eval/run.py test --help`)."""
    if mode is None:
        p = cli.Parser(
            prog="eval/run.py", description=__doc__.splitlines()[0], epilog=EXAMPLES,
            formatter_class=argparse.RawDescriptionHelpFormatter, file_flag="--submission")
        p.add_argument("mode", nargs="?", choices=list(STAGES), type=mode_name,
                       help=". ".join(f"{name}: {text}" for name, text in MODE_HELP.items())
                       + ". Default: ranked with a GPU; without one, benchmark with --method predicted, "
                         "else test.")
    else:
        p = cli.Parser(
            prog=f"eval/run.py {mode}", description=f"{mode} mode: {MODE_HELP[mode]}.",
            epilog="\n".join(line for line in EXAMPLES.splitlines() if f"run.py {mode} " in line
                             or line.startswith("examples")),
            formatter_class=argparse.RawDescriptionHelpFormatter, file_flag="--submission")
    p.add_argument("--submission", action="append", metavar="PATH",
                   help="submission file defining custom_kernel(data); repeat to compare several "
                        "on the same cases (default: submission.py)")
    p.add_argument("--shapes", nargs="+", action="extend", metavar="SHAPE",
                   help="cases to run: indexes into the mode's published list (tests for test, "
                        f"benchmarks otherwise), or m,n,k[,seed] (seed defaults to {CUSTOM_SEED}); "
                        "repeating the flag adds to the list")
    p.add_argument("--secret-seed", type=int, metavar="S",
                   help="apply the published secret-seed pairing: each seed a -> a + (a+S)(a+S+1)/2; "
                        "with ranked, the S of its closing secret-seed run (default: random)")
    if mode not in UNTIMED:
        p.add_argument("--method", default="leaderboard", choices=list(timing.METHODS),
                       help="timing method: " + "; ".join(f"{m.name}: {m.doc}" for m in timing.METHODS.values()))
        p.add_argument("--exact", action="store_true",
                       help=f"with --method {timing.PREDICTED}: simulate every loop iteration and every workgroup of the "
                            f"busiest CU, where by default the timing model extrapolates their settled steady state "
                            f"(docs/predictor.md, 'Sampled simulation')")
    p.add_argument("--device", default="auto", choices=["auto", "cuda", "cpu"],
                   help="auto: the GPU if torch sees one (ROCm or CUDA), else the CPU, where HIP "
                        "submissions run on the project's emulator")
    p.add_argument("--engine", choices=engines.names(),
                   help="with no GPU, what runs a HIP submission's kernels: " + engines.describe()
                        + f" (default: isa with the {timing.PREDICTED} timing method, else {engines.DEFAULT}; ignored on a GPU)")
    p.add_argument("--strict", action="store_true",
                   help="fail a run on the rules the published check does not have (an output of the "
                        "reference's dtype, dense, inputs unchanged) and on the CPU engine's diagnostics (both: reads "
                        "past the end of a tensor; isa: LDS races, missing s_waitcnt, LDS accesses past the "
                        "allocation) instead of printing them; by default, as on the leaderboard, only the outputs' "
                        "values decide")
    p.add_argument("--device-code", metavar="DIR",
                   help="isa engine: run the gfx942 code objects another compiler made (ROCm's, as the runner's "
                        "hipcc) from `python -m engines.isa.device_code export`, DIR/<module>.co, instead of "
                        "compiling the device code with clang-19 (engines/isa/device_code.py)")
    p.add_argument("--csv", metavar="PATH",
                   help="where to write the report (default: eval/reports/run-<time>-<mode>-<first file>[-and-<n>-more].csv)")
    p.add_argument("--popcorn", action="store_true",
                   help="also print the official evaluator's key: value lines for each stage")
    p.add_argument("--stage-limit", type=float, metavar="SECONDS",
                   help=f"per-stage time limit (default: {contract.load()['stage_limit_s']} s as on "
                        f"the leaderboard; {CPU_STAGE_LIMIT_S} s on the CPU)")
    p.add_argument("--preflight-only", action="store_true",
                   help="only the bot's pre-flight on each file (empty, over 1 MB, not UTF-8, the word "
                        "'stream', KernelGuard for the modes it guards); exit 0 when it accepts all")
    p.add_argument("--skip-preflight", action="store_true",
                   help="run the stages even for a file the pre-flight refuses (the leaderboard would "
                        "not run it); the verdict is still printed and recorded")
    p.add_argument("--list", action="store_true", help="list the published cases and exit")
    return p


def mode_name(word: str) -> str:
    """The mode argument; a submission file or folder given in its place is named as one."""
    if word in STAGES:
        return word
    if Path(word).is_dir():
        raise argparse.ArgumentTypeError(f"{word} is a folder, not a mode: {batch_hint(word)}")
    if cli.looks_like_file(word):
        raise argparse.ArgumentTypeError(f"{word} is a file, not a mode: did you mean --submission {word}?")
    return word  # argparse's invalid choice, which lists the modes


def batch_hint(folder: str | Path) -> str:
    return f"to judge each .py file in it, python -m eval.batch {folder}"


def parse_shape(item: str, published: list[Case], parser_error) -> tuple[int | None, Case]:
    """An index into the published list, or a custom m,n,k[,seed]."""
    try:
        numbers = [int(x) for x in item.split(",")]
    except ValueError:
        parser_error(f"--shapes {item!r}: expected an index or m,n,k[,seed] of integers")
    if len(numbers) == 1:
        index = numbers[0]
        if not 0 <= index < len(published):
            parser_error(f"--shapes {index}: index out of range 0..{len(published) - 1}")
        return index, published[index]
    if len(numbers) not in (3, 4):
        parser_error(f"--shapes {item!r}: expected m,n,k or m,n,k,seed")
    m, n, k = numbers[:3]
    block = contract.load()["block_k"]
    if m < 1 or n < 1 or k < block or k % block:
        parser_error(f"--shapes {item!r}: need m >= 1, n >= 1 and k a positive multiple of {block}")
    return None, Case(m, n, k, numbers[3] if len(numbers) == 4 else CUSTOM_SEED)


def select_cases(stage: str, args, parser_error, secret: int | None) -> list[tuple[int | None, Case]]:
    """The stage's cases, their seeds paired with `secret` when one is given."""
    published = contract.cases("tests" if stage == "test" else "benchmarks")
    chosen = ([parse_shape(item, published, parser_error) for item in args.shapes]
              if args.shapes else list(enumerate(published)))
    if secret is not None:
        chosen = [(i, c.with_seed(contract.secret_seed(c.seed, secret))) for i, c in chosen]
    return chosen


def job_of(submission: Path, stage: str, cases, args, device: DeviceInfo) -> dict:
    """What a stage's worker is told; `visible`: the folders it reads besides the checkout
    (the submission's, and --device-code's)."""
    submission = submission.resolve()
    return {"submission": str(submission), "mode": stage, "method": args.method,
            "device": device.kind, "engine": engine_of(args, device), "strict": args.strict,
            "exact": getattr(args, "exact", False),
            "cases": [(i, c.args) for i, c in cases],
            "visible": [str(submission.parent), *([args.device_code] if args.device_code else [])]}


def refused_rows(submission: Path, stage: str, cases, args, device: DeviceInfo, message: str) -> list[dict]:
    """The failed rows of a stage the bot would not run."""
    job = job_of(submission, stage, cases, args, device)
    return [dict(judge.case_row(index, case, job, False, message), message=message) for index, case in cases]


def engine_of(args, device: DeviceInfo) -> str:
    """What runs the submission's kernels: the GPU itself, or the chosen CPU engine."""
    return "gpu" if device.is_gpu else args.engine


class UsageError(Exception):
    """Arguments that cannot run: exit status 2 with the message."""


def resolve(args) -> tuple[DeviceInfo, str, list[Path]]:
    """The device, the mode and the submission files the arguments ask for."""
    try:
        device = detect(args.device)
        timing.method(args.method, device)
    except (RuntimeError, ValueError) as exc:
        raise UsageError(str(exc)) from None
    predicted = args.method == timing.PREDICTED
    if getattr(args, "exact", False) and not predicted:
        raise UsageError(f"--exact is how --method {timing.PREDICTED} simulates; it means nothing to --method {args.method}")
    args.engine = args.engine or ("isa" if predicted else engines.DEFAULT)
    if predicted and args.engine != "isa":
        raise UsageError("the predicted method times the compiled machine code on the ISA engine: use --engine isa "
                         "(the default with --method predicted)")
    mode = args.mode or default_mode(device, predicted)
    if args.mode is None and not device.is_gpu and not predicted and not args.preflight_only:
        print("note: no GPU found, so running the test mode on the CPU (CPU timings mean nothing "
              "for an MI300X kernel); name a mode to time anyway", file=sys.stderr)
    if mode in ("benchmark", "leaderboard", "ranked") and not device.is_gpu and not predicted and not args.preflight_only:
        print(f"note: {mode} on the CPU times the emulator, which says nothing about an MI300X; "
              f"add --method predicted for the predicted MI300X time", file=sys.stderr)
    submissions = [Path(p) for p in (args.submission or [REPO / "submission.py"])]
    for path in submissions:
        if path.is_dir():
            raise UsageError(f"submission {path} is a folder: give the .py file that defines custom_kernel(data); "
                             f"{batch_hint(path)}")
        if not path.is_file():
            raise UsageError(f"submission {path} does not exist")
    if args.device_code:
        use_device_code(args.device_code, device, args.engine)
    return device, mode, submissions


def default_mode(device: DeviceInfo, predicted: bool) -> str:
    """The mode run when none is named: ranked on a GPU, the predicted benchmark with
    --method predicted, else the test mode."""
    return "ranked" if device.is_gpu else "benchmark" if predicted else "test"


def use_device_code(folder: str, device: DeviceInfo, engine: str) -> None:
    """--device-code: the CPU engine runs another compiler's code objects from `folder`."""
    if device.is_gpu:
        raise UsageError(f"--device-code runs code objects on the ISA engine; on {device.name} the submission is "
                         "built and run by the GPU's own toolchain")
    if Path(folder).is_file():
        raise UsageError(f"--device-code {folder}: a file; give the folder that holds <module>.co, as `python -m "
                         "engines.isa.device_code export` lays it out")
    if not Path(folder).is_dir():
        raise UsageError(f"--device-code {folder}: no such folder")
    try:
        engines.set_device_code(engine, folder)
    except ValueError as exc:
        raise UsageError(str(exc)) from None


def plans(mode: str, args, parser_error) -> tuple[list, int | None, list]:
    """(the mode's stages with their cases, the secret seed, the secret-seed run's stages).
    ranked runs the published seeds, then the bot's secret-seed run of the same stages;
    the other modes pair their seeds with --secret-seed when it is given."""
    if mode != "ranked":
        return [(stage, select_cases(stage, args, parser_error, args.secret_seed)) for stage in STAGES[mode]], None, []
    secret = args.secret_seed if args.secret_seed is not None else secrets.randbelow(SECRET_SEEDS)
    return ([(stage, select_cases(stage, args, parser_error, None)) for stage in STAGES[mode]], secret,
            [(stage, select_cases(stage, args, parser_error, secret)) for stage in STAGES[mode]])


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    named = next((word for word in argv if word in STAGES), None)
    if named and {"-h", "--help"} & set(argv):
        make_parser(named).print_help()
        return 0
    parser = make_parser()
    args = parser.parse_args(argv)
    if args.list:
        for kind in ("tests", "benchmarks"):
            for i, case in enumerate(contract.cases(kind)):
                print(f"{kind[:-1]} {i:2d}: {case.spec}")
        return 0
    try:
        device, mode, submissions = resolve(args)
    except UsageError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    if args.preflight_only:
        return run_preflight(submissions, mode, args.popcorn)
    limit_s = args.stage_limit or (contract.load()["stage_limit_s"] if device.is_gpu else CPU_STAGE_LIMIT_S)
    plan, secret, secret_plan = plans(mode, args, parser.error)
    try:
        clock.library()  # NOTE: built here: a stage's build folder is read-only
    except clock.ClockUnavailable as exc:
        print(f"error: the harness's compiled clock cannot be built: {exc}", file=sys.stderr)
        return 2
    box = sandbox.probe()
    print(f"device: {device.name} ({device.arch}), torch {device.torch}; mode {mode}; "
          f"timing method {args.method}; engine {engine_of(args, device)}; stage limit {limit_s:.0f} s; "
          f"sandbox {box.description}", file=sys.stderr)
    if not box.available:
        print("note: the stages run without a sandbox, so a submission can reach this machine as you can; "
              "the report records it", file=sys.stderr)
    rows: list[dict] = []
    secret_rows: list[dict] = []
    refused: dict[Path, str] = {}
    started = time.monotonic()
    for path in submissions:
        run = Run(path, mode, args, device, limit_s, box)
        rows += run.stages(plan, None if mode == "ranked" else args.secret_seed)
        if run.refusal:
            refused[path] = run.refusal.message
        elif secret_plan:
            own = run.stages(secret_plan, secret, secret=True)
            print_secret_run(path, device.name, secret, args.secret_seed is None, own)
            secret_rows += own
    csv_path = Path(args.csv) if args.csv else default_report(submissions, mode)
    every = rows + secret_rows
    report.write_rows(csv_path, [{k: v for k, v in r.items() if k != "message"} for r in every])
    print_verdicts(rows, submissions, secret_rows, device.name, refused)
    print(f"report: {csv_path}   wall time: {time.monotonic() - started:.1f} s")
    return 0 if every and all(r["passed"] for r in every) else 1


def run_preflight(submissions: list[Path], mode: str, popcorn: bool) -> int:
    """--preflight-only: the bot's verdict on each file for `mode`; 0 when it accepts all."""
    print(f"pre-flight for {mode} (what the bot checks before it runs anything)")
    accepted = True
    for path in submissions:
        verdict = preflight.check(path)
        refusal = verdict.refusal(mode)
        print(f"  {path.name}: {verdict.summary(mode)}")
        if refusal and popcorn:
            print(f"  {refusal.popcorn()}")
        accepted &= refusal is None
    return 0 if accepted else 1


def default_report(submissions: list[Path], mode: str) -> Path:
    """eval/reports/run-<time>-<mode>-<first file's stem>[-and-<n>-more].csv."""
    more = f"-and-{len(submissions) - 1}-more" if len(submissions) > 1 else ""
    return report.REPORTS_DIR / f"run-{datetime.now():%Y%m%d-%H%M%S}-{mode}-{submissions[0].stem}{more}.csv"


def builds_extensions(path: Path) -> bool:
    """Whether the file may build a compiled extension (it names torch's builder): only then
    does the build step run. One that builds without naming it finds the build folder
    read-only in its stages and fails there, with the reason."""
    text = path.read_text(errors="replace")
    return "cpp_extension" in text or "load_inline" in text


class Run:
    """One submission file's stages. The pre-flight comes first: a file it refuses gets failed
    rows carrying the bot's message and nothing runs (unless --skip-preflight); otherwise
    each stage runs in its own worker."""

    def __init__(self, path: Path, mode: str, args, device: DeviceInfo, limit_s: float, box: sandbox.Sandbox):
        self.path, self.args, self.device, self.limit_s, self.box = path, args, device, limit_s, box
        self.import_failure: str | None = None  # the build step's, once it ran
        verdict = preflight.check(path)
        refusal = verdict.refusal(mode)
        print(f"\n{path.name} · pre-flight: {verdict.summary(mode)}"
              + (" (running anyway: --skip-preflight)" if refusal and args.skip_preflight else ""))
        if refusal and args.popcorn:
            print(refusal.popcorn())
        self.refusal = None if args.skip_preflight else refusal
        self.identity = {"submission": path.stem, "submission_hash": report.file_hash(path),
                         "git_sha": report.git_sha(), "kernelguard": verdict.classification,
                         "sandbox": box.description, **device.columns()}

    def stages(self, plan, secret_seed: int | None, secret: bool = False) -> list[dict]:
        """Rows of every stage of `plan`. The secret-seed run prints no table (the bot shows
        only its short report) and, as the bot's, stops at its first failed stage."""
        every = []
        for stage, cases in plan:
            if self.refusal:
                rows, popcorn, texts = refused_rows(self.path, stage, cases, self.args, self.device,
                                                    self.refusal.message), [], []
            else:
                rows, popcorn, texts = self.run_stage(stage, cases)
            rows = [{**dict.fromkeys(report.COLUMNS), **row, **self.identity, "secret_seed": secret_seed}
                    for row in rows]
            every.extend(rows)
            if secret:
                if not all(r["passed"] for r in rows):
                    break
            elif not self.refusal:
                print_stage(self.path, stage, rows, texts)
                if self.args.popcorn:
                    print("\n".join(popcorn) + "\n")
        return every

    def run_stage(self, name: str, cases) -> tuple[list[dict], list[str], list[str]]:
        """One stage in its sandboxed worker, after the build step (once per file)."""
        job = job_of(self.path, name, cases, self.args, self.device)
        label = f"{self.path.name} {name}"
        if self.import_failure is None:
            self.import_failure = (judge.build(job, self.device, self.limit_s, self.box, f"{self.path.name} build")
                                   if builds_extensions(self.path) else "")
        if self.import_failure:
            message = self.import_failure
            rows = [dict(judge.case_row(index, case, job, False, message.splitlines()[0]), message=message)
                    for index, case in cases]
            for row in rows:
                judge.print_case(label, row)
            return rows, [], []
        return judge.run(job, cases, self.device, self.limit_s, self.box, label)


def interruptible_main() -> int:
    """main(), with Ctrl-C ending the run with a line instead of a traceback (status 130)."""
    try:
        return main()
    except KeyboardInterrupt:
        print("\ninterrupted: the run stopped; its stages' workers are gone and no report was written",
              file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(interruptible_main())
