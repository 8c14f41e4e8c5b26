"""The two CPU engines check each other on the packed submission.py: every builtin test case
(leaderboard_shapes.yaml) gives bit-identical bf16 outputs on the source emulator and on the
ISA engine. All 11 cases: about 30 s for both engines on 2 cores, the two builds
of submission.py already cached in build/.

Numbers here are "emulated": they say what gfx942 code computes, nothing about MI300X speed.
"""
from __future__ import annotations

import importlib.util
import shutil
from pathlib import Path
from types import ModuleType

import pytest
import torch
import torch.utils.cpp_extension

from reference import contract
from reference.task import check_implementation, clone_input, generate_input

pytestmark = [pytest.mark.skipif(shutil.which("clang++-19") is None, reason="needs clang-19 for gfx942"),
              pytest.mark.usefixtures("one_source_schedule")]

REPO = Path(__file__).resolve().parents[3]
CASES = contract.cases("tests")


def import_submission(load_inline, module_name: str) -> ModuleType:
    """The repo's submission.py, imported with its load_inline building for one engine."""
    saved = torch.utils.cpp_extension.load_inline
    torch.utils.cpp_extension.load_inline = load_inline
    try:
        spec = importlib.util.spec_from_file_location(module_name, REPO / "submission.py")
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
    finally:
        torch.utils.cpp_extension.load_inline = saved
    return module


@pytest.fixture(scope="module")
def submissions() -> dict[str, ModuleType]:
    import engines.source
    import engines.isa

    return {"source": import_submission(engines.source.load_inline, "submission_on_source_engine"),
            "isa": import_submission(engines.isa.load_inline, "submission_on_isa_engine")}


@pytest.mark.parametrize("case", CASES, ids=[f"tests{i}-m{c.m}_n{c.n}_k{c.k}" for i, c in enumerate(CASES)])
def test_submission_is_bit_identical_on_both_engines(submissions, case):
    data = generate_input(**case.args, device="cpu")
    source = submissions["source"].custom_kernel(clone_input(data))
    isa = submissions["isa"].custom_kernel(clone_input(data))
    # bit patterns, not values: a NaN in both is the same output, a -0 against a +0 is not
    differ = (source.view(torch.int16) != isa.view(torch.int16)).sum().item()
    assert differ == 0, f"{differ} of {isa.numel()} bf16 outputs differ between the engines"
    ok, message = check_implementation(data, isa)
    assert ok, message
