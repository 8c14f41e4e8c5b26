// The timing model's sampled simulation: tracking a wave's loop and moving it forward
// (steady_state.h says why and how).
#include "steady_state.h"

#include <algorithm>
#include <cstring>

namespace isa::detail {
namespace {

// VGPRs and AGPRs the kernel uses (its metadata's counts; the descriptor's when missing).
std::pair<uint32_t, uint32_t> used_vector_registers(const KernelInfo& k) {
  const uint32_t unified = ((k.rsrc1 & 0x3f) + 1) * 8;
  const uint32_t arch = k.vgpr_count ? k.vgpr_count : unified;
  return {std::min<uint32_t>(arch, 256), std::min<uint32_t>(k.agpr_count, 256)};
}

// The step of a value seen at three iterations, when both steps agree (uint32 wrap).
bool step_of(uint32_t a, uint32_t b, uint32_t c, uint32_t& step) {
  step = b - a;
  return c - b == step;
}

// Moves registers forward: `now` holds `registers` registers of `lanes` lanes each (register
// r's lanes consecutive), `at[0..2]` the same at three iterations. An even-aligned pair whose
// 64-bit value steps evenly and lies in [low, high) moves as one pointer; every other register
// that steps evenly moves by its own step; the pair at `keep` stays as it is.
void advance_file(uint32_t* now, const uint32_t* const at[3], uint32_t registers, uint32_t lanes,
                  uint64_t iterations, uint64_t low, uint64_t high, uint32_t keep) {
  const auto word = [&](size_t i) {
    uint32_t step;
    if (step_of(at[0][i], at[1][i], at[2][i], step)) now[i] += step * uint32_t(iterations);
  };
  for (uint32_t r = 0; r < registers; r += 2) {
    if (r == keep) continue;
    for (uint32_t lane = 0; lane < lanes; ++lane) {
      const size_t lo = size_t(r) * lanes + lane, hi = lo + lanes;
      if (r + 1 == registers) {
        word(lo);
        continue;
      }
      uint64_t x[3];
      for (int t = 0; t < 3; ++t) x[t] = uint64_t(at[t][hi]) << 32 | at[t][lo];
      const uint64_t step = x[1] - x[0];
      if (step != 0 && x[2] - x[1] == step && x[2] >= low && x[2] < high) {
        const uint64_t moved = (uint64_t(now[hi]) << 32 | now[lo]) + step * iterations;
        now[lo] = uint32_t(moved);
        now[hi] = uint32_t(moved >> 32);
      } else {
        word(lo);
        word(hi);
      }
    }
  }
}

}  // namespace

void LoopTrack::arrive(const Wave& w, const KernelInfo& k) {
  ++arrivals;
  RegisterSnapshot snap;
  memcpy(snap.s.data(), w.s, sizeof w.s);
  const auto [arch, acc] = used_vector_registers(k);
  snap.v.resize(size_t(arch + acc) * 64);
  memcpy(snap.v.data(), w.v, size_t(arch) * 64 * 4);
  memcpy(snap.v.data() + size_t(arch) * 64, w.v[256], size_t(acc) * 64 * 4);
  if (snapshots.size() == kSnapshots) snapshots.erase(snapshots.begin());
  snapshots.push_back(std::move(snap));
}

LoopTrack& enter_loop(std::vector<LoopTrack>& loops, int32_t head, int32_t branch) {
  loops.erase(std::remove_if(loops.begin(), loops.end(),
                             [&](const LoopTrack& t) {
                               return !t.encloses(head, branch) || (t.head == head && t.branch != branch);
                             }),
              loops.end());
  for (LoopTrack& t : loops)
    if (t.head == head && t.branch == branch) return t;
  LoopTrack& t = loops.emplace_back();
  t.head = head;
  t.branch = branch;
  return t;
}

bool LoopTrack::ready() const {
  if (snapshots.size() < kSnapshots) return false;
  for (const auto& snap : snapshots)
    if (snap.s[kExec] != snapshots.back().s[kExec] || snap.s[kExec + 1] != snapshots.back().s[kExec + 1])
      return false;
  return true;
}

void advance(Wave& w, const LoopTrack& track, uint64_t iterations, const KernelInfo& k,
             const std::vector<Allocation>& allocations) {
  const uint64_t low = allocations.empty() ? 0 : allocations.front().base;
  uint64_t high = 0;
  for (const auto& a : allocations) high = std::max(high, a.end);
  const auto& snaps = track.snapshots;
  // SGPRs (EXEC stays: it is the same at every iteration of a loop that can be moved).
  const uint32_t* s_at[3] = {snaps[0].s.data(), snaps[1].s.data(), snaps[2].s.data()};
  advance_file(w.s, s_at, 128, 1, iterations, low, high, kExec);
  const auto [arch, acc] = used_vector_registers(k);
  const uint32_t* v_at[3] = {snaps[0].v.data(), snaps[1].v.data(), snaps[2].v.data()};
  advance_file(&w.v[0][0], v_at, arch, 64, iterations, low, high, arch);
  const uint32_t* a_at[3] = {v_at[0] + size_t(arch) * 64, v_at[1] + size_t(arch) * 64, v_at[2] + size_t(arch) * 64};
  advance_file(&w.v[256][0], a_at, acc, 64, iterations, low, high, acc);
}

}  // namespace isa::detail
