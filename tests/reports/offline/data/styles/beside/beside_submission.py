# Test submission (imported by the report, never run on a GPU): the HIP source is a file beside
# this one, read relative to the working directory as the runner leaves it (the submission's own
# folder). Its kernel is `beside_kernel`.
from pathlib import Path

from torch.utils.cpp_extension import load_inline

module = load_inline(name="beside_style", cpp_sources="torch::Tensor run(torch::Tensor in, torch::Tensor out);",
                     cuda_sources=[Path("kernel.hip").read_text()], functions=["run"])
