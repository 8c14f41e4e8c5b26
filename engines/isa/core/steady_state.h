// The timing model's sampled simulation: a loop whose iterations have settled is skipped ahead.
//
// A GEMM spends most of its time in one loop (the K loop) doing the same work every iteration.
// Once a CU's waves take the same cycles per iteration, the timing model (timing.cpp) skips
// most of the remaining iterations: it moves every wave's registers forward as if they had run
// (registers that grew by the same step over the last iterations, the loop's counters and
// pointers, advance by that step; any other register keeps its value, so a skipped launch's
// outputs are not what the kernel computes) and charges the skipped iterations the cycles and
// counts of the last ones. docs/predictor.md ("Sampled simulation") says where this can be wrong.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "wave.h"

namespace isa::detail {

// A wave's registers where it arrived at its loop's head: the SGPR file and the VGPRs and
// AGPRs the kernel uses (register-major, 64 lanes each).
struct RegisterSnapshot {
  std::array<uint32_t, 128> s{};
  std::vector<uint32_t> v;
};

// A loop a wave is in (its code runs from `head` to the backward branch at `branch`), how often
// the wave arrived at the head since it entered the loop, and its registers at the last arrivals.
struct LoopTrack {
  static constexpr size_t kSnapshots = 3;  // two equal steps make a register a loop's counter
  int32_t head = -1, branch = -1;
  uint64_t arrivals = 0;
  uint64_t pending = 0;  // iterations to move forward at the next arrival
  std::vector<RegisterSnapshot> snapshots;  // oldest first

  // The wave took the branch back to the head.
  void arrive(const Wave& w, const KernelInfo& k);
  // Enough arrivals seen, EXEC the same at each: the wave can be moved forward.
  bool ready() const;
  bool inside(int32_t pc) const { return pc >= head && pc <= branch; }
  bool encloses(int32_t from, int32_t to) const { return head <= from && to <= branch; }
};

// The loops a wave is in, innermost last. A wave that takes the branch at `branch` back to
// `head` is in that loop and those around it: the others (loops inside it, whose next entry
// starts over, and loops it has left) are dropped. Returns the loop's track.
LoopTrack& enter_loop(std::vector<LoopTrack>& loops, int32_t head, int32_t branch);

// Moves `w` forward by `iterations` iterations of the loop `track` follows (see above). A
// register pair whose 64-bit value grew by one step and points into `allocations`' span moves
// as one 64-bit pointer, so a carry reaches its high word.
void advance(Wave& w, const LoopTrack& track, uint64_t iterations, const KernelInfo& k,
             const std::vector<Allocation>& allocations);

}  // namespace isa::detail
