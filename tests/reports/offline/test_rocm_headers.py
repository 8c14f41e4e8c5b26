"""Every header the runner's ROCm 6.3 has (toolchain/rocm_headers.txt) resolves and compiles in
the offline report and on both engines; a stand-in stops the compile only where a name from a
library we cannot have is used."""
import subprocess
import sys

import pytest

from reports.offline import CompileError, report
from toolchain import headers

# HCC-era and gcc-host headers ROCm 6.3 still ships but that fail to compile beside
# <hip/hip_runtime.h> with clang on the runner too (they include hc.hpp / hc_defines.h, or
# redefine __half): they resolve to the real file, whose error is the runner's.
NOT_INCLUDABLE_ON_THE_RUNNER = {
    "hip/amd_detail/functional_grid_launch.hpp", "hip/amd_detail/grid_launch.h", "hip/amd_detail/grid_launch.hpp",
    "hip/amd_detail/grid_launch_GGL.hpp", "hip/amd_detail/macro_based_grid_launch.hpp",
    "hip/amd_detail/hip_fp16_gcc.h",
}
# CK's real headers (toolchain/ck.py), where fetched, are the runner's files: some of them do not
# compile on their own (flush_cache.hpp lacks an include of static_for), there as here.
REAL_CK = bool(headers.library_dirs())
LAUNCHER = """
__global__ void every_header_kernel(float* out) { out[threadIdx.x] = float(threadIdx.x); }
torch::Tensor run(torch::Tensor out) {
  hipLaunchKernelGGL(every_header_kernel, dim3(1), dim3(64), 0, 0, out.data_ptr<float>());
  return out;
}
"""


def every_include() -> str:
    listed = [h for h in headers.all_headers()
              if h not in NOT_INCLUDABLE_ON_THE_RUNNER and not (REAL_CK and h.startswith("ck/"))]
    return "#include <hip/hip_runtime.h>\n" + "".join(f"#include <{h}>\n" for h in listed)


def test_the_list_covers_every_library_a_submission_includes():
    counts = {library: len(found) for library, found in headers.listed().items()}
    assert set(counts) == set(headers.ENTRY_POINTS) and all(n > 0 for n in counts.values()), counts
    assert counts["hip"] > 60 and counts["ck"] > 300 and counts["rocprim"] > 100, counts
    for seen_in_a_real_submission in ("hip/amd_detail/amd_warp_sync_functions.h", "ck/utility/amd_buffer_addressing.hpp",
                                      "hipblas-common/hipblas-common.h", "rocwmma/rocwmma_coop.hpp"):
        assert seen_in_a_real_submission in headers.all_headers()


def test_generated_stand_ins_are_deterministic_and_checked(tmp_path):
    real = headers.isa_real_dirs()
    first, second = headers.standin_texts(real), headers.standin_texts(real)
    assert first == second and headers.standin_dir("isa", real) == headers.standin_dir("isa", real)
    folder = headers.standin_dir("isa", real)
    assert {str(p.relative_to(folder)) for p in folder.rglob("*") if p.is_file()} == set(first)
    assert "hip/hip_runtime.h" not in first, "a header Debian ships is never replaced"
    assert "#include <hipcub/hipcub.hpp>" in first["hipcub/block/block_reduce.hpp"]
    assert ("ck/utility/amd_buffer_addressing.hpp" in first) != REAL_CK
    check = subprocess.run([sys.executable, "-m", "toolchain.headers", "--check"], capture_output=True, text=True)
    assert check.returncode == 0, check.stderr


def test_every_header_compiles_in_the_offline_report(tmp_path):
    (tmp_path / "every_header.hip").write_text(every_include() + LAUNCHER.split("torch::Tensor")[0])
    (kernel,) = report(tmp_path / "every_header.hip")
    assert kernel.name == "every_header_kernel"
    assert {"hipcub", "rocprim", "rocwmma", "hipblaslt"} <= set(kernel.standins.split(", "))


@pytest.mark.parametrize("use, symbol", [
    ("using Scan = rocprim::block_scan<int, 64>;", "rocprim"),
    pytest.param("using Int4 = ck::int32x4_t;", "ck",
                 marks=pytest.mark.skipif(REAL_CK, reason="CK's real headers are on this machine")),
    ("using Coop = decltype(rocwmma::load_matrix_coop_sync<0>);", "load_matrix_coop_sync"),
])
def test_a_name_from_a_stand_in_fails_named(tmp_path, use, symbol):
    (tmp_path / "uses.hip").write_text(every_include() + use + "\n")
    with pytest.raises(CompileError) as failure:
        report(tmp_path / "uses.hip")
    assert symbol in str(failure.value) and f"uses.hip:{every_include().count(chr(10)) + 1}:" in str(failure.value)


@pytest.mark.parametrize("engine", ["engines.source", "engines.isa"])
def test_every_header_builds_and_runs_on_both_engines(engine):
    import importlib

    import torch

    module = importlib.import_module(engine).load_inline(
        "every_header", "torch::Tensor run(torch::Tensor out);", every_include() + LAUNCHER, functions=["run"],
        extra_cuda_cflags=["--offload-arch=gfx942", "-std=c++20"])
    assert torch.equal(module.run(torch.zeros(64)), torch.arange(64, dtype=torch.float32))
