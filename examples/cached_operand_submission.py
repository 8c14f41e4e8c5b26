"""The reference math with a per-input cache, as many real submissions have one: the first
call that sees an input object dequantises B and keeps it; later calls on the same object
only multiply. The published benchmark loop makes its checked call on the very object it
then times, so this work is never timed there; the leaderboard loop draws a fresh input per
repeat and pays it every time. eval/fidelity.py times it to show the harness does the same.
"""
import torch

from reference.task import dequantize

_last = [None]  # (the b tensor it was prepared for, dequantised a, dequantised b)


def custom_kernel(data):
    c, entry = data[4], _last[0]
    if entry is None or entry[0] is not data[1]:
        entry = _last[0] = (data[1], *dequantize(data))
    _, a_full, b_full = entry
    c[...] = (a_full @ b_full.T).to(torch.bfloat16)
    return c
