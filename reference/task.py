"""The amd-fp8-mm task: input generation, reference kernel and correctness check.

Reproduces the published contract (spec/leaderboard.md) with the project's own code:
the same generator draw order, dtypes and transposed layouts, the same float32
dequantise-then-multiply math, the same tolerance rule and messages.
"""
from __future__ import annotations

import torch

from reference import contract

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
    """Both operands as float32 with their block scales applied: A [m,k], B [n,k]."""
    a, b, a_scale, b_scale, _ = data
    block = contract.load()["block_k"]
    m, k = a.shape
    n = b.shape[0]
    a_scale_full = a_scale.float().repeat_interleave(block, dim=1)[:, :k]
    b_scale_full = b_scale.float().repeat_interleave(block, dim=0)[:n]
    b_scale_full = b_scale_full.repeat_interleave(block, dim=1)[:, :k]
    return a.float() * a_scale_full, b.float() * b_scale_full


def ref_kernel(data: Input) -> torch.Tensor:
    """The reference result, written into c (data[4]) and returned."""
    a_deq, b_deq = dequantize(data)
    c = data[4]
    c.copy_((a_deq @ b_deq.T).to(torch.bfloat16))
    return c


def clone_input(data: Input) -> Input:
    """A deep copy that keeps every stride (a kernel may rely on the transposed layouts)."""
    return tuple(t.clone(memory_format=torch.preserve_format) for t in data)


def compare(received: torch.Tensor, expected: torch.Tensor, max_print: int = 5) -> tuple[bool, str]:
    """The published element rule and message format.

    An element fails if |got - expected| > atol + rtol*|expected|, or if NaN, +Inf or
    -Inf appears in exactly one of the two. The arithmetic runs in the tensors' own
    (promoted) dtype, as the leaderboard's did, so verdicts agree at the boundary.
    """
    if received.shape != expected.shape:
        return False, "SIZE MISMATCH"
    tol = contract.load()["tolerance"]
    diff = (received - expected).abs()
    too_far = diff > tol["atol"] + tol["rtol"] * expected.abs()
    special = (
        (received.isnan() ^ expected.isnan())
        | (received.isposinf() ^ expected.isposinf())
        | (received.isneginf() ^ expected.isneginf())
    )
    bad = torch.nonzero(too_far | special)
    if len(bad) == 0:
        return True, f"Maximum error: {diff.max().item() if diff.numel() else 0.0}"
    lines = [f"Number of mismatched elements: {len(bad)}"]
    for index in bad[:max_print].tolist():
        where = tuple(index)
        lines.append(f"ERROR at {where}: {received[where].item()} {expected[where].item()}")
    if len(bad) > max_print:
        lines.append(f"... and {len(bad) - max_print} more mismatched elements.")
    return False, "\n".join(lines)


def check_implementation(data: Input, output: torch.Tensor) -> tuple[bool, str]:
    """Check a submission's output against the reference computed on `data`.

    `data` must be a pristine copy of the input the submission received.
    """
    if not isinstance(output, torch.Tensor):
        return False, f"custom_kernel returned {type(output).__name__}, expected a torch.Tensor"
    expected = ref_kernel(clone_input(data))
    return compare(output.to(expected.device), expected)
