# Test submission (imported by the report, never run on a GPU): its HIP source travels zlib-compressed
# and base64-encoded, as some leaderboard submissions ship it. Only importing the file reveals
# the kernel, `zlib_kernel`; tests/reports/offline/test_styles.py checks the report compiles it.
import base64
import zlib

from task import input_t, output_t
from torch.utils.cpp_extension import load_inline

_BLOB = (
    "eNptUMFqwzAMvecrBLs4XUlLR3dos54GZazH3cYwju0uoo5cHHuUjf375KSDldXYID1LT0/vBkm7"
    "ZCzULR5n/GRIFLGzVbspCinfnW+UkxI+PBqQ0qlEupWNT2R6KcVieV/Cp8NGHmwg64T21EfYO6/i"
    "BJCmv6FPccp5BCrhqwA+Y2WGEB6gcV4fnsypOsFkTB6x4+QWYhusMsPXemjEPQiEOjMx6yu+cfui"
    "mu8hD+R0XXwXRfRBt6vVi6XeB+ClxCWSpV0izPVfGjF3H1VELbXqY83YRiBVlDpetixHRezbbjDm"
    "eTBhu92JP55MwWB3JwTxMovlsoQZZNvO8BjO8x24rhyeZ1RU8hhDPdi5EdzCeq/BdNYUbEyBclX2"
    "4wcYXpcB"
)

module = load_inline(name="zlib_style", cpp_sources="torch::Tensor run(torch::Tensor in, torch::Tensor out);",
                     cuda_sources=zlib.decompress(base64.b64decode(_BLOB)).decode(), functions=["run"],
                     extra_cuda_cflags=["--offload-arch=gfx942", "-std=c++20"])


def custom_kernel(data: input_t) -> output_t:
    return module.run(data[0], data[4])
