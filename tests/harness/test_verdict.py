"""The parent's checker and what it takes from a worker: seeds per check, outputs and inputs
judged here, messages on the schema, and rows and timings it will not vouch for."""
import pickle
import re

import pytest
import torch

from eval import channel, timing
from eval.judge import timing_problem
from eval.verdict import WARMUP_SLOT, Checker
from reference.contract import Case
from reference.task import generate_input, ref_kernel

CASE = Case(64, 64, 128, 5)
RULE = timing.StopRule(min_repeats=3, max_repeats=100, rel_err_stop=0.001, wall_stop_s=120, budget_s=10)


def inputs(seed):
    return list(generate_input(CASE.m, CASE.n, CASE.k, seed, device="cpu")[:4])


def check(checker, output, seed, given=None):
    return checker.check(0, output, tuple(output.stride()), inputs(seed) if given is None else given)


def reference_output(seed):
    return ref_kernel(generate_input(CASE.m, CASE.n, CASE.k, seed, device="cpu"))


def test_leaderboard_checks_follow_the_published_seed_sequence():
    checker = Checker("leaderboard", [CASE], "cpu")
    assert check(checker, reference_output(5), 5)[0]
    assert check(checker, reference_output(5 + 13), 18)[0]
    ok, message = check(checker, reference_output(5), 31)   # a stale result for seed 31
    assert not ok and message.startswith("seed 31: Number of mismatched elements")


def test_a_passing_row_needs_one_check_per_claimed_run():
    checker = Checker("leaderboard", [CASE], "cpu")
    check(checker, reference_output(5), 5)
    passed, problem, _ = checker.settle(0, True, 3)
    assert not passed and "saw 1 output(s) where 4 were due" in problem


def test_a_row_claiming_a_pass_after_a_failed_check_fails():
    checker = Checker("test", [CASE], "cpu")
    check(checker, torch.zeros(64, 64, dtype=torch.bfloat16), 5)
    passed, problem, _ = checker.settle(0, True, 0)
    assert not passed and "Number of mismatched elements" in problem


def test_warm_up_checks_do_not_count_for_the_first_case():
    checker = Checker("benchmark", [CASE], "cpu")
    checker.check(WARMUP_SLOT, reference_output(5), (64, 1), inputs(5))
    check(checker, reference_output(5), 5)
    assert checker.settle(0, True, 7) == (True, "", 0.0)


@pytest.mark.parametrize("output,strides,reason", [
    (reference_output(5).float(), (64, 1), "returned a torch.float32 tensor"),
    (reference_output(5), (0, 0), "strides (0, 0)"),       # right values in a broadcast view
    (reference_output(5), (32, 1), "strides (32, 1)"),     # rows overlapping
])
def test_dtype_and_layout_rules_fail_a_check_only_under_strict(output, strides, reason):
    assert Checker("test", [CASE], "cpu").check(0, output, strides, inputs(5))[0]
    ok, message = Checker("test", [CASE], "cpu", strict=True).check(0, output, strides, inputs(5))
    assert not ok and reason in message


def test_a_transposed_dense_output_passes():
    checker = Checker("test", [CASE], "cpu", strict=True)
    output = reference_output(5).t().contiguous().t()
    assert checker.check(0, output, tuple(output.stride()), inputs(5))[0]


def test_the_parent_decides_whether_the_inputs_came_back_unchanged():
    given = inputs(5)
    given[2] = given[2] * 2
    checker = Checker("test", [CASE], "cpu")
    assert check(checker, reference_output(5), 5, given)[0]
    assert checker.seen[0].notes[0].startswith("custom_kernel modified its input(s) a_scale.")
    ok, message = check(Checker("test", [CASE], "cpu", strict=True), reference_output(5), 5, given)
    assert not ok and message == "custom_kernel modified its input(s) a_scale (--strict)"


class Pipe:
    def __init__(self, payload):
        self.payload = payload

    def recv_bytes(self, maxlength=None):
        if maxlength is not None and len(self.payload) > maxlength:
            raise OSError("bad message length")
        return self.payload


def test_channel_round_trips_outputs_and_refuses_foreign_objects():
    out = torch.randn(3, 5).to(torch.bfloat16)
    packed = channel.pack_tensor(out)
    message = channel.receive(Pipe(pickle.dumps({"kind": "check", "slot": 0, "output": packed, "inputs": []})))
    tensor, strides = channel.unpack_tensor(message["output"])
    assert torch.equal(tensor, out) and strides == (5, 1)
    with pytest.raises(channel.ProtocolError, match="may not contain"):
        channel.receive(Pipe(pickle.dumps({"kind": "row", "evil": Case(1, 1, 128, 1)})))


@pytest.mark.parametrize("message,reason", [
    ([1, 2], "unknown kind 'list'"),
    ({"kind": "popcorn", "key": "check", "value": "pass"}, "unknown kind 'popcorn'"),
    ({"kind": "row", "slot": 0}, "fields ['kind', 'slot']"),
    ({"kind": "row", "slot": True, "passed": True, "message": "", "durations": []}, "slot is a bool"),
    ({"kind": "row", "slot": 0, "passed": True, "message": "", "durations": ["1"]}, "not all numbers"),
    ({"kind": "check", "slot": 0, "output": {"tensor": 1, "x": 2}, "inputs": []}, "not packed tensors"),
])
def test_messages_off_the_schema_are_refused_with_the_reason(message, reason):
    with pytest.raises(channel.ProtocolError, match=re.escape(reason)):
        channel.receive(Pipe(pickle.dumps(message)))


def test_a_message_over_the_cap_is_refused():
    with pytest.raises(channel.ProtocolError, match="a message over 1 MiB"):
        channel.receive(Pipe(pickle.dumps({"kind": "text", "text": "x" * 2 ** 21})), 2 ** 20)


@pytest.mark.parametrize("durations,span_ms,reason", [
    ([1e3] * 5, 100, "the stop rule ends the loop after 3"),
    ([1e3, 2e3], 100, "before the stop rule ends it"),
    ([2e9, 2e9, 2e9], 1000, "adding up to 6000.0 ms in a case the harness saw take 1000.0 ms"),
    ([1e3, -1.0, 1e3], 100, "not positive"),
    ([], 100, "no durations"),
])
def test_timings_the_published_loop_cannot_have_made_are_refused(durations, span_ms, reason):
    assert reason in timing_problem(durations, RULE, span_ms * 1e6, predicted=False)


def test_honest_timings_are_accepted():
    assert timing_problem([1e3] * 3, RULE, 1e8, predicted=False) == ""
    noisy = [1e3 + 100 * (i % 7) for i in range(100)]
    assert timing_problem(noisy, RULE, 1e9, predicted=False) == ""
    assert timing_problem([1e3, 5e3], RULE, 121e9, predicted=False) == ""  # the wall stop


def test_a_long_fault_line_keeps_its_end_and_each_log_is_kept():
    from eval.judge import fit_message

    fault = "kernel(): a launch faulted: " + "work " * 60 + "at submission.py:42"
    assert fit_message(fault, "x") == fault  # one long line: shown whole, the source line included
    many = "\n".join([fault] * 20)
    first, second = fit_message(many, "x"), fit_message(many, "x")
    assert "submission.py:42" in first.splitlines()[0]
    assert first.splitlines()[-1].startswith("full message: ") and first.splitlines()[-1] != second.splitlines()[-1]
