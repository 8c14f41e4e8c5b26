// The ISA engine's one entry point: run a gfx942 kernel of an AMDHSA code object on the CPU.
//
// The host side (engines/isa/runtime/: a HIP runtime for a simulated MI300X) registers the
// code objects clang embedded in the submission's fat binary and calls `launch` for every
// kernel launch. Device addresses are host addresses: torch CPU tensors are the memory.
#pragma once
#include <cstddef>
#include <cstdint>
#include <limits>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "mi300x.h"

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
// Runs to completion (launches are synchronous); throws Fault on what stops a GPU too:
// unknown instructions, scratch accesses outside the lane's size and, once any allocation is
// noted, global stores and atomics outside every allocation ("out-of-allocation ... <what>").
// What the hardware runs through is a diagnostic (see below), a Fault only in strict mode.
// Messages end with the source line when the code object has a line table
// (-gline-tables-only) and the workgroup.
// ISA_ENGINE_TRACE=<linear workgroup id> prints wave 0 of that workgroup to stderr.
void launch(const CodeObject& code, const std::string& symbol, Dim3 grid, Dim3 block,
            void** args, uint32_t dynamic_lds);

// Diagnostics: what hardware runs through but is likely a bug, kept once per kernel, kind and
// instruction with the number of times it happened. Kinds: "missing s_waitcnt" (a register
// read while its load is outstanding by the s_waitcnt counters: the engine's loads have
// landed, the GPU's may not have), "LDS race" (two waves touch an LDS byte between barriers,
// one writing a different value), "LDS outside the allocation" (an access past the
// workgroup's LDS: reads give 0, writes are dropped, as gfx942 does), "read past the end of a
// tensor" (a global load past an allocation, named by the kernel parameter pointing into it:
// zeros here, whatever memory lies there on the GPU), "read outside every allocation" (below all).
// In strict mode (set_strict, or ISA_ENGINE_STRICT=1 in the environment) each is a Fault.
struct Diagnostic {
  std::string kernel, kind, message;  // message: what, the instruction and the source line
  uint64_t count = 0;                 // occurrences since it was first taken
};
void set_strict(bool strict);

// Faults and diagnostics name the innermost source frame in a file under none of these prefixes
// (the toolchain's, the engines' and the system's headers); the runtime's loader hands over
// toolchain.diagnostics.system_prefixes(), one a line. Before that, the innermost frame.
void set_system_prefixes(const std::string& one_a_line);
bool strict();
// The diagnostics since the last call (each site once; counts of sites already taken restart).
std::vector<Diagnostic> take_diagnostics();

// Resident workgroups of `symbol` per CU at `block_size` work-items and `dynamic_lds` bytes
// (machine/occupancy.h on the kernel descriptor's resources); 0 when it cannot launch.
uint32_t workgroups_per_cu(const CodeObject& code, const std::string& symbol, uint32_t block_size,
                           uint32_t dynamic_lds);

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

// Worker threads for the workgroups of one launch (default: ISA_ENGINE_THREADS, else one per
// hardware thread of the machine).
void set_threads(int threads);


// ---- timing: a cycle-approximate MI300X model of each launch --------------------------------
// With a Hardware set, every launch is timed instead of run in full: the workgroups the
// dispatcher gives the busiest CU execute, instruction by instruction, under a per-CU cycle
// model (4 SIMDs with their issue rules and pipes, LDS with bank conflicts, the CU's vector
// memory path); the rest of the grid enters as bandwidth floors. Outputs of a timed launch
// are incomplete by design. See engines/isa/core/README.md ("Timing model").
struct Hardware {
#define MACHINE_FACT(type, name, value) type name = value;
#define MODEL_SETTING(name) double name = std::numeric_limits<double>::quiet_NaN();
#define SIMULATION(type, name, value) type name = value;
#include "hardware_fields.h"
#undef MACHINE_FACT
#undef MODEL_SETTING
#undef SIMULATION
  std::vector<std::pair<std::string, double>> mfma_cycles;  // mnemonic -> execution cycles, over machine::kMfmaCycles
};

// Where one instruction's cycles went, summed over the busiest CU's waves.
struct InstructionTime {
  uint64_t addr = 0;
  std::string mnemonic, line;
  uint64_t issued = 0;
  double stall_cycles = 0;  // cycles a wave sat at it unable to issue
  std::string top_reason;   // the stall reason with most cycles there
};

struct KernelTiming {
  std::string symbol;
  Dim3 grid, block;
  uint64_t workgroups = 0;
  uint32_t waves_per_workgroup = 0, workgroups_per_cu = 0, busiest_cu_workgroups = 0;
  std::string occupancy_limiter;  // what stopped one more workgroup per CU (machine/occupancy.h)
  uint32_t scratch_bytes_per_lane = 0;  // the kernel descriptor's private segment (spills, stack)
  double cu_cycles = 0;          // the busiest CU, first dispatch to last wave's end
  double sampled_share = 0;      // of cu_cycles: those of skipped iterations and workgroups, extrapolated
  double clock_ghz = 0;          // the engine clock the power cap allows this launch
  double cu_us = 0, hbm_floor_us = 0, mall_floor_us = 0, l2_floor_us = 0;
  double kernel_us = 0;  // the largest of the busiest CU and the three floors
  // Whole grid (scaled from the simulated CU): bytes the vector L1s missed (through the L2s),
  // bytes the L2s missed (through the Infinity Cache), and the distinct bytes the kernel
  // touches in the allocations it uses (through HBM once).
  double bytes_requested = 0, mall_bytes = 0, footprint_bytes = 0;
  double l2_hit_rate = 0;  // share of the L1 misses the L2 served
  // Per SIMD, averaged over the CU's 4: cycles its pipes were busy, and cycles its waves
  // spent stalled by reason (a wave-cycle count divided by the resident waves).
  double mfma_busy = 0, valu_busy = 0, lds_busy = 0, vmem_busy = 0, idle = 0;
  std::vector<std::pair<std::string, double>> stalls;  // reason -> wave-cycles
  std::vector<InstructionTime> hottest;
};

// nullptr turns timing off. Not thread-safe against running launches.
void set_timing(const Hardware* hardware);
// While a launch is timed, `report` hears how far its timing is (0..1: passes of the busiest CU
// and its workgroups done, skipped ones included), at most a few times a second, on the
// launching thread; nullptr: nobody listens.
void set_progress(void (*report)(double fraction));
// While on, a timed launch the same as one timed before (kernel, geometry, argument bytes, the
// tensors' places) takes that launch's timing instead of being timed again: for calls made on
// the same input, whose memory's contents are the same too. Off forgets them.
void remember_timings(bool on);
// The timings of the launches since the last call, in launch order.
std::vector<KernelTiming> take_timings();
// The simulated device's clock while timing is on: the sum of every timed launch's kernel_us
// so far (the HIP runtime's events read it, so a submission timing itself sees MI300X time).
// Returns a negative value while timing is off.
double simulated_device_us();

}  // namespace isa
