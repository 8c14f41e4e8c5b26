"""The parent's side of a stage: start the worker in the sandbox, judge what it sends, write
the rows.

The worker (eval/worker.py) runs the submission, so everything it says is a claim. Here:
  - every message is at most the size the stage's largest case needs and on the channel's
    schema (eval/channel.py); one that is not fails the stage with the reason, and the run
    goes on with the next;
  - every output is checked here (eval/verdict.py), the inputs it came with too;
  - a row's statistics are computed here from the durations the worker measured, and only
    after the durations are shown possible: the published stop rule ends the loop exactly
    where they end, and they fit in the time this process saw the case take;
  - the evaluator's key: value lines are written here from the rows;
  - what the worker prints is passed on up to `OUTPUT_CAP` bytes; past it the stage fails.
"""
from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from datetime import datetime
from multiprocessing.connection import Connection
from pathlib import Path

from eval import channel, engines, report, roofline, sandbox, timing
from eval.device import DeviceInfo
from eval.progress import Bar
from eval.summary import status_of
from eval.verdict import Checker
from reference import contract
from reference.check import split_message
from reference.contract import Case
from toolchain import diagnostics

OUTPUT_CAP = 16 * 2 ** 20  # bytes a stage may print
MAX_LINES = 12              # a failure message's lines shown whole; past them it goes to a log
LONG_LINE = 2000            # characters of one line shown before it is cut
MESSAGE_SLACK = 2 ** 20     # a message's bytes beyond the tensors it carries
_SPAN_SLACK_NS = 50e6       # the worker's durations may exceed the parent's view of a case by this
HANG_S = 120                # a CPU engine stops a launch that makes no progress this long, naming where it is
# ...in the build pass, whose call only has to reach the builds it triggers (what it returns is not
# looked at): a kernel that never ends is stopped there this soon, and named by the stage
BUILD_HANG_S = 10
_LAST_WORDS_S = 5           # ...and one still running this long before the stage's limit, so the worker can say so


def case_row(index: int | None, case: Case, job: dict, passed: bool, error: str) -> dict:
    """The columns of a case's report row that say which case, stage and verdict it is."""
    return {"case": "" if index is None else index, **case.args, "mode": job["mode"],
            "method": timed_method(job), "engine": job["engine"], "passed": int(passed), "error": error}


def timed_method(job: dict) -> str:
    """The timing method a stage's rows record: empty for the untimed modes, but for any stage
    that checks no output (a predicted profile: its launches run one CU's workgroups)."""
    timed = job["mode"] in ("benchmark", "leaderboard") or not timing.checked(job["method"], job["mode"])
    return job["method"] if timed else ""


def fit_message(message: str, log_name: str) -> str:
    """A failure message a terminal shows whole: its first MAX_LINES lines, none cut below
    LONG_LINE characters (a fault's source line is at a long line's end). When that leaves
    anything out, the full text goes to a log file of its own, whose path ends the message."""
    lines = split_message(message)
    fitted = [diagnostics.short(line, LONG_LINE) for line in lines[:MAX_LINES]]
    if fitted == lines:
        return message
    stamp = datetime.now().strftime("%Y%m%d-%H%M%S-%f")
    log = diagnostics.write_log(report.REPORTS_DIR / "failures" / f"{log_name}-{stamp}.log", message + "\n")
    return "\n".join(fitted + [f"full message: {log}"])


def max_message_bytes(cases: list[Case]) -> int:
    """The largest message a case can need: its check's tensors and some slack."""
    return max((channel.check_bytes(case, channel.WIDEST_OUTPUT_BYTES) for case in cases), default=0) + MESSAGE_SLACK


def timing_problem(durations: list[float], rule: timing.StopRule, span_ns: float, predicted: bool) -> str:
    """Why durations the worker claims cannot be what the published loop measured, or ''."""
    if not durations:
        return "a passing timed case with no durations"
    if not all(0 < d < float("inf") for d in durations):
        return "durations that are not positive, finite times"
    if predicted:
        return "" if len(durations) == 1 else "a predicted case with more than one time"
    if len(durations) > rule.max_repeats:
        return f"{len(durations)} timed calls, more than the loop's {rule.max_repeats}"
    if sum(durations) > span_ns + _SPAN_SLACK_NS:
        return (f"timed calls adding up to {sum(durations) / 1e6:.1f} ms in a case the harness saw take "
                f"{span_ns / 1e6:.1f} ms")
    for runs in range(len(durations)):
        if rule.done(durations[:runs], 0.0):
            return f"{len(durations)} timed calls where the stop rule ends the loop after {runs}"
    if not rule.done(durations, 0.0) and span_ns / 1e9 < rule.wall_stop_s:
        return (f"a loop stopped after {len(durations)} calls and {span_ns / 1e9:.1f} s, before the stop rule "
                f"ends it")
    return ""


@dataclass
class Listener:
    """What the parent keeps while a stage runs."""
    stage: str
    cases: list[tuple[int | None, Case]]
    job: dict
    checker: Checker
    rule: timing.StopRule | None
    device: DeviceInfo | None = None  # what the timed calls ran on; None for the build pass
    rows: dict[int, dict] = field(default_factory=dict)
    stats: dict[int, timing.Stats] = field(default_factory=dict)  # of the timed rows
    texts: list[str] = field(default_factory=list)
    failed: str = ""  # the build pass's import failure
    doing: str = ""   # the worker's last progress line: the case it is on
    bar: Bar = field(default_factory=Bar)  # how far that case is, on a terminal
    last_row_at: float = field(default_factory=time.monotonic)

    def row(self, message: dict) -> dict:
        slot = message["slot"]
        if not 0 <= slot < len(self.cases):
            raise channel.ProtocolError(f"a row for case slot {slot}, which the stage does not have")
        if slot in self.rows:
            raise channel.ProtocolError(f"a second row for case slot {slot}")
        now = time.monotonic()
        span_ns, self.last_row_at = (now - self.last_row_at) * 1e9, now
        index, case = self.cases[slot]
        durations = message["durations"]
        passed, problem, max_error = self.checker.settle(slot, message["passed"], len(durations))
        text = problem or message["message"]
        if passed and self.rule is not None:
            problem = timing_problem(durations, self.rule, span_ns, self.checker.predicted)
            if problem:
                passed, text = False, f"the worker's timing is not the harness's loop: {problem} (tampering?)"
        if not passed:
            text = fit_message(text, f"{Path(self.job['submission']).stem}-{self.stage}-{slot}")
        lines = split_message(text)
        row = dict(case_row(index, case, self.job, passed, "" if passed or not lines else lines[0]),
                   message=text, max_error=max_error)
        if passed and self.rule is not None:
            s = self.stats[slot] = timing.stats(durations)
            row.update(runs=s.runs, mean_us=s.mean / 1e3, std_us=s.std / 1e3, err_us=s.err / 1e3,
                       best_us=s.best / 1e3, worst_us=s.worst / 1e3,
                       tflops=2 * case.m * case.n * case.k / s.mean / 1e3)
            self.speed_of_light(slot, row)
        self.rows[slot] = row
        return row

    def label(self, slot: int) -> str:
        """A case as the stage's table names it: its published index, or MxNxK."""
        index, case = self.cases[slot]
        return f"{case.m}x{case.n}x{case.k}" if index is None else str(index)

    def speed_of_light(self, slot: int, row: dict) -> None:
        """A timed row below its device's floor (eval/roofline.py): failed in leaderboard mode on
        a GPU, noted otherwise."""
        predicted = self.checker.predicted
        if self.device is None or not (predicted or self.device.is_gpu):
            return
        problem = roofline.below_floor(roofline.MI300X if predicted else self.device.name,
                                       row["m"], row["n"], row["k"], row["mean_us"])
        if not problem:
            return
        if predicted:
            self.texts.append(f"note, case {self.label(slot)}: the predicted {problem}: an error of the "
                              f"timing model, not a time to trust")
        elif self.stage == "leaderboard":
            del self.stats[slot]
            text = f"{problem}: not a result (every timed call had a fresh input)"
            row.update(passed=0, error=text, message=text, runs=None, mean_us=None, std_us=None, err_us=None,
                       best_us=None, worst_us=None, tflops=None)
        else:
            self.texts.append(f"note, case {self.label(slot)}: {problem}; the {self.stage} loop reuses one "
                              f"input object, so only work cached per input can explain it")

    def fail_unreported(self, failure: str) -> None:
        for slot, (index, case) in enumerate(self.cases):
            if slot not in self.rows:
                self.rows[slot] = dict(case_row(index, case, self.job, False, failure), message=failure)

    def popcorn(self) -> list[str]:
        """The evaluator's key: value lines of the stage, from the settled rows."""
        prefix = "test" if self.stage == "test" else "benchmark"
        lines = [f"{prefix}-count: {len(self.cases)}"]
        for slot, (_, case) in enumerate(self.cases):
            row = self.rows[slot]
            key = f"{prefix}.{slot}"
            lines.append(f"{key}.spec: {case.spec}")
            message = row["message"].replace("\n", "\\n")
            if not row["passed"]:
                lines += [f"{key}.status: fail", f"{key}.error: {message}"]
            elif slot not in self.stats:
                lines += [f"{key}.status: pass", f"{key}.message: {message}"]
            else:
                lines += [f"{key}.{name}: {getattr(self.stats[slot], name)}"
                          for name in ("runs", "mean", "std", "err", "best", "worst")]
        passed = all(self.rows[slot]["passed"] for slot in range(len(self.cases)))
        return lines + [f"check: {'pass' if passed else 'fail'}"]


def engine_limits(limit_s: float, build: bool) -> dict[str, str]:
    """What the CPU engines read to stop a launch themselves, naming its kernel and source line,
    before the parent has to kill a stage that says nothing: a launch making no progress for
    HANG_S (BUILD_HANG_S in the build pass), or one still running when the stage's limit is
    _LAST_WORDS_S away."""
    last_words = min(_LAST_WORDS_S, limit_s / 4)
    return {"WORKBENCH_HANG_S": str(BUILD_HANG_S if build else HANG_S),
            "WORKBENCH_DEADLINE": f"{time.time() + limit_s - last_words:.3f}"}


class Worker:
    """A worker process in the sandbox, its socket and its printed output."""

    def __init__(self, box: sandbox.Sandbox, job: dict, device: DeviceInfo, build: bool, limit_s: float):
        parent_end, child_end = socket.socketpair()
        argv = [sys.executable, "-m", "eval.worker", str(child_end.fileno())]
        self.box = box
        self.shared_before = sandbox.shared_memory() if device.is_gpu else None
        visible = tuple(Path(folder).resolve() for folder in job["visible"])
        submission = Path(job["submission"]).resolve()
        self.proc = subprocess.Popen(box.wrap(argv, gpu=device.is_gpu, build=build, submission=submission,
                                              visible=visible),
                                     pass_fds=[child_end.fileno()],
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL,
                                     env=dict(sandbox.environment(submission), **engine_limits(limit_s, build)), cwd=sandbox.REPO,
                                     start_new_session=True)
        child_end.close()
        self.conn = Connection(parent_end.detach())
        self.printed = 0
        self.ending = False  # set when the parent stops the worker: what it prints then is not shown
        self.pumps = [threading.Thread(target=self._pump, args=(pipe,), daemon=True)
                      for pipe in (self.proc.stdout, self.proc.stderr)]
        for pump in self.pumps:
            pump.start()
        self.conn.send(job)

    def _pump(self, pipe) -> None:
        """Pass what the worker prints on to this process's stderr, up to OUTPUT_CAP bytes."""
        for chunk in iter(lambda: pipe.read1(65536), b""):
            self.printed += len(chunk)
            if self.printed <= OUTPUT_CAP and not self.ending:
                sys.stderr.write(chunk.decode(errors="replace"))
                sys.stderr.flush()

    @property
    def over_output_cap(self) -> bool:
        return self.printed > OUTPUT_CAP

    def death(self, stage: str) -> str:
        code = self.proc.wait(5)
        # NOTE: bubblewrap exits 128+N when the command died from signal N.
        signum = -code if code < 0 else code - 128 if self.box.available and code > 128 else 0
        if signum:
            name = signal.Signals(signum).name if signum in signal.Signals._value2member_map_ else f"signal {signum}"
            return (f"the {stage} worker process died from {name} (signal {signum}), e.g. a crash "
                    f"inside a compiled extension or kernel; the cases it had not finished fail")
        return f"the {stage} worker process exited unexpectedly with status {code}"

    def end(self, quiet: bool = False) -> None:
        """Kill the worker and, with the sandbox, everything it started; without one, its
        process group."""
        self.ending = quiet
        if self.proc.poll() is None:
            self.proc.kill()
        if not self.box.available:
            try:
                os.killpg(self.proc.pid, signal.SIGKILL)
            except OSError:
                pass
        self.proc.wait()
        for pump in self.pumps:
            pump.join(5)
        self.conn.close()
        if self.shared_before is not None:
            sandbox.remove_shared_memory_left(self.shared_before)


def run(job: dict, cases: list[tuple[int | None, Case]], device: DeviceInfo, limit_s: float,
        box: sandbox.Sandbox, label: str) -> tuple[list[dict], list[str], list[str]]:
    """Run one stage (`job["mode"]`) in a sandboxed worker; returns (rows, the evaluator's
    key: value lines, texts the worker printed for the stage's table). `label` prefixes the
    progress lines."""
    stage = job["mode"]
    predicted = not timing.checked(job["method"], stage)
    rule = stop_rule(stage, predicted)
    checker = Checker(stage, [case for _, case in cases], device.kind, predicted, strict=job.get("strict", False))
    listener = Listener(stage, cases, job, checker, rule, device)
    failure = listen(Worker(box, job, device, build=False, limit_s=limit_s), listener, limit_s, max_message_bytes(
        [case for _, case in cases]), label)
    if failure:
        listener.fail_unreported(failure)
        print(f"  [{label}] FAILED: {failure}", file=sys.stderr, flush=True)
    listener.fail_unreported(f"the {stage} worker ended the stage before this case had a result")
    rows = [listener.rows[slot] for slot in range(len(cases))]
    return rows, listener.popcorn(), listener.texts + strict_notes(listener)


def stop_rule(stage: str, predicted: bool) -> timing.StopRule | None:
    """The published stop rule a stage's timed rows are held to; None for a stage that times
    nothing. A predicted profile predicts the benchmark's call, and its rows are held as those."""
    timed_as = "benchmark" if predicted and stage == "profile" else stage
    if timed_as not in ("benchmark", "leaderboard"):
        return None
    return timing.StopRule.from_contract(contract.load()["timing"], contract.load()["modes"][timed_as]["case_budget_s"])


def strict_notes(listener: Listener) -> list[str]:
    """One line for each thing the strict rules found in the passing cases, with the cases."""
    where: dict[str, list[str]] = {}
    for slot in range(len(listener.cases)):
        checks = listener.checker.seen.get(slot)
        if checks is not None and listener.rows[slot]["passed"]:
            for note in checks.notes:
                where.setdefault(note, []).append(listener.label(slot))
    return [f"note, case{'s' if len(cases) > 1 else ''} {', '.join(cases)}: {note}" for note, cases in where.items()]


def build(job: dict, device: DeviceInfo, limit_s: float, box: sandbox.Sandbox, label: str) -> str:
    """The harness's build step: the submission imported and called once on a throwaway input
    of the smallest published case, in a box that may write the build caches. Returns why the
    import failed, or ''. (A pass that hangs or dies is not a verdict: the stages, importing
    again, report what happens.)"""
    if job["engine"] in engines.names():
        engines.prepare(job["engine"])  # what all builds share: read-only in the box
    smallest = contract.cases("tests")[0]
    job = dict(job, mode="build", cases=[(None, smallest.args)])
    listener = Listener("build", [], job, Checker("build", [], device.kind), None)
    listen(Worker(box, job, device, build=True, limit_s=limit_s), listener, limit_s, MESSAGE_SLACK, label)
    return fit_message(listener.failed, f"{Path(job['submission']).stem}-build") if listener.failed else ""


def listen(worker: Worker, listener: Listener, limit_s: float, max_bytes: int, label: str) -> str:
    """Take the worker's messages until it is done; returns why the stage failed, or ''. A
    worker the harness stops is stopped quietly (what it prints as it dies is not shown); one
    that died on its own keeps its last words."""
    failure = None
    try:
        failure = _listen(worker, listener, limit_s, max_bytes, label)
        return failure
    finally:
        died = failure is not None and failure.startswith(f"the {listener.stage} worker process")
        worker.end(quiet=bool(failure) and not died)


def _listen(worker: Worker, listener: Listener, limit_s: float, max_bytes: int, label: str) -> str:
    stage = listener.stage
    deadline = time.monotonic() + limit_s
    while True:
        left = deadline - time.monotonic()
        if left <= 0:
            listener.bar.close()
            doing = f" while on {listener.doing}" if listener.doing else ""
            return (f"the {stage} stage passed its {limit_s:.0f} s limit{doing} and its worker was killed "
                    f"(the leaderboard kills a stage at {contract.load()['stage_limit_s']} s)")
        if worker.over_output_cap:
            return f"the {stage} worker printed more than {OUTPUT_CAP // 2 ** 20} MiB and was stopped"
        if not worker.conn.poll(min(left, 0.5)):
            if worker.proc.poll() is not None and not worker.conn.poll(0):
                return worker.death(stage)
            continue
        try:
            message = channel.receive(worker.conn, max_bytes)
        except EOFError:
            return worker.death(stage)
        except (channel.ProtocolError, OSError) as exc:
            return f"the {stage} worker sent {exc}; the harness stopped it"
        try:
            if handle(message, worker, listener, label):
                return ""
        except channel.ProtocolError as exc:
            return f"the {stage} worker sent {exc}; the harness stopped it"


def handle(message: dict, worker: Worker, listener: Listener, label: str) -> bool:
    """Act on one message; True when the worker is done."""
    kind = message["kind"]
    if kind == "advance":
        listener.bar.show(message["fraction"])
        return False
    listener.bar.close()
    if kind == "done":
        return True
    if kind == "progress":
        listener.doing = message["text"]
        print(f"  [{label}] {listener.doing}", file=sys.stderr, flush=True)
        listener.bar.begin(f"  [{label}] {listener.doing}")
    elif kind == "text":
        listener.texts.append(message["text"])
    elif kind == "failed":
        listener.failed = message["message"]
    elif kind == "check":
        try:
            output, strides = channel.unpack_tensor(message["output"])
            inputs = [channel.unpack_tensor(packed)[0] for packed in message["inputs"]]
            ok, text = listener.checker.check(message["slot"], output, strides, inputs)
        except Exception as exc:
            ok, text = False, f"the output could not be checked: {type(exc).__name__}: {exc}"
        worker.conn.send({"kind": "verdict", "ok": ok, "message": text})
    elif kind == "row":
        if listener.stage == "build":
            raise channel.ProtocolError("a row from the build pass")
        print_case(label, listener.row(message))
    return False


def print_case(label: str, row: dict) -> None:
    timing_text = f" mean {row['mean_us']:.1f} us over {row['runs']} runs" if row.get("mean_us") else ""
    detail = "" if row["passed"] else f": {row['error']}"
    print(f"  [{label}] m={row['m']} n={row['n']} k={row['k']} {status_of(row)}{timing_text}{detail}",
          file=sys.stderr, flush=True)
