"""Shared helpers: run the local leaderboard in-process and read back its report."""
from __future__ import annotations

from pathlib import Path

import pytest

from eval import report
from eval.run import main as run_main

REPO = Path(__file__).resolve().parent.parent

# The quick tier (`make test-quick`, under 2 minutes from a fresh clone on 2 cores): unit tests
# of the check rules, the contract and verdicts, the pre-flight, the CSV report and
# comparisons, the machine description and occupancy rule, the decoder, the timing rules, the
# packer, the layers' import rules and the device compile's choice of torch's headers. Node-id
# prefixes; everything else (end-to-end emulation, real-style builds, corpus submissions, kernel
# sweeps) runs only in the whole suite, `make test`.
QUICK = (
    "tests/compare/",
    "tests/machine/",
    "tests/harness/test_check.py", "tests/harness/test_contract.py", "tests/harness/test_verdict.py",
    "tests/harness/test_preflight.py", "tests/harness/test_reference.py", "tests/harness/test_timing.py",
    "tests/engines/isa/test_core.py::test_decoder_agrees_with_llvm_objdump",
    "tests/engines/isa/test_core.py::test_fp8_decode_matches_the_spec_table",
    "tests/predictor/test_timing_model.py", "tests/predictor/test_calibrate.py",
    "tests/predictor/test_calibration_file.py", "tests/predictor/test_tune.py", "tests/predictor/test_scratch_note.py",
    "tests/kernels/test_pack.py", "tests/test_layers.py", "tests/test_docs_commands.py",
    *(f"tests/reports/offline/test_torch_device.py::{name}" for name in (
        "test_texts_that_open_torch_or_bind_python_read_all_of_torch",
        "test_torch_device_serves_a_text_it_declares_enough_for",
        "test_a_text_torch_device_refuses_is_compiled_against_all_of_torch_and_says_why",
        "test_a_text_all_of_torch_refuses_fails_with_that_compile_error",
        "test_a_text_that_needs_all_of_torch_is_compiled_once")),
)


# The files that take longest from a cold build cache (builds, end-to-end emulation), longest
# first: `make test` hands whole files to its workers in collection order (--dist loadfile
# --no-loadscope-reorder), so these start first and no long file is left running alone at the end.
# Measured in a fresh clone's run on 2 cores; a file missing here only runs later.
LONGEST_FIRST = (
    "tests/submissions/test_corpus.py", "tests/reports/offline/test_styles.py",
    "tests/submissions/test_corpus_failures.py", "tests/engines/isa/test_core.py", "tests/predictor/test_timing_model.py",
    "tests/kernels/test_sweep.py", "tests/engines/source/test_real_submission_constructs.py",
    "tests/engines/source/test_end_to_end.py", "tests/engines/isa/test_load_inline.py", "tests/kernels/test_emulated.py",
    "tests/reports/offline/test_gate.py", "tests/engines/isa/test_submission_engines.py",
    "tests/engines/source/test_asan.py", "tests/harness/test_run_cli.py", "tests/reports/offline/test_hipify.py",
    "tests/harness/test_runner_style.py", "tests/reports/offline/test_rocm_headers.py",
    "tests/engines/isa/test_host_engines.py", "tests/harness/test_must_fail.py", "tests/engines/isa/test_runtime.py",
    "tests/engines/source/test_real_world.py",
)


@pytest.fixture(autouse=True, scope="module")
def no_simulated_host_after_the_file():
    """A test file that loads a submission in this process (eval.worker.load_submission) installs
    the simulated MI300X host in it; the next file on the same worker would then see a GPU."""
    yield
    from toolchain import simulated_host

    simulated_host.uninstall()


def pytest_collection_modifyitems(items):
    for item in items:
        if item.nodeid.startswith(QUICK):
            item.add_marker(pytest.mark.quick)
    rank = {path: index for index, path in enumerate(LONGEST_FIRST)}
    items.sort(key=lambda item: rank.get(item.nodeid.split("::")[0], len(rank)))  # stable: files stay whole


@pytest.fixture
def run_leaderboard(tmp_path, capsys):
    """run_leaderboard(*argv) -> (exit status, report rows, stdout, stderr)."""
    def run(*argv: str):
        csv_path = tmp_path / "report.csv"
        status = run_main([*argv, "--csv", str(csv_path)])
        out, err = capsys.readouterr()
        rows = report.read_rows(csv_path) if csv_path.exists() else []
        return status, rows, out, err
    return run


@pytest.fixture
def one_source_schedule(monkeypatch):
    """The source engine runs each call once, in wave order (EMU_SCHEDULES=1), for tests about
    what a kernel computes (the engines compared, the test submissions' cases): by default it
    also reruns a function's first call in reversed wave order to catch races, which doubles or
    triples their time; that check has tests of its own (the corpus's lds_race under the default,
    tests/engines/source/test_faults.py) and runs in the harness's and the packed variants' tests."""
    monkeypatch.setenv("EMU_SCHEDULES", "1")
