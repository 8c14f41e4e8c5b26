"""A gfx942 device compile reads torch's umbrella headers as toolchain/include/torch_device
declares them, and gets the code all of torch's headers give: the same code object for every
submission and kernel file of the corpus, torch's scalar types in device code included; a text
that needs more of torch is compiled against all of it, and the build says why."""

import difflib
import subprocess
from pathlib import Path

import pytest

from engines.isa import build as isa_build
from kernels import instances
from reports import offline
from reports.offline import CompileError, compile_to_asm, default_files, report
from toolchain import REPO_ROOT, hipcc
from toolchain.source import SourceError, translation_units

DATA = Path(__file__).parent / "data"


def test_texts_that_open_torch_or_bind_python_read_all_of_torch():
    assert "opens a torch namespace" in hipcc.all_of_torch("using namespace torch;\n__global__ void k() {}")
    assert "opens a torch namespace" in hipcc.all_of_torch("using  namespace ::at ;")
    assert "pybind11" in hipcc.all_of_torch("PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {}")
    in_comments_and_strings = '// using namespace at;\nconst char* s = "py::cast";\n/* PYBIND11_MODULE */'
    assert hipcc.all_of_torch(in_comments_and_strings) == ""
    assert hipcc.all_of_torch("using namespace attention;") == ""


def _attempt(refused_with: set):
    """A compile that records its torch flags and refuses those in `refused_with`."""
    calls = []

    def attempt(torch_flags):
        calls.append(torch_flags)
        if torch_flags in refused_with:
            raise RuntimeError(f"failed:\nx.hip:3:9: error: no member named 'matmul' in namespace 'at' {len(calls)}")
        return "code object"
    return attempt, calls


def test_torch_device_serves_a_text_it_declares_enough_for():
    attempt, calls = _attempt(set())
    notes = []
    assert hipcc.compile_device("__global__ void k() {}", attempt, RuntimeError, notes.append) == "code object"
    assert calls == [hipcc.DEVICE_TORCH_FLAGS] and notes == []


def test_a_text_torch_device_refuses_is_compiled_against_all_of_torch_and_says_why():
    attempt, calls = _attempt({hipcc.DEVICE_TORCH_FLAGS})
    notes = []
    assert hipcc.compile_device("", attempt, RuntimeError, notes.append) == "code object"
    assert calls == [hipcc.DEVICE_TORCH_FLAGS, ()]
    assert notes == ["device code compiled against all of torch's headers: with toolchain/include/torch_device's the "
                     "compiler refused it (x.hip:3:9: error: no member named 'matmul' in namespace 'at' 1)"]


def test_a_text_all_of_torch_refuses_fails_with_that_compile_error():
    attempt, calls = _attempt({hipcc.DEVICE_TORCH_FLAGS, ()})
    with pytest.raises(RuntimeError, match="'at' 2$"):
        hipcc.compile_device("", attempt, RuntimeError, lambda note: None)


def test_a_text_that_needs_all_of_torch_is_compiled_once():
    attempt, calls = _attempt(set())
    notes = []
    hipcc.compile_device("using namespace torch;", attempt, RuntimeError, notes.append)
    assert calls == [()] and "opens a torch namespace" in notes[0]


def test_torch_scalar_types_in_device_code_compile_as_against_all_of_torch(tmp_path, monkeypatch):
    path = DATA / "torch_device" / "torch_types_submission.py"
    kernels = report(path, tmp_path)
    assert [(k.name, k.all_of_torch) for k in kernels] == [("widen_kernel<c10::Half>", ""),
                                                           ("widen_kernel<c10::BFloat16>", "")]
    monkeypatch.setattr(hipcc, "DEVICE_TORCH_FLAGS", ())  # all of torch's headers, as the runner's hipcc reads them
    assert compile_to_asm(path) == (tmp_path / f"{path.stem}.s").read_text()


def test_an_operator_torch_device_lacks_reads_all_of_torch_named():
    kernels = report(DATA / "torch_device" / "torch_op_submission.py")
    assert [k.name for k in kernels] == ["bias_kernel"]
    assert kernels[0].all_of_torch.startswith("device code compiled against all of torch's headers")
    assert "no member named 'matmul' in namespace 'at'" in kernels[0].all_of_torch


def corpus() -> list[Path]:
    """Every submission and kernel file the repository holds as a style to build: kernels/*.hip,
    submission.py, the examples, tests/submissions (the corpus the engines run) and the offline
    report's submissions (tests/reports/offline/data)."""
    files = default_files(with_examples=True)
    files += sorted(p for p in (REPO_ROOT / "tests" / "submissions").glob("*.py") if not p.name.startswith("test_"))
    return files + sorted(DATA.rglob("*_submission.py"))


def _device_code(unit, folder: Path) -> bytes | str:
    """The unit's code object from the ISA engine's device pass (a load_inline call), or its
    assembly from the offline report (a kernel file); a refused compile gives its first error."""
    folder.mkdir(parents=True, exist_ok=True)
    try:
        if unit.call is None:
            return offline._compile(unit, folder)[0]
        ext = isa_build.extension(unit.call, unit.origin)
        (folder / "hip.hip").write_text(ext.hip)
        code_object = hipcc.compile_device(ext.hip, lambda flags: isa_build.device_pass(ext, folder, flags),
                                           isa_build.CompileError, lambda note: None)
        return code_object.read_bytes()
    except (CompileError, isa_build.CompileError) as error:
        return "refused: " + next(line for line in str(error).splitlines() if "error" in line)


def _difference(ours: bytes | str, theirs: bytes | str, folder: Path) -> str:
    """The first lines where two code objects' disassembly and symbols differ (or two texts)."""
    def lines(code):
        if isinstance(code, str):
            return code.splitlines()
        path = folder / "code.o"
        path.write_bytes(code)
        return subprocess.run(["llvm-objdump-19", "-d", "-t", "-h", str(path)], capture_output=True,
                              text=True).stdout.splitlines()
    return "\n".join(list(difflib.unified_diff(lines(theirs), lines(ours), "all of torch", "torch_device",
                                               lineterm=""))[:30])


@pytest.mark.slow
@pytest.mark.parametrize("path", corpus(), ids=lambda p: str(p.relative_to(REPO_ROOT)))
def test_torch_device_changes_no_code_object(path, tmp_path, monkeypatch):
    try:
        units = translation_units(path, instances.translation_unit)
    except SourceError as error:
        pytest.skip(f"nothing to compile: {error}")
    for number, unit in enumerate(units):
        folder = tmp_path / str(number)  # the same folder both ways: the line tables name it
        ours = _device_code(unit, folder)
        with monkeypatch.context() as patch:
            patch.setattr(hipcc, "DEVICE_TORCH_FLAGS", ())
            theirs = _device_code(unit, folder)
        assert ours == theirs, _difference(ours, theirs, tmp_path)
