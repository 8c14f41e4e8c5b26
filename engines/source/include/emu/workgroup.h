// What a launch is made of: the launch, its workgroups, their waves of 64 lanes (a lane per
// work-item, each a fiber) and the call sites where lanes meet; a lane's switch back to its
// workgroup's scheduler; the names messages give them; the emulator's error type, gfx942's
// limits and the options read at each launch. The scheduler, the fault handlers, the LDS and
// the device code all work on these records.
#pragma once
#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <source_location>
#include <stdexcept>
#include <string>
#include <vector>

#include "emu/fiber.h"

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

}  // namespace emu
