// The emulator's <hip/hip_cooperative_groups.h>: the workgroup-level subset (this_thread_block(),
// sync(), thread_rank(), size()). Grid-wide groups need all workgroups resident at once, which a
// cooperative CPU scheduler cannot promise: they are not provided.
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
}  // namespace cooperative_groups
