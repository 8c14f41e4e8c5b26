"""What real leaderboard submissions do: asm labels bound to LLVM intrinsics, inline
asm, every load_inline argument, kernel shapes, and faults that must become clear errors."""
import pytest
import torch

from engines.source import EmulatorBuildError, EmulatorError
from engines.source.build import host_ldflags, translation_unit
from engines.source.preprocess import preprocess
from toolchain.flags import host_flags
from toolchain.load_call import from_load_inline


# ---- source rewrites (no build) ------------------------------------------------------------
def test_asm_label_declarations_become_calls_of_the_emulated_intrinsic():
    src = ('__device__ int32x4_t ld(int32x4_t rsrc, int voffset, int, int aux = 0)\n'
           '    __asm("llvm.amdgcn.raw.buffer.load.v4i32");\n'
           '__device__ void st(float, int32x4_t, int, int, int) __asm("llvm.amdgcn.struct.buffer.store.f32");\n'
           '__device__ void wait(int) __asm("llvm.amdgcn.s.waitcnt");\n'
           '__device__ int rfl(int) __asm("llvm.amdgcn.readfirstlane.i32");\n'
           '__device__ float odd(float) __asm("llvm.amdgcn.nothing.like.this");\n'
           'int after = 1;\n')
    out = preprocess(src, "x.hip")
    assert out.count("\n") == src.count("\n") + 1 and "int after = 1;" in out.splitlines()[7]
    assert "ld(int32x4_t p0, int p1, int p2, int p3 = 0)" in out
    assert "::emu::llvm::raw_buffer_load<16>(p0, p1, p2, p3)" in out
    assert "::emu::llvm::struct_buffer_store<4>(p0, p1, p2, p3, p4)" in out
    assert "wait(int p0) { }" in out and "__builtin_amdgcn_readfirstlane(p0)" in out
    assert 'not_emulated("llvm.amdgcn.nothing.like.this", "x.hip", 6)' in out


@pytest.mark.parametrize("asm,expected", [
    ('asm volatile("s_waitcnt lgkmcnt(0)" ::: "memory");', "((void)0);"),
    ('asm volatile("" : "+v"(x));', "((void)0);"),
    ('__asm__ __volatile__("s_setprio 1\\n\\ts_nop 2");', "((void)0);"),
    ('asm volatile("s_waitcnt vmcnt(0)\\n s_barrier" ::: "memory");', "(__syncthreads());"),
    ('asm volatile("s_memtime %0\\n s_waitcnt lgkmcnt(0)" : "=s"(t));', "((t) = __builtin_amdgcn_s_memtime());"),
    ('asm volatile("v_add_f32 %0, %1, %2" : "=v"(x) : "v"(x), "v"(x));',
     '::emu::inline_asm_reached("x.hip", 1, "v_add_f32 %0, %1, %2", "v_add_f32");'),
])
def test_inline_asm_statements(asm, expected):
    assert preprocess(asm, "x.hip").splitlines()[1] == expected


def test_launch_of_a_template_kernel_keeps_its_arguments_and_name():
    out = preprocess("void f(int* p) { k<64, Cfg<2>>\n<<<dim3(1), 1024>>>(p); }", "x.hip")
    assert '::emu::Launcher(dim3(1), 1024).named("k<64, Cfg<2>>")(k<64, Cfg<2>>\n, p)' in out


def test_own_pybind_module_and_functions_omitted():
    src = ('#include <pybind11/pybind11.h>\nint twice(int x) { return 2 * x; }\n'
           'PYBIND11_MODULE(TORCH_EXTENSION_NAME, mod) {\n  mod.def("twice", &twice);\n}\n')
    tu = translation_unit(from_load_inline("own", [], [src]))
    assert "void emu_user_module_own_hip0_hip(pybind11::module_& mod)" in tu
    assert "  emu_user_module_own_hip0_hip(m);" in tu and "PYBIND11_MODULE(TORCH" not in tu.split("binding.cpp")[0]


def test_host_code_sees_cpu_tensors_as_the_gpu():
    out = preprocess("bool f(at::Tensor t) { return t.is_cuda() && t.device().type() == at::kCUDA; }\n"
                     "auto g(at::Tensor t) { return t.cuda(); }", "x.cpp")
    assert "t.is_cpu() && t.device().type() == at::kCPU" in out and "t.cpu()" in out


def test_flags_meant_for_the_device_compiler_are_dropped():
    flags = ["-O3", "-Ofast", "-march=native", "-Werror", "-save-temps", "--save-temps", "-std=c++17",
             "--offload-arch=gfx942", "-mllvm", "-amdgpu-early-inline-all=true", "-ffast-math", "-DKEEP=1",
             "-I/some/where", "-Wall", "-x", "hip", "-munsafe-fp-atomics"]
    assert host_flags(flags) == ["-DKEEP=1", "-I/some/where", "-Wall"]
    assert host_flags("-O3 -DX") == ["-DX"]
    assert host_ldflags(["-L/opt/rocm/lib", "-lamdhip64", "-lhipblaslt", "-lm"]) == ["-lm"]


def test_file_scope_asm_is_refused_at_build_time():
    with pytest.raises(EmulatorBuildError, match=r"x.hip:2: cannot parse this asm"):
        preprocess("int x;\nasm;\n", "x.hip")


# ---- built and run -----------------------------------------------------------------------
def test_raw_buffer_intrinsics_and_scheduling_asm_run(real_world_module):
    src = torch.arange(64, dtype=torch.float32)
    out = torch.full((64,), -1.0)
    real_world_module.run_buffer_copy(src, out)
    assert out.tolist() == [2.0 * i for i in range(60)] + [0.0] * 4


def test_host_code_with_cuda_names_and_torch_stream_api(real_world_module):
    src = torch.ones(64)
    out = torch.zeros(64)
    real_world_module.run_cuda_names(src, out)
    assert out[:60].tolist() == [2.0] * 60


def test_hip_device_queries_answer_mi300x(real_world_module):
    out = torch.zeros(4, dtype=torch.int32)
    real_world_module.run_device_queries(out)
    assert out.tolist() == [304, 64, 65536, 1]


def test_workgroup_cooperative_groups_and_hip_ext_launch(real_world_module):
    out = torch.zeros(128, dtype=torch.int32)
    real_world_module.run_coop(out)
    assert out.tolist() == list(range(127, -1, -1))


def test_buffer_load_to_lds_intrinsic(real_world_module):
    src = torch.arange(64, dtype=torch.int32) * 10
    out = torch.full((64,), -1, dtype=torch.int32)
    real_world_module.run_lds_direct(src, out)
    assert out.tolist() == [10 * i + 1 for i in range(60)] + [0] * 4


def test_debug_clocks_advance(real_world_module):
    out = torch.zeros(64, dtype=torch.int32)
    real_world_module.run_clocks(out)
    assert out.tolist() == [1] * 64


def test_executed_general_asm_names_its_line(real_world_module):
    with pytest.raises(EmulatorError, match=r'inline assembly "v_mov_b32 %0, 1.0" at \S*\[cuda_sources\]:25 was executed'):
        real_world_module.run_general_asm(torch.zeros(64))


def test_calling_an_intrinsic_the_emulator_lacks_names_its_declaration(real_world_module):
    with pytest.raises(EmulatorError, match=r"llvm.amdgcn.not.a.real.intrinsic \(declared at \S*\[cuda_sources\]:8\)"):
        real_world_module.run_unknown_intrinsic(torch.zeros(64))


def test_stack_overflow_is_an_error_naming_kernel_and_launch(real_world_module):
    with pytest.raises(EmulatorError, match=r"work-item stack overflow .*EMU_STACK_KB.* in kernel overflow_stack "
                                            r"\(launched at \S*\[cuda_sources\]:\d+\), work-item \(0,0,0\).*"
                                            r"at \S*\[cuda_sources\]:3[1-4] \(in deep"):
        real_world_module.run_overflow(torch.zeros(64, dtype=torch.int32))


def test_wild_pointer_is_an_error_not_a_crash(real_world_module):
    with pytest.raises(EmulatorError, match=r"segmentation fault \(invalid memory access at address 0x10\) in kernel "
                                            r"wild_pointer .* work-item \(5,0,0\) at \S*\[cuda_sources\]:39 .*\(workgroup \(0,0,0\)\)"):
        real_world_module.run_wild_pointer(torch.zeros(64, dtype=torch.int32))


def test_persistent_kernel_with_1024_work_items(real_world_module):
    data = torch.randint(-100, 100, (6 * 1024,), dtype=torch.int32)
    out = torch.zeros(6, dtype=torch.int32)
    real_world_module.run_persistent(data, out)
    assert out.tolist() == data.view(6, 1024).sum(1).tolist()


def test_precompiled_prelude_only_for_flags_that_keep_it_valid(monkeypatch):
    from engines.source.build import BASE_FLAGS, prelude_pch
    assert prelude_pch(BASE_FLAGS, ["-fno-strict-aliasing"]) is None
    monkeypatch.setenv("EMU_PCH", "0")
    assert prelude_pch(BASE_FLAGS, ["-DX=1"]) is None


def test_a_users_build_error_leaves_the_precompiled_prelude_in_place():
    """The failed command names the .pch file: that alone must not count as a stale prelude
    (each must-fail build then cost a prelude rebuild and a second compile without it)."""
    import engines.source
    from engines.source.build import BASE_FLAGS, prelude_pch
    pch = prelude_pch(BASE_FLAGS, [])
    assert pch is not None
    built = pch.stat().st_mtime_ns
    with pytest.raises(EmulatorBuildError, match="undeclared identifier 'not_declared'"):
        engines.source.load_inline("pch_kept_probe", "void f();", "__global__ void k(int* x) { x[0] = not_declared; }\n"
                             "void f() {}", functions=["f"])
    assert pch.exists() and pch.stat().st_mtime_ns == built


def test_a_rejected_build_is_compiled_once(monkeypatch):
    """The compiler's error is kept with the build: the same inputs fail again without a compile
    (a must-fail case is built by several tests and stages)."""
    import engines.source
    from engines.source import build
    compiles = []
    compile_once = build.torch_load
    monkeypatch.setattr(build, "torch_load", lambda **kw: compiles.append(kw["name"]) or compile_once(**kw))
    errors = []
    for _ in range(2):
        with pytest.raises(EmulatorBuildError, match="undeclared identifier 'not_declared'") as failed:
            engines.source.load_inline("pch_kept_probe", "void f();", "__global__ void k(int* x) { x[0] = not_declared; }\n"
                                       "void f() {}", functions=["f"])
        errors.append(str(failed.value))
    assert len(compiles) <= 1 and errors[0] == errors[1]


def test_cpp_extension_load_of_source_files():
    import engines.source
    from tests.engines.source.conftest import DATA
    module = engines.source.load("load_files_scale", [str(DATA / "load_files" / "scale.hip")],
                           extra_cuda_cflags=["--offload-arch=gfx942", "-O3"])
    x = torch.arange(100, dtype=torch.float32)
    module.scale(x)
    assert x.tolist() == [3.0 * i for i in range(100)]
    with pytest.raises(EmulatorBuildError, match="not found: nowhere.hip"):
        engines.source.load("missing", ["nowhere.hip"])


def test_cpp_and_hip_sources_that_define_the_same_names_build_apart():
    import engines.source
    cpp = "constexpr int kScale = 2;\nvoid twice(torch::Tensor x);\nint scale() { return kScale; }\n"
    hip = ("#include <hip/hip_runtime.h>\nconstexpr int kScale = 2;\n"
           "__global__ void twice_kernel(float* x) { x[threadIdx.x] *= kScale; }\n"
           "void twice(torch::Tensor x) { twice_kernel<<<1, 64>>>(x.data_ptr<float>()); }\n")
    module = engines.source.load_inline("split_units", cpp, hip, functions=["twice", "scale"])
    x = torch.ones(64)
    module.twice(x)
    assert x.tolist() == [2.0] * 64 and module.scale() == 2
