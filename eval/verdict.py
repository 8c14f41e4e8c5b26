"""The verdict, decided in the trusted parent process, out of the submission's reach.

The worker (where the submission runs) sends every output it must have checked, with the
inputs as the call left them; the parent regenerates that call's input itself from the
case and the published seed sequence, computes the reference and compares with the published
check (reference/check.py): an output of any dtype and layout whose values it accepts passes,
as on the leaderboard. The rules the published check does not have (STRICT_RULES: the
reference's dtype, a dense layout, the inputs unchanged) are diagnostics: a passing case
notes what they find, and they fail it only under --strict. The seed of each check is
derived here from how many checks the case has had, never taken from the worker. A
worker's row is accepted only when its claims match what the parent saw: the number of
checked outputs and their verdicts.

  test          one check per case, on the case's seed
  benchmark     one check per case (the untimed checked call), on the case's seed
  leaderboard   the untimed checked call on the case's seed, then one per timed repeat
                with seed += 13 each time
  warm-up       (slot -1) checked as published, its verdict ignored
  predicted     (benchmark, leaderboard, profile with --method predicted) no check: the
                timed launches ran only the busiest CU's workgroups
"""
from __future__ import annotations

from dataclasses import dataclass, field

import torch

from reference import contract
from reference.check import join_lines
from reference.contract import Case
from reference.task import generate_input, ref_kernel, verdict

WARMUP_SLOT = -1
INPUT_NAMES = ("a", "b", "a_scale", "b_scale")

# The rules beyond the published check (the output has the reference's dtype, every output
# element has its own place in memory, the inputs come back bit for bit as generated), each with
# why the leaderboard accepts what breaks it; they decide a verdict only under --strict
# (tests/harness/test_published_check.py holds them there).
STRICT_RULES = {
    "dtype": "the published check converts any dtype to float32",
    "dense": "the published check reads values, not strides",
    "inputs": "the published check compares against a copy made before the call",
}


def is_dense(shape: tuple[int, ...], strides: tuple[int, ...]) -> bool:
    """Whether every element of a tensor of `shape` has its own place in memory and none is
    left out (a row- or column-major layout, or any order of the dimensions)."""
    expected = 1
    for stride, size in sorted((st, sz) for sz, st in zip(shape, strides) if sz != 1):
        if stride != expected:
            return False
        expected *= size
    return True


def modified_inputs(expected: tuple, given: list[torch.Tensor]) -> list[str]:
    """Names of the inputs that differ, bit for bit, from the generated ones."""
    changed = []
    for name, before, after in zip(INPUT_NAMES, expected, given):
        as_bits = torch.uint8 if before.element_size() == 1 else torch.int32
        if (after.dtype != before.dtype or after.shape != before.shape
                or not torch.equal(before.view(as_bits), after.to(before.device).view(as_bits))):
            changed.append(name)
    return changed


def strict_findings(output: torch.Tensor, strides: tuple[int, ...], changed: list[str],
                    expected_dtype: torch.dtype) -> list[tuple[str, str]]:
    """What the STRICT_RULES find in one checked call: (rule, message) a broken rule."""
    found = []
    if output.dtype != expected_dtype:
        found.append(("dtype", f"custom_kernel returned a {output.dtype} tensor; the output is {expected_dtype}"))
    if not is_dense(tuple(output.shape), strides):
        found.append(("dense", f"custom_kernel returned a view with strides {strides}: the output must be a "
                               f"dense tensor, each element in its own place"))
    if changed:
        found.append(("inputs", f"custom_kernel modified its input(s) {', '.join(changed)}"))
    return found


def strict_note(rule: str, message: str) -> str:
    """A passing check's note on a strict rule it breaks."""
    return f"{message}. The leaderboard accepts it: {STRICT_RULES[rule]} (--strict fails it)"


@dataclass
class CaseChecks:
    count: int = 0
    failure: str = ""       # the first failed check's message
    max_error: float | None = None
    notes: list[str] = field(default_factory=list)  # what the strict rules found in passing checks


@dataclass
class Checker:
    mode: str
    cases: list[Case]
    device: str
    predicted: bool = False  # predicted timings: the worker checks nothing (outputs are incomplete)
    strict: bool = False     # the STRICT_RULES fail a check, instead of being noted
    seen: dict[int, CaseChecks] = field(default_factory=dict)

    def case_of(self, slot: int) -> Case:
        """The warm-up runs on the first case."""
        return self.cases[0 if slot == WARMUP_SLOT else slot]

    def seed_of_check(self, slot: int, number: int) -> int:
        case = self.case_of(slot)
        if slot == WARMUP_SLOT or self.mode != "leaderboard":
            return case.seed
        return case.seed + number * contract.load()["timing"]["seed_step"]

    def check(self, slot: int, output: torch.Tensor, strides: tuple[int, ...],
              inputs: list[torch.Tensor]) -> tuple[bool, str]:
        """Verdict on the next output of `slot` (with the strides it had and the inputs as the
        call left them); returns (ok, published message)."""
        if not (slot == WARMUP_SLOT or 0 <= slot < len(self.cases)):
            raise ValueError(f"check for unknown case slot {slot}")
        checks = self.seen.setdefault(slot, CaseChecks())
        case = self.case_of(slot)
        seed = self.seed_of_check(slot, checks.count)
        checks.count += 1
        data = generate_input(case.m, case.n, case.k, seed, device=self.device)
        changed = modified_inputs(data[:4], inputs)
        expected = ref_kernel(data)
        result = verdict(output.to(expected.device), expected)
        message = join_lines(result.lines)
        ok = result.ok
        if ok:
            found = strict_findings(output, strides, changed, expected.dtype)
            if found and self.strict:
                ok, message = False, f"{found[0][1]} (--strict)"
            checks.notes += [note for note in (strict_note(*rule) for rule in found) if note not in checks.notes]
        if checks.count > 1 and not ok:
            message = f"seed {seed}: {message}"
        if result.max_error is not None:
            checks.max_error = max(checks.max_error or 0.0, result.max_error)
        if not ok and not checks.failure:
            checks.failure = message
        return ok, message

    def settle(self, slot: int, passed: bool, runs: int) -> tuple[bool, str, float | None]:
        """The worker's claim on a case as the parent vouches for it: (passed, the reason it
        did not pass when the claim does not hold, the largest error checked)."""
        checks = self.seen.get(slot, CaseChecks())
        if not passed:
            return False, "", checks.max_error
        if self.predicted:
            expected = 0
        elif self.mode == "leaderboard":
            expected = 1 + runs
        else:
            expected = 1
        if checks.failure:
            return False, checks.failure, checks.max_error
        if checks.count != expected:
            return False, (f"the worker reported a passing case, but the checker saw {checks.count} "
                           f"output(s) where {expected} were due (tampering with the harness?)"), checks.max_error
        return True, "", checks.max_error
