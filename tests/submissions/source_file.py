#!POPCORN leaderboard amd-fp8-mm
#!POPCORN gpu MI300
# Corpus style: the HIP source read from a file beside the submission, an extra include path,
# build_directory, with_cuda, verbose and the flags competitors pass (-Ofast -march=native
# -Werror -save-temps, -std=c++17, -mllvm options).
import tempfile
from pathlib import Path

from torch.utils.cpp_extension import load_inline

HERE = Path(__file__).resolve().parent

module = load_inline(
    name="corpus_source_file",
    cpp_sources="void fp8_mm(torch::Tensor a, torch::Tensor b, torch::Tensor as, torch::Tensor bs, torch::Tensor c);",
    cuda_sources=(HERE / "source_file_kernel.hip").read_text(),
    functions=["fp8_mm"],
    with_cuda=True,
    verbose=True,
    build_directory=tempfile.mkdtemp(prefix="corpus_source_file_"),
    extra_include_paths=[str(HERE / "source_file_include")],
    extra_cflags=["-Ofast", "-march=native", "-Werror", "-save-temps"],
    extra_cuda_cflags=["--offload-arch=gfx942", "-std=c++17", "-O3", "-Werror", "-save-temps", "-ffast-math",
                       "-mllvm", "-amdgpu-early-inline-all=true", "-mllvm", "-amdgpu-function-calls=false"],
    extra_ldflags=["-L/opt/rocm/lib", "-lamdhip64"],
)


def custom_kernel(data):
    a, b, a_scale, b_scale, c = data
    module.fp8_mm(a, b, a_scale, b_scale, c)
    return c
