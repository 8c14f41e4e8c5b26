"""The verdict against the published check: every output the leaderboard accepts passes here.

Outputs are built the way real files return them and go the way a worker's do (copied into the
harness's buffer as the call returns, packed, pickled, unpacked, checked by the parent); the
verdict must equal the published check's (reference.task.compare: its arithmetic and messages).
The rows where the harness differs on purpose differ only under --strict, each for one of
eval/verdict.py's STRICT_RULES.
"""
import pickle
from pathlib import Path

import pytest
import torch

from eval import channel
from eval.verdict import INPUT_NAMES, STRICT_RULES, Checker
from eval.worker import Stage
from reference.contract import Case
from reference.task import compare, generate_input, ref_kernel

CASE = Case(64, 192, 256, 7)   # m != n, so a transposed output has the wrong shape
ACCEPTED = Path(__file__).parent / "accepted"


def fresh_input():
    return generate_input(CASE.m, CASE.n, CASE.k, CASE.seed, device="cpu")


def reference():
    return ref_kernel(fresh_input())


def exact_float32():
    """The product in float32, never rounded to bf16: a split-K kernel's float32 sum."""
    a, b, a_scale, b_scale, _ = fresh_input()
    a_deq = a.float() * a_scale.repeat_interleave(128, dim=1)
    b_deq = b.float() * b_scale.repeat_interleave(128, dim=0).repeat_interleave(128, dim=1)[:CASE.n]
    return a_deq @ b_deq.T


def slice_of_bigger_buffer():
    big = torch.full((CASE.m + 3, CASE.n + 5), float("nan"), dtype=torch.bfloat16)
    view = big[1:CASE.m + 1, 2:CASE.n + 2]
    view.copy_(reference())
    return view


def with_value(output, where, value):
    output = output.clone()
    output[where] = value
    return output


def in_c():
    data = fresh_input()
    return ref_kernel(data)   # written into the pre-allocated c and returned


# name -> (output, (the strict rules it breaks)); the inputs come back unchanged unless said.
ROWS = {
    "bf16 in the pre-allocated c": (in_c, ()),
    "bf16, a new tensor": (lambda: reference().clone(), ()),
    "float32 rounded like bf16": (lambda: reference().float(), ("dtype",)),
    "float32, the unrounded sum": (exact_float32, ("dtype",)),
    "float16": (lambda: reference().half(), ("dtype",)),
    "float64": (lambda: reference().double(), ("dtype",)),
    "bf16 column-major": (lambda: reference().t().contiguous().t(), ()),
    "float32 column-major": (lambda: exact_float32().t().contiguous().t(), ("dtype",)),
    "bf16 slice of a bigger buffer": (slice_of_bigger_buffer, ("dense",)),
    "bf16 transposed (n x m)": (lambda: reference().t(), ()),
    "bf16 one row short": (lambda: reference()[:-1], ()),
    "bf16 one column too many": (lambda: torch.cat([reference(), reference()[:, :1]], dim=1), ()),
    "bf16 zeros": (lambda: torch.zeros(CASE.m, CASE.n, dtype=torch.bfloat16), ()),
    "bf16 one NaN": (lambda: with_value(reference(), (3, 5), float("nan")), ()),
    "float32 one NaN": (lambda: with_value(exact_float32(), (0, 0), float("nan")), ("dtype",)),
    "bf16 one +Inf": (lambda: with_value(reference(), (63, 191), float("inf")), ()),
    "float32 one -Inf": (lambda: with_value(exact_float32(), (10, 10), float("-inf")), ("dtype",)),
    "float32 one large error": (lambda: with_value(exact_float32(), (1, 2), 1e4), ("dtype",)),
    "bf16 right, a_scale written": (lambda: reference().clone(), ("inputs",)),
}


def our_verdict(output, given, strict: bool) -> tuple[bool, str]:
    """The worker's staging and the channel, then the parent's check."""
    stage = Stage(None, {"cases": []})
    sent = [pickle.loads(pickle.dumps(stage.packed(tensor, role, 0)))
            for tensor, role in zip((output, *given[:4]), ("output", *INPUT_NAMES))]
    out, strides = channel.unpack_tensor(sent[0])
    inputs = [channel.unpack_tensor(packed)[0] for packed in sent[1:]]
    return Checker("test", [CASE], "cpu", strict=strict).check(0, out, strides, inputs)


@pytest.mark.parametrize("name", ROWS)
def test_the_verdict_is_the_published_checks_and_only_strict_rules_differ(name):
    build, broken = ROWS[name]
    output = build()
    given = list(fresh_input())
    if "inputs" in broken:
        given[2] = given[2] * 2
    published = compare(output, reference())
    assert our_verdict(output, given, strict=False) == published
    ok, message = our_verdict(output, given, strict=True)
    if broken and published[0]:
        assert not ok and message.endswith("(--strict)"), message
    else:
        assert (ok, message) == published
    assert set(broken) <= set(STRICT_RULES)


def test_a_passing_check_notes_what_the_strict_rules_find():
    checker = Checker("test", [CASE], "cpu")
    given = list(fresh_input())
    assert checker.check(0, exact_float32(), (CASE.n, 1), given[:4])[0]
    [note] = checker.seen[0].notes
    assert note.startswith("custom_kernel returned a torch.float32 tensor; the output is torch.bfloat16. "
                           "The leaderboard accepts it") and note.endswith("(--strict fails it)")


@pytest.mark.parametrize("engine", ["source", "isa"])
def test_a_hip_file_returning_float32_on_some_shapes_passes_on_both_engines(run_leaderboard, engine):
    # K = 128: bf16 in c; K = 256: a new float32 tensor.
    argv = ["test", "--shapes", "64,64,128", "64,64,256", "--device", "cpu", "--engine", engine,
            "--submission", str(ACCEPTED / "float32_split_k.py")]
    status, rows, out, err = run_leaderboard(*argv)
    assert status == 0 and [r["passed"] for r in rows] == [1, 1], err[-3000:]
    assert "note, case 64x64x256" in out and "returned a torch.float32 tensor" in out, out
    status, rows, _, err = run_leaderboard(*argv, "--strict")
    assert status == 1 and [r["passed"] for r in rows] == [1, 0], err[-3000:]
    assert rows[1]["error"].startswith("custom_kernel returned a torch.float32 tensor")
