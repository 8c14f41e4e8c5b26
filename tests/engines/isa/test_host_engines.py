"""The simulated MI300X host is the same on both CPU engines: the device attributes they answer
(machine/hip_attributes.h), the message naming one they cannot, and torch's C++ torch::cuda."""
from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

pytestmark = pytest.mark.skipif(shutil.which("clang++-19") is None, reason="needs clang-19")

ATTRIBUTES = ["MultiprocessorCount", "MaxRegistersPerBlock", "CooperativeLaunch", "L2CacheSize", "PciBusId",
              "SharedMemPerBlockOptin", "MaxGridDimY", "MaxTexture1DWidth", "Luid"]
UNANSWERED = {"MaxTexture1DWidth", "Luid"}  # texture and driver facts: nothing a GEMM needs
TORCH_CUDA = r"""
#include <torch/cuda.h>
std::vector<int64_t> torch_cuda() {
  torch::cuda::synchronize();
  torch::cuda::manual_seed(7);
  auto x = torch::zeros({4}, torch::TensorOptions().device(torch::Device("cuda:0")));  // "cuda" is the simulated GPU
  return {int64_t(torch::cuda::device_count()), torch::cuda::is_available(), x.to("cuda").numel()};
}
"""
HIP = "#include <hip/hip_runtime.h>\n#include <string>\n" + TORCH_CUDA + "\n".join(
    f"int64_t {name}() {{ int v = -1; (void)hipDeviceGetAttribute(&v, hipDeviceAttribute{name}, 0); return v; }}"
    for name in ATTRIBUTES)
CPP = "\n".join(f"int64_t {name}();" for name in ATTRIBUTES) + "\nstd::vector<int64_t> torch_cuda();"
SHARED_LIST = Path(__file__).resolve().parents[3] / "machine" / "hip_attributes.h"
HIP_API = Path("/usr/include/hip/hip_runtime_api.h")


@pytest.fixture(scope="module")
def engines() -> dict:
    import engines.source
    import engines.isa

    return {name: load("host_probe", CPP, HIP, functions=[*ATTRIBUTES, "torch_cuda"],
                       extra_cuda_cflags=["--offload-arch=gfx942"])
            for name, load in (("source", engines.source.load_inline), ("isa", engines.isa.load_inline))}


def answers(module) -> dict[str, object]:
    out = {}
    for name in ATTRIBUTES:
        try:
            out[name] = getattr(module, name)()
        except RuntimeError as exc:
            out[name] = str(exc)
    return out


def test_both_engines_answer_the_same_device_attributes(engines):
    source, isa = answers(engines["source"]), answers(engines["isa"])
    assert source == isa
    assert source["MultiprocessorCount"] == 304 and source["CooperativeLaunch"] == 1
    assert all(isinstance(source[name], int) and source[name] >= 0 for name in set(ATTRIBUTES) - UNANSWERED)


def test_an_attribute_the_host_cannot_answer_is_named(engines):
    for engine in engines.values():
        for name in UNANSWERED:
            assert answers(engine)[name].startswith(
                f"hipDeviceGetAttribute(hipDeviceAttribute{name}) (HIP runtime) is not available on the CPU engines")


@pytest.mark.skipif(not HIP_API.exists(), reason="needs Debian's HIP headers (libamdhip64-dev)")
def test_the_source_engines_attribute_names_are_hips():
    enum = re.search(r"typedef enum hipDeviceAttribute_t \{(.*?)\} hipDeviceAttribute_t", HIP_API.read_text(), re.S)
    hips = [n for n in re.findall(r"^\s*hipDeviceAttribute(\w+)", enum[1], re.M) if not re.search(r"(Begin|End)$", n)]
    listed = SHARED_LIST.read_text().split("#define MACHINE_HIP_DEVICE_ATTRIBUTES(X)")[1].split("\n\n")[0]
    assert re.findall(r"X\((\w+)\)", listed) == hips


def test_torch_cuda_in_host_code_is_the_simulated_gpu(engines):
    for engine in engines.values():
        assert engine.torch_cuda() == [1, 1, 4]  # device_count, is_available, a tensor on "cuda"
