"""The verdict, decided in the trusted parent process, out of the submission's reach.

The worker (where the submission runs) sends every output it must have checked, with the
inputs as the call left them; the parent regenerates that call's input itself from the
case and the published seed sequence, computes the reference and compares. The output must
be a dense tensor of the reference's dtype; the inputs must come back bit for bit as
generated (a deliberate addition to the published evaluator). The seed of each check is
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


@dataclass
class CaseChecks:
    count: int = 0
    failure: str = ""       # the first failed check's message
    max_error: float | None = None


@dataclass
class Checker:
    mode: str
    cases: list[Case]
    device: str
    predicted: bool = False  # predicted timings: the worker checks nothing (outputs are incomplete)
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
        if ok and output.dtype != expected.dtype:
            ok, message = False, f"custom_kernel returned a {output.dtype} tensor; the output is {expected.dtype}"
        elif ok and not is_dense(tuple(output.shape), strides):
            ok, message = False, (f"custom_kernel returned a view with strides {strides}: the output must be a "
                                  f"dense tensor, each element in its own place")
        elif ok and changed:
            ok, message = False, f"custom_kernel modified its input(s) {', '.join(changed)}"
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
