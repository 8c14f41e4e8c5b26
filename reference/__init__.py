"""The amd-fp8-mm contract and reference implementation."""
from reference.contract import Case, cases, load as load_contract
from reference.task import check_implementation, generate_input, ref_kernel

__all__ = ["Case", "cases", "load_contract", "check_implementation", "generate_input", "ref_kernel"]
