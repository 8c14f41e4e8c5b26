"""One stage (mode) of a run, inside its own spawned process, as the official runner does.

The parent (eval/run.py) starts `main` in a fresh process per stage and listens on a pipe.
Messages are dicts (eval/channel.py): {"kind": "progress", "text"}, {"kind": "row", "slot", "row"},
{"kind": "popcorn", "key", "value"}, {"kind": "text", "text"}, {"kind": "check", "slot", "output"}
(answered by the parent with {"kind": "verdict", "ok", "message"}) and finally {"kind": "done"}.
The verdict is the parent's (eval/verdict.py): this process runs the submission, so nothing
here is trusted to judge it. A submission that fails to import or raises turns into failed
rows, never a traceback.

The call sequence is the published evaluator's, mode by mode:
  test         custom_kernel(clone of data); checked against data
  benchmark    custom_kernel(data) once, checked against a clone; then the timed repeats
               on that same data object (so one-time work per input object is not timed)
  leaderboard  the same untimed checked call, then every timed repeat on a fresh input
               (seed += 13), each checked
Deliberate additions (README, "Where we differ from the published evaluator"): inputs are
compared before and after every checked call, and the harness's clock, synchronize and
checker must be left alone (eval/integrity.py).
"""
from __future__ import annotations

import contextlib
import importlib.util
import sys
import traceback
from pathlib import Path

import torch

from eval import channel, engines, integrity, report, timing
from eval.device import DeviceInfo, detect, synchronize
from eval.verdict import WARMUP_SLOT
from reference import RUNNER_ENV, contract
from reference.check import split_message
from reference.contract import Case
from toolchain import diagnostics, simulated_host
from reference.task import clone_input, generate_input

INPUT_NAMES = ("a", "b", "a_scale", "b_scale")
# Frames that are not the submission's: the harness, the engines, the toolchain, torch.
_NOT_THE_SUBMISSION = tuple(str(Path(__file__).resolve().parents[1] / part)
                            for part in ("eval", "emulator", "isa_engine", "toolchain", "reference"))
_NOT_THE_SUBMISSION += (str(Path(torch.__file__).parent),)
MAX_LINES = 12


class _RecheckFailed(Exception):
    """A leaderboard-mode repeat whose output failed the check: ends the case's loop."""


class SubmissionError(Exception):
    """A failure of the submission itself: reported as one paragraph, no traceback."""


def main(conn, job: dict) -> None:
    """Entry point of the spawned worker. `job` comes from eval/run.py (`run_stage`)."""
    stage = Stage(conn, job)
    try:
        stage.run()
    except BaseException as exc:  # the parent must hear about anything, even SystemExit
        stage.fail_remaining(_describe(exc))
        stage.popcorn("check", "fail")
    conn.send({"kind": "done"})


def _describe(exc: BaseException) -> str:
    """The exception, at the submission's own innermost frame (the project's packages and torch
    are skipped: a build error points at the load_inline call), its lines kept."""
    if isinstance(exc, (SubmissionError, integrity.TamperError, timing.ClockMismatch)):
        return str(exc)
    where = ""
    for frame in reversed(traceback.extract_tb(exc.__traceback__)):
        if not frame.filename.startswith(_NOT_THE_SUBMISSION):
            where = f" (at {Path(frame.filename).name}:{frame.lineno})"
            break
    lines = [" ".join(line.split()) for line in str(exc).splitlines() if line.strip()] or [""]
    return "\n".join([f"{type(exc).__name__}{where}: {lines[0]}", *lines[1:]])


def fit_message(message: str, log_name: str) -> str:
    """A failure message a terminal shows whole: at most MAX_LINES lines of at most MAX_LINE
    characters; when that cuts anything, the full text goes to a log file whose path ends it."""
    lines = split_message(message)
    fitted = [diagnostics.short(line) for line in lines[:MAX_LINES]]
    if fitted == lines:
        return message
    log = diagnostics.write_log(report.REPORTS_DIR / "failures" / f"{log_name}.log", message + "\n")
    return "\n".join(fitted + [f"full message: {log}"])


def _hip_load_inline_guard(original, device: DeviceInfo):
    """Wrap load_inline so a gfx942 HIP build on a machine that cannot run it says why."""
    def load_inline(*args, **kwargs):
        flags = " ".join(kwargs.get("extra_cuda_cflags") or ())
        if "--offload-arch=gfx" in flags:
            raise SubmissionError(
                f"this submission builds a HIP kernel for gfx942 with load_inline, which cannot run "
                f"on {device.name} ({device.arch}); run it with --device cpu to use the project's "
                f"emulator, or on an MI300X")
        return original(*args, **kwargs)
    return load_inline


def _install_load_inline(device: DeviceInfo, engine: str, strict: bool) -> None:
    """Route torch's load_inline and load to what this device can run, before the submission
    imports them."""
    import torch.utils.cpp_extension as cpp_extension

    if device.is_rocm:
        return
    if device.is_gpu:
        cpp_extension.load_inline = _hip_load_inline_guard(cpp_extension.load_inline, device)
        return
    with contextlib.suppress(Exception):  # a missing engine is reported at the first HIP build
        # NOTE: imported before the replacement below, so the engine binds torch's own builders.
        engines.entry_point(engine)
        engines.set_strict(engine, strict)
    for function in ("load_inline", "load"):
        setattr(cpp_extension, function, _engine_build(engine, function))


def _engine_build(engine: str, function: str):
    """cpp_extension.<function> on the chosen CPU engine, imported at the first HIP build only
    (pure-PyTorch submissions never need an engine)."""
    def build(*args, **kwargs):
        try:
            drop_in = engines.entry_point(engine, function)
        except Exception as exc:
            raise SubmissionError(
                f"this submission builds a HIP kernel with cpp_extension.{function}; with no GPU it "
                f"needs the project's {engine} engine, which cannot do that here ({exc})") from exc
        return drop_in(*args, **kwargs)
    return build


def load_submission(path: str, device: DeviceInfo, engine: str, strict: bool = False):
    """Import a submission file as the runner would; returns (custom_kernel, the snapshot
    of what the submission must leave alone, taken just before its import)."""
    if not device.is_gpu:
        simulated_host.install()  # after the harness detected its device, before the submission asks
    _install_load_inline(device, engine, strict)
    path = Path(path)
    # task, utils (and our reference package as `reference`): the modules the runner puts
    # beside submission.py; first on sys.path, as the runner's copies win over a user's own.
    sys.path[:0] = [str(RUNNER_ENV), str(path.parent)]
    snapshot = integrity.Snapshot()
    spec = importlib.util.spec_from_file_location("submission", path)
    module = importlib.util.module_from_spec(spec)
    sys.modules["submission"] = module
    try:
        spec.loader.exec_module(module)
    except BaseException as exc:
        raise SubmissionError(f"{path.name} failed to import: {_describe(exc)}") from exc
    snapshot.verify("while it was imported")
    kernel = getattr(module, "custom_kernel", None)
    if not callable(kernel):
        raise SubmissionError(f"{path.name} defines no callable custom_kernel(data)")
    return kernel, snapshot


def _modified_inputs(pristine, given) -> list[str]:
    """Names of the inputs the submission changed (compared bit for bit)."""
    changed = []
    for name, before, after in zip(INPUT_NAMES, pristine, given):
        as_bits = torch.uint8 if before.element_size() == 1 else torch.int32
        if not torch.equal(before.view(as_bits), after.view(as_bits)):
            changed.append(name)
    return changed


def timed_method(job: dict) -> str:
    """The timing method a stage's rows record: empty for the untimed modes, but for any stage
    that checks no output (a predicted profile: its launches run one CU's workgroups)."""
    timed = job["mode"] in ("benchmark", "leaderboard") or not timing.checked(job["method"], job["mode"])
    return job["method"] if timed else ""


def case_row(index: int | None, case: Case, job: dict, passed: bool, error: str) -> dict:
    """The columns of a case's report row that say which case, stage and verdict it is."""
    return {"case": "" if index is None else index, **case.args, "mode": job["mode"],
            "method": timed_method(job), "engine": job["engine"], "passed": int(passed),
            "error": error}


class Stage:
    """Runs one mode over its cases and streams results to the parent."""

    def __init__(self, conn, job: dict):
        self.conn, self.job = conn, job
        self.cases = [(index, Case(**args)) for index, args in job["cases"]]
        self.reported: set[int] = set()
        self.device: DeviceInfo | None = None
        self.all_passed = True

    def send(self, kind: str, **fields) -> None:
        self.conn.send({"kind": kind, **fields})

    def popcorn(self, key: str, value) -> None:
        # One line per key, as the evaluator's log: newlines inside a message are escaped.
        self.send("popcorn", key=key, value=str(value).replace("\n", "\\n"))

    def run(self) -> None:
        self.device = detect(self.job["device"])
        mode = self.job["mode"]
        self.popcorn(f"{'test' if mode == 'test' else 'benchmark'}-count", len(self.cases))
        # NOTE: no seeding here: the runner's spawned workers start with torch's default
        # (unseeded) generators; only the inputs are seeded, by generate_input.
        self.kernel, self.snapshot = load_submission(self.job["submission"], self.device, self.job["engine"],
                                                      self.job.get("strict", False))
        {"test": self.run_tests, "benchmark": self.run_timed, "leaderboard": self.run_timed,
         "profile": self.run_profile}[mode]()
        self.popcorn("check", "pass" if self.all_passed else "fail")

    # ---- results -------------------------------------------------------------------
    def report(self, slot: int, case: Case, passed: bool, message: str, s=None) -> None:
        prefix = f"{'test' if self.job['mode'] == 'test' else 'benchmark'}.{slot}"
        if not passed:
            message = fit_message(message, f"{Path(self.job['submission']).stem}-{self.job['mode']}-{slot}")
        lines = split_message(message)
        row = case_row(self.cases[slot][0], case, self.job, passed,
                       "" if passed or not lines else lines[0])
        if s is not None:
            row.update(runs=s.runs, mean_us=s.mean / 1e3, std_us=s.std / 1e3, err_us=s.err / 1e3,
                       best_us=s.best / 1e3, worst_us=s.worst / 1e3,
                       tflops=2 * case.m * case.n * case.k / s.mean / 1e3)
        self.send("row", slot=slot, row=row, message=message)
        self.reported.add(slot)
        self.all_passed &= passed
        self.popcorn(f"{prefix}.spec", case.spec)
        if not passed:
            self.popcorn(f"{prefix}.status", "fail")
            self.popcorn(f"{prefix}.error", message)
        elif s is None:
            self.popcorn(f"{prefix}.status", "pass")
            self.popcorn(f"{prefix}.message", message)
        else:
            for key in ("runs", "mean", "std", "err", "best", "worst"):
                self.popcorn(f"{prefix}.{key}", getattr(s, key))

    def fail_remaining(self, message: str) -> None:
        for slot, (_, case) in enumerate(self.cases):
            if slot not in self.reported:
                self.report(slot, case, False, message)

    # ---- checked calls -------------------------------------------------------------
    def judged(self, slot: int, output, pristine, given) -> tuple[bool, str]:
        """The parent's verdict on `output`, then ours on the inputs: unchanged by the call.

        The parent regenerates the input from the case's seed, so `pristine` serves only the
        input-modification check (a deliberate addition to the published evaluator)."""
        self.snapshot.verify("during custom_kernel")
        if not isinstance(output, torch.Tensor):
            return False, f"custom_kernel returned {type(output).__name__}, expected a torch.Tensor"
        self.send("check", slot=slot, output=channel.pack_tensor(output))
        answer = channel.receive(self.conn)
        if answer.get("kind") != "verdict":
            raise RuntimeError(f"the harness expected a verdict, got {answer.get('kind')!r}")
        ok, message = answer["ok"], answer["message"]
        changed = _modified_inputs(pristine, given)
        if ok and changed:
            return False, f"custom_kernel modified its input(s) {', '.join(changed)}"
        return ok, message

    def guarded(self, slot: int, case: Case, body) -> bool | None:
        """Run body(); a raising submission fails this case only. Returns success, or None
        when the clock cross-check failed the case: that check is the harness's addition, so
        unlike a failed check it does not end a leaderboard run."""
        try:
            return body()
        except timing.ClockMismatch as exc:
            self.report(slot, case, False, str(exc))
            return None
        except (SubmissionError, integrity.TamperError) as exc:
            self.report(slot, case, False, str(exc))
        except Exception as exc:
            self.report(slot, case, False, f"custom_kernel raised {_describe(exc)}")
        return False

    def call_synchronized(self, given):
        """The test mode's published call: custom_kernel between two synchronizes."""
        synchronize(self.device)
        output = self.kernel(given)
        synchronize(self.device)
        return output

    def input_of(self, case: Case, seed: int | None = None):
        return generate_input(case.m, case.n, case.k, case.seed if seed is None else seed,
                              device=self.device.kind)

    # ---- modes ---------------------------------------------------------------------
    def run_tests(self) -> None:
        for slot, (_, case) in enumerate(self.cases):
            self.send("progress", text=f"test {slot + 1}/{len(self.cases)}: {case.spec}")

            def body(case=case, slot=slot):
                # Published: custom_kernel(clone of data) between synchronizes, checked against data.
                data = self.input_of(case)
                given = clone_input(data)
                output = self.call_synchronized(given)
                ok, message = self.judged(slot, output, data, given)
                self.report(slot, case, ok, message)
                return ok
            self.guarded(slot, case, body)

    def run_timed(self) -> None:
        mode = self.job["mode"]
        settings = contract.load()["modes"][mode]
        method = timing.method(self.job["method"], self.device)
        if method.name == timing.PREDICTED:
            return self.run_predicted()
        if self.cases:
            self.send("progress", text=f"{mode}: warm-up on {self.cases[0][1].spec}")
            try:
                self.time_case(WARMUP_SLOT, self.cases[0][1], settings["warmup_budget_s"], False, method)
            except integrity.TamperError as exc:
                return self.fail_remaining(str(exc))
            except Exception:
                pass  # each case reports what goes wrong in its own calls, clock anomalies too
        for slot, (_, case) in enumerate(self.cases):
            self.send("progress", text=f"{mode} {slot + 1}/{len(self.cases)}: {case.spec}")

            def body(case=case, slot=slot):
                ok, message, s = self.time_case(slot, case, settings["case_budget_s"], settings["recheck"], method)
                self.report(slot, case, ok, message, s if ok else None)
                return ok
            if self.guarded(slot, case, body) is False and settings["recheck"]:
                return self.fail_remaining("not run: the leaderboard run stops at the first failure")

    def time_case(self, slot: int, case: Case, budget_s: float, recheck: bool, method):
        """The published repeat loop: one untimed checked call on the very input object the
        benchmark then times, then timed repeats until the stop rule."""
        params = contract.load()["timing"]
        rule = timing.StopRule.from_contract(params, budget_s)
        data = self.input_of(case)
        check_copy = clone_input(data)
        # NOTE: published: no synchronize around this call, and it is made on `data` itself,
        # so work a submission caches per input object is done here, not in the timed loop.
        output = self.kernel(data)
        ok, message = self.judged(slot, output, check_copy, data)
        if not ok:
            return False, message, None
        del output
        seed = case.seed

        def time_once() -> float:
            nonlocal data, seed
            if recheck:
                seed += params["seed_step"]
                data = self.input_of(case, seed)
                pristine = clone_input(data)
            elapsed, output = method.time_one(lambda: self.kernel(data), self.device)
            if recheck:
                ok, message = self.judged(slot, output, pristine, data)
                if not ok:
                    raise _RecheckFailed(message)
            else:
                self.snapshot.verify("during custom_kernel")
            return elapsed

        try:
            s = timing.repeat(rule, time_once)
        except _RecheckFailed as failure:
            return False, str(failure), None
        return True, message, s

    def predict_case(self, case: Case):
        """The predicted time of the call the mode times: benchmark repeats on the input of
        the first (untimed) call, leaderboard on a fresh input each time. Deterministic, so
        one timed call stands for the repeat loop."""
        from eval.predict import predict

        data = self.input_of(case)
        predict(lambda: self.kernel(data))  # the untimed first call: per-input work happens here
        if self.job["mode"] == "leaderboard":
            data = self.input_of(case, case.seed + contract.load()["timing"]["seed_step"])
        prediction, _ = predict(lambda: self.kernel(data))
        self.snapshot.verify("during custom_kernel")
        return prediction

    def run_predicted(self) -> None:
        from eval.predict.scratch import use_once_note

        noted: set[str] = set()
        for slot, (_, case) in enumerate(self.cases):
            self.send("progress", text=f"{self.job['mode']} {slot + 1}/{len(self.cases)}: {case.spec} (predicting)")

            def body(case=case, slot=slot):
                prediction = self.predict_case(case)
                for kernel in prediction.kernels:  # once a kernel: the note does not change with the shape
                    note = use_once_note(kernel)
                    if note and kernel["symbol"] not in noted:
                        noted.add(kernel["symbol"])
                        self.send("text", text=f"note, kernel {kernel['symbol']}: {note}")
                ns = prediction.call_us * 1e3
                self.report(slot, case, True, "predicted MI300X time; outputs not checked (the test mode checks)",
                            timing.Stats(1, ns, 0.0, 0.0, ns, ns))
                return True
            self.guarded(slot, case, body)

    def run_profile(self) -> None:
        if self.job["method"] == timing.PREDICTED:
            return self.run_predicted_profile()
        from torch.profiler import ProfilerActivity, profile

        activities = [ProfilerActivity.CPU] + ([ProfilerActivity.CUDA] if self.device.is_gpu else [])
        for slot, (_, case) in enumerate(self.cases):
            self.send("progress", text=f"profile {slot + 1}/{len(self.cases)}: {case.spec}")

            def body(case=case, slot=slot):
                data = self.input_of(case)
                self.kernel(clone_input(data))  # build and warm outside the profile
                given = clone_input(data)
                with profile(activities=activities) as prof:
                    output = self.call_synchronized(given)
                ok, message = self.judged(slot, output, data, given)
                sort = "self_cuda_time_total" if self.device.is_gpu else "self_cpu_time_total"
                table = prof.key_averages().table(sort_by=sort, row_limit=20)
                self.send("text", text=f"profile of {case.spec}\n{table}")
                self.report(slot, case, ok, message)
                return ok
            self.guarded(slot, case, body)

    def run_predicted_profile(self) -> None:
        from eval.predict.profile import format_profile

        for slot, (_, case) in enumerate(self.cases):
            self.send("progress", text=f"profile {slot + 1}/{len(self.cases)}: {case.spec} (predicting)")

            def body(case=case, slot=slot):
                self.send("text", text=format_profile(self.predict_case(case), case.spec))
                self.report(slot, case, True, "predicted profile; outputs not checked (the test mode checks)")
                return True
            self.guarded(slot, case, body)
