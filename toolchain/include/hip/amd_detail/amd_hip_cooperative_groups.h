// Offline overlay of <hip/amd_detail/amd_hip_cooperative_groups.h> (reached through
// <hip/hip_cooperative_groups.h> too): Debian's HIP 5.2 header, unchanged, plus the two members
// that current HIP documents on every `cooperative_groups::thread_block_tile` and 5.2 lacks:
//   meta_group_rank()  the tile's rank among the tiles its parent group was partitioned into;
//   meta_group_size()  how many tiles the parent group was partitioned into.
// Written from the public HIP API reference; nothing else of the 5.2 API is changed.
//
// HIP 5.2 can tile only a thread_block (tiled_partition<N> of a tile does not compile there), and
// its tiles split the workgroup's threads row-major, N at a time (thread_rank() is the workgroup
// rank mod N). So both numbers follow from the workgroup alone: rank / N, and ceil(size / N).
#pragma once

#include_next <hip/amd_detail/amd_hip_cooperative_groups.h>

#if __cplusplus && defined(HIP_INCLUDE_HIP_AMD_DETAIL_HIP_COOPERATIVE_GROUPS_H)

namespace cooperative_groups {
namespace offline_overlay {

template <unsigned int tileSize> class tile_meta_group {
 public:
  __CG_QUALIFIER__ unsigned int meta_group_rank() const {
    return internal::workgroup::thread_rank() / tileSize;
  }
  __CG_QUALIFIER__ unsigned int meta_group_size() const {
    return (internal::workgroup::size() + tileSize - 1) / tileSize;
  }
};

}  // namespace offline_overlay

// What tiled_partition<N>(block) returns: 5.2's tile of a thread_block, with the two members.
template <unsigned int size>
class thread_block_tile<size, thread_block> : public impl::thread_block_tile_internal<size, thread_block>,
                                              public offline_overlay::tile_meta_group<size> {
 protected:
  __CG_QUALIFIER__ thread_block_tile(const thread_block& g)
      : impl::thread_block_tile_internal<size, thread_block>(g) {}

 public:
  __CG_QUALIFIER__ operator thread_block_tile<size, void>() const { return thread_block_tile<size, void>(*this); }
};

// The parent-erased `thread_block_tile<N>` a tile converts to, for each tile size 5.2 allows.
#define HIP_OFFLINE_OVERLAY_ERASED_TILE(N)                                                              \
  template <>                                                                                           \
  class thread_block_tile<N, void> : public impl::thread_block_tile_internal<N, void>,                 \
                                     public offline_overlay::tile_meta_group<N> {                       \
   public:                                                                                              \
    template <class ParentCGTy>                                                                         \
    __CG_QUALIFIER__ thread_block_tile(const thread_block_tile<N, ParentCGTy>& g)                       \
        : impl::thread_block_tile_internal<N, void>(g) {}                                               \
  };
HIP_OFFLINE_OVERLAY_ERASED_TILE(1)
HIP_OFFLINE_OVERLAY_ERASED_TILE(2)
HIP_OFFLINE_OVERLAY_ERASED_TILE(4)
HIP_OFFLINE_OVERLAY_ERASED_TILE(8)
HIP_OFFLINE_OVERLAY_ERASED_TILE(16)
HIP_OFFLINE_OVERLAY_ERASED_TILE(32)
#if WAVEFRONT_SIZE == 64
HIP_OFFLINE_OVERLAY_ERASED_TILE(64)
#endif
#undef HIP_OFFLINE_OVERLAY_ERASED_TILE

}  // namespace cooperative_groups

#endif
