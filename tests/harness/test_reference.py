"""The reference task: input layout, determinism, math against float64, check rules."""
import numpy as np
import pytest
import torch

from reference.check import split_message
from reference.task import FP8, check_implementation, clone_input, compare, generate_input, ref_kernel


def test_layouts_dtypes_and_strides():
    m, n, k = 96, 200, 384
    a, b, a_scale, b_scale, c = generate_input(m, n, k, seed=7, device="cpu")
    assert (a.shape, a.stride(), a.dtype) == ((m, k), (1, m), FP8)
    assert (b.shape, b.stride(), b.dtype) == ((n, k), (1, n), FP8)
    assert (a_scale.shape, a_scale.stride(), a_scale.dtype) == ((m, 3), (1, m), torch.float32)
    assert (b_scale.shape, b_scale.stride()) == ((2, 3), (1, 2))
    assert (c.shape, c.stride(), c.dtype) == ((m, n), (n, 1), torch.bfloat16)
    assert not c.any()


def test_same_seed_same_bytes_and_draw_order():
    first, again = generate_input(64, 64, 128, 6635, "cpu"), generate_input(64, 64, 128, 6635, "cpu")
    for x, y in zip(first, again):
        assert torch.equal(x.view(torch.uint8) if x.dtype == FP8 else x,
                           y.view(torch.uint8) if y.dtype == FP8 else y)
    gen = torch.Generator().manual_seed(6635)
    a = torch.randn((128, 64), dtype=torch.bfloat16, generator=gen).to(FP8)
    assert torch.equal(first[0].T.contiguous().view(torch.uint8), a.view(torch.uint8))
    other = generate_input(64, 64, 128, 6636, "cpu")
    assert not torch.equal(first[2], other[2])


def float64_reference(data):
    """C[i,j] = sum_kb a_scale[i,kb] b_scale[j/128,kb] sum_{kk in kb} a[i,kk] b[j,kk], in float64."""
    a, b, a_scale, b_scale, _ = (t.float().numpy().astype(np.float64) for t in data)
    m, k = a.shape
    out = np.zeros((m, b.shape[0]))
    for kb in range(k // 128):
        block = a[:, kb * 128:(kb + 1) * 128] @ b[:, kb * 128:(kb + 1) * 128].T
        col_scale = np.repeat(b_scale[:, kb], 128)[: b.shape[0]]
        out += a_scale[:, kb:kb + 1] * col_scale[None, :] * block
    return out


@pytest.mark.parametrize("m,n,k", [(64, 64, 128), (96, 300, 512), (33, 130, 256)])
def test_ref_kernel_matches_float64(m, n, k):
    data = generate_input(m, n, k, seed=11, device="cpu")
    expected = float64_reference(data)
    got = ref_kernel(clone_input(data)).double().numpy()
    # bf16 output: relative rounding 2^-8; float32 accumulation of terms of size ~1 leaves
    # ~1e-5 absolute, which matters only for results that cancel to nearly zero.
    np.testing.assert_allclose(got, expected, rtol=2 ** -8, atol=1e-4)


def test_ref_kernel_writes_into_c():
    data = generate_input(64, 64, 128, 1, "cpu")
    assert ref_kernel(data) is data[4] and data[4].any()


def test_check_accepts_reference_and_reports_max_error():
    data = generate_input(64, 64, 128, 3, "cpu")
    ok, message = check_implementation(data, ref_kernel(clone_input(data)))
    assert ok and message == "Maximum error: 0.0"


def test_check_message_format_lists_five_mismatches():
    expected = torch.ones(4, 4, dtype=torch.bfloat16)
    got = expected.clone()
    got[0, :] = 2
    got[1, :3] = 2
    ok, message = compare(got, expected)
    lines = split_message(message)
    assert "\n" not in message  # one line in the evaluator's key: value log
    assert not ok
    assert lines[0] == "Number of mismatched elements: 7"
    assert lines[1] == "ERROR at (0, 0): 2.0 1.0"
    assert len(lines) == 7 and lines[-1] == "... and 2 more mismatched elements."


def test_check_tolerance_boundary():
    expected = torch.full((1, 2), 100.0)
    inside = expected + torch.tensor([[2.0, -2.0]])       # 2 <= 1e-3 + 2e-2 * 100
    outside = expected + torch.tensor([[2.01, 0.0]])
    assert compare(inside, expected)[0]
    assert not compare(outside, expected)[0]


def test_check_nan_and_inf_rules():
    expected = torch.tensor([[1.0, float("nan"), float("inf"), -float("inf")]])
    assert compare(expected.clone(), expected)[0]  # specials in both agree
    for col, value in [(0, float("nan")), (0, float("inf")), (0, -float("inf")), (2, -float("inf"))]:
        got = expected.clone()
        got[0, col] = value
        assert not compare(got, expected)[0], (col, value)


def test_check_size_mismatch_and_non_tensor():
    data = generate_input(64, 64, 128, 3, "cpu")
    assert check_implementation(data, torch.zeros(64, 63)) == (False, "SIZE MISMATCH")
    assert not check_implementation(data, None)[0]
