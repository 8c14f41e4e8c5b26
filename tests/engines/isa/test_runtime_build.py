"""The ISA engine's build of load_inline arguments (fast: no compile)."""
from __future__ import annotations

import pytest

from engines.isa import bundle
from engines.isa.build import build, extension
from engines.isa.errors import IsaBuildError
from toolchain.load_call import from_load_inline


def test_bundle_holds_an_empty_host_entry_and_the_code_object():
    code = b"\x7fELF" + bytes(range(256)) * 20
    data = bundle.write_bundle({"gfx942": code})
    entries = bundle.read_bundle(data)
    assert data.index(code) % bundle.ALIGNMENT == 0
    assert entries == {"host-x86_64-unknown-linux-gnu-": b"", "hipv4-amdgcn-amd-amdhsa--gfx942": code}


def test_hip_flags_are_the_runners():
    ext = extension(from_load_inline("probe", "int f();", "__global__ void k() {}", functions=["f"], extra_cuda_cflags=["--offload-arch=gfx942", "-std=c++20"]))
    assert ext.hip_flags.count("--offload-arch=gfx942") == 1
    assert "-O3" in ext.hip_flags and "-DUSE_ROCM=1" in ext.hip_flags and "-fno-gpu-rdc" in ext.hip_flags
    assert 'm.def("f", torch::wrap_pybind_function(f), "f");' in ext.main_cpp
    assert ext.main_cpp.startswith("#include <torch/extension.h>")


def test_an_explicit_optimisation_level_replaces_hipccs_default():
    ext = extension(from_load_inline("probe", "", "__global__ void k() {}", extra_cuda_cflags=["-O1"]))
    assert "-O1" in ext.hip_flags and "-O3" not in ext.hip_flags


def test_the_arch_is_added_when_the_flags_name_none():
    assert "--offload-arch=gfx942" in extension(from_load_inline("probe", "", "__global__ void k() {}")).hip_flags


def test_the_users_arch_is_replaced_by_gfx942():
    flags = extension(from_load_inline("probe", "", "__global__ void k() {}", extra_cuda_cflags=["--offload-arch=gfx90a"])).hip_flags
    assert "--offload-arch=gfx942" in flags and "--offload-arch=gfx90a" not in flags


def test_cuda_sources_are_hipified_behind_load_inlines_prelude():
    ext = extension(from_load_inline("probe", "", "__global__ void k(float* p) {}\nvoid f(float* p) { cudaMemset(p, 0, 4); }"))
    assert "hipMemset(p, 0, 4)" in ext.hip and "cudaMemset" not in ext.hip
    assert ext.hip.index("#include <torch/types.h>") < ext.hip.index("__global__")


def test_no_implicit_headers_leaves_the_sources_alone():
    ext = extension(from_load_inline("probe", "int f();", None, no_implicit_headers=True))
    assert ext.hip is None and "#include <torch/extension.h>" not in ext.main_cpp


def test_a_compile_error_names_the_submissions_own_line(tmp_path):
    submission = tmp_path / "submission.py"
    submission.write_text('SOURCE = """\n__global__ void k(float* p) {\n  p[0] = undeclared;\n}\n"""\n')
    ext = extension(from_load_inline("probe", "", ['\n__global__ void k(float* p) {\n  p[0] = undeclared;\n}\n'],
                                     build_directory=tmp_path / "build"), submission)
    with pytest.raises(IsaBuildError, match=f"{submission.name}:3:10: error: .*undeclared"):  # the failed row leads with it
        build(ext, tmp_path / "libisa_hip-unused.so")


def test_processes_building_the_same_extension_take_turns(tmp_path):
    """A second build of the same inputs waits for the first instead of writing beside it."""
    import threading
    import time

    from toolchain.lock import exclusive

    order = []

    def hold(label: str, seconds: float):
        with exclusive(tmp_path / "ext"):
            order.append(f"{label} in")
            time.sleep(seconds)
            order.append(f"{label} out")

    first = threading.Thread(target=hold, args=("first", 0.3))
    first.start()
    time.sleep(0.1)
    hold("second", 0)
    first.join()
    assert order == ["first in", "first out", "second in", "second out"]


def test_a_call_through_an_installed_package_is_attributed_to_its_caller():
    """load_inline reached through a task runner (Ray, in predictor) names no file of that
    package as the submission: its #line directives, and so the build's cache key, stay put."""
    import sysconfig
    from pathlib import Path

    import yaml

    from toolchain.diagnostics import calling_file as caller_file

    installed = Path(yaml.__file__)
    assert str(installed).startswith(sysconfig.get_path("purelib"))
    scope: dict = {"caller_file": caller_file}
    exec(compile("def through_package():\n    return caller_file()\n", str(installed), "exec"), scope)
    assert scope["through_package"]() == Path(__file__)


def test_sources_the_compiler_refused_are_refused_again_without_compiling(tmp_path, monkeypatch):
    import subprocess

    from engines.isa import build as isa_build

    ext = extension(from_load_inline("probe", "", ["__global__ void k(float* p) { p[0] = undeclared; }\n"],
                                     build_directory=tmp_path / "build"))
    with pytest.raises(isa_build.CompileError) as first:
        build(ext, tmp_path / "libisa_hip-unused.so")

    def no_compiler(*args, **kwargs):
        raise AssertionError("compiled again")
    monkeypatch.setattr(isa_build.subprocess, "run", no_compiler)
    with pytest.raises(isa_build.CompileError) as again:
        build(ext, tmp_path / "libisa_hip-unused.so")
    assert str(again.value) == str(first.value) and "undeclared" in str(again.value)

    killed = extension(from_load_inline("probe", "", ["__global__ void k() {}\n"], build_directory=tmp_path / "killed"))
    monkeypatch.setattr(isa_build.subprocess, "run", lambda *a, **k: subprocess.CompletedProcess(a, -9, "", "Killed"))
    for _ in range(2):  # a compiler killed by a signal is not a verdict on the sources: nothing is recorded
        with pytest.raises(IsaBuildError) as failure:
            build(killed, tmp_path / "libisa_hip-unused.so")
        assert not isinstance(failure.value, isa_build.CompileError)
    assert not list((tmp_path / "killed").glob("refused-*"))


def test_a_build_has_one_key_in_every_clone_and_folder(tmp_path, monkeypatch):
    """The key holds no path of the clone (its include flags) or of the calling file's folder
    (#line directives): a second clone, or a copy of the file elsewhere, finds the first one's build."""
    from pathlib import Path

    from engines.isa import build as isa_build

    text = 'SOURCE = """\n__global__ void k(float* p) { p[0] = 1; }\n"""\n'
    origins = [tmp_path / folder / "submission.py" for folder in ("a", "b")]
    for origin in origins:
        origin.parent.mkdir()
        origin.write_text(text)
    call = from_load_inline("probe", "", ["\n__global__ void k(float* p) { p[0] = 1; }\n"])
    first, second = (extension(call, origin) for origin in origins)
    assert str(origins[0].parent) in first.hip and first.digest() == second.digest()

    clone = Path("/elsewhere/clone")
    moved = isa_build.Extension(**{**vars(first), **{flags: [f.replace(str(isa_build.REPO_ROOT), str(clone))
                                                             for f in getattr(first, flags)]
                                                     for flags in ("cpp_flags", "hip_flags")}})
    assert moved.cpp_flags != first.cpp_flags and moved.hip_flags != first.hip_flags
    key = first.digest()
    monkeypatch.setattr(isa_build, "REPO_ROOT", clone)
    assert moved.digest() == key
