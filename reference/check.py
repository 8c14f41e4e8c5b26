"""The published correctness check, arithmetic and messages reproduced exactly.

The leaderboard's rule (spec/leaderboard.md, "Math and tolerance"): the difference is taken
in float32, `|received.to(float32) - expected.to(float32)|`, but the bound `atol + rtol*|expected|`
is evaluated in the expected tensor's own dtype (bf16 here, so the bound itself is rounded to
bf16) and the comparison `diff > bound` promotes back to float32. NaN, +Inf and -Inf fail
when they appear in exactly one of the two. The dtype of the received tensor is not checked:
a float32 or float16 output is converted like any other.

The two functions with the published names and signatures (`verbose_allclose`,
`verbose_allequal`) return the published (ok, lines) pair; `verdict` adds the numeric
maximum error the reports record.
"""
from __future__ import annotations

from dataclasses import dataclass

import torch

MAX_PRINT = 5


@dataclass(frozen=True)
class Verdict:
    ok: bool
    lines: list[str]
    max_error: float | None  # largest float32 |received - expected|; None when shapes differ


def _mismatch_lines(mismatched: torch.Tensor, received, expected, max_print: int) -> list[str]:
    """The published failure lines: a count, up to max_print elements, then how many more."""
    count = int(mismatched.count_nonzero().item())
    lines = [f"Number of mismatched elements: {count}"]
    for index in torch.nonzero(mismatched)[:max_print]:
        where = tuple(index.tolist())
        # NOTE: the published message prints the 0-d tensors themselves (their repr,
        # device and dtype included), not Python numbers.
        lines.append(f"ERROR at {where}: {received[where]} {expected[where]}")
    if count > max_print:
        lines.append(f"... and {count - max_print} more mismatched elements.")
    return lines


def _allclose(received, expected, rtol: float, atol: float, max_print: int):
    if received.shape != expected.shape:
        return False, ["SIZE MISMATCH"], None
    diff = (received.to(torch.float32) - expected.to(torch.float32)).abs()
    bound = atol + rtol * expected.abs()          # in expected's dtype: rounded like the published one
    mismatched = (diff > bound) \
        | torch.logical_xor(received.isnan(), expected.isnan()) \
        | torch.logical_xor(received.isposinf(), expected.isposinf()) \
        | torch.logical_xor(received.isneginf(), expected.isneginf())
    if mismatched.any():
        return False, _mismatch_lines(mismatched, received, expected, max_print), _max(diff)
    return True, [f"Maximum error: {torch.max(diff)}"], _max(diff)


def _max(diff: torch.Tensor) -> float:
    return float(diff.max().item()) if diff.numel() else 0.0


@torch.no_grad()
def verbose_allclose(received: torch.Tensor, expected: torch.Tensor, rtol=1e-05, atol=1e-08,
                     max_print=MAX_PRINT) -> tuple[bool, list[str]]:
    """The published name and result: (ok, message lines)."""
    ok, lines, _ = _allclose(received, expected, rtol, atol, max_print)
    return ok, lines


@torch.no_grad()
def verbose_allequal(received: torch.Tensor, expected: torch.Tensor,
                     max_print=MAX_PRINT) -> tuple[bool, list[str]]:
    """Element-wise equality with the same failure lines; no lines when equal."""
    mismatched = torch.not_equal(received, expected)
    if mismatched.any():
        return False, _mismatch_lines(mismatched, received, expected, max_print)
    return True, []


@torch.no_grad()
def verdict(received: torch.Tensor, expected: torch.Tensor, rtol: float, atol: float) -> Verdict:
    """verbose_allclose with the numeric maximum error the reports record."""
    return Verdict(*_allclose(received, expected, rtol, atol, MAX_PRINT))


def join_lines(lines: list[str]) -> str:
    # NOTE: the published match_reference joins with a literal backslash-n ("\\n"), so the
    # whole message is one line in the evaluator's key: value output.
    return "\\n".join(lines)


def split_message(message: str) -> list[str]:
    """The lines of a published-style message, for display."""
    return message.replace("\\n", "\n").splitlines()


def readable(message: str) -> list[str]:
    """The lines of a published-style message for a person: each `ERROR at (i, j): got want`
    line says which value is the submission's and which the reference's."""
    lines = []
    for line in split_message(message):
        where, _, values = line.partition(": ")
        parts = values.split(" ")
        if where.startswith("ERROR at ") and len(parts) == 2:
            line = f"at {where.removeprefix('ERROR at ')}: yours {parts[0]}, expected {parts[1]}"
        lines.append(line)
    return lines
