"""The ISA engine's timing model on kernels whose cycle counts follow from the documented rules: an
MFMA chain runs at the calculator's cycles per MFMA, LDS bank conflicts serialise (a
ds_read_b128's in the lane groups AMD documents) and each SIMD pair's port to the LDS moves 64
bytes a cycle each way, one instruction at a time and at least a minimum of cycles each, extra
workgroup rounds on the busiest CU add time in proportion, a load's latency shows as an s_waitcnt
vmcnt stall, re-read lines hit the vector L1, a burst of loads gets more than its fair share of a
level the grid leaves idle, a level the grid keeps busy makes loads wait longer, stores leave at
the CU's share of the store rate, rates in bytes a second hold at the power-capped clock, spills
beyond the L2 come from the Infinity Cache and are written back at the store rate, a timed launch
leaves memory as it found it, a kernel that waits for other workgroups is refused, and a call with
no kernel cannot be predicted."""
from __future__ import annotations

import pytest
import torch

import engines.isa
import machine
from predictor import PredictionError, hardware, predict
from predictor.scratch import use_once_note

HIP = r"""
#include <hip/hip_runtime.h>

typedef float float4_t __attribute__((ext_vector_type(4)));
typedef float float16_t __attribute__((ext_vector_type(16)));

// One wave: n dependent 32x32x16 fp8 MFMAs, 32 cycles each by the calculator; the loop's other
// instructions (5 issue windows of 4 cycles) hide under them.
__global__ void mfma_chain(float* out, int n) {
  float16_t acc = {};
  long a = 0x3838383838383838L + threadIdx.x, b = 0x3030303030303030L;
  for (int i = 0; i < n; ++i) acc = __builtin_amdgcn_mfma_f32_32x32x16_fp8_fp8(a, b, acc, 0, 0, 0);
  out[threadIdx.x] = acc[0] + acc[15];
}

// Each wave reads LDS dwords `stride` apart, 8 independent reads per round (every wave the same).
__global__ void lds_reads(float* out, int stride, int rounds) {
  __shared__ float tile[8192];
  for (int i = threadIdx.x; i < 8192; i += blockDim.x) tile[i] = float(i);
  __syncthreads();
  const int lane = threadIdx.x & 63;
  float sum = 0;
  for (int r = 0; r < rounds; ++r) {
    float v[8];
#pragma unroll
    for (int j = 0; j < 8; ++j) v[j] = tile[(lane * stride + j * 64 * stride + r) & 8191];
#pragma unroll
    for (int j = 0; j < 8; ++j) sum += v[j];
  }
  out[threadIdx.x] = sum;
}

// Each lane reads 16 bytes (ds_read_b128) from row `quad` of a 32-dword-wide tile, quad = lane / 4
// within the half-wave, at the bank-quad (lane % 4) of the row's half halves[quad % 8] (0: banks
// 0-15, 1: banks 16-31): the lanes of two quads share their banks, in different dwords,
// exactly when the quads sit in the same half.
__global__ void lds_b128_reads(float* out, int halves, int rounds) {
  __shared__ float4_t tile[16 * 8];
  for (int i = threadIdx.x; i < 16 * 8; i += blockDim.x) tile[i] = float4_t{float(i), 0, 0, 0};
  __syncthreads();
  const int lane = threadIdx.x & 63, quad = (lane & 31) / 4, half = (halves >> (quad % 8)) & 1;
  float4_t sum = {};
  for (int r = 0; r < rounds; ++r) sum += tile[((quad + r) & 15) * 8 + half * 4 + lane % 4];
  out[threadIdx.x] = sum[0] + sum[3];
}

// lds_reads' conflict-free reads through a generic pointer the compiler cannot place
// (flat_load_dword): every lane's address falls in the LDS aperture.
__global__ void flat_lds_reads(float* out, int rounds, int from_lds) {
  __shared__ float tile[8192];
  for (int i = threadIdx.x; i < 8192; i += blockDim.x) tile[i] = float(i);
  __syncthreads();
  const float* p = from_lds ? tile : out;
  const int lane = threadIdx.x & 63;
  float sum = 0;
  for (int r = 0; r < rounds; ++r) {
    float v[8];
#pragma unroll
    for (int j = 0; j < 8; ++j) v[j] = p[(lane + j * 64 + r) & 8191];
#pragma unroll
    for (int j = 0; j < 8; ++j) sum += v[j];
  }
  out[threadIdx.x] = sum;
}

// 40 KiB of LDS: one workgroup per CU; each wave does the same MFMA work.
__global__ void heavy_block(float* out, int n) {
  __shared__ float pad[10240];
  pad[threadIdx.x] = 1.0f;
  __syncthreads();
  float4_t acc = {pad[threadIdx.x], 0, 0, 0};
  long a = 0x3838383838383838L, b = 0x3030303030303030L;
  for (int i = 0; i < n; ++i) acc = __builtin_amdgcn_mfma_f32_16x16x32_fp8_fp8(a, b, acc, 0, 0, 0);
  out[blockIdx.x * blockDim.x + threadIdx.x] = acc[0];
}

// Each lane reads a float from its own 128-byte line, `rounds` times over: after the first
// round every line is in the vector L1.
__global__ void reread(const float* in, float* out, int rounds) {
  float sum = 0;
  for (int r = 0; r < rounds; ++r) sum += ((volatile const float*)in)[threadIdx.x * 32 + (r & 1)];
  out[threadIdx.x] = sum;
}
void launch_reread(const float* in, float* out, int rounds) { reread<<<1, 64>>>(in, out, rounds); }

// Each lane writes n floats, a whole 256-byte row of the wave's at each step; nothing waits for them.
__device__ void fill_rows(float* out, int block, int n) {
  for (int i = 0; i < n; ++i) out[(block * n + i) * 64 + threadIdx.x] = float(i);
}
__global__ void fill(float* out, int n) { fill_rows(out, blockIdx.x, n); }
void launch_fill(float* out, int blocks, int n) { fill<<<blocks, 64>>>(out, n); }

// The first half of the grid does fill's n rows; the second runs m MFMAs, loads 16 fresh rows,
// then m MFMAs on them. With two blocks a CU, one wave's loads come after the other's stores.
__global__ void fill_or_compute(const float* in, float* out, int n, int m) {
  const int half = gridDim.x / 2;
  if (blockIdx.x < half) {
    fill_rows(out, blockIdx.x, n);
    return;
  }
  const int b = blockIdx.x - half;
  float4_t acc = {};
  long x = 0x3838383838383838L, y = 0x3030303030303030L;
  for (int i = 0; i < m; ++i) acc = __builtin_amdgcn_mfma_f32_16x16x32_fp8_fp8(x, y, acc, 0, 0, 0);
  float v = 0;
#pragma unroll
  for (int i = 0; i < 16; ++i) v += in[(b * 16 + i) * 64 + threadIdx.x];
  acc[0] += v;
  for (int i = 0; i < m; ++i) acc = __builtin_amdgcn_mfma_f32_16x16x32_fp8_fp8(x, y, acc, 0, 0, 0);
  out[(half * n + b) * 64 + threadIdx.x] = acc[0];
}
void launch_fill_or_compute(const float* in, float* out, int blocks, int n, int m) {
  fill_or_compute<<<2 * blocks, 64>>>(in, out, n, m);
}

// One wave loads 16 fresh 256-byte rows in a burst, then runs n dependent MFMAs.
__global__ void burst_then_compute(const float* in, float* out, int n) {
  float v = 0;
#pragma unroll
  for (int i = 0; i < 16; ++i) v += in[(blockIdx.x * 16 + i) * 64 + threadIdx.x];
  float4_t acc = {v, 0, 0, 0};
  long a = 0x3838383838383838L, b = 0x3030303030303030L;
  for (int i = 0; i < n; ++i) acc = __builtin_amdgcn_mfma_f32_16x16x32_fp8_fp8(a, b, acc, 0, 0, 0);
  out[blockIdx.x * 64 + threadIdx.x] = acc[0];
}
void launch_burst_then_compute(const float* in, float* out, int blocks, int n) {
  burst_then_compute<<<blocks, 64>>>(in, out, n);
}

// Each lane loads one float and adds 1: the add waits for the load.
__global__ void load_use(const float* in, float* out) { out[threadIdx.x] = in[threadIdx.x] + 1.0f; }

// Each wave follows n rows of 64 ints, each row naming the next: one load in flight at a time.
__global__ void chase(const int* rows, float* out, int n) {
  int row = blockIdx.x * n;
  for (int i = 0; i < n; ++i) row = rows[row * 64 + threadIdx.x];
  out[blockIdx.x * 64 + threadIdx.x] = float(row);
}

// Split-K style state: every workgroup counts its arrival and writes its output.
__global__ void arrive(int* counter, float* out) {
  if (threadIdx.x == 0) atomicAdd(counter, 1);
  out[blockIdx.x * 64 + threadIdx.x] = 1.0f;
}

// Stream-K style: workgroup 0 waits until the last workgroup has set the flag.
__global__ void wait_for_last(int* flag, float* out) {
  if (blockIdx.x == gridDim.x - 1 && threadIdx.x == 0) atomicExch(flag, 1);
  if (blockIdx.x == 0) while (atomicAdd(flag, 0) == 0) {}
  out[blockIdx.x * 64 + threadIdx.x] = 1.0f;
}
void launch_wait_for_last(int* flag, float* out, int blocks) { wait_for_last<<<blocks, 64>>>(flag, out); }

// A loop that reads no memory: nothing can end it.
__global__ void spin_forever() {
  for (;;) asm volatile("s_nop 0");
}
void launch_spin_forever() { spin_forever<<<1, 64>>>(); }

// The MFMA chain timed by the submission itself with hipEvents: milliseconds into out[0].
void launch_self_timed(float* out, int n) {
  hipEvent_t start, stop;
  hipEventCreate(&start);
  hipEventCreate(&stop);
  hipEventRecord(start, 0);
  mfma_chain<<<1, 64>>>(out, n);
  hipEventRecord(stop, 0);
  hipEventSynchronize(stop);
  float ms = 0;
  hipEventElapsedTime(&ms, start, stop);
  out[0] = ms;
  hipEventDestroy(start);
  hipEventDestroy(stop);
}

// Each lane indexes a private array at run time: it lives in scratch, as spilled registers do.
__global__ void private_array(const int* idx, float* out, int n) {
  float a[64];
  for (int i = 0; i < 64; ++i) a[i] = float(i * threadIdx.x);
  float sum = 0;
  for (int i = 0; i < n; ++i) sum += a[idx[(threadIdx.x + i) & 63] & 63];
  out[threadIdx.x] = sum;
}
void launch_private_array(const int* idx, float* out, int n) { private_array<<<1, 64>>>(idx, out, n); }

void launch_arrive(int* counter, float* out, int blocks) { arrive<<<blocks, 64>>>(counter, out); }
void launch_mfma_chain(float* out, int n) { mfma_chain<<<1, 64>>>(out, n); }
void launch_lds_reads(float* out, int stride, int rounds, int threads) {
  lds_reads<<<1, threads>>>(out, stride, rounds);
}
void launch_lds_b128_reads(float* out, int halves, int rounds) { lds_b128_reads<<<1, 64>>>(out, halves, rounds); }
void launch_flat_lds_reads(float* out, int rounds, int threads) { flat_lds_reads<<<1, threads>>>(out, rounds, 1); }
void launch_heavy_blocks(float* out, int blocks, int n, int threads) { heavy_block<<<blocks, threads>>>(out, n); }
void launch_load_use(const float* in, float* out) { load_use<<<1, 64>>>(in, out); }
void launch_chase(const int* rows, float* out, int blocks, int n) { chase<<<blocks, 64>>>(rows, out, n); }
void do_nothing() {}
"""
# NOTE: the HIP source stays free of torch (no_implicit_headers; the launchers take pointers) and the
# bindings wrap them: a build then parses torch's headers in the PCH'd bindings only (~5 s, not ~20).
CPP = """#include <torch/extension.h>
void launch_mfma_chain(float* out, int n);
void launch_lds_reads(float* out, int stride, int rounds, int threads);
void launch_flat_lds_reads(float* out, int rounds, int threads);
void launch_lds_b128_reads(float* out, int halves, int rounds);
void launch_heavy_blocks(float* out, int blocks, int n, int threads);
void launch_load_use(const float* in, float* out);
void launch_chase(const int* rows, float* out, int blocks, int n);
void do_nothing();
void launch_arrive(int* counter, float* out, int blocks);
void launch_reread(const float* in, float* out, int rounds);
void launch_wait_for_last(int* flag, float* out, int blocks);
void launch_spin_forever();
void launch_self_timed(float* out, int n);
void launch_private_array(const int* idx, float* out, int n);
void launch_fill(float* out, int blocks, int n);
void launch_burst_then_compute(const float* in, float* out, int blocks, int n);
void launch_fill_or_compute(const float* in, float* out, int blocks, int n, int m);
void run_mfma_chain(torch::Tensor out, int64_t n) { launch_mfma_chain(out.data_ptr<float>(), n); }
void run_lds_reads(torch::Tensor out, int64_t stride, int64_t rounds, int64_t threads) {
  launch_lds_reads(out.data_ptr<float>(), stride, rounds, threads);
}
void run_flat_lds_reads(torch::Tensor out, int64_t rounds, int64_t threads) {
  launch_flat_lds_reads(out.data_ptr<float>(), rounds, threads);
}
void run_lds_b128_reads(torch::Tensor out, int64_t halves, int64_t rounds) {
  launch_lds_b128_reads(out.data_ptr<float>(), halves, rounds);
}
void run_heavy_blocks(torch::Tensor out, int64_t blocks, int64_t n, int64_t threads) {
  launch_heavy_blocks(out.data_ptr<float>(), blocks, n, threads);
}
void run_load_use(torch::Tensor in, torch::Tensor out) { launch_load_use(in.data_ptr<float>(), out.data_ptr<float>()); }
void run_chase(torch::Tensor rows, torch::Tensor out, int64_t blocks, int64_t n) {
  launch_chase(rows.data_ptr<int>(), out.data_ptr<float>(), blocks, n);
}
void launch_nothing(torch::Tensor) { do_nothing(); }
void run_arrive(torch::Tensor counter, torch::Tensor out, int64_t blocks) { launch_arrive(counter.data_ptr<int>(), out.data_ptr<float>(), blocks); }
void run_reread(torch::Tensor in, torch::Tensor out, int64_t rounds) { launch_reread(in.data_ptr<float>(), out.data_ptr<float>(), rounds); }
void run_wait_for_last(torch::Tensor flag, torch::Tensor out, int64_t blocks) { launch_wait_for_last(flag.data_ptr<int>(), out.data_ptr<float>(), blocks); }
void run_spin_forever() { launch_spin_forever(); }
void run_self_timed(torch::Tensor out, int64_t n) { launch_self_timed(out.data_ptr<float>(), n); }
void run_private_array(torch::Tensor idx, torch::Tensor out, int64_t n) { launch_private_array(idx.data_ptr<int>(), out.data_ptr<float>(), n); }
void run_fill(torch::Tensor out, int64_t blocks, int64_t n) { launch_fill(out.data_ptr<float>(), blocks, n); }
void run_burst_then_compute(torch::Tensor in, torch::Tensor out, int64_t blocks, int64_t n) {
  launch_burst_then_compute(in.data_ptr<float>(), out.data_ptr<float>(), blocks, n);
}
void run_fill_or_compute(torch::Tensor in, torch::Tensor out, int64_t blocks, int64_t n, int64_t m) {
  launch_fill_or_compute(in.data_ptr<float>(), out.data_ptr<float>(), blocks, n, m);
}
"""
FUNCTIONS = ["run_mfma_chain", "run_lds_reads", "run_flat_lds_reads", "run_lds_b128_reads", "run_heavy_blocks", "run_load_use", "run_chase", "launch_nothing", "run_arrive", "run_reread", "run_wait_for_last", "run_spin_forever", "run_self_timed", "run_private_array", "run_fill", "run_burst_then_compute", "run_fill_or_compute"]


@pytest.fixture(scope="module")
def module():
    return engines.isa.load_inline("predict_timing_probe", CPP, HIP, functions=FUNCTIONS, no_implicit_headers=True,
                                  extra_cuda_cflags=["--offload-arch=gfx942", "-O3", "-std=c++20"])


def timed(call, **overrides) -> dict:
    prediction, _ = predict(call, hardware(overrides), exact=True)  # the rules, not the sampling
    (kernel,) = prediction.kernels
    return kernel


# No floor and a port too wide to matter: an LDS instruction takes the banks' cycles.
BANKS_ONLY = {"lds_instruction_cycles": 0, "lds_port_bytes_per_clk": 4096}


def test_an_mfma_chain_takes_the_calculators_cycles_per_mfma(module):
    out = torch.zeros(64)
    short = timed(lambda: module.run_mfma_chain(out, 100))
    long = timed(lambda: module.run_mfma_chain(out, 600))
    per_mfma = (long["cu_cycles"] - short["cu_cycles"]) / 500
    assert 32 <= per_mfma <= 33
    assert long["mfma_busy"] == pytest.approx(600 * 32 / 4, rel=0.02)  # one SIMD of four is busy


def test_lds_bank_conflicts_serialise(module):
    out = torch.zeros(64)
    free = timed(lambda: module.run_lds_reads(out, 1, 64, 64), **BANKS_ONLY)
    conflicted = timed(lambda: module.run_lds_reads(out, 32, 64, 64), **BANKS_ONLY)  # every lane on one bank
    assert conflicted["lds_busy"] >= 16 * free["lds_busy"]
    # one wave alone: the LDS pipe's extra cycles land in its time
    assert conflicted["cu_cycles"] - free["cu_cycles"] >= 0.8 * (conflicted["lds_busy"] - free["lds_busy"])


# Which half of the banks each quad of lanes reads (bit q: quad q of a half-wave), for
# lds_b128_reads: quads 0-7 in the order lo hi lo hi hi lo hi lo, then lo lo lo lo hi hi hi hi.
NEIGHBOURS_APART, PARTNERS_APART = 0b01011010, 0b11110000


def test_ds_read_b128_meets_the_banks_in_the_documented_lane_groups(module):
    out = torch.zeros(64)
    # The LDS serves a ds_read_b128 eight lanes a cycle: quads 0 and 5, 1 and 4, 2 and 7, 3 and 6
    # of each half-wave together (AMD's CK documentation), not lanes 0-7, 8-15, ...
    neighbours, partners = (timed(lambda h=halves: module.run_lds_b128_reads(out, h, 64), **BANKS_ONLY)
                            for halves in (NEIGHBOURS_APART, PARTNERS_APART))
    # every group: two quads on the same banks (2 cycles) against none (1 cycle)
    assert neighbours["lds_busy"] == pytest.approx(2 * partners["lds_busy"], rel=0.02)
    assert neighbours["cu_cycles"] > partners["cu_cycles"]


def test_the_lds_serves_its_throughput_in_bytes_a_cycle(module):
    out = torch.zeros(64)
    full = timed(lambda: module.run_lds_reads(out, 1, 64, 64), **BANKS_ONLY)
    half = timed(lambda: module.run_lds_reads(out, 1, 64, 64), **BANKS_ONLY, lds_bytes_per_clk=64)
    # fewer lanes a cycle, and a bank's two dwords of one lane serialise in each of them
    assert half["lds_busy"] == pytest.approx(2 * full["lds_busy"], rel=0.01)


def test_a_simd_pairs_port_moves_its_bytes_each_way(module):
    out = torch.zeros(64)
    # ds_read2_b32: 256 bytes of addresses in, 512 of data out; the banks take 4 cycles
    wide, narrow = (timed(lambda: module.run_lds_reads(out, 1, 64, 64), lds_instruction_cycles=0,
                          lds_port_bytes_per_clk=rate) for rate in (64, 32))
    assert narrow["lds_busy"] == pytest.approx(2 * wide["lds_busy"], rel=0.01)
    assert narrow["cu_cycles"] > wide["cu_cycles"]


def test_the_two_simd_pairs_reach_the_lds_through_ports_of_their_own(module):
    out = torch.zeros(256)
    # each wave the same reads, 200 cycles an instruction on its port: the ports bound the time
    one, pair, both = (timed(lambda t=threads: module.run_lds_reads(out, 1, 64, t), lds_instruction_cycles=200)
                       for threads in (64, 128, 256))
    assert pair["cu_cycles"] > 1.6 * one["cu_cycles"]  # SIMDs 0 and 1 take turns at one port
    assert both["cu_cycles"] == pytest.approx(pair["cu_cycles"], rel=0.1)  # SIMDs 2 and 3 use the other


def test_flat_reads_that_reach_the_lds_take_its_port_as_ds_reads_do(module):
    out = torch.zeros(128)
    # flat_load_dword into the LDS aperture, 200 cycles an instruction on its pair's port
    free = timed(lambda: module.run_flat_lds_reads(out, 64, 64), lds_instruction_cycles=0)
    one, pair = (timed(lambda t=threads: module.run_flat_lds_reads(out, 64, t), lds_instruction_cycles=200)
                 for threads in (64, 128))
    assert one["lds_busy"] >= 200 * 8 * 64  # 8 reads a round, 64 rounds, each holding the port
    assert one["cu_cycles"] > free["cu_cycles"] + 100 * 8 * 64
    assert pair["cu_cycles"] > 1.6 * one["cu_cycles"]  # SIMDs 0 and 1 take turns at one port


def test_each_lds_instruction_holds_the_pipe_at_least_its_minimum(module):
    out = torch.zeros(64)
    # 256-512 bytes an instruction here: 4-8 cycles on a port, below either minimum
    bytes_only = timed(lambda: module.run_lds_reads(out, 1, 64, 64), lds_instruction_cycles=0)
    short, long = (timed(lambda: module.run_lds_reads(out, 1, 64, 64), lds_instruction_cycles=c) for c in (40, 80))
    assert long["lds_busy"] == pytest.approx(2 * short["lds_busy"], rel=1e-9)
    assert short["lds_busy"] >= 5 * bytes_only["lds_busy"]
    assert long["cu_cycles"] > short["cu_cycles"] > bytes_only["cu_cycles"]


def test_each_extra_round_on_the_busiest_cu_adds_its_time(module):
    out = torch.zeros(3 * 304 * 64)
    one, three = (timed(lambda b=blocks: module.run_heavy_blocks(out, b, 400, 64)) for blocks in (304, 3 * 304))
    assert (one["workgroups_per_cu"], one["busiest_cu_workgroups"], three["busiest_cu_workgroups"]) == (1, 1, 3)
    assert three["cu_cycles"] / one["cu_cycles"] == pytest.approx(3, rel=0.1)


def test_mfma_work_on_every_cu_runs_at_the_power_capped_clock(module):
    out = torch.zeros(304 * 256)
    # 4 waves a CU, one a SIMD, each keeping its MFMA pipe busy: busier than the FP8
    # max-achievable GEMM's activity allows at the peak clock once most CUs take part
    peak, maf = machine.fact("clock_ghz"), machine.fact("maf_fp8_clock_ghz")  # 2.1 and 1.23 GHz
    few, every = (timed(lambda b=blocks: module.run_heavy_blocks(out, b, 400, 256), valu_power_weight=0)
                  for blocks in (8, 304))
    assert few["clock_ghz"] == peak and few["cu_us"] == pytest.approx(few["cu_cycles"] / (peak * 1000), rel=1e-9)
    assert maf < every["clock_ghz"] < peak
    assert every["cu_us"] == pytest.approx(every["cu_cycles"] / (every["clock_ghz"] * 1000), rel=1e-9)
    # the cube root of the max-achievable GEMM's activity over the launch's (MFMA alone here), times its clock
    activity = every["mfma_busy"] / every["cu_cycles"]
    maf_busy = machine.fact("maf_fp8_flops_per_s") / (machine.fact("fp8_flops_per_s") * maf / peak)
    assert every["clock_ghz"] == pytest.approx(maf * (maf_busy / activity) ** (1 / 3), rel=1e-6)
    # VALU work draws power too, at its weight
    weighted = timed(lambda: module.run_heavy_blocks(out, 304, 400, 256), valu_power_weight=50)
    assert weighted["valu_busy"] > 0 and weighted["clock_ghz"] < every["clock_ghz"]


def test_a_load_latency_shows_as_a_vmcnt_stall(module):
    src, out = torch.ones(64), torch.zeros(64)
    # a line read once by the grid comes from HBM
    fast = timed(lambda: module.run_load_use(src, out), hbm_latency=200)
    slow = timed(lambda: module.run_load_use(src, out), hbm_latency=1200)
    assert slow["cu_cycles"] - fast["cu_cycles"] >= 1000  # at least one full load round trip each
    assert max(slow["stalls"], key=slow["stalls"].get) == "s_waitcnt vmcnt"


def test_a_burst_gets_more_than_the_fair_share_of_a_level_the_grid_leaves_idle(module):
    cus = machine.fact("cus")
    src, out = torch.ones(cus * 16 * 64), torch.zeros(cus * 64)
    run = lambda n, rate: timed(lambda: module.run_burst_then_compute(src, out, cus, n), hbm_bytes_per_s=rate)
    fair_cycles = lambda rate: 16 * 256 / (rate / (machine.fact("clock_ghz") * 1e9) / cus)  # 4 KiB at 1/304 of HBM
    # long MFMA work after the burst: HBM is idle most of the kernel, and a quarter of its
    # bandwidth slows the burst far less than a fair share would
    busy_after = run(4000, 1.0e12)["cu_cycles"] - run(4000, 4.0e12)["cu_cycles"]
    assert busy_after < 0.2 * (fair_cycles(1.0e12) - fair_cycles(4.0e12))
    # no work after it: the grid keeps HBM busy, and each CU gets its fair share
    alone = run(0, 1.0e12)
    assert alone["hbm_floor_us"] > 0.5 * alone["kernel_us"]
    assert alone["cu_cycles"] > fair_cycles(1.0e12)


def test_a_busy_levels_latency_grows_as_a_queues_wait(module):
    cus, n = machine.fact("cus"), 16
    rows = (torch.arange(cus * n, dtype=torch.int32) + 1).repeat_interleave(64)  # row r names r + 1
    out = torch.zeros(cus * 64)
    chase = lambda q: timed(lambda: module.run_chase(rows, out, cus, n), hbm_bytes_per_s=1.0e11, memory_queueing=q)
    unloaded, queued = chase(0), chase(1)
    # every CU's chain of fresh rows keeps a slow HBM busy most of the kernel (u above one half),
    # though each CU has one load in flight: each load waits in the level's queue, here at least
    # its unloaded latency again
    assert unloaded["hbm_floor_us"] > 0.5 * unloaded["kernel_us"]
    assert queued["cu_cycles"] - unloaded["cu_cycles"] >= n * hardware({})["hbm_latency"]
    # one wave's load leaves every level idle: it waits its unloaded latency, queueing or not
    one, sums = torch.ones(64), torch.zeros(64)
    alone = [timed(lambda: module.run_load_use(one, sums), memory_queueing=q)["cu_cycles"] for q in (0, 5)]
    assert alone[1] == pytest.approx(alone[0], rel=0.01)


def test_stores_leave_at_the_cus_share_of_the_store_rate(module):
    blocks, n = machine.fact("cus"), 64  # one workgroup a CU, each writing 16 KiB
    out = torch.zeros(blocks * n * 64)
    fast, slow = (timed(lambda: module.run_fill(out, blocks, n), store_bytes_per_s=rate) for rate in (4.6e12, 1.0e12))
    cycles_a_byte = lambda rate: machine.fact("clock_ghz") * 1e9 * machine.fact("cus") / rate
    # the wave issues its stores and ends; the kernel ends when the last has left the CU
    expected = n * 64 * 4 * (cycles_a_byte(1.0e12) - cycles_a_byte(4.6e12))
    assert slow["cu_cycles"] - fast["cu_cycles"] == pytest.approx(expected, rel=0.05)


def test_a_rate_in_bytes_a_second_holds_at_the_power_capped_clock(module):
    blocks, n, rate = machine.fact("cus"), 64, 1.0e12
    out = torch.zeros(blocks * n * 64)
    # fill's stores bound it; a VALU weight this large caps the clock of its few VALU
    # instructions on every CU
    peak, capped = (timed(lambda: module.run_fill(out, blocks, n), store_bytes_per_s=rate, valu_power_weight=w)
                    for w in (0, 20))
    assert peak["clock_ghz"] == machine.fact("clock_ghz") and capped["clock_ghz"] < 0.75 * peak["clock_ghz"]
    # the stores drain at the store rate in bytes a second whatever the engine clock (dealt at
    # the peak clock's cycles, they would take a third longer here)
    assert capped["kernel_us"] >= blocks * n * 64 * 4 / rate * 1e6
    assert capped["kernel_us"] == pytest.approx(peak["kernel_us"], rel=0.05)
    assert capped["cu_us"] == pytest.approx(capped["cu_cycles"] / (capped["clock_ghz"] * 1000), rel=1e-9)


def test_one_waves_loads_do_not_wait_for_anothers_stores_to_drain(module):
    blocks, n, m = machine.fact("cus"), 64, 200  # 16 KiB of stores a CU; 200 MFMAs, 16 loads, 200 more
    src, out = torch.ones(blocks * 16 * 64), torch.zeros((blocks * n + blocks) * 64)
    slow = {"store_bytes_per_s": 1.0e12}
    fill = timed(lambda: module.run_fill(out, blocks, n), **slow)["cu_cycles"]
    compute = timed(lambda: module.run_burst_then_compute(src, out, blocks, 2 * m), **slow)["cu_cycles"]
    # the busiest CU holds one wave of each: the stores drain on the write path while the
    # other wave's loads, issued after them, return on the read path
    both = timed(lambda: module.run_fill_or_compute(src, out, blocks, n, m), **slow)["cu_cycles"]
    assert max(fill, compute) <= both < fill + 0.25 * compute


def test_a_call_without_a_kernel_cannot_be_predicted(module):
    with pytest.raises(PredictionError, match="launched no HIP kernel"):
        predict(lambda: module.launch_nothing(torch.zeros(1)))


def test_an_unknown_hardware_setting_is_refused_by_name(module):
    from engines.isa import timing

    with pytest.raises(ValueError, match="no setting no_such_unit"):
        timing.enable({"no_such_unit": 1.0})
    timing.disable()


def test_a_model_setting_left_out_is_refused_by_name_not_defaulted(module):
    from engines.isa import timing

    settings = hardware()
    del settings["l2_latency"], settings["valu_power_weight"]
    with pytest.raises(ValueError, match="no value for l2_latency, valu_power_weight"):
        timing.enable(settings)
    timing.disable()


def test_a_timed_launch_leaves_global_memory_as_it_found_it(module):
    counter, out = torch.zeros(1, dtype=torch.int32), torch.zeros(1000 * 64)
    kernel = timed(lambda: module.run_arrive(counter, out, 1000))
    assert kernel["busiest_cu_workgroups"] == 4  # ids 0, 304, 608, 912 ran
    assert counter.item() == 0 and not out.any()
    module.run_arrive(counter, out, 1000)  # untimed: the whole grid, memory changed
    assert counter.item() == 1000 and out.all()


def test_lines_read_again_hit_the_vector_l1(module):
    src, out = torch.ones(64 * 32), torch.zeros(64)
    once = timed(lambda: module.run_reread(src, out, 1))
    many = timed(lambda: module.run_reread(src, out, 50))
    # 64 lines of 128 bytes cross the fabric once (the output's store adds 256 bytes each time)
    assert once["bytes_requested"] == many["bytes_requested"] == 64 * 128 + 256
    slow_memory = timed(lambda: module.run_reread(src, out, 50), hbm_latency=3000)
    assert slow_memory["cu_cycles"] - many["cu_cycles"] < 2 * (3000 - 600)  # only the first round pays it


def test_tensors_start_at_512_byte_boundaries_so_a_prediction_repeats(module):
    tensors = [torch.ones(64 * 32 + extra) for extra in (1, 17, 333)]  # sizes that would shift 64-byte blocks
    assert all(t.data_ptr() % 512 == 0 for t in tensors)
    out = torch.zeros(64)
    cycles = {timed(lambda t=t: module.run_reread(t, out, 3))["cu_cycles"] for t in tensors}
    assert len(cycles) == 1


def test_scratch_is_timed_at_device_addresses_so_a_prediction_repeats(module):
    idx, out = torch.randint(0, 64, (64,), dtype=torch.int32), torch.zeros(64)
    cycles = set()
    for size in (1, 3000, 77, 50000, 5, 901):  # the heap, and so where each run's waves land, moves
        ballast = [bytearray(size) for _ in range(8)]
        kernel = timed(lambda: module.run_private_array(idx, out, 200))
        cycles.add(kernel["cu_cycles"])
        del ballast
    assert kernel["l2_floor_us"] > 0 and len(cycles) == 1, cycles


def test_scratch_beyond_an_xcds_l2_comes_back_from_the_infinity_cache(module):
    idx, out = torch.randint(0, 64, (64,), dtype=torch.int32), torch.zeros(64)
    run = lambda **hw: timed(lambda: module.run_private_array(idx, out, 200), **hw)
    # one wave's 16 KiB of scratch fits the L2: the Infinity Cache's latency plays no part
    fits = run(mall_latency=3000)
    assert run(mall_latency=300)["cu_cycles"] == fits["cu_cycles"]
    # an L2 of 4 KiB holds a quarter of it: the vector L1's misses go on to the Infinity Cache
    small = run(mall_latency=3000, l2_bytes_per_xcd=4096)
    assert small["cu_cycles"] - fits["cu_cycles"] > 2000
    assert small["mall_bytes"] > 0


def test_a_launch_reports_its_private_segment_and_a_large_one_is_noted(module):
    idx, out = torch.randint(0, 64, (64,), dtype=torch.int32), torch.zeros(64)
    spilling = timed(lambda: module.run_private_array(idx, out, 200))
    assert spilling["scratch_bytes_per_lane"] >= 64 * 4  # the private array of 64 floats
    assert "not in the predicted time" in use_once_note(spilling)
    plain = timed(lambda: module.run_mfma_chain(torch.zeros(64), 4))
    assert plain["scratch_bytes_per_lane"] == 0 and use_once_note(plain) is None


def test_spills_the_l2_cannot_keep_leave_at_the_store_rate(module):
    idx, out = torch.randint(0, 64, (64,), dtype=torch.int32), torch.zeros(64)
    rate = 1.0e7  # so slow that the write-back outlasts everything else the wave does
    run = lambda **hw: timed(lambda: module.run_private_array(idx, out, 200), store_bytes_per_s=rate, **hw)
    # the wave's 16 KiB of scratch fits the L2 and stays there; an L2 of 4 KiB keeps a quarter,
    # and the rest is written back through the write path that global stores drain on
    fits, small = run(), run(l2_bytes_per_xcd=4096)
    cycles_a_byte = machine.fact("clock_ghz") * 1e9 / rate  # one workgroup: its CU has the whole rate
    assert small["cu_cycles"] - fits["cu_cycles"] >= 0.9 * 0.75 * 16384 * cycles_a_byte


def test_a_kernel_waiting_for_other_workgroups_is_refused_clearly(module):
    flag, out = torch.zeros(1, dtype=torch.int32), torch.zeros(305 * 64)
    # only the busiest CU's workgroups (0 and 304) run in a timed launch: 304 sets the flag
    timed(lambda: module.run_wait_for_last(flag, out, 305))
    flag.zero_()
    with pytest.raises(engines.isa.IsaFault, match="waits for other workgroups"):
        timed(lambda: module.run_wait_for_last(flag, out, 300))  # workgroup 299 never runs


def test_an_endless_loop_is_called_one_not_a_wait_for_other_workgroups(module):
    with pytest.raises(engines.isa.IsaFault, match="reading no memory, so nothing another wave does can end it"):
        module.run_spin_forever()


def test_hip_events_read_the_simulated_device_time_in_a_timed_launch(module):
    out = torch.zeros(64)
    kernel = timed(lambda: module.run_self_timed(out, 600))
    assert out[0].item() * 1000 == pytest.approx(kernel["kernel_us"], rel=1e-4)  # about 9 us, not the engine's ms


def sampled_and_exact(call) -> tuple[dict, dict]:
    (sampled,), (exact,) = (predict(call, exact=e)[0].kernels for e in (False, True))
    return sampled, exact


def test_a_settled_loop_is_extrapolated_within_a_percent_of_simulating_it(module):
    # one workgroup of 4 waves a CU, each a loop of 3000 MFMAs
    out = torch.zeros(machine.fact("cus") * 256)
    sampled, exact = sampled_and_exact(lambda: module.run_heavy_blocks(out, machine.fact("cus"), 3000, 256))
    assert exact["sampled_share"] == 0 and sampled["sampled_share"] > 0.5
    assert sampled["cu_cycles"] == pytest.approx(exact["cu_cycles"], rel=0.01)


def test_settled_workgroup_rounds_are_extrapolated_within_a_percent_of_simulating_them(module):
    # 40 KiB of LDS: one workgroup a CU at a time, 40 rounds of them on the busiest CU
    blocks = 40 * machine.fact("cus")
    out = torch.zeros(blocks * 64)
    sampled, exact = sampled_and_exact(lambda: module.run_heavy_blocks(out, blocks, 20, 64))
    assert exact["sampled_share"] == 0 and sampled["sampled_share"] > 0.5
    assert sampled["cu_cycles"] == pytest.approx(exact["cu_cycles"], rel=0.01)


def test_a_long_launch_settles_its_shares_on_an_eighth_of_it_within_a_percent_of_simulating_it():
    # the naive example on benchmark shape 2: 8 workgroups on the busiest CU, 2.9M instructions, so
    # every pass but the last is a settling pass; memory-latency-bound, its time follows the shares
    # and loaded latencies the settling passes set
    from pathlib import Path

    from eval.device import detect
    from eval.worker import load_submission
    from reference.contract import cases
    from reference.task import generate_input

    kernel, _ = load_submission(Path(__file__).parents[2] / "examples/naive_hip_submission.py", detect("cpu"), "isa")
    case = cases("benchmarks")[2]
    data = generate_input(case.m, case.n, case.k, case.seed, device="cpu")
    sampled, exact = sampled_and_exact(lambda: kernel(data))
    assert sampled["cu_cycles"] == pytest.approx(exact["cu_cycles"], rel=0.01)


def test_a_launch_on_the_same_input_is_timed_once_within_a_pair_of_calls(module):
    from predictor import same_input_timed_once

    blocks, n = machine.fact("cus"), 64
    out = torch.zeros(blocks * n * 64)
    fill = lambda rate: timed(lambda: module.run_fill(out, blocks, n), store_bytes_per_s=rate)["cu_cycles"]
    assert fill(1.0e12) > fill(4.6e12)  # timed each time: the store rate shows
    with same_input_timed_once():
        first = fill(4.6e12)
        assert fill(1.0e12) == first  # the same launch: the first timing, not timed again
    assert fill(1.0e12) > first  # outside, forgotten
