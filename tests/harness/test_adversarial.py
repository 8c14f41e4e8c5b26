"""Adversarial submissions of our own: each tries to get a pass, a time or a report it did not
earn, to break the parent, or to leave something behind. Each must be rejected with its
reason, timed honestly, or contained by the sandbox (eval/sandbox.py).

Every file runs through eval/run.py as a user's would (pure PyTorch, on the CPU, seconds
each), with --skip-preflight: KernelGuard refuses some of them, and these hold the harness's
own defences to their reasons.

  a reason   the run fails, and a failing row's error contains it (or one of several)
  "honest"   the run passes with times no forged clock could give (the product is computed
             inside every call: HONEST_FLOOR_US is far below its cost on any CPU), or fails
             naming the tampering
  "contained" with its marker: the file creates the marker (under /tmp/adv, outside the
             stage's private /tmp) only where its attack worked: after the run, and after
             anything it started had time to act, the marker is absent and the checkout is
             unchanged
"""
import hashlib
import subprocess
import time
from pathlib import Path

import pytest

from eval import sandbox

ADVERSARIAL = Path(__file__).parent / "adversarial"
REPO = Path(__file__).resolve().parents[2]
HONEST_FLOOR_US = 30.0
TAMPERING = ("replaced", "tampering", "not the harness's loop", "not a plain torch.Tensor")
# A detached process of these files acts within 3 s.
SETTLE_S = 5

LB = ["leaderboard", "--shapes", "64,64,128"]
BENCH = ["benchmark", "--shapes", "64,64,128"]
TEST = ["test", "--shapes", "64,64,128"]

CASES = [
    # 1. output tensor subclasses whose work happens when the harness touches them after the clock stops
    ("lazy_torch_function", LB, "torch.Tensor subclass"),
    ("lazy_torch_dispatch", LB, "torch.Tensor subclass"),
    # 2. the clock, the timing method and the repeat loop's helpers
    ("clock_rebind_restore", LB, "honest"),
    ("clock_time_module", BENCH, "honest"),
    ("method_setattr", BENCH, "honest"),
    ("repeat_replace", LB, "honest"),
    ("stats_replace", LB, "honest"),
    ("stoprule_done", LB, "honest"),
    ("verify_disabled", BENCH, "honest"),
    # 3. input generation made to put the answer in c; the timed call returns c
    ("worker_generate_input_alias", LB, "Number of mismatched elements"),
    ("generate_input_code_swap", LB, "replaced"),
    # 4. forged messages to the parent through the worker's connection
    ("forged_row", LB, "the harness stopped it"),
    ("row_missing_fields", TEST, "the harness stopped it"),
    ("row_unknown_slot", TEST, "the harness stopped it"),
    ("row_warmup_slot", BENCH, "the harness stopped it"),
    ("early_done", ["test", "--shapes", "64,64,128", "64,64,256"], "before this case had a result"),
    ("huge_message", TEST, "a message over"),
    ("non_dict_message", TEST, "the harness stopped it"),
    ("pickle_payload", TEST, "may not contain posix.system"),
    ("nested_text_message", TEST, "the harness stopped it"),
    ("popcorn_injection", TEST + ["--popcorn"], "Number of mismatched elements"),
    # 5. inputs and the harness's pristine copy zeroed together (the inputs rule is strict-only:
    #    the published check compares against a copy made before the call)
    ("zero_pristine_via_stack", TEST + ["--strict"], "modified its input"),
    ("torch_equal_patch", TEST + ["--strict"], "modified its input"),
    # 6. detached processes that outlive the stage
    ("detached_csv_rewrite", TEST, "contained", "/tmp/adv/detached_csv_rewrite.marker"),
    ("detached_sleeper", TEST, "contained", "/tmp/adv/detached_sleeper.marker"),
    # 7. outputs cached on disk between runs: the cache must not outlive the stage
    ("disk_cache", LB, "contained", "/tmp/adv/cache"),
    # 8. the checkout's own files
    ("writes_checkout", TEST, "contained", "/tmp/adv/writes_checkout.marker"),
    ("pyc_poison_probe", TEST, "contained", "/tmp/adv/pyc_poison_probe.marker"),
    # 9. output floods and memory through the channel; an output of another dtype and layout
    ("flood_output", TEST, "printed more than"),
    ("expand_huge", TEST, ("a message over", "SIZE MISMATCH")),  # CPU: its bytes; GPU: a shared copy
    ("weird_layout_dtype", TEST + ["--strict"], "returned a torch.float64 tensor"),  # passes without --strict
    # 10. network and the parent's memory
    ("network_probe", TEST, "contained", "/tmp/adv/network_probe.marker"),
    ("proc_mem_probe", TEST, "contained", "/tmp/adv/proc_mem_probe.marker"),
    # 11. signals to the parent: it must survive, finish and write its report
    ("kill_parent", TEST, "honest"),
    ("signal_group", TEST, "honest"),
    # 12. the checker and the channel patched in the worker
    ("worker_checker_patch", TEST, "replaced"),
    ("pack_tensor_code_swap", LB, "replaced eval.channel.pack_tensor"),
]


def _checkout_digest() -> str:
    tracked = subprocess.run(["git", "-C", str(REPO), "ls-files", "eval", "predictor", "reports", "reference"],
                             capture_output=True, text=True, check=True).stdout.split()
    digest = hashlib.sha256()
    for name in tracked:
        digest.update(name.encode() + (REPO / name).read_bytes())
    return digest.hexdigest()


@pytest.mark.parametrize("case", CASES, ids=[case[0] for case in CASES])
def test_adversarial_submission(run_leaderboard, case):
    name, argv, expected, *marker = case
    if (expected == "contained" or name in ("kill_parent", "signal_group")) and not sandbox.probe().available:
        pytest.skip(f"needs the sandbox, which cannot start here ({sandbox.probe().description})")
    marker = Path(marker[0]) if marker else None
    if marker is not None:
        subprocess.run(["rm", "-rf", str(marker)], check=True)
    before = _checkout_digest()
    status, rows, out, err = run_leaderboard(*argv, "--submission", str(ADVERSARIAL / f"{name}.py"),
                                             "--skip-preflight")
    assert rows, err
    errors = [row["error"] for row in rows if not row["passed"]]
    if expected == "contained":
        time.sleep(SETTLE_S)
        assert marker is not None and not marker.exists(), marker.read_text()
        assert all(row["sandbox"].startswith("bubblewrap") for row in rows)
    elif expected == "honest":
        if status != 0:
            assert errors and all(any(word in error for word in TAMPERING) for error in errors), errors
        else:
            assert all(row["mean_us"] is None or row["mean_us"] >= HONEST_FLOOR_US for row in rows), rows
    else:
        reasons = expected if isinstance(expected, tuple) else (expected,)
        assert status == 1 and any(reason in error for error in errors for reason in reasons), errors
    if name == "popcorn_injection":
        assert "check: pass" not in out.splitlines()
    assert _checkout_digest() == before
