// The ISA engine's one entry point: run a gfx942 kernel of an AMDHSA code object on the CPU.
//
// The host side (isa_engine/runtime/: a HIP runtime for a simulated MI300X) registers the
// code objects clang embedded in the submission's fat binary and calls `launch` for every
// kernel launch. Device addresses are host addresses: torch CPU tensors are the memory.
#pragma once
#include <cstddef>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace isa {

// A fault of the kernel or the engine: unknown opcode, missing s_waitcnt, LDS race,
// out-of-allocation access... `what()` names the kernel, the instruction (mnemonic and
// address) and the source line when debug line info is present.
struct Fault : std::runtime_error {
  using std::runtime_error::runtime_error;
};

struct Dim3 { uint32_t x = 1, y = 1, z = 1; };

// One gfx942 code object (an AMDHSA ELF), parsed once: kernels, their descriptors and
// argument metadata (.amdhsa.kernels in the NT_AMDGPU_METADATA note).
class CodeObject {
 public:
  static std::shared_ptr<CodeObject> load(const void* elf, size_t size);  // throws Fault
  virtual ~CodeObject() = default;
  virtual bool has_kernel(const std::string& symbol) const = 0;  // e.g. "_Z6kernelPf"
  virtual std::vector<std::string> kernel_names() const { return {}; }  // every kernel symbol, sorted
};

// Launch `symbol` over `grid` workgroups of `block` work-items. `args` is HIP's array of
// pointers to each explicit argument (hipLaunchKernel's); the engine lays them out with the
// metadata's offsets and fills the hidden arguments (block counts, group sizes, ...) itself.
// Runs to completion (launches are synchronous); throws Fault. Besides unknown instructions
// it faults on: a register read while its load is outstanding by the s_waitcnt counters
// ("missing s_waitcnt"), LDS bytes touched by two waves between barriers with one write ("LDS
// race"), LDS/scratch accesses outside their sizes, and, once any allocation is noted, global
// accesses outside every allocation ("out-of-allocation ... <what>"). Messages end with the
// source line when the code object has a line table (-gline-tables-only) and the workgroup.
// ISA_ENGINE_TRACE=<linear workgroup id> prints wave 0 of that workgroup to stderr.
void launch(const CodeObject& code, const std::string& symbol, Dim3 grid, Dim3 block,
            void** args, uint32_t dynamic_lds);

// Memory the engine may touch besides the kernel's own LDS and scratch: the runtime reports
// each allocation it knows of (hipMalloc, and tensors passed as arguments) so an access
// outside all of them is reported as out of allocation.
void note_allocation(const void* base, size_t bytes, const std::string& what);
void forget_allocation(const void* base);

// Counters over every launch since the last reset (benchmarks; thread-safe).
struct Stats {
  uint64_t launches = 0, workgroups = 0, waves = 0;
  uint64_t wave_instructions = 0;  // instructions executed, counted once per wave
  uint64_t mfma_instructions = 0;
  double seconds = 0;              // wall time inside launch()
  double mfma_seconds = 0;         // CPU time spent in MFMA arithmetic (summed over threads)
};
Stats stats();
void reset_stats();

// Worker threads for the workgroups of one launch (default: ISA_ENGINE_THREADS, else 1).
void set_threads(int threads);

}  // namespace isa
