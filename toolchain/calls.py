"""A call into a module an engine built: the tensors it passes, and who is told of it.

`tensors_of` finds the tensors among a call's arguments or in its result: the source engine
compares them between wave schedules, the ISA engine names their allocations;
`labelled_tensors` gives each the label both engines print in a read past its end. `CALL_OBSERVERS`
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


def tensor_label(position, function: str, tensor: torch.Tensor) -> str:
    """What both engines call a call's tensor: `argument 3 of fp8_mm() (float32 [1, 1], 4 bytes)`."""
    return (f"argument {position} of {function}() ({str(tensor.dtype).removeprefix('torch.')} {list(tensor.shape)}, "
            f"{tensor.untyped_storage().nbytes()} bytes)")


def labelled_tensors(function: str, args, kwargs) -> list[tuple[str, torch.Tensor]]:
    named = [*enumerate(args), *kwargs.items()]
    return [(tensor_label(key, function, t), t) for key, value in named for t in tensors_of(value)]
