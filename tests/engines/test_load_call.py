"""torch's load_inline and load, read once (toolchain/load_call.py) and built alike by both engines."""
import warnings

import pytest

import engines.isa
import engines.source
from toolchain import load_call
from toolchain.load_call import CallError, from_load, from_load_inline

ENGINES = [engines.source, engines.isa]
BUILD_ERRORS = {engines.source: engines.source.EmulatorBuildError, engines.isa: engines.isa.IsaBuildError}


def test_a_call_is_bound_as_the_installed_torch_binds_it(tmp_path):
    call = from_load_inline("m", "int f();", "__global__ void k() {}", functions="f", extra_cflags=[" -O1 "],
                            extra_include_paths=["rel"], with_pytorch_error_handling=False)
    assert call.cpp_sources == ["int f();"] and call.cuda_sources == ["__global__ void k() {}"]
    assert call.functions == {"f": "f"} and call.extra_cflags == ["-O1"] and not call.with_pytorch_error_handling
    assert call.extra_include_paths[0].endswith("/rel") and call.extra_include_paths[0].startswith("/")
    assert from_load_inline("m", "", functions={"f": "doc"}).functions == {"f": "doc"}
    with pytest.raises(CallError, match="sycl_sources cannot be built"):
        from_load_inline("m", "", sycl_sources="kernel")
    with pytest.raises(CallError, match=r"load_inline\(name, cpp_sources.*unexpected keyword argument 'colour'"):
        from_load_inline("m", "", colour="red")
    with pytest.raises(CallError, match="'functions' must be a list or dict, not int"):
        from_load_inline("m", "", functions=3)


def test_load_reads_its_files_as_the_load_inline_call_they_amount_to(tmp_path):
    (tmp_path / "k.hip").write_text("__global__ void k() {}\n")
    (tmp_path / "bind.cpp").write_text("int f();\n")
    call = from_load("m", [str(tmp_path / "bind.cpp"), str(tmp_path / "k.hip")], extra_include_paths=["/inc"])
    assert call.cuda_sources == ["__global__ void k() {}\n"] and call.cpp_sources == ["int f();\n"]
    assert call.no_implicit_headers and call.functions is None
    assert call.extra_include_paths == [str(tmp_path.resolve()), "/inc"]  # quoted includes beside the files resolve
    with pytest.raises(CallError, match=r"load\('m'\): source file\(s\) not found: .*missing.cu"):
        from_load("m", [str(tmp_path / "missing.cu")])


def test_bindings_wrap_each_function_in_torchs_error_handling_unless_told_not_to():
    call = from_load_inline("m", "", functions=["f"])
    assert load_call.bindings(call) == ['  m.def("f", torch::wrap_pybind_function(f), "f");']
    bare = from_load_inline("m", "", functions=["f"], with_pytorch_error_handling=False)
    assert load_call.bindings(bare, lambda name: f"wrap({name})") == ['  m.def("f", wrap(f), "f");']


@pytest.mark.parametrize("engine", ENGINES, ids=lambda e: e.__name__)
def test_both_engines_take_the_same_calls_and_refuse_the_same_ones(engine):
    assert callable(engine.load_inline) and callable(engine.load)
    with pytest.raises(BUILD_ERRORS[engine], match="sycl_sources cannot be built"):
        engine.load_inline("m", "", sycl_sources="kernel")


@pytest.mark.parametrize("engine", ENGINES, ids=lambda e: e.__name__)
def test_with_pytorch_error_handling_decides_whether_a_torch_warning_reaches_python(engine, one_source_schedule):
    source = '#include <torch/extension.h>\nint64_t warn(int64_t x) { TORCH_WARN("careful with ", x); return x; }\n'
    heard = []
    for handling in (True, False):
        module = engine.load_inline(f"warning_{int(handling)}", source, functions=["warn"],
                                    with_pytorch_error_handling=handling)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            assert module.warn(3) == 3
        heard.append([str(w.message) for w in caught if "careful with 3" in str(w.message)])
    assert heard[0] and not heard[1]
