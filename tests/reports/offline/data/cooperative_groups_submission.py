# Test submission (imported by the report, never run on a GPU): cooperative groups tiles as real
# submissions use them, including meta_group_rank() / meta_group_size(), which current HIP has
# and Debian's HIP 5.2 headers lack (toolchain/include/hip/amd_detail/amd_hip_cooperative_groups.h
# adds them). Kernels: `tile_rank_kernel` (the tile as tiled_partition returns it) and
# `erased_tile_kernel` (converted to the parent-erased thread_block_tile<16>).
from torch.utils.cpp_extension import load_inline

SOURCE = """
#include <hip/hip_runtime.h>
#include <hip/hip_cooperative_groups.h>

namespace cg = cooperative_groups;

__global__ void tile_rank_kernel(int* o) {
    auto t = cg::tiled_partition<64>(cg::this_thread_block());
    o[threadIdx.x] = t.thread_rank() + 1000 * t.meta_group_rank();
}

__global__ void erased_tile_kernel(int* o) {
    cg::thread_block block = cg::this_thread_block();
    cg::thread_block_tile<16> t = cg::tiled_partition<16>(block);
    int lane = t.thread_rank();
    o[block.thread_rank()] = t.shfl(lane, 3) + 100 * t.meta_group_size() + 10000 * t.meta_group_rank();
}
"""

module = load_inline(name="cooperative_groups_style", cpp_sources="", cuda_sources=SOURCE,
                     extra_cuda_cflags=["--offload-arch=gfx942", "-std=c++20"])
