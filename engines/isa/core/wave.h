// Wave and workgroup state of the ISA engine, and the executor's entry points (exec.cpp).
#pragma once
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "internal.h"

namespace isa::detail {

constexpr uint16_t kVcc = 106, kM0 = 124, kExec = 126;
constexpr uint32_t kSharedApertureHi = 0x10000u;   // flat addresses [hi:32] of LDS
constexpr uint32_t kPrivateApertureHi = 0x20000u;  // ... and of scratch

struct Allocation { uint64_t base, end; std::string what; };

// The memory one instruction touched, lane by lane (timing.cpp reads it after each step to
// price LDS bank conflicts and vector-memory segments): (address, bytes) per access.
struct AccessLog {
  std::vector<std::pair<uint64_t, uint32_t>> lds, global;
  // Scratch dwords at the addresses the hardware's swizzled private layout gives them (dword
  // d of lane l at base + d * 256 + l * 4): a wave's spills of one slot fill whole lines. The
  // base is the wave's own, 4 KiB-aligned as on the device, tagged kScratchTag (above every
  // allocation), wherever the heap put the wave's private memory here.
  static constexpr uint64_t kScratchTag = 1ull << 63;
  std::vector<std::pair<uint64_t, uint32_t>> scratch;
  void clear() { lds.clear(); global.clear(); scratch.clear(); }
  // While `keep_old` is set, the bytes each global store or atomic is about to change, so a
  // timed launch can leave memory as it found it (undo in reverse).
  bool keep_old = false;
  std::vector<std::pair<uint64_t, uint32_t>> old_spans;
  std::vector<uint8_t> old_bytes;
  void note(uint64_t addr, uint32_t bytes, bool write) {
    global.emplace_back(addr, bytes);
    if (!keep_old || !write) return;
    old_spans.emplace_back(addr, bytes);
    const auto* p = reinterpret_cast<const uint8_t*>(addr);
    old_bytes.insert(old_bytes.end(), p, p + bytes);
  }
  void undo() {
    size_t end = old_bytes.size();
    for (auto it = old_spans.rbegin(); it != old_spans.rend(); ++it) {
      end -= it->second;
      memcpy(reinterpret_cast<void*>(it->first), old_bytes.data() + end, it->second);
    }
    old_spans.clear();
    old_bytes.clear();
  }
};

// One launch's fixed facts, shared by every workgroup.
struct Launch {
  const CodeObjectImpl* co = nullptr;
  const KernelInfo* k = nullptr;
  Dim3 grid, block;
  uint32_t lds_bytes = 0;      // what the kernel asks for (descriptor + dynamic)
  uint32_t lds_allocated = 0;  // what the workgroup gets: lds_bytes in 512-byte granules
  uint64_t kernarg = 0, dispatch_packet = 0;
  std::vector<Allocation> allocations;  // sorted by base; empty: no checks
  bool check_races = true;
  bool quiet = false;  // a timing probe's run (timing.cpp): what it runs through is not the kernel's to report
  // Set by the harness (eval/judge.py), 0 when not: a workgroup whose waves neither end nor
  // meet at a barrier for hang_s seconds, or still running at deadline_s (seconds since the
  // epoch), ends the launch at the instruction a wave is at.
  double hang_s = 0, deadline_s = 0;
};

struct Wave {
  alignas(64) uint32_t v[512][64];  // v0..v255, then a0..a255
  alignas(8) uint32_t s[128];      // operand codes 0..127: SGPRs, VCC, M0, EXEC, ...
  bool scc = false;
  int32_t pc = 0;
  bool done = false, at_barrier = false;
  int id = 0;
  uint32_t mode = 0;
  // s_waitcnt bookkeeping: per register the counter (bit 31: lgkm, bit 30: SMEM) and issue number.
  uint32_t vm_issued = 0, vm_done = 0, lgkm_issued = 0, lgkm_done = 0;
  // SMEM returns out of order: its loads are complete only after an lgkmcnt(0) wait.
  uint32_t smem_last = 0, smem_done = 0;
  uint32_t vpend[512];
  uint32_t spend[128];
  std::vector<uint8_t> scratch;  // lane-major private memory
  uint32_t private_bytes = 0;
  uint64_t instructions = 0, mfmas = 0;
  int32_t loop_pc = -1;     // the backward branch last taken, and how often in a row (spin waits)
  uint64_t loop_count = 0;
  bool loop_reads_memory = false;  // a memory or LDS read since that branch was first taken
  double mfma_seconds = 0;
  AccessLog* log = nullptr;  // set while timed: memory accesses are recorded there
  size_t allocation_hint = 0;  // the allocation this wave's last in-bounds global access fell in
  uint64_t exec() const { uint64_t e; memcpy(&e, &s[kExec], 8); return e; }
  bool pending() const { return vm_issued != vm_done || lgkm_issued != lgkm_done || smem_last != smem_done; }
};

// LDS of one workgroup and its race shadow since the last barrier, per byte: the waves that
// wrote its current value (more than one only when they wrote the same value) and the waves
// that read it (masks: a workgroup has at most 16 waves).
struct Workgroup {
  uint32_t id[3] = {0, 0, 0};
  uint32_t linear = 0;
  std::vector<uint8_t> lds;
  std::vector<uint16_t> writers;
  std::vector<uint16_t> readers;
  std::vector<uint64_t> writer_pc;
};

// Runs `w` until it ends, waits at a barrier or has executed `budget` instructions.
void run_wave(Wave& w, Workgroup& g, const Launch& L, uint64_t budget);
// Initial register state of wave `index` of workgroup `g` (kernel descriptor rules).
void init_wave(Wave& w, int index, const Workgroup& g, const Launch& L);

// The first noted allocation starting above `addr` (L.allocations is sorted by base): the one
// before it, if any, is the only one that can hold addr.
inline std::vector<Allocation>::const_iterator first_allocation_above(const Launch& L, uint64_t addr) {
  return std::upper_bound(L.allocations.begin(), L.allocations.end(), addr,
                          [](uint64_t a, const Allocation& b) { return a < b.base; });
}

// A workgroup's start (LDS and race shadow cleared, `waves` sized and initialised) and its
// barrier release (every wave on, race shadow cleared): launch.cpp's, shared with timing.cpp.
void start_workgroup(Workgroup& g, std::vector<std::unique_ptr<Wave>>& waves, const Launch& L);
void release_barrier(Workgroup& g, std::vector<std::unique_ptr<Wave>>& waves, const Launch& L);
// Runs a started workgroup's waves round robin between barriers until every one has ended.
void run_started_workgroup(Workgroup& g, std::vector<std::unique_ptr<Wave>>& waves, const Launch& L);
// A fresh workgroup with LDS (and race shadow) for `L`, and its id set from the linear id.
void size_workgroup(Workgroup& g, const Launch& L);
void set_workgroup_id(Workgroup& g, uint64_t linear, const Launch& L);

// The timed launch (timing.cpp): runs the busiest CU's workgroups under the cycle model.
KernelTiming time_launch(const Launch& L, const Hardware& hw);
// How far the launch being timed is (set_progress's listener hears it, a few times a second).
void timing_progress(double fraction);

[[noreturn]] void fault(const Launch& L, const Inst& in, const std::string& what);
// A diagnostic of `kind` at `in` (engine.h): a Fault in strict mode, else kept once per site.
void diagnose(const Launch& L, const Inst& in, const char* kind, const std::string& what);

}  // namespace isa::detail
