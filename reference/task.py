"""The amd-fp8-mm task: input generation, reference kernel and correctness check.

Reproduces the published contract (spec/leaderboard.md) with the project's own code:
the same generator draw order, dtypes and transposed layouts, the same float32
dequantise-then-multiply math, the same tolerance rule and messages.
"""
from __future__ import annotations

import torch

from reference import check, contract

FP8 = torch.float8_e4m3fnuz
Input = tuple[torch.Tensor, torch.Tensor, torch.Tensor, torch.Tensor, torch.Tensor]


def default_device() -> torch.device:
    """The GPU when one is visible (ROCm and CUDA both answer torch.cuda), else the CPU."""
    return torch.device("cuda" if torch.cuda.is_available() else "cpu")


def generate_input(m: int, n: int, k: int, seed: int, device=None) -> Input:
    """(a, b, a_scale, b_scale, c) exactly as the leaderboard draws them.

    a [m,k] fp8 strides (1,m); b [n,k] fp8 strides (1,n); a_scale [m,k/128] fp32;
    b_scale [ceil(n/128),k/128] fp32; c [m,n] bf16 zeros, row-major.
    """
    device = torch.device(device) if device is not None else default_device()
    block = contract.load()["block_k"]
    scale_k, scale_n = -(-k // block), -(-n // block)
    gen = torch.Generator(device=device)
    gen.manual_seed(seed)
    # NOTE: the draw order fixes the random stream; do not reorder these lines.
    a = torch.randn((k, m), dtype=torch.bfloat16, device=device, generator=gen).to(FP8)
    b = torch.randn((k, n), dtype=torch.bfloat16, device=device, generator=gen).to(FP8)
    a_scale = torch.randn((scale_k, m), dtype=torch.float32, device=device, generator=gen)
    b_scale = torch.randn((scale_k, scale_n), dtype=torch.float32, device=device, generator=gen)
    c = torch.zeros((m, n), dtype=torch.bfloat16, device=device)
    return a.T, b.T, a_scale.T, b_scale.T, c


def dequantize(data: Input) -> tuple[torch.Tensor, torch.Tensor]:
    """Both operands as float32 with their block scales applied: A [m,k], B [n,k].

    NOTE: the op sequence and memory layouts follow the published reference (A made
    contiguous first, B left transposed, scales expanded by repeat), because float32 GEMM
    results depend on layout and the check compares against those exact bits.
    """
    a, b, a_scale, b_scale, _ = data
    block = contract.load()["block_k"]
    a, a_scale, b_scale = a.contiguous(), a_scale.contiguous(), b_scale.contiguous()
    m, k = a.shape
    n = b.shape[0]
    scale_n, scale_k = b_scale.shape
    a_scale_full = a_scale.unsqueeze(-1).repeat(1, 1, block).reshape(m, scale_k * block)[:, :k]
    b_scale_full = (b_scale.view(-1, 1).repeat(1, block * block)
                    .view(scale_n, scale_k, block, block).permute(0, 2, 1, 3)
                    .reshape(scale_n * block, scale_k * block))[:n, :k]
    return a.to(torch.float32) * a_scale_full, b.to(torch.float32) * b_scale_full


def ref_kernel(data: Input) -> torch.Tensor:
    """The reference result, written into c (data[4]) and returned."""
    a_deq, b_deq = dequantize(data)
    c = data[4]
    c[...] = (a_deq @ b_deq.T).to(torch.bfloat16)
    return c


def clone_input(data: Input) -> Input:
    """A deep copy that keeps every stride (a kernel may rely on the transposed layouts)."""
    return tuple(t.clone(memory_format=torch.preserve_format) for t in data)


def verdict(received: torch.Tensor, expected: torch.Tensor) -> check.Verdict:
    """The published element rule with the contract's tolerance (reference/check.py)."""
    tol = contract.load()["tolerance"]
    return check.verdict(received, expected, rtol=tol["rtol"], atol=tol["atol"])


def compare(received: torch.Tensor, expected: torch.Tensor) -> tuple[bool, str]:
    """(ok, message) exactly as the published check reports them."""
    result = verdict(received, expected)
    return result.ok, check.join_lines(result.lines)


def check_implementation(data: Input, output: torch.Tensor) -> tuple[bool, str]:
    """The published API: check a submission's output against the reference on `data`.

    `data` must be a pristine copy of the input the submission received; the reference
    writes its result into data[4], as the published one does.
    """
    if not isinstance(output, torch.Tensor):
        return False, f"custom_kernel returned {type(output).__name__}, expected a torch.Tensor"
    expected = ref_kernel(data)
    return compare(output.to(expected.device), expected)
