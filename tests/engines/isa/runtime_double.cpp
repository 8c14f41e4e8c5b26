// Test double of the ISA engine's core (engines/isa/core/engine.h), for tests of the HIP runtime
// alone: it executes nothing. A launch writes what reached it into its first argument (a
// float*): grid x y z, block x y z, dynamic LDS bytes, and 1 if that pointer is a known
// allocation. A kernel whose symbol contains "fault" throws isa::Fault.
#include <cstring>
#include <map>
#include <mutex>

#include "engine.h"

namespace {

struct RecordedCode : isa::CodeObject {
  std::string bytes;
  bool has_kernel(const std::string& symbol) const override { return bytes.find(symbol) != std::string::npos; }
};

std::mutex mutex;
std::map<const void*, size_t> allocations;

}  // namespace

namespace isa {

std::shared_ptr<CodeObject> CodeObject::load(const void* elf, size_t size) {
  const auto* bytes = static_cast<const unsigned char*>(elf);
  if (size < 20 || std::memcmp(bytes, "\x7f" "ELF", 4) != 0 || bytes[18] != 0xe0)  // e_machine EM_AMDGPU
    throw Fault("not an AMDGPU ELF");
  auto code = std::make_shared<RecordedCode>();
  code->bytes.assign(static_cast<const char*>(elf), size);
  return code;
}

void launch(const CodeObject&, const std::string& symbol, Dim3 grid, Dim3 block, void** args, uint32_t lds) {
  if (symbol.find("fault") != std::string::npos) throw Fault("double: " + symbol + " faulted on purpose");
  float* out = *static_cast<float**>(args[0]);
  std::lock_guard<std::mutex> lock(mutex);
  const float known = allocations.count(out) ? 1.0f : 0.0f;
  const float seen[] = {float(grid.x), float(grid.y), float(grid.z), float(block.x),
                        float(block.y), float(block.z), float(lds), known};
  std::memcpy(out, seen, sizeof seen);
}

void note_allocation(const void* base, size_t bytes, const std::string&) {
  std::lock_guard<std::mutex> lock(mutex);
  allocations[base] = bytes;
}

void forget_allocation(const void* base) {
  std::lock_guard<std::mutex> lock(mutex);
  allocations.erase(base);
}

void set_timing(const Hardware*) {}  // the double times nothing
void set_progress(void (*)(double)) {}
void remember_timings(bool) {}
std::vector<KernelTiming> take_timings() { return {}; }
double simulated_device_us() { return -1; }  // timing is never on

// No diagnostics: the double executes nothing.
void set_strict(bool) {}
void set_system_prefixes(const std::string&) {}
bool strict() { return false; }
std::vector<Diagnostic> take_diagnostics() { return {}; }

uint32_t workgroups_per_cu(const CodeObject&, const std::string&, uint32_t, uint32_t) { return 1; }

}  // namespace isa
