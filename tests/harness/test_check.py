"""The published tolerance arithmetic, pinned by hand-computed boundary cases.

The bound atol + rtol*|expected| is rounded to bf16 (expected's dtype) while the difference
is taken in float32; a check that rounds the difference to bf16 too accepts outputs the
leaderboard rejects. Numbers below are worked out by hand in the comments.
"""
import torch

from reference.check import join_lines, split_message, verbose_allclose, verbose_allequal, verdict

RTOL, ATOL = 2e-2, 1e-3


def bf16(values):
    return torch.tensor(values, dtype=torch.bfloat16)


def test_boundary_element_rejected_by_float32_difference():
    # expected = -131 * 2^-22 (exact in bf16); received = 127 * 2^-17 (exact in bf16).
    # float32 difference: (127*32 + 131) * 2^-22 = 4195 * 2^-22 = 0.00100016...
    # bound in bf16: 1e-3 + 2e-2 * 3.12e-5 = 0.00100062..., rounded to bf16 (step 2^-17 there)
    # = 131 * 2^-17 = 0.00099945068359375 < the difference: rejected on the leaderboard.
    expected = bf16([[-131 * 2.0 ** -22]])
    received = bf16([[127 * 2.0 ** -17]])
    assert expected.item() == -131 * 2.0 ** -22 and received.item() == 127 * 2.0 ** -17
    result = verdict(received, expected, RTOL, ATOL)
    assert not result.ok
    assert result.max_error == 4195 * 2.0 ** -22
    # The same difference rounded to bf16 is 131 * 2^-17, which equals the bound: the
    # rounding check would have accepted it.
    assert bf16([[4195 * 2.0 ** -22]]).item() == 131 * 2.0 ** -17


def test_bound_uses_expected_dtype_rounding():
    # expected = 100 (bf16): bound = 1e-3 + 2e-2 * 100 = 2.001, which bf16 rounds to 2.0
    # (its step is 2^-6 there). received (float32) 102.0009765625 differs by 2.0009765625:
    # inside the unrounded 2.001, outside the published (rounded) bound.
    expected = bf16([[100.0]])
    assert verdict(torch.tensor([[102.0]]), expected, RTOL, ATOL).ok            # 2.0 <= 2.0
    assert not verdict(torch.tensor([[102.0009765625]]), expected, RTOL, ATOL).ok  # 2.00098 > 2.0 (bf16 bound)


def test_wrong_dtype_outputs_are_compared_through_float32():
    expected = bf16([[1.0, -3.0]])
    # float32 and float16 outputs are accepted when their float32 difference is in bounds.
    assert verdict(torch.tensor([[1.0005, -3.0]]), expected, RTOL, ATOL).ok
    assert verdict(torch.tensor([[1.0, -3.0]], dtype=torch.float16), expected, RTOL, ATOL).ok
    assert not verdict(torch.tensor([[1.03, -3.0]]), expected, RTOL, ATOL).ok


def test_nan_and_infinities_must_match_exactly():
    expected = torch.tensor([[0.5, float("nan"), float("inf"), -float("inf")]]).to(torch.bfloat16)
    assert verdict(expected.clone(), expected, RTOL, ATOL).ok
    for col, value in [(0, float("nan")), (0, float("inf")), (0, -float("inf")),
                       (1, 0.5), (2, -float("inf")), (3, float("inf"))]:
        received = expected.clone()
        received[0, col] = value
        result = verdict(received, expected, RTOL, ATOL)
        assert not result.ok, (col, value)


def test_messages_are_the_published_lines():
    expected = torch.ones(4, 4, dtype=torch.bfloat16)
    received = expected.clone()
    received[2, 1] = 3
    ok, lines = verbose_allclose(received, expected, rtol=RTOL, atol=ATOL)
    assert not ok and lines == ["Number of mismatched elements: 1", "ERROR at (2, 1): 3.0 1.0"]
    ok, lines = verbose_allclose(expected, expected, rtol=RTOL, atol=ATOL)
    assert ok and lines == ["Maximum error: 0.0"]
    assert verbose_allclose(torch.ones(2, 2), expected)[1] == ["SIZE MISMATCH"]
    assert verbose_allequal(received, expected)[1][1] == "ERROR at (2, 1): 3.0 1.0"
    assert verbose_allequal(expected, expected) == (True, [])


def test_joined_message_is_one_line_and_splits_back():
    lines = ["Number of mismatched elements: 2", "ERROR at (0, 0): 2.0 1.0"]
    joined = join_lines(lines)
    assert "\n" not in joined and split_message(joined) == lines
