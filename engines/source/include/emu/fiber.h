// Fibers: one per emulated work-item.
//
// Mechanism: a hand-written x86-64 stack switch (callee-saved registers + MXCSR/x87 control
// word, then swap rsp). It costs a few nanoseconds per switch, against ~1 us for ucontext's
// swapcontext (which makes a sigprocmask system call each time); an MFMA kernel switches
// 128 times per MFMA, so this is the difference between seconds and minutes. `python -m
// engines.source.bench --switch` prints the measured cost. Other architectures fall back to
// ucontext (correct, slow).
#pragma once
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <new>
#include <sys/mman.h>

#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define EMU_ASAN 1
#include <sanitizer/asan_interface.h>
#include <sanitizer/common_interface_defs.h>
#endif
#endif

#if !defined(__x86_64__)
#include <ucontext.h>
#endif

namespace emu {

using FiberEntry = void (*)(void*);

#if defined(__x86_64__)
extern "C" void emu_ctx_switch(void** save_sp, void* load_sp);
extern "C" void emu_ctx_trampoline();
// NOTE: SysV x86-64: rbx, rbp, r12-r15, MXCSR and the x87 control word are callee-saved.
asm(R"(
  .text
  .weak emu_ctx_switch
  .hidden emu_ctx_switch
  .type emu_ctx_switch,@function
emu_ctx_switch:
  pushq %rbp
  pushq %rbx
  pushq %r12
  pushq %r13
  pushq %r14
  pushq %r15
  subq $8, %rsp
  stmxcsr (%rsp)
  fnstcw 4(%rsp)
  movq %rsp, (%rdi)
  movq %rsi, %rsp
  ldmxcsr (%rsp)
  fldcw 4(%rsp)
  addq $8, %rsp
  popq %r15
  popq %r14
  popq %r13
  popq %r12
  popq %rbx
  popq %rbp
  ret
  .size emu_ctx_switch, .-emu_ctx_switch

  .weak emu_ctx_trampoline
  .hidden emu_ctx_trampoline
  .type emu_ctx_trampoline,@function
emu_ctx_trampoline:
  movq %r12, %rdi
  callq *%r13
  ud2
  .size emu_ctx_trampoline, .-emu_ctx_trampoline
)");

struct Context {
  void* sp = nullptr;
};

// Lays out a frame that emu_ctx_switch "returns" from into the trampoline, which calls
// entry(arg) with a 16-byte-aligned stack.
inline void context_init(Context& ctx, void* stack, size_t size, FiberEntry entry, void* arg) {
  auto top = (reinterpret_cast<uintptr_t>(stack) + size) & ~uintptr_t(15);
  auto* frame = reinterpret_cast<uint64_t*>(top - 64);
  frame[0] = 0x037F'0000'1F80ull;  // MXCSR default (low), x87 control word (high)
  frame[1] = 0;                                     // r15
  frame[2] = 0;                                     // r14
  frame[3] = reinterpret_cast<uint64_t>(entry);     // r13
  frame[4] = reinterpret_cast<uint64_t>(arg);       // r12
  frame[5] = 0;                                     // rbx
  frame[6] = 0;                                     // rbp
  frame[7] = reinterpret_cast<uint64_t>(&emu_ctx_trampoline);
  ctx.sp = frame;
}
inline void context_switch(Context& from, Context& to) { emu_ctx_switch(&from.sp, to.sp); }
#else
struct Context {
  ucontext_t uc;
};
inline void context_init(Context& ctx, void* stack, size_t size, FiberEntry entry, void* arg) {
  getcontext(&ctx.uc);
  ctx.uc.uc_stack.ss_sp = stack;
  ctx.uc.uc_stack.ss_size = size;
  ctx.uc.uc_link = nullptr;
  auto bits = reinterpret_cast<uintptr_t>(arg);
  makecontext(&ctx.uc, reinterpret_cast<void (*)()>(+[](unsigned lo, unsigned hi, unsigned elo, unsigned ehi) {
                reinterpret_cast<FiberEntry>((uintptr_t(ehi) << 32) | elo)(
                    reinterpret_cast<void*>((uintptr_t(hi) << 32) | lo));
              }),
              4, unsigned(bits), unsigned(bits >> 32), unsigned(reinterpret_cast<uintptr_t>(entry)),
              unsigned(reinterpret_cast<uintptr_t>(entry) >> 32));
}
inline void context_switch(Context& from, Context& to) { swapcontext(&from.uc, &to.uc); }
#endif

// A block of fiber stacks, reserved once per worker thread; pages are touched lazily. The
// lowest page of each stack is a guard page (no access): an overflow faults there and the
// engine's fault handler reports it, instead of silently writing into the next stack.
inline size_t stack_bytes() {
#ifdef EMU_ASAN
  size_t fallback = 1024;
#else
  size_t fallback = 256;
#endif
  const char* v = std::getenv("EMU_STACK_KB");
  size_t kb = v && *v ? std::strtoul(v, nullptr, 10) : fallback;
  return (kb < 64 ? 64 : kb) << 10;
}
constexpr size_t kGuardBytes = 4096;

struct StackPool {
  char* base = nullptr;
  size_t count = 0;
  size_t bytes = stack_bytes();

  explicit StackPool(size_t n) : count(n) {
    void* p = mmap(nullptr, n * bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (p == MAP_FAILED) throw std::bad_alloc();
    base = static_cast<char*>(p);
    // NOTE: each guard splits the mapping; past the kernel's map-count limit mprotect fails
    // and the remaining stacks simply go unguarded.
    for (size_t i = 0; i < n; ++i)
      if (mprotect(base + i * bytes, kGuardBytes, PROT_NONE) != 0) break;
  }
  ~StackPool() { munmap(base, count * bytes); }
  StackPool(const StackPool&) = delete;
  StackPool& operator=(const StackPool&) = delete;
  char* stack(size_t i) const { return base + i * bytes; }
  // The usable part (above the guard page).
  char* usable(size_t i) const { return stack(i) + kGuardBytes; }
  size_t usable_bytes() const { return bytes - kGuardBytes; }
  // Index of the stack whose guard page holds addr, or -1.
  long guard_hit(const void* addr) const {
    auto a = reinterpret_cast<const char*>(addr);
    if (a < base || a >= base + count * bytes) return -1;
    size_t i = size_t(a - base) / bytes;
    return a - stack(i) < long(kGuardBytes) ? long(i) : -1;
  }
};

}  // namespace emu
