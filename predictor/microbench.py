"""Microbenchmarks of our own against published MI300X measurements: the timing model must
reproduce each figure within TOLERANCE.

    python -m predictor.microbench          # the table: published, predicted, off by

Each benchmark is a small HIP kernel (MICROBENCH_HIP) timed by the ISA engine's timing model
with the calibration's settings, and turned into the published figure's unit by running it at
two sizes and taking the difference (launch and loop overheads cancel). The published figures,
with their conditions and sources, are PUBLISHED; an assumption needed to compare is named
beside its figure. Predicted, not measured.
"""
from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass
from typing import Callable

TOLERANCE = 0.10

MICROBENCH_HIP = r"""
#include <hip/hip_runtime.h>
#include <torch/extension.h>

typedef unsigned uint2_t __attribute__((ext_vector_type(2)));
typedef unsigned uint4_t __attribute__((ext_vector_type(4)));
typedef float float4_t __attribute__((ext_vector_type(4)));

// One wave: `blocks` times, kReads back-to-back ds_read_b<bits> at each lane's natural stride
// (no bank conflict), one s_waitcnt, then the results held live (empty asm: no instruction).
template <typename T, int kReads>
__global__ void lds_read_blocks(float* out, int blocks) {
  __shared__ T tile[1024];
  for (int i = threadIdx.x; i < 1024; i += blockDim.x) tile[i] = T{};
  __syncthreads();
  const unsigned address = unsigned(threadIdx.x) * sizeof(T);
  for (int b = 0; b < blocks; ++b) {
    T r[kReads];
#pragma unroll
    for (int i = 0; i < kReads; ++i) {
      if constexpr (sizeof(T) == 4) asm volatile("ds_read_b32 %0, %1" : "=v"(r[i]) : "v"(address));
      if constexpr (sizeof(T) == 8) asm volatile("ds_read_b64 %0, %1" : "=v"(r[i]) : "v"(address));
      if constexpr (sizeof(T) == 16) asm volatile("ds_read_b128 %0, %1" : "=v"(r[i]) : "v"(address));
    }
    asm volatile("s_waitcnt lgkmcnt(0)" ::: "memory");
#pragma unroll
    for (int i = 0; i < kReads; ++i) asm volatile("" ::"v"(r[i]));
  }
  out[threadIdx.x] = float(blocks);
}

// `waves` waves of one workgroup on one CU, each `n` independent 16x16x32 fp8 MFMAs (4 chains).
__global__ void mfma_issue(float* out, int n) {
  float4_t acc[4] = {};
  long a = 0x3838383838383838L + threadIdx.x, b = 0x3030303030303030L;
  for (int i = 0; i < n; ++i)
#pragma unroll
    for (int c = 0; c < 4; ++c) acc[c] = __builtin_amdgcn_mfma_f32_16x16x32_fp8_fp8(a, b, acc[c], 0, 0, 0);
  out[threadIdx.x] = acc[0][0] + acc[1][1] + acc[2][2] + acc[3][3];
}

// Each lane `n` x 8 independent FP32 FMAs, 16 waves on one CU; v_fma_f32 written out (the
// compiler would pair them into v_pk_fma_f32, twice the work an instruction).
__global__ void valu_fma(float* out, int n) {
  float x[8];
#pragma unroll
  for (int j = 0; j < 8; ++j) x[j] = float(threadIdx.x + j);
  const float a = out[0] + 1.0001f, c = out[1] + 0.5f;
  for (int i = 0; i < n; ++i)
#pragma unroll
    for (int j = 0; j < 8; ++j) asm volatile("v_fma_f32 %0, %0, %1, %2" : "+v"(x[j]) : "v"(a), "v"(c));
  float s = 0;
#pragma unroll
  for (int j = 0; j < 8; ++j) s += x[j];
  out[threadIdx.x] = s;
}

// One lane follows `n` links of a chain laid within one vector L1's worth of lines.
__global__ void chase(const int* next, float* out, int n) {
  int at = 0;
  for (int i = 0; i < n; ++i) at = ((volatile const int*)next)[at];
  out[0] = float(at);
}

// Every CU streams its share of `n` float4s (grid-stride), summing them.
__global__ void stream_read(const float4_t* in, float* out, long n) {
  float4_t s = {};
  for (long i = blockIdx.x * long(blockDim.x) + threadIdx.x; i < n; i += long(gridDim.x) * blockDim.x) s += in[i];
  out[blockIdx.x * blockDim.x + threadIdx.x] = s[0] + s[1] + s[2] + s[3];
}

void lds_reads(torch::Tensor out, int64_t bytes, int64_t reads, int64_t blocks) {
  float* o = out.data_ptr<float>();
  const int b = int(blocks);
  if (bytes == 4 && reads == 8) lds_read_blocks<unsigned, 8><<<1, 64>>>(o, b);
  if (bytes == 4 && reads == 16) lds_read_blocks<unsigned, 16><<<1, 64>>>(o, b);
  if (bytes == 8 && reads == 8) lds_read_blocks<uint2_t, 8><<<1, 64>>>(o, b);
  if (bytes == 8 && reads == 16) lds_read_blocks<uint2_t, 16><<<1, 64>>>(o, b);
  if (bytes == 16 && reads == 8) lds_read_blocks<uint4_t, 8><<<1, 64>>>(o, b);
  if (bytes == 16 && reads == 16) lds_read_blocks<uint4_t, 16><<<1, 64>>>(o, b);
}
void run_mfma_issue(torch::Tensor out, int64_t waves, int64_t n) { mfma_issue<<<1, 64 * waves>>>(out.data_ptr<float>(), n); }
void run_valu_fma(torch::Tensor out, int64_t n) { valu_fma<<<1, 1024>>>(out.data_ptr<float>(), n); }
void run_chase(torch::Tensor next, torch::Tensor out, int64_t n) { chase<<<1, 1>>>(next.data_ptr<int>(), out.data_ptr<float>(), n); }
void run_stream_read(torch::Tensor in, torch::Tensor out, int64_t blocks) {
  stream_read<<<blocks, 256>>>(reinterpret_cast<const float4_t*>(in.data_ptr<float>()), out.data_ptr<float>(), in.numel() / 4);
}
"""
_CPP = """#include <torch/extension.h>
void lds_reads(torch::Tensor out, int64_t bytes, int64_t reads, int64_t blocks);
void run_mfma_issue(torch::Tensor out, int64_t waves, int64_t n);
void run_valu_fma(torch::Tensor out, int64_t n);
void run_chase(torch::Tensor next, torch::Tensor out, int64_t n);
void run_stream_read(torch::Tensor in, torch::Tensor out, int64_t blocks);
"""
_FUNCTIONS = ["lds_reads", "run_mfma_issue", "run_valu_fma", "run_chase", "run_stream_read"]

_NOD_AI = ("nod-ai/amd-shark-ai docs/empirical-lds/cdna3info.md (MI300X): 64 back-to-back ds_read_b{bits} "
           "at the natural stride, average thread clock64() over the block, waits included")
_SC25 = "SC25 CDNA3 artifact (github.com/hibagus/SC25_AMD_CDNA3_Artifact)"


@dataclass(frozen=True)
class Figure:
    name: str
    published: float
    unit: str
    source: str
    measure: Callable  # (module, settings) -> the predicted figure in `unit`


def _timed(settings: dict, call) -> dict:
    """The timing of the one kernel `call` launches."""
    from predictor import predict

    prediction, _ = predict(call, settings, exact=True)  # the model's rules; differences of sizes amplify any sampling error
    (kernel,) = prediction.kernels
    return kernel


def _slope(settings: dict, launch, sizes: tuple[int, int]) -> float:
    """Busiest-CU cycles per unit of size between launch(sizes[0]) and launch(sizes[1]): what
    both sizes pay alike (launch, prologue, epilogue) cancels."""
    low, high = (_timed(settings, lambda n=n: launch(n))["cu_cycles"] for n in sizes)
    return (high - low) / (sizes[1] - sizes[0])


def _lds_block(bits: int):
    """Cycles of one wave's block of 64 reads: the block cost extrapolated from blocks of 8 and
    16 reads (each block's cost from 8 blocks against 4; more reads a block would spill)."""
    def measure(module, settings):
        import torch

        out = torch.zeros(64)
        per_block = {reads: _slope(settings, lambda b, r=reads: module.lds_reads(out, bits // 8, r, b), (4, 8))
                     for reads in (8, 16)}
        per_read = (per_block[16] - per_block[8]) / 8
        return per_block[16] + 48 * per_read
    return measure


def _mfma_cycles(waves: int):
    """Cycles per MFMA of each wave, `waves` waves on one CU."""
    def measure(module, settings):
        import torch

        out = torch.zeros(64 * waves)
        return _slope(settings, lambda n: module.run_mfma_issue(out, waves, n), (64, 128)) / 4  # 4 chains
    return measure


def _valu_flops_per_clk(module, settings):
    import torch

    out = torch.zeros(1024)
    return 1024 * 8 * 2 / _slope(settings, lambda n: module.run_valu_fma(out, n), (64, 128))


def _l1_hit_latency(module, settings):
    import torch

    lines = 64  # 8 KiB of 128-byte lines, well inside the 32 KiB vector L1
    nxt = torch.zeros(lines * 32, dtype=torch.int32)
    for i in range(lines):
        nxt[i * 32] = ((i + 1) % lines) * 32
    out = torch.zeros(1)
    return _slope(settings, lambda n: module.run_chase(nxt, out, n), (4 * lines, 8 * lines))


def _hbm_read_bytes_per_s(module, settings):
    import torch

    data = torch.ones(1 << 26)  # 256 MiB, past the 256 MB Infinity Cache's share a pass can keep
    out = torch.zeros(1024 * 256)
    return data.numel() * 4 / (_timed(settings, lambda: module.run_stream_read(data, out, 1024))["kernel_us"] * 1e-6)


PUBLISHED = [
    Figure("LDS ds_read_b32 x64, one wave", 500.756, "cycles", _NOD_AI.format(bits=32) + ", stride 4 B",
           _lds_block(32)),
    Figure("LDS ds_read_b64 x64, one wave", 852.258, "cycles", _NOD_AI.format(bits=64) + ", stride 8 B",
           _lds_block(64)),
    Figure("LDS ds_read_b128 x64, one wave", 1384.460, "cycles", _NOD_AI.format(bits=128) + ", stride 16 B",
           _lds_block(128)),
    Figure("MFMA 16x16x32 fp8, 4 waves a CU", 16, "cycles/MFMA/wave",
           _SC25 + " run_mwmma_fp8-fp32_singleCU.out: 16 cycles an iteration with 1-4 waves", _mfma_cycles(4)),
    Figure("MFMA 16x16x32 fp8, 8 waves a CU", 32, "cycles/MFMA/wave",
           _SC25 + " run_mwmma_fp8-fp32_singleCU.out: 32 cycles an iteration with 5-8 waves", _mfma_cycles(8)),
    Figure("VALU v_fma_f32, 16 waves a CU", 121.9, "FLOP/clk/CU",
           _SC25 + " MI300X_CU run_vfma1_fp32: 255.3 GFLOP/s at 2094 MHz on one CU", _valu_flops_per_clk),
    Figure("vector L1 hit, pointer chase", 116, "cycles",
           _SC25 + " gpu-latency.out: 113.6-119.7 cycles for 2-31.5 kB", _l1_hit_latency),
    Figure("HBM stream read", 4.141e12, "B/s", _SC25 + " gpu-stream.out: read 4141 GB/s at 1024 blocks",
           _hbm_read_bytes_per_s),
]


def module():
    import engines.isa

    return engines.isa.load_inline("predict_microbench", _CPP, MICROBENCH_HIP, functions=_FUNCTIONS,
                                  no_implicit_headers=True,
                                  extra_cuda_cflags=["--offload-arch=gfx942", "-O3", "-std=c++20"])


def measure_all(settings: dict | None = None) -> list[tuple[Figure, float]]:
    from predictor import hardware

    built = module()
    return [(figure, figure.measure(built, settings or hardware())) for figure in PUBLISHED]


def table(results: list[tuple[Figure, float]]) -> str:
    lines = [f"{'microbenchmark':<36} {'published':>11} {'predicted':>11} {'off by':>7}  unit"]
    for figure, predicted in results:
        off = predicted / figure.published - 1
        flag = "" if abs(off) <= TOLERANCE else "  <- over 10%"
        lines.append(f"{figure.name:<36} {figure.published:>11.4g} {predicted:>11.4g} {off:>+7.1%}  {figure.unit}{flag}")
    lines.append("\nsources:")
    lines += [f"  {figure.name}: {figure.source}" for figure, _ in results]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    from predictor import overridden, setting_override

    parser = argparse.ArgumentParser(prog="python -m predictor.microbench", description=__doc__.splitlines()[0])
    parser.add_argument("--set", dest="overrides", action="append", type=setting_override, default=[], metavar="NAME=VALUE",
                        help="a timing-model setting for this run only (repeatable)")
    args = parser.parse_args(argv)
    try:
        settings = overridden(args.overrides)
    except ValueError as exc:
        parser.error(str(exc))
    results = measure_all(settings)
    print(table(results))
    return 0 if all(abs(p / f.published - 1) <= TOLERANCE for f, p in results) else 1


if __name__ == "__main__":
    sys.exit(main())
