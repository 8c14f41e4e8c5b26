"""The verdict, decided in the trusted parent process, out of the submission's reach.

The worker (where the submission runs) sends every output it must have checked; the
parent regenerates that call's input itself from the case and the published seed
sequence, computes the reference and compares. The seed of each check is derived here
from how many checks the case has had, never taken from the worker. A worker's row is
accepted only when its claims match what the parent saw: the number of checked outputs
and their verdicts.

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

    def check(self, slot: int, output: torch.Tensor) -> tuple[bool, str]:
        """Verdict on the next output of `slot`; returns (ok, published message)."""
        if not (slot == WARMUP_SLOT or 0 <= slot < len(self.cases)):
            raise ValueError(f"check for unknown case slot {slot}")
        checks = self.seen.setdefault(slot, CaseChecks())
        case = self.case_of(slot)
        seed = self.seed_of_check(slot, checks.count)
        checks.count += 1
        expected = ref_kernel(generate_input(case.m, case.n, case.k, seed, device=self.device))
        result = verdict(output.to(expected.device), expected)
        message = join_lines(result.lines)
        if checks.count > 1 and not result.ok:
            message = f"seed {seed}: {message}"
        if result.max_error is not None:
            checks.max_error = max(checks.max_error or 0.0, result.max_error)
        if not result.ok and not checks.failure:
            checks.failure = message
        return result.ok, message

    def settle(self, slot: int, row: dict) -> dict:
        """The row as the parent vouches for it: pass only if every claim matched a check."""
        checks = self.seen.get(slot, CaseChecks())
        row = dict(row, max_error=checks.max_error)
        if not row["passed"]:
            return row
        if self.predicted:
            expected = 0
        elif self.mode == "leaderboard":
            expected = 1 + (row.get("runs") or 0)
        else:
            expected = 1
        if checks.failure:
            problem = checks.failure
        elif checks.count != expected:
            problem = (f"the worker reported a passing case, but the checker saw {checks.count} "
                       f"output(s) where {expected} were due (tampering with the harness?)")
        else:
            return row
        return dict(row, passed=0, error=problem.replace("\\n", " | "), message=problem)
