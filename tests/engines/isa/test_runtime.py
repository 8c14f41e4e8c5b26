"""The ISA engine's HIP runtime, around a test double of the core (runtime_double.cpp).

The double executes nothing; it writes what reached it into the kernel's first argument, so
these tests see what the runtime made of the host code's launches and API calls. The first
run builds the runtime and one extension (a minute or two on 2 cores); later runs hit the cache.
"""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest
import torch

from engines.isa import IsaBuildError, IsaFault, build, loader
from toolchain.load_call import from_load_inline

DOUBLE = Path(__file__).with_name("runtime_double.cpp")

HIP = r"""
#include <hip/hip_runtime.h>
#include <cstdint>
#include <string>
#include <vector>

__global__ void probe(float* out) { out[threadIdx.x] = 1.0f; }
__global__ void probe_fault(float* out) { out[0] = 2.0f; }
void not_a_kernel(float*) {}

bool launch_config_at(float* out) {
  probe<<<dim3(3, 2, 1), dim3(64, 2), 128, hipStream_t{}>>>(out);
  return hipGetLastError() == hipSuccess;
}

void launch_probe(float* out) { probe<<<1, 64>>>(out); }

void launch_fault_at(float* out, bool swallow) {
  if (!swallow) {
    probe_fault<<<1, 64>>>(out);
    return;
  }
  try {
    probe_fault<<<1, 64>>>(out);
  } catch (...) {
  }
}

std::string bad_block_at(float* out) {
  probe<<<1, 2048>>>(out);
  return hipGetErrorName(hipGetLastError());
}

std::string unregistered_at(float* p) {
  void* args[] = {&p};
  return hipGetErrorName(hipLaunchKernel(reinterpret_cast<const void*>(&not_a_kernel), dim3(1), dim3(64), args, 0, 0));
}

std::vector<int64_t> device_facts() {
  hipDeviceProp_t p;
  int count = 0, cus = 0;
  if (hipGetDeviceProperties(&p, 0) != hipSuccess || hipGetDeviceCount(&count) != hipSuccess) return {};
  if (hipDeviceGetAttribute(&cus, hipDeviceAttributeMultiprocessorCount, 0) != hipSuccess) return {};
  return {p.multiProcessorCount, cus, p.warpSize, int64_t(p.sharedMemPerBlock), p.maxThreadsPerBlock,
          std::string(p.gcnArchName).rfind("gfx942", 0) == 0, count};
}

std::vector<int64_t> memory_streams_events() {
  void* d = nullptr;
  unsigned char host[1000];
  hipStream_t stream;
  hipEvent_t start, stop;
  float ms = -1;
  int failures = 0;
  failures += hipMalloc(&d, 1000) != hipSuccess;
  failures += hipStreamCreate(&stream) != hipSuccess;
  failures += hipEventCreate(&start) != hipSuccess || hipEventCreate(&stop) != hipSuccess;
  failures += hipEventRecord(start, stream) != hipSuccess;
  failures += hipMemsetAsync(d, 7, 1000, stream) != hipSuccess;
  failures += hipMemcpyAsync(host, d, 1000, hipMemcpyDeviceToHost, stream) != hipSuccess;
  failures += hipEventRecord(stop, stream) != hipSuccess || hipStreamSynchronize(stream) != hipSuccess;
  failures += hipEventSynchronize(stop) != hipSuccess || hipEventElapsedTime(&ms, start, stop) != hipSuccess;
  const int64_t aligned = reinterpret_cast<uintptr_t>(d) % 256 == 0;
  failures += hipFree(d) != hipSuccess || hipStreamDestroy(stream) != hipSuccess;
  failures += hipEventDestroy(start) != hipSuccess || hipEventDestroy(stop) != hipSuccess;
  return {failures, aligned, host[0], host[999], ms >= 0};
}
"""
# NOTE: the HIP source stays free of torch (no_implicit_headers; pointers in) and the bindings
# make the tensors, so the build parses torch's headers in the PCH'd bindings only (torch's API in
# HIP host code is test_host_engines.py's probe).
CPP = """#include <torch/extension.h>
bool launch_config_at(float* out);
void launch_probe(float* out);
void launch_fault_at(float* out, bool swallow);
std::string bad_block_at(float* out);
std::string unregistered_at(float* out);
std::vector<int64_t> device_facts();
std::vector<int64_t> memory_streams_events();
torch::Tensor launch_config(torch::Tensor out) {
  TORCH_CHECK(launch_config_at(out.data_ptr<float>()), "launch failed");
  return out;
}
torch::Tensor launch_into_new_tensor() {
  auto out = torch::zeros({8}, torch::dtype(torch::kFloat32));
  launch_probe(out.data_ptr<float>());
  return out;
}
void launch_fault(torch::Tensor out, bool swallow) { launch_fault_at(out.data_ptr<float>(), swallow); }
std::string bad_block(torch::Tensor out) { return bad_block_at(out.data_ptr<float>()); }
std::string unregistered(torch::Tensor out) { return unregistered_at(out.data_ptr<float>()); }
"""
FUNCTIONS = ["launch_config", "launch_into_new_tensor", "launch_fault", "bad_block", "unregistered",
             "device_facts", "memory_streams_events"]


def built(ext: build.Extension):
    """The extension built against the test-double core's runtime and loaded."""
    runtime = build.runtime_library([DOUBLE])
    return loader.load(*build.build(ext, runtime), runtime)


def probe_extension() -> build.Extension:
    return build.extension(from_load_inline("isa_runtime_probe", CPP, HIP, functions=FUNCTIONS, no_implicit_headers=True,
                                            extra_cuda_cflags=["--offload-arch=gfx942", "-std=c++20"]))


@pytest.fixture(scope="module")
def module():
    ext = probe_extension()
    return built(ext)


def test_a_launch_reaches_the_engine_with_its_configuration(module):
    out = torch.zeros(8)
    launches = module.isa_launch_count()
    module.launch_config(out)
    grid, block, lds, known = out[:3].tolist(), out[3:6].tolist(), out[6].item(), out[7].item()
    assert (grid, block, lds) == ([3, 2, 1], [64, 2, 1], 128)
    assert known == 1, "the tensor argument was not a known allocation"
    assert module.isa_launch_count() == launches + 1


def test_a_tensor_the_extension_allocates_is_a_known_allocation(module):
    assert module.launch_into_new_tensor()[7].item() == 1


def test_a_fault_reaches_python_as_isafault_naming_the_kernel(module):
    with pytest.raises(IsaFault, match=r"launch_fault\(\).*probe_fault faulted on purpose"):
        module.launch_fault(torch.zeros(8), False)


def test_a_fault_the_submission_swallows_still_fails_the_call(module):
    with pytest.raises(IsaFault, match="carried on"):
        module.launch_fault(torch.zeros(8), True)
    assert module.launch_into_new_tensor()[7].item() == 1  # the fault is not raised twice


def test_a_bad_launch_configuration_is_an_error_not_a_launch(module):
    out = torch.zeros(8)
    assert module.bad_block(out) == "hipErrorInvalidConfiguration"
    assert out.eq(0).all()


def test_a_host_function_is_not_a_kernel(module):
    assert module.unregistered(torch.zeros(8)) == "hipErrorInvalidDeviceFunction"


def test_the_device_is_an_mi300x(module):
    cus, attribute_cus, wave, lds, block, gfx942, count = module.device_facts()
    assert (cus, attribute_cus, wave, lds, block, gfx942, count) == (304, 304, 64, 65536, 1024, 1, 1)


def test_memory_streams_and_events(module):
    failures, aligned, first, last, elapsed_ok = module.memory_streams_events()
    assert (failures, aligned, first, last, elapsed_ok) == (0, 1, 7, 7, 1)


def test_a_second_load_comes_from_the_cache(module, capfd):
    ext = probe_extension()
    build.build(ext, build.runtime_library([DOUBLE]))
    assert "compiling" not in capfd.readouterr().err


def test_another_runtime_relinks_the_compiled_objects_without_compiling_them_again(module, capfd):
    ext = probe_extension()
    engine = build.runtime_library()  # the real engine: another runtime than the double the fixture linked
    capfd.readouterr()
    relinked, _ = build.build(ext, engine)
    assert "compiling" not in capfd.readouterr().err
    assert relinked != build.build(ext, build.runtime_library([DOUBLE]))[0]
    assert relinked.parent == Path(module.__file__).parent  # one build directory, one link per runtime


def test_a_hip_call_the_runtime_lacks_is_named_at_load():
    hip = "#include <hip/hip_runtime.h>\nvoid pci(char* id) { (void)hipDeviceGetPCIBusId(id, 16, 0); }"
    ext = build.extension(from_load_inline("isa_runtime_lacks", "void pci(char* id);", hip, no_implicit_headers=True,
                                           extra_cuda_cflags=["--offload-arch=gfx942"]))  # no torch in the HIP source: a build of seconds
    with pytest.raises(IsaBuildError, match=r"\nhipDeviceGetPCIBusId \(HIP runtime\) is not available on the CPU engines"):
        built(ext)


def test_a_runtime_around_another_core_compiles_that_core_alone(tmp_path, capfd):
    cores = [tmp_path / name / "runtime_double.cpp" for name in ("first", "second")]
    for core in cores:  # two cores no run has built before
        core.parent.mkdir()
        core.write_text(DOUBLE.read_text() + f"\n// another core: {core.parent}\n")
    first = build.runtime_library(cores[:1])  # the runtime's own objects are cached after this, if not before
    capfd.readouterr()
    library = build.runtime_library(cores[1:])
    compiled = [line for line in capfd.readouterr().err.splitlines() if "compiling the ISA engine runtime" in line]
    assert library.exists() and len(compiled) == 1 and compiled[0].endswith("runtime_double.cpp"), compiled
    for made in (first, library):  # libraries of cores no later run will ask for
        shutil.rmtree(made.parent)
        made.parent.with_name(made.parent.name + ".lock").unlink(missing_ok=True)
