// Faults inside a work-item: a SIGSEGV/SIGBUS raised by a work-item (stack overflow into its
// guard page, or a wild pointer) ends the launch with an EmulatorError naming the kernel, its
// launch site and the work-item, instead of killing the Python process. Faults outside kernels
// go to whatever handler was there before; a read past a tensor opens its guard page
// (guards.h). pc_marker names the interrupted instruction for the watchdog's signal too.
#pragma once
#include <algorithm>
#include <csignal>
#include <cstdio>
#include <memory>
#include <string>
#include <dlfcn.h>
#include <execinfo.h>
#include <ucontext.h>

#include "emu/guards.h"
#include "emu/workgroup.h"

namespace emu {

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

}  // namespace emu
