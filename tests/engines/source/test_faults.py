"""Kernel bugs the emulator must expose: each raises EmulatorError naming the problem."""
import pytest
import torch

from engines.source import EmulatorBuildError, EmulatorError
from engines.source.preprocess import preprocess


def ints(n=128):
    return torch.zeros(n, dtype=torch.int32)


def test_divergent_cross_lane_op_names_both_sites(faults_module):
    with pytest.raises(EmulatorError, match=r"divergent.*lanes 0-31 at ds_bpermute.*\[cuda_sources\]:8.*lanes 32-63.*:9"):
        faults_module.divergent_shfl(ints(64))


def test_mfma_with_inactive_lanes(faults_module):
    with pytest.raises(EmulatorError, match=r"mfma_f32_16x16x32_fp8_fp8 executed with lanes 48-63 inactive"):
        faults_module.divergent_mfma(torch.zeros(64))


def test_barrier_not_reached_by_every_wave(faults_module):
    with pytest.raises(EmulatorError, match=r"deadlock: barrier .*\[cuda_sources\]:22.*waves 1 ended"):
        faults_module.barrier_exit(ints())


def test_waves_at_different_barriers(faults_module):
    with pytest.raises(EmulatorError, match=r"different barriers.*\[cuda_sources\]:29.*:31"):
        faults_module.barrier_mismatch(ints())


def test_lds_above_64k(faults_module):
    with pytest.raises(EmulatorError, match=r"LDS use above 64 KiB"):
        faults_module.lds_overflow(ints(64))


def test_workgroup_above_1024(faults_module):
    with pytest.raises(EmulatorError, match=r"2048 work-items above the gfx942 limit of 1024"):
        faults_module.big_block(ints(2048))


def test_missing_barrier_found_by_varied_schedules(faults_module, monkeypatch):
    monkeypatch.setenv("EMU_SCHEDULES", "3")  # read at each call of a module built without it
    checked = faults_module
    out = ints(64)
    checked.lds_race(out, 1)  # with the barrier: every schedule agrees
    assert out.tolist() == list(range(1, 65))
    with pytest.raises(EmulatorError, match=r"differs between wave schedules 0 and 1"):
        checked.lds_race(ints(64), 0)


def test_a_launch_that_makes_no_progress_is_stopped_naming_kernel_and_line(faults_module, monkeypatch):
    out = ints(64)
    faults_module.endless(out, 1)  # a good step ends
    monkeypatch.setenv("WORKBENCH_HANG_S", "1")
    with pytest.raises(EmulatorError, match=r"no wave reached .* for 1 s \(an endless loop.*kernel endless_kernel "
                                            r"\(launched at \S*\[cuda_sources\]:\d+\), work-item \(\d+,0,0\) was at "
                                            r"\S*\[cuda_sources\]:\d+ \(in endless_kernel"):
        faults_module.endless(out, 0)


def test_a_launch_stopped_inside_a_library_call_names_the_kernel_line_that_made_it(faults_module, monkeypatch):
    monkeypatch.setenv("WORKBENCH_HANG_S", "1")
    scratch = torch.zeros(1 << 22, dtype=torch.uint8)
    with pytest.raises(EmulatorError, match=r"kernel endless_fill_kernel .* was at \S*\[cuda_sources\]:\d+ "
                                            r"\(in endless_fill_kernel"):
        faults_module.endless_fill(ints(64), scratch, 0)


def test_the_stage_deadline_stops_a_launch_naming_kernel_and_line(faults_module, monkeypatch):
    import time
    monkeypatch.setenv("WORKBENCH_DEADLINE", str(time.time() + 1))
    with pytest.raises(EmulatorError, match=r"the stage's time limit ran out in this launch: kernel endless_kernel.* "
                                            r"was at \S*\[cuda_sources\]:\d+"):
        faults_module.endless(ints(64), 0)


def test_wave_barrier_orders_lanes_of_a_wave(faults_module):
    out = ints(64)
    faults_module.wave_sync_ok(out)
    assert out.tolist() == [(63 - l) * 2 for l in range(64)]


@pytest.mark.parametrize("source,message", [
    ("__global__ void k() {\n __builtin_amdgcn_s_setreg(1, 0); }", r"x.hip:2: __builtin_amdgcn_s_setreg \(MODE register access\) is not emulated"),
])
def test_unsupported_constructs_fail_at_build_time(source, message):
    with pytest.raises(EmulatorBuildError, match=message):
        preprocess(source, "x.hip")


def test_rewrites_keep_line_numbers():
    src = "__global__ void k(int* p) {\n  __shared__ float t[4][8], u[2];\n  extern __shared__ int d[]; p[0] = t[0][0] + u[0];\n}\n" \
          "void f(int* p) {\n  k<<<dim3(1, 2),\n     64>>>(p);\n}\n"
    out = preprocess(src, "x.hip")
    assert out.count("\n") == src.count("\n") + 1
    assert "auto& t = ::emu::lds_var<float[4][8]>" in out and "auto& u = ::emu::lds_var<float[2]>" in out
    assert "int* const d = ::emu::dynamic_lds<int>();" in out
    assert '::emu::Launcher(dim3(1, 2),\n     64).named("k", "p")(k, p)' in out  # and its parameters' names


def test_unemulated_builtin_becomes_a_stub_that_fails_when_called():
    out = preprocess("__global__ void k() {\n int x = __builtin_amdgcn_permlane16(0, 0, 0, 0, 0, 0); }", "x.hip")
    assert '::emu::NotEmulated{"__builtin_amdgcn_permlane16", "x.hip", 2}(0, 0' in out


def test_shared_arrays_only_stored_to_take_no_lds():
    out = preprocess("__global__ void k(float* o) {\n  __shared__ float a[4], b[4], c[4];\n"
                     "  a[0] = 1; b[1] = 2; c[2] = b[1]; o[0] = c[2];\n}\n", "x.hip")
    assert "auto& a = ::emu::unused_lds_var<float[4]>" in out
    assert "auto& b = ::emu::lds_var<float[4]>" in out and "auto& c = ::emu::lds_var<float[4]>" in out
