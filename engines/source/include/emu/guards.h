// Reads past the end of a tensor. For each call of a module function the Python side
// (engines/source/guards.py) moves every tensor argument to a twin that ends where an inaccessible
// page (its guard) begins, and registers the guards here. An access past the tensor faults in
// its guard: fault_handler (faults.h) records the kernel, the kernel parameter pointing into the
// tensor and the faulting instruction, opens the page (zeros, as the ISA engine reads there) and
// the access runs on. Each launch closes the pages again, so every kernel is caught once; the
// Python side reports the hits after the call (writes fail the run).
//
//   twin:  | zeros ... | tensor's bytes ......... | guard page (PROT_NONE) |
//                      ^ data                     ^ begin                  ^ end
#pragma once
#include <dlfcn.h>
#include <sys/mman.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <string>
#include <tuple>
#include <vector>

namespace emu {

struct Guard {
  uintptr_t data = 0, begin = 0, end = 0;
  std::atomic<int> open{0};  // 1: readable (zeros), 2: also writable
};

struct GuardHit {
  const char* kernel = nullptr;  // nullptr: host code
  const char* params = nullptr;  // the kernel's parameter names, comma-separated, when known
  int param = -1, guard = -1;    // the parameter pointing into the guarded tensor; which guard
  bool write = false;
  const char* object = nullptr;  // the faulting instruction: the module and the offset in it
  uintptr_t offset = 0;
};

constexpr int kMaxGuards = 64, kMaxGuardHits = 64;
inline Guard g_guards[kMaxGuards];
inline std::atomic<int> g_guard_count{0};
inline GuardHit g_guard_hits[kMaxGuardHits];
inline std::atomic<int> g_guard_hit_count{0};

// Every guard page inaccessible again: the next kernel's first access past a tensor is caught too.
inline void close_guards() {
  for (int i = 0; i < g_guard_count; ++i)
    if (g_guards[i].open.exchange(0)) mprotect(reinterpret_cast<void*>(g_guards[i].begin), g_guards[i].end - g_guards[i].begin, PROT_NONE);
}

// Replaces the registered guards (each (data, begin, end)); the old ones are left accessible, so a
// twin the submission kept beyond its call reads zeros past its end instead of faulting unseen.
inline void set_guards(const std::vector<std::tuple<uintptr_t, uintptr_t, uintptr_t>>& guards) {
  for (int i = 0; i < g_guard_count; ++i)
    mprotect(reinterpret_cast<void*>(g_guards[i].begin), g_guards[i].end - g_guards[i].begin, PROT_READ | PROT_WRITE);
  g_guard_count = 0;
  for (const auto& [data, begin, end] : guards) {
    if (g_guard_count == kMaxGuards) break;
    Guard& g = g_guards[g_guard_count++];
    g.data = data, g.begin = begin, g.end = end;
    g.open = 0;
  }
}

// The hits since the last call: (kernel, parameter names, parameter, guard, write, object, offset).
inline std::vector<std::tuple<std::string, std::string, int, int, bool, std::string, uintptr_t>> take_guard_hits() {
  std::vector<std::tuple<std::string, std::string, int, int, bool, std::string, uintptr_t>> out;
  const int n = std::min(g_guard_hit_count.exchange(0), kMaxGuardHits);
  for (int i = 0; i < n; ++i) {
    const GuardHit& h = g_guard_hits[i];
    out.emplace_back(h.kernel ? h.kernel : "", h.params ? h.params : "", h.param, h.guard, h.write,
                     h.object ? h.object : "", h.offset);
  }
  return out;
}

// In the fault handler: a fault inside a registered guard page is recorded and the page opened
// (readable; writable too for a write); true when the faulting access may run on.
inline bool guard_fault(void* address, bool write, const char* kernel, const char* params,
                        const std::vector<uintptr_t>* pointers, void* pc) {
  const auto a = reinterpret_cast<uintptr_t>(address);
  for (int i = 0; i < g_guard_count; ++i) {
    Guard& g = g_guards[i];
    if (a < g.begin || a >= g.end) continue;
    const int slot = g_guard_hit_count.fetch_add(1);
    if (slot < kMaxGuardHits) {
      GuardHit& h = g_guard_hits[slot];
      h = GuardHit{kernel, params, -1, i, write, nullptr, 0};
      for (size_t p = 0; pointers && p < pointers->size(); ++p)
        if ((*pointers)[p] >= g.data && (*pointers)[p] <= g.begin) {
          h.param = int(p);
          break;
        }
      Dl_info dl{};
      if (dladdr(pc, &dl) && dl.dli_fname) {
        h.object = dl.dli_fname;
        h.offset = reinterpret_cast<uintptr_t>(pc) - reinterpret_cast<uintptr_t>(dl.dli_fbase);
      }
    }
    g.open = write ? 2 : 1;
    mprotect(reinterpret_cast<void*>(g.begin), g.end - g.begin, write ? PROT_READ | PROT_WRITE : PROT_READ);
    return true;
  }
  return false;
}

}  // namespace emu
