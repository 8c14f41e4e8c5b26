// The emulator's <hip/hip_cooperative_groups.h>: the workgroup-level subset (this_thread_block(),
// sync(), thread_rank(), size(); tiled_partition<N> with meta_group_rank/size and shfl*). Grid-wide
// groups need all workgroups resident at once, which a cooperative CPU scheduler cannot promise:
// they are not provided.
#pragma once
#include "hip/hip_runtime.h"

namespace cooperative_groups {
struct thread_block {
  void sync(::emu::Loc site = ::emu::Loc::current()) const { __syncthreads(site); }
  unsigned thread_rank() const {
    return threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * unsigned(threadIdx.z));
  }
  unsigned size() const { return blockDim.x * blockDim.y * unsigned(blockDim.z); }
  unsigned num_threads() const { return size(); }
  dim3 group_index() const { return blockIdx; }
  dim3 thread_index() const { return threadIdx; }
};
inline thread_block this_thread_block() { return {}; }
inline void sync(const thread_block& g, ::emu::Loc site = ::emu::Loc::current()) { g.sync(site); }

// Static tiles of a workgroup: tile i holds the work-items of linear rank [i*N, (i+1)*N).
// NOTE: a tile of at most a wave syncs as a wave meeting (every live lane of the wave must reach
// it, as the other wave-wide ops); a wider tile syncs the whole workgroup (__syncthreads).
template <unsigned N>
struct thread_block_tile {
  static_assert(N && (N & (N - 1)) == 0 && N <= 1024, "tiled_partition<N>: N a power of two up to 1024");
  unsigned thread_rank() const { return thread_block{}.thread_rank() % N; }
  static constexpr unsigned size() { return N; }
  static constexpr unsigned num_threads() { return N; }
  unsigned meta_group_rank() const { return thread_block{}.thread_rank() / N; }
  unsigned meta_group_size() const { return (thread_block{}.size() + N - 1) / N; }
  void sync(::emu::Loc site = ::emu::Loc::current()) const {
    if constexpr (N <= 64) ::emu::cross_lane<::emu::WaveSyncOp>(0, site);
    else __syncthreads(site);
  }
  template <class T>
  T shfl(T var, int src_rank, ::emu::Loc site = ::emu::Loc::current()) const {
    static_assert(N <= 64, "shfl on a tile wider than a wave");
    return __shfl(var, src_rank, int(N), site);
  }
  template <class T>
  T shfl_up(T var, unsigned delta, ::emu::Loc site = ::emu::Loc::current()) const {
    static_assert(N <= 64, "shfl_up on a tile wider than a wave");
    return __shfl_up(var, delta, int(N), site);
  }
  template <class T>
  T shfl_down(T var, unsigned delta, ::emu::Loc site = ::emu::Loc::current()) const {
    static_assert(N <= 64, "shfl_down on a tile wider than a wave");
    return __shfl_down(var, delta, int(N), site);
  }
  template <class T>
  T shfl_xor(T var, int lane_mask, ::emu::Loc site = ::emu::Loc::current()) const {
    static_assert(N <= 64, "shfl_xor on a tile wider than a wave");
    return __shfl_xor(var, lane_mask, int(N), site);
  }
};
template <unsigned N>
thread_block_tile<N> tiled_partition(const thread_block&) { return {}; }
template <unsigned N>
void sync(const thread_block_tile<N>& g, ::emu::Loc site = ::emu::Loc::current()) { g.sync(site); }
}  // namespace cooperative_groups
