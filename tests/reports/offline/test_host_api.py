"""toolchain.host_api: a host API the CPU engines cannot serve is named in our own message,
in the first error of a failed build (both engines and the offline report use first_error)."""
import pytest

from toolchain import diagnostics, host_api

TORCH = "/usr/lib/python3/dist-packages/torch/include"


@pytest.mark.parametrize("error, name, family", [
    ("unknown type name 'hipGraph_t'", "hipGraph_t", "HIP graphs"),
    ("use of undeclared identifier 'hipModuleLoadData'", "hipModuleLoadData", "code-object modules"),
    ("use of undeclared identifier 'cudaGraphLaunch'", "cudaGraphLaunch", "HIP graphs"),
    ("no member named 'getCurrentCUDABlasHandle' in namespace 'at::cuda'", "at::cuda::getCurrentCUDABlasHandle",
     "the BLAS libraries"),
    ("'c10/hip/HIPCachingAllocator.h' file not found", "<c10/hip/HIPCachingAllocator.h>", "torch's device allocator"),
])
def test_a_missing_host_api_is_named_with_what_it_belongs_to(error, name, family):
    assert host_api.missing_name(error) == name
    assert host_api.hint(error) == host_api.message(name)
    assert host_api.message(name).startswith(f"{name} ({family}) is not available on the CPU engines")


@pytest.mark.parametrize("error", [
    "use of undeclared identifier 'my_helper'",
    "use of undeclared identifier 'hipDeviceSyncronize'; did you mean 'hipDeviceSynchronize'?",  # a typo
    "'my_kernel.h' file not found",
])
def test_a_users_own_name_or_typo_keeps_the_compilers_message(error):
    assert host_api.hint(error) is None


def test_the_first_error_inside_a_torch_cuda_header_points_at_the_users_include():
    output = "\n".join([
        "In file included from /work/sub.py:6:",
        f"In file included from {TORCH}/c10/cuda/CUDACachingAllocator.h:6:",
        f"{TORCH}/c10/cuda/CUDAMacros.h:9:10: fatal error: 'c10/cuda/impl/cuda_cmake_macros.h' file not found",
        "    9 | #include <c10/cuda/impl/cuda_cmake_macros.h>",
    ])
    first, hint = diagnostics.first_error(output).splitlines()
    assert first.startswith("sub.py:6: error: 'c10/cuda/impl/cuda_cmake_macros.h' file not found (in CUDAMacros.h:9)")
    assert hint == host_api.message("<c10/cuda/CUDACachingAllocator.h>") and len(hint) <= diagnostics.MAX_LINE


def test_the_first_error_at_the_users_line_carries_the_message():
    output = "\n".join([
        "/work/sub.py:8:3: error: unknown type name 'hipGraph_t'",
        "    8 |   hipGraph_t graph;",
        "      |   ^",
    ])
    assert diagnostics.first_error(output).splitlines() == [
        "sub.py:8:3: error: unknown type name 'hipGraph_t'", "    8 | hipGraph_t graph;", host_api.message("hipGraph_t")]
