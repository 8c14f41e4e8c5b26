# Test submission (imported by the report, never run on a GPU): load_inline with every option
# real submissions pass: a build directory, with_cuda, verbose, extra_include_paths (relative,
# as load_inline accepts them), host tuning flags in extra_cflags (-Ofast -march=native, which
# torch also hands the HIP compile), and -Werror -save-temps for the device. The kernel,
# `flags_kernel`, needs the include path and must compile warning-free.
import tempfile

from torch.utils.cpp_extension import load_inline

SOURCE = """
#include <hip/hip_runtime.h>
#include "flags_tile.h"

__global__ void __launch_bounds__(kFlagsTile) flags_kernel(float* out) {
    out[blockIdx.x * kFlagsTile + threadIdx.x] = 1.0f;
}
"""

module = load_inline(
    name="flags_style",
    cpp_sources=[],
    cuda_sources=[SOURCE],
    build_directory=tempfile.mkdtemp(),
    with_cuda=True,
    verbose=True,
    extra_include_paths=["include"],
    extra_cflags=["-Ofast", "-march=native"],
    extra_cuda_cflags=["--offload-arch=gfx942", "-std=c++20", "-Werror", "-save-temps"],
)
