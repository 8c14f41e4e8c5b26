// What engines.isa (Python, through ctypes) asks of the runtime: allocations to know of,
// the fault of the last call, and a hook that names every CPU tensor torch allocates.
//
// Tensors are the device memory. The engine reports an access outside every known allocation,
// so it must know each tensor a kernel may touch: the Python wrapper notes the arguments of
// each call (with their names), and the allocator hook notes tensors the extension allocates
// itself (torch::empty inside the C++ function).
#include <c10/core/Allocator.h>
#include <c10/core/CPUAllocator.h>

#include <algorithm>
#include <atomic>
#include <cstring>
#include <mutex>
#include <string>

#include "runtime.h"

namespace isa_rt {
namespace {

std::mutex fault_mutex;
std::string pending_fault;
std::atomic<uint64_t> launches{0};

// Wraps torch's CPU allocator; each block it hands out is noted until its deleter runs.
// NOTE: blocks start at 512-byte boundaries as on the device (the ROCm caching allocator
// rounds blocks to 512 bytes within its segments). torch's CPU allocator aligns to 64 bytes
// only, which would put a tensor's rows across cache lines differently from run to run.
class NotingAllocator final : public c10::Allocator {
 public:
  explicit NotingAllocator(c10::Allocator* inner) : inner_(inner) {}

  c10::DataPtr allocate(size_t bytes) override {
    c10::DataPtr inner = inner_->allocate(bytes + kAlignment - 1);
    if (inner.get() == nullptr) return inner;
    const uintptr_t raw = reinterpret_cast<uintptr_t>(inner.get());
    void* data = reinterpret_cast<void*>((raw + kAlignment - 1) / kAlignment * kAlignment);
    isa::note_allocation(data, bytes, "a tensor of " + std::to_string(bytes) + " bytes");
    auto* owned = new Block{std::move(inner), data};
    return c10::DataPtr(data, owned, &NotingAllocator::release, owned->inner.device());
  }

  void copy_data(void* dest, const void* src, std::size_t count) const override { std::memcpy(dest, src, count); }

 private:
  static constexpr uintptr_t kAlignment = 512;
  struct Block {
    c10::DataPtr inner;  // what the CPU allocator gave
    void* data;          // the aligned start handed out
  };

  static void release(void* context) {
    auto* owned = static_cast<Block*>(context);
    isa::forget_allocation(owned->data);
    delete owned;
  }

  c10::Allocator* inner_;
};

}  // namespace

void record_fault(const std::string& message) {
  std::lock_guard<std::mutex> lock(fault_mutex);
  if (pending_fault.empty()) pending_fault = message;  // the first fault is the cause
}

void count_launch() { ++launches; }

}  // namespace isa_rt

extern "C" {

void isa_rt_note_allocation(const void* base, size_t bytes, const char* what) {
  isa::note_allocation(base, bytes, what);
}

void isa_rt_forget_allocation(const void* base) { isa::forget_allocation(base); }

// Copies the pending fault into `out` (NUL-terminated, truncated to `size`), clears it and
// returns its full length; 0 when no launch faulted since the last call.
size_t isa_rt_take_fault(char* out, size_t size) {
  std::lock_guard<std::mutex> lock(isa_rt::fault_mutex);
  const size_t length = isa_rt::pending_fault.size();
  if (length != 0 && size != 0) {
    const size_t n = std::min(length, size - 1);
    std::memcpy(out, isa_rt::pending_fault.data(), n);
    out[n] = '\0';
  }
  isa_rt::pending_fault.clear();
  return length;
}

uint64_t isa_rt_launch_count() { return isa_rt::launches.load(); }

// The diagnostics since the last call, one per line: kind, kernel, count and message separated
// by tabs. Returns the text's full length; when `size` is too small nothing is consumed and the
// caller asks again with room for that length.
size_t isa_rt_take_diagnostics(char* out, size_t size) {
  static std::mutex mutex;
  static std::string pending;
  std::lock_guard<std::mutex> lock(mutex);
  for (const isa::Diagnostic& d : isa::take_diagnostics()) {
    std::string message = d.message;
    std::replace(message.begin(), message.end(), '\n', ' ');
    pending += d.kind + "\t" + d.kernel + "\t" + std::to_string(d.count) + "\t" + message + "\n";
  }
  const size_t length = pending.size();
  if (length < size) {
    std::memcpy(out, pending.data(), length);
    out[length] = '\0';
    pending.clear();
  }
  return length;
}

void isa_rt_set_strict(int strict) { isa::set_strict(strict != 0); }

void isa_rt_set_system_prefixes(const char* one_a_line) { isa::set_system_prefixes(one_a_line); }

// Idempotent. Priority above torch's defaults so later SetCPUAllocator calls of lower
// priority do not undo it.
void isa_rt_install_allocator() {
  static std::once_flag once;
  std::call_once(once, [] {
    static isa_rt::NotingAllocator allocator(c10::GetCPUAllocator());
    c10::SetCPUAllocator(&allocator, /*priority=*/100);
  });
}

}  // extern "C"
