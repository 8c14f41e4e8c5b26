// The timing model's inputs, listed once: engine.h declares isa::Hardware from this list and the
// runtime (runtime/timing_api.cpp) sets its fields by these names. Include it with the macros
// defined; it defines nothing else and has no include guard.
//
// MACHINE_FACT(type, name, value): a fact of the machine, its value from machine/mi300x.yaml
// (the generated machine/mi300x.h). It may be set by name (a test's or --set's what-if).
// MODEL_SETTING(name): the model's own setting, which predictor/calibration.yaml gives with
// its source (hardware: or fitted:). It has no default: timing refuses to start without it.
// SIMULATION(type, name, value): how the model is run, not what it models: a default, settable
// by name.

MACHINE_FACT(double, clock_ghz, machine::kClockGhz)
MACHINE_FACT(uint32_t, cus, machine::kCus)
MACHINE_FACT(uint32_t, xcds, machine::kXcds)
MACHINE_FACT(uint32_t, lds_banks, machine::kLdsBanks)
MACHINE_FACT(double, lds_bytes_per_clk, machine::kLdsBytesPerClk)
MACHINE_FACT(double, cu_vmem_bytes_per_clk, machine::kCuVmemBytesPerClk)
// each SIMD pair's port to the LDS: addresses, store and load data
MACHINE_FACT(double, lds_port_bytes_per_clk, machine::kLdsPortBytesPerClk)
MACHINE_FACT(uint32_t, l2_bytes_per_xcd, machine::kL2BytesPerXcd)
// vector L1 per CU (write-through, loads allocate)
MACHINE_FACT(uint32_t, l1_bytes, machine::kL1Bytes)
MACHINE_FACT(uint32_t, l1_line_bytes, machine::kL1LineBytes)
// The power cap's anchor: the FP8 max-achievable GEMM's rate and the clock it runs at.
MACHINE_FACT(double, fp8_flops_per_s, machine::kFp8FlopsPerS)
MACHINE_FACT(double, maf_fp8_flops_per_s, machine::kMafFp8FlopsPerS)
MACHINE_FACT(double, maf_fp8_clock_ghz, machine::kMafFp8ClockGhz)

// Memory levels: load-to-use latency (cycles) when a line is served there, and the bandwidth
// the whole machine achieves from it; the CU's share of a level is it over the active CUs.
MODEL_SETTING(l1_latency)
MODEL_SETTING(l2_latency)
MODEL_SETTING(mall_latency)
MODEL_SETTING(hbm_latency)
MODEL_SETTING(l2_achieved_bytes_per_clk_per_xcd)  // achieved, not the white paper's peak
MODEL_SETTING(mall_bytes_per_s)
MODEL_SETTING(hbm_bytes_per_s)
// The rate at which the machine retires the kernels' memory-side writes (global stores, and
// spills the L2 cannot keep, which it writes back; bytes written, all CUs together): a store
// drains on its CU's write path for those bytes at the CU's share.
MODEL_SETTING(store_bytes_per_s)
// The share of a line's reuse by other workgroups of its XCD that the L2 catches (the rest is
// served by the Infinity Cache).
MODEL_SETTING(l2_reuse_capture)
MODEL_SETTING(valu_cycles)
MODEL_SETTING(trans_cycles)
MODEL_SETTING(salu_latency)
MODEL_SETTING(lds_latency)
MODEL_SETTING(smem_latency)
// The fewest cycles one DS instruction holds its SIMD pair's LDS port, whatever its bytes.
MODEL_SETTING(lds_instruction_cycles)
MODEL_SETTING(barrier_cycles)
MODEL_SETTING(workgroup_launch_cycles)
// The power a busy VALU cycle draws, in busy MFMA cycles (the power-capped clock).
MODEL_SETTING(valu_power_weight)
// A load's wait in a busy memory level's queue: the level's latency x memory_queueing u / (1 - u)
// (an M/M/1 queue's wait; u the share of the kernel's time the grid keeps it busy), less what
// the load already queued for the CU's share; 0 keeps the latencies unloaded.
MODEL_SETTING(memory_queueing)

// Sampled simulation (steady_state.h): a loop is skipped ahead once its last iterations took
// cycles within this share of their mean; 0 simulates every iteration.
SIMULATION(double, steady_state_tolerance, 0.05)
