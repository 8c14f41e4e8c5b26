"""The two test submissions pass every published test case under the emulator.

The harness's way in: torch.utils.cpp_extension.load_inline is replaced by the emulator's
before the submission file is imported.
"""
import importlib.util

import pytest

from reference import contract, task
from tests.emulator.conftest import DATA

SUBMISSIONS = ["naive", "mfma"]


def import_submission(path, monkeypatch):
    import torch.utils.cpp_extension as cpp_extension

    import emulator
    monkeypatch.setattr(cpp_extension, "load_inline", emulator.load_inline)
    spec = importlib.util.spec_from_file_location(f"emulated_{path.stem}", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module", params=SUBMISSIONS)
def submission(request):
    with pytest.MonkeyPatch.context() as mp:
        yield import_submission(DATA / f"{request.param}_submission.py", mp)


@pytest.mark.parametrize("case", contract.cases("tests"), ids=lambda c: c.spec.replace("; ", "_").replace(": ", ""))
def test_submission_passes_case(submission, case):
    data = task.generate_input(**case.args, device="cpu")
    pristine = task.clone_input(data)
    ok, message = task.check_implementation(pristine, submission.custom_kernel(data))
    assert ok, message
