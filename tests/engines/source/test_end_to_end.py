"""The two test submissions pass the published test cases under the emulator: the MFMA one every
case, the naive one (scalar, one work-item an output) every case of at most NAIVE_MACS
multiply-adds (the two larger, 96x4608x7168 and 512x1536x7168, take it ~65 s; the MFMA
submission and the packed submission.py, in tests/engines/isa/test_submission_engines.py, run them).

The harness's way in: torch.utils.cpp_extension.load_inline is replaced by the emulator's
before the submission file is imported.
"""
import importlib.util

import pytest

from reference import contract, task
from tests.engines.source.conftest import DATA

# Each case once, in wave order: the race check's rerun (the default) is tested on its own.
pytestmark = pytest.mark.usefixtures("one_source_schedule")

SUBMISSIONS = ["naive", "mfma"]
NAIVE_MACS = 2 ** 31


def import_submission(path, monkeypatch):
    import torch.utils.cpp_extension as cpp_extension

    import engines.source
    monkeypatch.setattr(cpp_extension, "load_inline", engines.source.load_inline)
    spec = importlib.util.spec_from_file_location(f"emulated_{path.stem}", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def submission(request):
    with pytest.MonkeyPatch.context() as mp:
        yield import_submission(DATA / f"{request.param}_submission.py", mp)


@pytest.mark.parametrize("submission, case", [
    (name, case) for name in SUBMISSIONS for case in contract.cases("tests")
    if name != "naive" or case.m * case.n * case.k <= NAIVE_MACS],
    indirect=["submission"], ids=lambda p: p if isinstance(p, str) else p.spec.replace("; ", "_").replace(": ", ""))
def test_submission_passes_case(submission, case):
    data = task.generate_input(**case.args, device="cpu")
    pristine = task.clone_input(data)
    ok, message = task.check_implementation(pristine, submission.custom_kernel(data))
    assert ok, message
