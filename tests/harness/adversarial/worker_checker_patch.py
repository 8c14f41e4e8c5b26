# Control: rewires every checking function it can reach in the worker (torch.allclose, torch.isclose, reference.check._allclose / verdict, reference.task.verdict / compare) to pass, and returns zeros; the real verdict is made in the parent process.
import sys

import torch

import reference.check as _check
import reference.task as _task

_ok = _check.Verdict(True, ["Maximum error: 0.0"], 0.0)
torch.allclose = lambda *args, **kwargs: True
torch.isclose = lambda a, b, *args, **kwargs: torch.ones_like(a, dtype=torch.bool)
_check._allclose = lambda *args, **kwargs: (True, ["Maximum error: 0.0"], 0.0)
_check.verdict = lambda *args, **kwargs: _ok
_task.verdict = lambda *args, **kwargs: _ok
_task.compare = lambda *args, **kwargs: (True, "Maximum error: 0.0")
if "eval.verdict" in sys.modules:
    sys.modules["eval.verdict"].verdict = lambda *args, **kwargs: _ok


def custom_kernel(data):
    return torch.zeros_like(data[4])
