"""AMD's FP8 blockscale GEMM as aiter tunes it on an MI300X: the rows, the instances, and a
submission that runs one instance on the ISA engine.

From an unpacked amd-aiter 0.1.7.post2.dev18 wheel (DIR):
- `aiter/configs/a8w8_blockscale_tuned_gemm.csv`: per (M, N, K) the fastest CK instance and its
  measured `us`; rows with `cu_num` 304 are the MI300X's (117 rows, 9 instances);
- `aiter_meta/csrc/ck_gemm_a8w8_blockscale/gemm_a8w8_blockscale_common.py`: each instance's
  template arguments by name (`kernels_list`).
The instance runs as aiter's launcher runs it (csrc/ck_gemm_a8w8_blockscale): A [M,K] and B [N,K]
K-major fp8, A's scales [M, K/128] and B's [N/128, K/128] K-fastest float32, bf16 out; padded
on M, N and K (GemmSpecialization MNKPadding) where a dimension is not a multiple of the tile.
"""
from __future__ import annotations

import csv
import importlib.util
from dataclasses import dataclass
from pathlib import Path

MI300X_CU_NUM = 304
# The device flags aiter's JIT builds its blockscale module with (aiter/jit/core.py for a HIP
# newer than 6.2.41133, optCompilerConfig.json's module_gemm_a8w8_blockscale), less what clang 19
# does not know (-amdgpu-coerce-illegal-types, --amdgpu-use-amdgpu-trackers: AMD's LLVM only; aiter
# drops a flag its hipcc refuses the same way), the HIP version's max-ILP scheduler choice (only
# up to HIP 6.3.42132) and -fgpu-flush-denormals-to-zero (the ISA engine does not emulate that
# float mode and refuses the kernel).
AITER_FLAGS = ("-U__HIP_NO_HALF_CONVERSIONS__", "-U__HIP_NO_HALF_OPERATORS__", "-fno-offload-uniform-block", "-mllvm", "--amdgpu-kernarg-preload-count=16", "-mllvm",
               "--lsr-drop-solution=1", "-mllvm", "-enable-post-misched=0", "-mllvm", "-amdgpu-early-inline-all=true",
               "-mllvm", "-amdgpu-function-calls=false", "-mllvm", "-greedy-reverse-local-assignment=1")
TUNED_CSV = Path("aiter/configs/a8w8_blockscale_tuned_gemm.csv")
INSTANCES_PY = Path("aiter_meta/csrc/ck_gemm_a8w8_blockscale/gemm_a8w8_blockscale_common.py")


class AiterSourceError(ValueError):
    """A folder that is not the unpacked aiter wheel."""


@dataclass(frozen=True)
class Row:
    m: int
    n: int
    k: int
    kernel: str
    measured_us: float


@dataclass(frozen=True)
class Instance:
    """kernelInstance's fields (gemm_a8w8_blockscale_common.py), in its order."""
    name: str
    block_size: int
    scale_block: tuple[int, int, int]
    tile: tuple[int, int, int]  # M, N, K per block
    k1: tuple[int, int]  # AK1, BK1
    xdl: tuple[int, int]  # M, N per XDL
    xdl_per_wave: tuple[int, int]
    a_transfer: tuple[int, ...]
    b_transfer: tuple[int, ...]
    c_shuffle: tuple[int, int]
    c_transfer: tuple[int, ...]
    c_vector: tuple[int, ...]
    scheduler: str
    pipeline: int

    def padded(self, m: int, n: int, k: int) -> bool:
        """aiter's launcher pads where a dimension is not a multiple of the tile."""
        return bool(m % self.tile[0] or n % self.tile[1] or k % self.tile[2])


def rows(aiter: Path) -> list[Row]:
    """The tuned rows measured on an MI300X (cu_num 304), in the file's order."""
    path = Path(aiter) / TUNED_CSV
    if not path.is_file():
        raise AiterSourceError(f"{aiter}: no {TUNED_CSV}; give the unpacked amd-aiter 0.1.7.post2.dev18 wheel")
    with path.open() as f:
        return [Row(int(r["M"]), int(r["N"]), int(r["K"]), r["kernelName"], float(r["us"]))
                for r in csv.DictReader(f) if int(r["cu_num"]) == MI300X_CU_NUM]


def instances(aiter: Path) -> dict[str, Instance]:
    """Every instance aiter defines, by name."""
    path = Path(aiter) / INSTANCES_PY
    if not path.is_file():
        raise AiterSourceError(f"{aiter}: no {INSTANCES_PY}; give the unpacked amd-aiter 0.1.7.post2.dev18 wheel")
    spec = importlib.util.spec_from_file_location("aiter_blockscale_instances", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    found = {}
    for k in [*module.kernels_list.values(), *module.default_kernels_dict.values()]:
        found[k.name] = Instance(
            k.name, k.BLOCK_SIZE, (k.ScaleBlockM, k.ScaleBlockN, k.ScaleBlockK), (k.MPerBLOCK, k.NPerBLOCK, k.KPerBLOCK),
            (k.AK1, k.BK1), (k.MPerXDL, k.NPerXDL), (k.WAVE_MAP_M, k.WAVE_MAP_N), tuple(k.ABLOCK_TRANSFER),
            tuple(k.BBLOCK_TRANSFER), (k.CSHUFFLE_MX_PER_WAVE_PERSHUFFLE, k.CSHUFFLE_NX_PER_WAVE_PERSHUFFLE),
            tuple(k.CBLOCK_TRANSFER), tuple(k.CBLOCK_SPV), k.PIPELINE_Sched, k.PIPELINE_VERSION)
    return found


def _seq(values: tuple[int, ...]) -> str:
    return "S<" + ", ".join(map(str, values)) + ">"


def gemm_type(inst: Instance, padded: bool) -> str:
    """The DeviceGemmMultiD_ABScale_Xdl_CShuffle_V3 type of `inst`, as aiter instantiates it."""
    spec = "MNKPadding" if padded else "Default"
    ak1, bk1 = inst.k1
    return f"""ck::tensor_operation::device::DeviceGemmMultiD_ABScale_Xdl_CShuffle_V3<
    Row, Col, ck::Tuple<>, Row, FP8, float, FP8, float, ck::Tuple<>, BF16, float, float,
    PassThrough, PassThrough, PassThrough, ck::tensor_operation::device::GemmSpecialization::{spec},
    {inst.block_size}, {", ".join(map(str, inst.scale_block))}, {", ".join(map(str, inst.tile))}, {ak1}, {bk1},
    {inst.xdl[0]}, {inst.xdl[1]}, {inst.xdl_per_wave[0]}, {inst.xdl_per_wave[1]},
    {_seq(inst.a_transfer)}, S<1, 0, 2>, S<1, 0, 2>, 2, {ak1}, {ak1}, 0,
    {_seq(inst.b_transfer)}, S<1, 0, 2>, S<1, 0, 2>, 2, {bk1}, {bk1}, 0,
    {inst.c_shuffle[0]}, {inst.c_shuffle[1]}, {_seq(inst.c_transfer)}, {_seq(inst.c_vector)},
    ck::BlockGemmPipelineScheduler::{inst.scheduler}, ck::BlockGemmPipelineVersion::v{inst.pipeline}, FP8>"""


_SOURCE = r"""
#include <ck/ck.hpp>
#include <ck/tensor_operation/gpu/device/gemm_specialization.hpp>
#include <ck/tensor_operation/gpu/device/impl/device_gemm_multiple_d_xdl_cshuffle_v3_ab_scale.hpp>
#include <ck/tensor_operation/gpu/element/element_wise_operation.hpp>

template <ck::index_t... Is> using S = ck::Sequence<Is...>;
using Row = ck::tensor_layout::gemm::RowMajor;
using Col = ck::tensor_layout::gemm::ColumnMajor;
using PassThrough = ck::tensor_operation::element_wise::PassThrough;
using FP8 = ck::f8_t;
using BF16 = ck::bhalf_t;
using Gemm = @GEMM@;

void gemm(torch::Tensor xq, torch::Tensor wq, torch::Tensor xs, torch::Tensor ws, torch::Tensor y) {
  const int m = xq.size(0), n = wq.size(0), k = xq.size(1);
  auto op = Gemm{};
  auto argument = op.MakeArgument(xq.data_ptr(), wq.data_ptr(), {}, y.data_ptr(), m, n, k, k, k, {}, n,
                                  xs.data_ptr(), ws.data_ptr(), PassThrough{}, PassThrough{}, PassThrough{});
  TORCH_CHECK(op.IsSupportedArgument(argument), "the instance does not support ", m, "x", n, "x", k);
  op.MakeInvoker().Run(argument);
}
"""
_SUBMISSION = '''# Generated by reports/ck_blockscale.py: aiter's CK blockscale instance {name} ({spec}).
from torch.utils.cpp_extension import load_inline

_module = load_inline(name="ck_{digest}", cpp_sources="void gemm(torch::Tensor xq, torch::Tensor wq, torch::Tensor xs, "
                      "torch::Tensor ws, torch::Tensor y);", cuda_sources={source!r}, functions=["gemm"],
                      extra_cuda_cflags=["-O3", "-std=c++20", *{flags!r}])


def custom_kernel(data):
    xq, wq, xs, ws, y = data
    _module.gemm(xq, wq, xs, ws, y)
    return y
'''


def submission_text(inst: Instance, padded: bool) -> str:
    """A submission file whose custom_kernel((xq, wq, xs, ws, y)) runs `inst` on aiter's layouts."""
    import hashlib

    source = _SOURCE.replace("@GEMM@", gemm_type(inst, padded))
    digest = hashlib.sha256("\0".join([source, *AITER_FLAGS]).encode()).hexdigest()[:12]
    return _SUBMISSION.format(name=inst.name, spec="padded" if padded else "unpadded", digest=digest, source=source,
                               flags=AITER_FLAGS)


def inputs(m: int, n: int, k: int, seed: int = 0):
    """(xq, wq, xs, ws, y) in aiter's layouts on the CPU: fp8 e4m3fnuz operands, float32 scales."""
    import torch

    gen = torch.Generator().manual_seed(seed)
    fp8 = torch.float8_e4m3fnuz
    xq = torch.randn((m, k), generator=gen).to(fp8)
    wq = torch.randn((n, k), generator=gen).to(fp8)
    xs = torch.rand((m, -(-k // 128)), generator=gen) + 0.5
    ws = torch.rand((-(-n // 128), -(-k // 128)), generator=gen) + 0.5
    return xq, wq, xs, ws, torch.zeros((m, n), dtype=torch.bfloat16)


def reference(xq, wq, xs, ws):
    """The float32 result of the blockscaled product, as bf16: A's scale per row and 128 of K,
    B's per 128x128 block."""
    import torch

    m, k = xq.shape
    n = wq.shape[0]
    a = xq.float() * xs.repeat_interleave(128, dim=1)[:, :k]
    b = wq.float() * ws.repeat_interleave(128, dim=0).repeat_interleave(128, dim=1)[:n, :k]
    return (a @ b.T).to(torch.bfloat16)
