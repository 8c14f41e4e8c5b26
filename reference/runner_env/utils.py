"""The runner's `utils` module, as a submission sees it (`from utils import ...`).

The published names and signatures, implemented by the project: the tolerance arithmetic is
reference/check.py's, so a submission that checks itself with these gets the leaderboard's
verdict.
"""
import random

import numpy as np
import torch

from reference.check import join_lines, verbose_allclose, verbose_allequal

__all__ = ["set_seed", "get_device", "verbose_allclose", "verbose_allequal", "match_reference",
           "make_match_reference"]


def set_seed(seed=42):
    """Seed Python's, numpy's and torch's global generators (every GPU's too)."""
    random.seed(seed)
    np.random.seed(seed)
    torch.manual_seed(seed)
    if torch.cuda.is_available():
        torch.cuda.manual_seed_all(seed)


def get_device(use_cuda: bool = True) -> torch.device:
    """The GPU when asked for and present (ROCm and CUDA both answer 'cuda'), else the CPU."""
    if use_cuda and torch.cuda.is_available():
        return torch.device("cuda")
    if use_cuda and torch.backends.mps.is_available():
        return torch.device("mps")
    if use_cuda:
        print("No compatible GPU found. Falling back to CPU.")
    return torch.device("cpu")


def match_reference(data, output, reference, rtol=1e-05, atol=1e-08):
    """(ok, message): `output` against `reference(data)` with verbose_allclose."""
    expected = reference(data)
    ok, lines = verbose_allclose(output, expected, rtol=rtol, atol=atol)
    return ok, join_lines(lines)


def make_match_reference(reference, **tolerance):
    """A check_implementation(data, output) for `reference` with the given rtol/atol."""
    def check_implementation(data, output):
        return match_reference(data, output, reference=reference, **tolerance)
    return check_implementation
