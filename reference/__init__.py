"""The amd-fp8-mm contract and reference implementation."""
from pathlib import Path

from reference.contract import Case, cases, load as load_contract
from reference.task import check_implementation, generate_input, ref_kernel

# What the runner puts beside submission.py (task.py, utils.py), as a submission sees it: the
# harness, the offline report and the engines' tools put this folder first on sys.path.
RUNNER_ENV = Path(__file__).resolve().parent / "runner_env"

__all__ = ["RUNNER_ENV", "Case", "cases", "load_contract", "check_implementation", "generate_input", "ref_kernel"]
