"""Replaces every check_implementation it can find with one that always passes, then
returns zeros. The verdict is the parent process's, so this must fail, and say why."""
import sys

import torch


def _always_pass(data, output):
    return True, ""


def custom_kernel(data):
    for module in list(sys.modules.values()):
        if hasattr(module, "check_implementation"):
            setattr(module, "check_implementation", _always_pass)
    m, n = data[0].shape[0], data[1].shape[0]
    return torch.zeros((m, n), dtype=torch.bfloat16, device=data[0].device)
