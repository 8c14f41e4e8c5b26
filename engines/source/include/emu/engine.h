// The execution engine: workgroups spread over CPU threads, every work-item a fiber, waves
// of 64 lanes that meet at cross-lane operations and workgroup barriers.
//
// A workgroup runs on one OS thread. Its scheduler (on the thread's own stack) resumes the
// lanes of one wave in turn; a lane runs until it reaches a cross-lane operation, a barrier
// or its end, then switches back. Once every live lane of the wave has stopped, the scheduler
// checks that they all stopped at the same call site (else: divergence error), and either
// computes the cross-lane operation from the 64 deposited operands or parks the wave at the
// barrier. Barriers release when every wave that has not ended waits at the same one.
#pragma once
#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <memory>
#include <mutex>
#include <csignal>
#include <dlfcn.h>
#include <execinfo.h>
#include <pthread.h>
#include <ucontext.h>
#include <source_location>
#include <stdexcept>
#include <string>
#include <thread>
#include <tuple>
#include <type_traits>
#include <vector>

#include "emu/fiber.h"
#include "emu/guards.h"

namespace emu {

using Loc = std::source_location;

// Every emulator-detected kernel bug is reported as this (Python: engines.source.EmulatorError).
struct Error : std::runtime_error {
  explicit Error(const std::string& what) : std::runtime_error("[emulator] " + what) {}
};

// NOTE: gfx942 limits: 64 KiB LDS per workgroup, 1024 work-items (16 waves) per workgroup.
constexpr unsigned kWaveSize = 64;
constexpr size_t kLdsBytes = 65536;
constexpr unsigned kMaxGroupSize = 1024;
constexpr size_t kOperandBytes = 192;  // largest per-lane operand block (smfmac 32x32)
constexpr size_t kResultBytes = 64;    // largest per-lane result (floatx16)

struct UInt3 {
  unsigned x, y, z;
};

struct dim3_t {
  unsigned x = 1, y = 1, z = 1;
  constexpr dim3_t(unsigned x_ = 1, unsigned y_ = 1, unsigned z_ = 1) : x(x_), y(y_), z(z_) {}
};

enum class LaneState : unsigned char { Ready, AtOp, AtBarrier, Done, Failed };

struct Wave;
struct Group;

// A place where lanes meet: the operation and its call site. Two lanes are converged only
// if both stopped at the same one.
struct Meeting {
  const char* op = nullptr;
  const char* file = nullptr;
  unsigned line = 0;
  void (*compute)(Wave&, uint64_t exec) = nullptr;
  bool operator==(const Meeting& o) const {
    return op == o.op && line == o.line && compute == o.compute &&
           (file == o.file || std::strcmp(file, o.file) == 0);
  }
  std::string where() const { return std::string(op) + " at " + file + ":" + std::to_string(line); }
};

struct Lane {
  Context ctx;
  Group* group = nullptr;
  Wave* wave = nullptr;
  unsigned lane_id = 0;  // 0..63 inside the wave
  UInt3 thread_idx{};
  LaneState state = LaneState::Ready;
  Meeting meeting;
};

struct Wave {
  unsigned index = 0;
  uint64_t present = 0;  // lanes that exist (a partial last wave has fewer)
  uint64_t live = 0;     // present and not ended
  bool at_barrier = false;
  Lane* lanes[kWaveSize] = {};
  void (*compute)(Wave&, uint64_t) = nullptr;
  alignas(64) unsigned char operands[kWaveSize * kOperandBytes];
  alignas(64) unsigned char results[kWaveSize * kResultBytes];
  bool done() const { return live == 0; }
};

struct Launch {
  dim3_t grid, block;
  size_t dynamic_lds = 0;
  const void* params = nullptr;
  void (*invoke)(const Launch&) = nullptr;
  const void* kernel = nullptr;
  const char* kernel_name = "kernel";
  Loc site;
  unsigned group_size = 0, waves_per_group = 0;
  unsigned schedule = 0;  // 0: in order; odd: reversed; even > 0: seeded random
  bool allow_exited_barrier = false;
  const char* param_names = nullptr;  // the kernel's parameters, comma-separated (engines/source/preprocess.py)
  std::vector<uintptr_t> pointers;     // each argument's value if it is a pointer, else 0
};

// Options read at each launch from the environment (the Python side sets them).
inline unsigned env_unsigned(const char* name, unsigned fallback) {
  const char* v = std::getenv(name);
  return v && *v ? unsigned(std::strtoul(v, nullptr, 10)) : fallback;
}

inline double env_seconds(const char* name) {
  const char* v = std::getenv(name);
  return v && *v ? std::strtod(v, nullptr) : 0.0;
}

inline thread_local Lane* t_lane __attribute__((tls_model("initial-exec"))) = nullptr;
// Waves run so far (by every launch): a launch whose count stands still makes no progress.
inline std::atomic<uint64_t> g_progress{0};
// True while this thread runs t_lane's own code (not the scheduler's, nor a switch between them).
inline thread_local volatile bool t_lane_running __attribute__((tls_model("initial-exec"))) = false;

struct Group {
  const Launch* launch = nullptr;
  UInt3 block_idx{};
  std::vector<Lane> lanes;
  std::vector<std::unique_ptr<Wave>> waves;
  StackPool stacks;
  Context scheduler;
  std::unique_ptr<unsigned char[]> lds{new unsigned char[kLdsBytes]};
  size_t lds_static_used = 0;
  std::vector<size_t> slot_offset;       // per static __shared__ declaration
  std::vector<unsigned> slot_generation;  // == generation when allocated for this group
  unsigned generation = 0;
  std::string failure;
  uint64_t rng = 0;

  explicit Group(const Launch& l) : launch(&l), lanes(l.group_size), stacks(l.group_size) {
    for (unsigned w = 0; w < l.waves_per_group; ++w) {
      waves.push_back(std::make_unique<Wave>());
      waves.back()->index = w;
    }
  }
  uint64_t next_random() {
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
  }
};

[[noreturn]] void lane_fail(const std::string& message);

// ---- lane side ---------------------------------------------------------------------------

inline void yield_to_scheduler(Lane* lane) {
#ifdef EMU_ASAN
  void* fake = nullptr;
  __sanitizer_start_switch_fiber(&fake, nullptr, 0);
#endif
  t_lane_running = false;
  context_switch(lane->ctx, lane->group->scheduler);
  t_lane_running = true;
#ifdef EMU_ASAN
  __sanitizer_finish_switch_fiber(fake, nullptr, nullptr);
#endif
}

inline Lane& current_lane() {
  Lane* lane = t_lane;
  if (!lane) throw Error("device code called outside a kernel launch");
  return *lane;
}

// A lane stops here, the scheduler fails the launch with this message.
[[noreturn]] inline void lane_fail(const std::string& message) {
  Lane* lane = t_lane;
  if (!lane) throw Error(message);
  lane->group->failure = message;
  lane->state = LaneState::Failed;
  yield_to_scheduler(lane);
  __builtin_trap();
}

// ---- faults inside a work-item ---------------------------------------------------------------
// A SIGSEGV/SIGBUS raised by a work-item (stack overflow into its guard page, or a wild
// pointer) ends the launch with an EmulatorError naming the kernel, its launch site and the
// work-item, instead of killing the Python process. Faults outside kernels go to whatever
// handler was there before.
std::string launch_name(const Launch& L);
std::string lane_name(const Lane& lane);

inline struct sigaction g_previous_segv, g_previous_bus;

// The instruction a signal interrupted and the calls it is in, innermost first, as
// " [pc <object>+0x<offset> <object>+0x<offset> ...]": the Python side turns the first place in
// the user's own source into its line (llvm-symbolizer on the module's line tables). The calls
// matter when the signal lands in a helper the compiler did not inline (the work-item's id, say).
inline std::string code_place(void* address) {
  Dl_info dl{};
  if (!dladdr(address, &dl) || !dl.dli_fname) return "";
  char offset[32];
  std::snprintf(offset, sizeof offset, "%#lx", (unsigned long)(static_cast<char*>(address) - static_cast<char*>(dl.dli_fbase)));
  return std::string(dl.dli_fname) + "+" + offset;
}

// backtrace() loads the unwinder on its first call: done here, never first inside a signal handler.
inline void load_unwinder() {
  static const int loaded = [] {
    void* frame[1];
    return backtrace(frame, 1);
  }();
  (void)loaded;
}

inline std::string pc_marker(void* uctx) {
#if defined(__x86_64__) && defined(__linux__)
  void* pc = reinterpret_cast<void*>(static_cast<ucontext_t*>(uctx)->uc_mcontext.gregs[REG_RIP]);
  std::string places = code_place(pc);
  if (places.empty()) return "";
  void* calls[24];
  const int n = backtrace(calls, 24);  // the handler's own frames, the signal's, then the interrupted code's
  const int interrupted = int(std::find(calls, calls + n, pc) - calls);
  for (int i = interrupted + 1; i < n && i < interrupted + 9; ++i) {
    const std::string place = code_place(static_cast<char*>(calls[i]) - 1);  // the call, not the return
    if (!place.empty()) places += " " + place;
  }
  return " [pc " + places + "]";
#else
  return "";
#endif
}

inline void fault_handler(int sig, siginfo_t* info, void* uctx) {
  if (sig == SIGSEGV && info->si_code == SEGV_ACCERR && g_guard_count) {  // past a tensor? (guards.h)
    bool write = false;
    void* pc = nullptr;
#if defined(__x86_64__) && defined(__linux__)
    const auto* context = static_cast<ucontext_t*>(uctx);
    write = (context->uc_mcontext.gregs[REG_ERR] & 2) != 0;  // NOTE: x86 page-fault error code bit 1: a write
    pc = reinterpret_cast<void*>(context->uc_mcontext.gregs[REG_RIP]);
#endif
    const Launch* L = t_lane ? t_lane->group->launch : nullptr;
    if (guard_fault(info->si_addr, write, L ? L->kernel_name : nullptr, L ? L->param_names : nullptr,
                    L ? &L->pointers : nullptr, pc))
      return;  // the access runs again, on the opened page
  }
  Lane* lane = t_lane;
  if (!lane) {
    const struct sigaction& prev = sig == SIGBUS ? g_previous_bus : g_previous_segv;
    sigaction(sig, &prev, nullptr);  // re-raised when the faulting instruction restarts
    return;
  }
  Group& g = *lane->group;
  long overflow = g.stacks.guard_hit(info->si_addr);
  const std::string where = pc_marker(uctx);
  char address[32];
  std::snprintf(address, sizeof address, "%p", info->si_addr);
  // NOTE: a general-protection fault (si_code SI_KERNEL, no address) in a kernel is almost always an
  // aligned x86 vector move on an address gfx942 accepts (dword-aligned) but x86 does not.
  bool general_protection = sig == SIGSEGV && info->si_code == SI_KERNEL && info->si_addr == nullptr;
  g.failure = (overflow >= 0 ? "work-item stack overflow (" + std::to_string(g.stacks.usable_bytes() >> 10) +
                                   " KiB per work-item; EMU_STACK_KB=n raises it)"
               : general_protection
                   ? std::string("misaligned vector access (general protection fault): a 16-byte vector load or store "
                                 "at an address that is not 16-byte aligned (legal on gfx942, which needs 4; use HIP's "
                                 "float4/int4 or give your own ext_vector_type typedef __attribute__((aligned(4)))), "
                                 "or a non-canonical pointer")
                   : std::string(sig == SIGBUS ? "bus error" : "segmentation fault") +
                         " (invalid memory access at address " + address + ")") +
              " in " + launch_name(*g.launch) + ", " + lane_name(*lane) + where;
  lane->state = LaneState::Failed;
  t_lane_running = false;
  context_switch(lane->ctx, g.scheduler);  // never resumed: the scheduler fails the launch
  __builtin_trap();
}

// The handler is installed while a module's function runs (a call guarding its tensors, or a
// launch), and the one before it restored after: other modules and Python's own handlers are
// never left behind ours. Each thread that runs work-items gets its own alternate signal stack
// for the duration (a fault on an overflowed stack cannot run on that stack).
inline int g_handler_depth = 0;

inline void install_fault_handler() {
  if (g_handler_depth++) return;
  load_unwinder();
  struct sigaction sa {};
  sa.sa_sigaction = &fault_handler;
  sa.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_NODEFER;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGSEGV, &sa, &g_previous_segv);
  sigaction(SIGBUS, &sa, &g_previous_bus);
}

inline void uninstall_fault_handler() {
  if (--g_handler_depth) return;
  sigaction(SIGSEGV, &g_previous_segv, nullptr);
  sigaction(SIGBUS, &g_previous_bus, nullptr);
}

struct HandlerScope {
  HandlerScope() { install_fault_handler(); }
  ~HandlerScope() { uninstall_fault_handler(); }
};

struct FaultScope {
  stack_t previous{};
  std::unique_ptr<char[]> stack{new char[1 << 16]};
  FaultScope() {
    stack_t ss{};
    ss.ss_sp = stack.get();
    ss.ss_size = 1 << 16;
    sigaltstack(&ss, &previous);
  }
  ~FaultScope() { sigaltstack(&previous, nullptr); }
};

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

// ---- static and dynamic LDS ---------------------------------------------------------------

inline std::atomic<unsigned> g_next_lds_slot{0};
// NOTE: LDS is not initialised at kernel start; 0xFF bytes read as NaN in f32/bf16/fp8 so
// reads before writes show up in results.
constexpr unsigned char kLdsPoison = 0xFF;

inline void* lds_slot(unsigned slot, size_t size, size_t align, const char* type_name) {
  Group& g = *current_lane().group;
  if (slot >= g.slot_offset.size()) {
    g.slot_offset.resize(slot + 1);
    g.slot_generation.resize(slot + 1, ~0u);
  }
  if (g.slot_generation[slot] != g.generation) {
    size_t base = g.launch->dynamic_lds + g.lds_static_used;
    size_t offset = (base + align - 1) / align * align;
    if (offset + size > kLdsBytes)
      lane_fail("LDS use above 64 KiB: __shared__ " + std::string(type_name) + " needs " +
                std::to_string(size) + " bytes at offset " + std::to_string(offset) +
                " (dynamic LDS " + std::to_string(g.launch->dynamic_lds) + " bytes)");
    std::memset(g.lds.get() + offset, kLdsPoison, size);
#ifdef EMU_ASAN
    ASAN_UNPOISON_MEMORY_REGION(g.lds.get() + offset, size);
#endif
    g.lds_static_used = offset + size - g.launch->dynamic_lds;
    g.slot_offset[slot] = offset;
    g.slot_generation[slot] = g.generation;
  }
  return g.lds.get() + g.slot_offset[slot];
}

// `__shared__ T x[N];` inside a function is rewritten to `auto& x = lds_var<T[N]>([]{});`
// (the lambda makes one tag type per declaration and template instantiation).
template <class T, class Tag>
T& lds_var(Tag) {
  static const unsigned slot = g_next_lds_slot++;
  constexpr size_t align = alignof(T) > 16 ? alignof(T) : 16;
  return *static_cast<T*>(lds_slot(slot, sizeof(T), align, __PRETTY_FUNCTION__));
}

// A `__shared__` array that is only ever stored to (engines/source/preprocess.py decides): gfx942's compile
// deletes it, so it takes no LDS; stores go to per-thread scratch memory that nothing reads.
template <class T, class Tag>
T& unused_lds_var(Tag) {
  struct alignas(alignof(T) > 16 ? alignof(T) : 16) Storage {
    unsigned char bytes[sizeof(T)];
  };
  thread_local std::unique_ptr<Storage> storage(new Storage);
  return *reinterpret_cast<T*>(storage->bytes);
}

template <class T>
T* dynamic_lds() {
  return reinterpret_cast<T*>(current_lane().group->lds.get());
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

inline std::string group_name(const Group& g) {
  return "workgroup (" + std::to_string(g.block_idx.x) + "," + std::to_string(g.block_idx.y) + "," +
         std::to_string(g.block_idx.z) + ")";
}

inline std::string launch_name(const Launch& L) {
  return "kernel " + std::string(L.kernel_name) + " (launched at " + L.site.file_name() + ":" +
         std::to_string(L.site.line()) + ")";
}

inline std::string lane_name(const Lane& lane) {
  return "work-item (" + std::to_string(lane.thread_idx.x) + "," + std::to_string(lane.thread_idx.y) + "," +
         std::to_string(lane.thread_idx.z) + ")";
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

// ---- a launch that makes no progress ---------------------------------------------------------
// The harness sets WORKBENCH_HANG_S (how long a launch may go without a wave reaching a cross-lane
// operation, a barrier or its end) and WORKBENCH_DEADLINE (when the stage's time limit runs out,
// in seconds since the epoch). Once either passes, a watchdog thread signals the launch's worker
// threads until they stop: one running a work-item fails the launch there, naming the kernel,
// the work-item and the instruction it was at.
inline std::string g_stall_reason;  // set before the first signal

inline int stall_signal() { return SIGRTMIN + 7; }  // a real-time signal nothing else here uses

inline void stall_handler(int, siginfo_t*, void* uctx) {
  Lane* lane = t_lane;
  if (!lane || !t_lane_running) return;  // in the scheduler: a later signal finds a work-item
  Group& g = *lane->group;
  g.failure = g_stall_reason + ": " + launch_name(*g.launch) + ", " + lane_name(*lane) + " was" + pc_marker(uctx);
  lane->state = LaneState::Failed;
  t_lane_running = false;
  context_switch(lane->ctx, g.scheduler);  // never resumed: the scheduler fails the launch
  __builtin_trap();
}

// Installed once and left: a signal still on its way when a launch ends finds no work-item.
inline void install_stall_handler() {
  static const bool installed = [] {
    load_unwinder();
    struct sigaction sa {};
    sa.sa_sigaction = &stall_handler;
    sa.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_NODEFER;
    sigemptyset(&sa.sa_mask);
    return sigaction(stall_signal(), &sa, nullptr) == 0;
  }();
  (void)installed;
}

class Watchdog {
 public:
  Watchdog() : hang_s_(env_seconds("WORKBENCH_HANG_S")), deadline_s_(env_seconds("WORKBENCH_DEADLINE")) {
    if (hang_s_ <= 0 && deadline_s_ <= 0) return;
    install_stall_handler();
    g_stall_reason.clear();
    thread_ = std::thread([this] { watch(); });
  }
  ~Watchdog() {
    if (!thread_.joinable()) return;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      done_ = true;
    }
    wake_.notify_all();
    thread_.join();
  }
  // A worker thread's time in the launch: it is signalled only in between.
  struct Shift {
    Watchdog& dog;
    explicit Shift(Watchdog& d) : dog(d) {
      std::lock_guard<std::mutex> lock(dog.mutex_);
      dog.workers_.push_back(pthread_self());
    }
    ~Shift() {
      std::lock_guard<std::mutex> lock(dog.mutex_);
      dog.workers_.erase(std::find(dog.workers_.begin(), dog.workers_.end(), pthread_self()));
    }
  };

 private:
  void watch() {
    using clock = std::chrono::steady_clock;
    uint64_t seen = g_progress.load();
    auto last = clock::now();
    std::unique_lock<std::mutex> lock(mutex_);
    while (!wake_.wait_for(lock, std::chrono::milliseconds(g_stall_reason.empty() ? 500 : 100), [this] { return done_; })) {
      if (!g_stall_reason.empty()) {
        for (pthread_t worker : workers_) pthread_kill(worker, stall_signal());
        continue;
      }
      const uint64_t now_seen = g_progress.load(std::memory_order_relaxed);
      if (now_seen != seen) {
        seen = now_seen;
        last = clock::now();
      }
      const double idle_s = std::chrono::duration<double>(clock::now() - last).count();
      const double epoch_s = std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
      if (hang_s_ > 0 && idle_s >= hang_s_)
        g_stall_reason = "no wave reached a cross-lane operation, a barrier or its end for " +
                         std::to_string(int(hang_s_)) + " s (an endless loop, or a wait for another workgroup, " +
                         "which this engine may run only later)";
      else if (deadline_s_ > 0 && epoch_s >= deadline_s_)
        g_stall_reason = "the stage's time limit ran out in this launch";
    }
  }

  std::vector<pthread_t> workers_;
  double hang_s_, deadline_s_;
  std::thread thread_;
  std::mutex mutex_;
  std::condition_variable wake_;
  bool done_ = false;
};

// Spreads the workgroups over worker threads; rethrows the first failure.
inline void run_launch(const Launch& L) {
  size_t groups = size_t(L.grid.x) * L.grid.y * L.grid.z;
  if (groups == 0 || L.group_size == 0) return;
  unsigned hw = std::max(1u, std::thread::hardware_concurrency());
  unsigned workers = unsigned(std::min<size_t>(env_unsigned("EMU_THREADS", hw), groups));
  if (L.schedule) workers = 1;  // a varied schedule must be reproducible
  HandlerScope handler;
  close_guards();  // this kernel's first read past each tensor is caught
  std::atomic<size_t> next{0};
  std::atomic<bool> failed{false};
  std::exception_ptr error;
  std::mutex error_mutex;
  Watchdog watchdog;
  auto work = [&] {
    Watchdog::Shift shift(watchdog);
    try {
      FaultScope faults;
      Group g(L);
      for (size_t id; !failed && (id = next++) < groups;) run_group(g, unsigned(id));
    } catch (...) {
      std::lock_guard<std::mutex> lock(error_mutex);
      if (!error) error = std::current_exception();
      failed = true;
    }
  };
  std::vector<std::thread> threads;
  for (unsigned i = 1; i < workers; ++i) threads.emplace_back(work);
  work();
  for (auto& t : threads) t.join();
  if (error) std::rethrow_exception(error);
}

// ---- launch ---------------------------------------------------------------------------------

template <class... P>
struct KernelCall {
  void (*fn)(P...);
  std::tuple<P...> args;
  static void invoke(const Launch& L) {
    auto* call = static_cast<const KernelCall*>(L.params);
    std::apply(call->fn, call->args);  // each work-item gets its own copy of the arguments
  }
};

template <class T>
uintptr_t pointer_value(const T& value) {
  if constexpr (std::is_pointer_v<T>) return reinterpret_cast<uintptr_t>(value);
  else return 0;
}

template <class... P, class... A>
void launch_kernel(const Loc& site, const char* name, const char* param_names, void (*kernel)(P...), dim3_t grid,
                   dim3_t block, size_t shmem, A&&... args) {
  static_assert(sizeof...(P) == sizeof...(A), "kernel launched with the wrong number of arguments");
  unsigned group_size = block.x * block.y * block.z;
  std::string where = std::string(site.file_name()) + ":" + std::to_string(site.line());
  if (group_size > kMaxGroupSize)
    throw Error("workgroup of " + std::to_string(group_size) + " work-items above the gfx942 limit of 1024 (launch at " +
                where + ")");
  if (shmem > kLdsBytes)
    throw Error("dynamic LDS of " + std::to_string(shmem) + " bytes above 64 KiB (launch at " + where + ")");
  KernelCall<P...> call{kernel, std::tuple<P...>(static_cast<P>(args)...)};
  Launch L;
  L.grid = grid;
  L.block = block;
  L.dynamic_lds = shmem;
  L.params = &call;
  L.invoke = &KernelCall<P...>::invoke;
  L.kernel = reinterpret_cast<const void*>(kernel);
  L.kernel_name = name;
  L.site = site;
  L.group_size = group_size;
  L.waves_per_group = (group_size + 63) / 64;
  L.schedule = env_unsigned("EMU_SCHEDULE", 0);
  L.param_names = param_names;
  std::apply([&](const auto&... a) { (L.pointers.push_back(pointer_value(a)), ...); }, call.args);
  L.allow_exited_barrier = env_unsigned("EMU_ALLOW_EXITED_BARRIER", 0) != 0;
  run_launch(L);
}

// `kernel<<<grid, block, shmem, stream>>>(args)` is rewritten to
// `::emu::Launcher(grid, block, shmem, stream)(kernel, args)`.
struct Launcher {
  dim3_t grid, block;
  size_t shmem;
  Loc site;
  const char* name = "kernel";
  const char* param_names = nullptr;
  template <class G, class B, class S = size_t, class St = void*>
  Launcher(G g, B b, S s = 0, St = nullptr, Loc here = Loc::current())
      : grid(to_dim(g)), block(to_dim(b)), shmem(size_t(s)), site(here) {}
  Launcher& named(const char* kernel_name, const char* parameters = nullptr) {
    name = kernel_name;
    param_names = parameters;
    return *this;
  }
  template <class K, class... A>
  void operator()(K kernel, A&&... args) const {
    launch_kernel(site, name, param_names, kernel, grid, block, shmem, std::forward<A>(args)...);
  }
  static dim3_t to_dim(dim3_t d) { return d; }
  template <class I>
  static dim3_t to_dim(I n) requires std::is_integral_v<I> { return dim3_t(unsigned(n)); }
};

}  // namespace emu
