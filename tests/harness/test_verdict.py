"""The parent's checker: seeds per check, and rows it will not vouch for."""
import pickle

import pytest
import torch

from eval import channel
from eval.verdict import WARMUP_SLOT, Checker
from reference.contract import Case
from reference.task import generate_input, ref_kernel

CASE = Case(64, 64, 128, 5)


def reference_output(seed):
    return ref_kernel(generate_input(CASE.m, CASE.n, CASE.k, seed, device="cpu"))


def test_leaderboard_checks_follow_the_published_seed_sequence():
    checker = Checker("leaderboard", [CASE], "cpu")
    assert checker.check(0, reference_output(5))[0]
    assert checker.check(0, reference_output(5 + 13))[0]
    ok, message = checker.check(0, reference_output(5))   # a stale result for seed 31
    assert not ok and message.startswith("seed 31: Number of mismatched elements")


def test_a_passing_row_needs_one_check_per_claimed_run():
    checker = Checker("leaderboard", [CASE], "cpu")
    checker.check(0, reference_output(5))
    row = {"passed": 1, "runs": 3, "error": ""}
    settled = checker.settle(0, row)
    assert settled["passed"] == 0 and "saw 1 output(s) where 4 were due" in settled["error"]


def test_a_row_claiming_a_pass_after_a_failed_check_fails():
    checker = Checker("test", [CASE], "cpu")
    checker.check(0, torch.zeros(64, 64, dtype=torch.bfloat16))
    settled = checker.settle(0, {"passed": 1, "error": ""})
    assert settled["passed"] == 0 and "Number of mismatched elements" in settled["error"]


def test_warm_up_checks_do_not_count_for_the_first_case():
    checker = Checker("benchmark", [CASE], "cpu")
    checker.check(WARMUP_SLOT, reference_output(5))
    checker.check(0, reference_output(5))
    settled = checker.settle(0, {"passed": 1, "error": ""})
    assert settled["passed"] == 1 and settled["max_error"] == 0.0


def test_channel_round_trips_outputs_and_refuses_foreign_objects():
    class Pipe:
        def __init__(self, payload):
            self.payload = payload

        def recv_bytes(self):
            return self.payload
    out = torch.randn(3, 5).to(torch.bfloat16)
    message = channel.receive(Pipe(pickle.dumps({"kind": "check", "output": channel.pack_tensor(out)})))
    assert torch.equal(channel.unpack_tensor(message["output"]), out)
    with pytest.raises(pickle.UnpicklingError, match="may not contain"):
        channel.receive(Pipe(pickle.dumps({"kind": "row", "evil": Case(1, 1, 128, 1)})))
