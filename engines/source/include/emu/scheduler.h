// Running the work-items of a workgroup: every work-item a fiber, waves of 64 lanes that meet
// at cross-lane operations and workgroup barriers.
//
// A workgroup runs on one OS thread. Its scheduler (on the thread's own stack) resumes the
// lanes of one wave in turn; a lane runs until it reaches a cross-lane operation, a barrier
// or its end, then switches back. Once every live lane of the wave has stopped, the scheduler
// checks that they all stopped at the same call site (else: divergence error), and either
// computes the cross-lane operation from the 64 deposited operands or parks the wave at the
// barrier. Barriers release when every wave that has not ended waits at the same one.
#pragma once
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>

#include "emu/lds.h"
#include "emu/workgroup.h"

namespace emu {

// ---- lane side ---------------------------------------------------------------------------

// Deposit this lane's operands of a cross-lane op, wait for the wave, pick up the result.
// Op::compute(const In* in, Out* out, uint64_t exec, Wave&) sees all 64 slots.
template <class Op>
void compute_thunk(Wave& w, uint64_t exec) {
  Op::compute(reinterpret_cast<const typename Op::In*>(w.operands),
              reinterpret_cast<typename Op::Out*>(w.results), exec, w);
}

template <class Op>
typename Op::Out cross_lane(const typename Op::In& in, const Loc& site) {
  static_assert(sizeof(typename Op::In) <= kOperandBytes && sizeof(typename Op::Out) <= kResultBytes);
  Lane& lane = current_lane();
  Wave& wave = *lane.wave;
  reinterpret_cast<typename Op::In*>(wave.operands)[lane.lane_id] = in;
  lane.meeting = Meeting{Op::name, site.file_name(), unsigned(site.line()), &compute_thunk<Op>};
  lane.state = LaneState::AtOp;
  yield_to_scheduler(&lane);
  return reinterpret_cast<const typename Op::Out*>(wave.results)[lane.lane_id];
}

inline void workgroup_barrier(const char* op, const Loc& site) {
  Lane& lane = current_lane();
  lane.meeting = Meeting{op, site.file_name(), unsigned(site.line()), nullptr};
  lane.state = LaneState::AtBarrier;
  yield_to_scheduler(&lane);
}

inline void lane_main(void* arg) {
  auto* lane = static_cast<Lane*>(arg);
#ifdef EMU_ASAN
  __sanitizer_finish_switch_fiber(nullptr, nullptr, nullptr);
#endif
  t_lane_running = true;
  lane->group->launch->invoke(*lane->group->launch);
  lane->state = LaneState::Done;
  yield_to_scheduler(lane);
  __builtin_trap();
}

// ---- scheduler ------------------------------------------------------------------------------

inline std::string lane_ranges(uint64_t mask) {
  std::string out;
  for (unsigned l = 0; l < 64; ++l) {
    if (!((mask >> l) & 1)) continue;
    unsigned e = l;
    while (e + 1 < 64 && ((mask >> (e + 1)) & 1)) ++e;
    if (!out.empty()) out += ",";
    out += std::to_string(l) + (e > l ? "-" + std::to_string(e) : "");
    l = e;
  }
  return out;
}

inline void resume_lane(Group& g, Lane& lane) {
  t_lane_running = false;
  t_lane = &lane;
#ifdef EMU_ASAN
  void* fake = nullptr;
  __sanitizer_start_switch_fiber(&fake, g.stacks.usable(&lane - g.lanes.data()), g.stacks.usable_bytes());
#endif
  context_switch(g.scheduler, lane.ctx);
#ifdef EMU_ASAN
  __sanitizer_finish_switch_fiber(fake, nullptr, nullptr);
#endif
  t_lane = nullptr;
  if (lane.state == LaneState::Failed) throw Error(g.failure + " (" + group_name(g) + ")");
}

// After every live lane of the wave stopped: compute its cross-lane op or park it.
inline void settle_wave(Group& g, Wave& w) {
  uint64_t live = 0;
  const Meeting* first = nullptr;
  bool converged = true;
  for (unsigned l = 0; l < 64; ++l) {
    Lane* lane = w.lanes[l];
    if (!lane || lane->state == LaneState::Done) continue;
    live |= uint64_t(1) << l;
    if (!first) first = &lane->meeting;
    else if (!(lane->meeting == *first)) converged = false;
  }
  w.live = live;
  if (!live) return;
  if (!converged) {
    std::string msg = "divergent control flow at a cross-lane operation or barrier in " + group_name(g) +
                      " wave " + std::to_string(w.index) + ": all live lanes of a wave must reach the same call;";
    uint64_t reported = 0;
    for (unsigned l = 0; l < 64; ++l) {
      if (!((live >> l) & 1) || ((reported >> l) & 1)) continue;
      uint64_t same = 0;
      for (unsigned m = l; m < 64; ++m)
        if (((live >> m) & 1) && w.lanes[m]->meeting == w.lanes[l]->meeting) same |= uint64_t(1) << m;
      reported |= same;
      msg += " lanes " + lane_ranges(same) + " at " + w.lanes[l]->meeting.where() + ";";
    }
    throw Error(msg);
  }
  if (first->compute == nullptr) {
    w.at_barrier = true;
    return;
  }
  first->compute(w, live);
  for (unsigned l = 0; l < 64; ++l)
    if ((live >> l) & 1) w.lanes[l]->state = LaneState::Ready;
}

// Runs every ready lane of the wave once (until each stops), then settles the wave.
inline void run_wave_segment(Group& g, Wave& w) {
  unsigned order[64];
  for (unsigned l = 0; l < 64; ++l) order[l] = l;
  unsigned s = g.launch->schedule;
  if (s & 1) std::reverse(order, order + 64);
  else if (s) for (unsigned l = 63; l > 0; --l) std::swap(order[l], order[g.next_random() % (l + 1)]);
  for (unsigned i = 0; i < 64; ++i) {
    Lane* lane = w.lanes[order[i]];
    if (lane && lane->state == LaneState::Ready) resume_lane(g, *lane);
  }
  settle_wave(g, w);
}

inline Wave* pick_wave(Group& g) {
  Wave* pick = nullptr;
  unsigned s = g.launch->schedule, runnable = 0;
  for (auto& w : g.waves) {
    if (w->done() || w->at_barrier) continue;
    ++runnable;
    if (!pick || (s & 1)) pick = w.get();  // in order: the first; odd schedules: the last
    else if (s && g.next_random() % runnable == 0) pick = w.get();
  }
  return pick;
}

inline void release_barrier(Group& g) {
  const Meeting* site = nullptr;
  std::string waiting, ended;
  for (auto& w : g.waves) {
    if (w->done()) {
      ended += (ended.empty() ? "" : ",") + std::to_string(w->index);
      continue;
    }
    const Meeting& m = w->lanes[__builtin_ctzll(w->live)]->meeting;
    if (site && !(m == *site))
      throw Error("waves of " + group_name(g) + " wait at different barriers: " + site->where() + " and " +
                  m.where() + " (wave " + std::to_string(w->index) + ")");
    site = &m;
    waiting += (waiting.empty() ? "" : ",") + std::to_string(w->index);
  }
  if (!ended.empty() && !g.launch->allow_exited_barrier)
    throw Error("deadlock: barrier " + site->where() + " in " + group_name(g) + " is waited for by waves " +
                waiting + " but waves " + ended +
                " ended without reaching it (a barrier must be reached by every wave; "
                "EMU_ALLOW_EXITED_BARRIER=1 accepts hardware's rule that ended waves are not waited for)");
  for (auto& w : g.waves) {
    if (w->done()) continue;
    w->at_barrier = false;
    for (unsigned l = 0; l < 64; ++l)
      if ((w->live >> l) & 1) w->lanes[l]->state = LaneState::Ready;
  }
}

inline void run_group(Group& g, unsigned linear_id) {
  const Launch& L = *g.launch;
  g.block_idx = {linear_id % L.grid.x, (linear_id / L.grid.x) % L.grid.y, linear_id / (L.grid.x * L.grid.y)};
  ++g.generation;
  g.lds_static_used = 0;
  g.rng = 0x9E3779B97F4A7C15ull ^ (uint64_t(L.schedule) << 32) ^ linear_id;
  if (L.dynamic_lds) std::memset(g.lds.get(), kLdsPoison, L.dynamic_lds);
#ifdef EMU_ASAN
  ASAN_POISON_MEMORY_REGION(g.lds.get() + L.dynamic_lds, kLdsBytes - L.dynamic_lds);
#endif
  for (auto& w : g.waves) {
    w->present = w->live = 0;
    w->at_barrier = false;
    std::fill(std::begin(w->lanes), std::end(w->lanes), nullptr);
  }
  for (unsigned t = 0; t < L.group_size; ++t) {
    Lane& lane = g.lanes[t];
    Wave& w = *g.waves[t / 64];
    lane.group = &g;
    lane.wave = &w;
    lane.lane_id = t % 64;
    lane.thread_idx = {t % L.block.x, (t / L.block.x) % L.block.y, t / (L.block.x * L.block.y)};
    lane.state = LaneState::Ready;
    w.lanes[t % 64] = &lane;
    w.present |= uint64_t(1) << (t % 64);
    w.live = w.present;
#ifdef EMU_ASAN
    ASAN_UNPOISON_MEMORY_REGION(g.stacks.usable(t), g.stacks.usable_bytes());
#endif
    context_init(lane.ctx, g.stacks.usable(t), g.stacks.usable_bytes(), &lane_main, &lane);
  }
  for (;;) {
    Wave* w = pick_wave(g);
    if (!w) {
      bool all_done = std::all_of(g.waves.begin(), g.waves.end(), [](auto& x) { return x->done(); });
      if (all_done) return;
      release_barrier(g);
      continue;
    }
    run_wave_segment(g, *w);
    g_progress.fetch_add(1, std::memory_order_relaxed);
    if (L.schedule == 0)  // default order: run the wave on until it waits at a barrier or ends
      while (!w->done() && !w->at_barrier) run_wave_segment(g, *w);
  }
}

}  // namespace emu
