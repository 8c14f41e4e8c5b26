# Test submission (imported by the report, never run on a GPU): it fails while being imported,
# before any load_inline call. The report must say so, naming this file and the line below.
from torch.utils.cpp_extension import load_inline

CONFIG = {"tile": 64}
TILE = CONFIG["block"]  # RAISES-HERE

module = load_inline(name="raises", cpp_sources="", cuda_sources="__global__ void k() {}")
