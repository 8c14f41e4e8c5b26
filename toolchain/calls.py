"""A call into a module an engine built: the tensors it passes, and who is told of it.

`tensors_of` finds the tensors among a call's arguments or in its result: the source engine
compares them between wave schedules, the ISA engine names their allocations. `CALL_OBSERVERS`
hear of every completed call of a module the source engine built, as observer(fn, args, kwargs,
result): a CUDA-graph capture of the simulated host (toolchain/simulated_host.py) records
kernel calls this way.
"""
from __future__ import annotations

import torch

CALL_OBSERVERS: list = []


def tensors_of(value) -> list[torch.Tensor]:
    if isinstance(value, torch.Tensor):
        return [value]
    if isinstance(value, (list, tuple)):
        return [t for v in value for t in tensors_of(v)]
    return []
