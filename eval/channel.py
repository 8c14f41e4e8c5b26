"""The pipe between the trusted parent (eval/run.py) and a worker that runs a submission.

Messages are dicts of plain values. The parent never unpickles anything else from a
worker: the submission runs there and could otherwise hand the parent an object whose
unpickling runs its code. An output to check travels as
  - on a GPU: the device tensor itself, shared through CUDA/HIP IPC by torch's reductions
    (no copy; the worker waits for the verdict before it touches the tensor again);
  - on the CPU: its raw bytes with dtype and shape.
"""
from __future__ import annotations

import io
import pickle

import torch
import torch.multiprocessing  # noqa: F401  (registers the reductions that share device tensors)

_BUILTINS = {"dict", "list", "tuple", "set", "frozenset", "bytes", "bytearray", "str", "int", "float",
             "bool", "complex", "slice"}
# What torch's reduction of a device tensor pickles, and nothing more.
_TORCH_NAMES = {
    ("torch.multiprocessing.reductions", "rebuild_cuda_tensor"),
    ("torch.multiprocessing.reductions", "rebuild_typed_storage"),
    ("torch.storage", "UntypedStorage"), ("torch", "UntypedStorage"), ("torch.storage", "TypedStorage"),
    ("torch", "TypedStorage"), ("torch", "Tensor"),
    ("torch", "Size"), ("torch", "device"), ("torch._utils", "_rebuild_device_tensor_from_numpy"),
}


class _PlainUnpickler(pickle.Unpickler):
    def find_class(self, module: str, name: str):
        if module == "builtins" and name in _BUILTINS:
            return super().find_class(module, name)
        if (module, name) in _TORCH_NAMES:
            return super().find_class(module, name)
        if module == "torch" and isinstance(getattr(torch, name, None), torch.dtype):
            return getattr(torch, name)
        raise pickle.UnpicklingError(f"a worker message may not contain {module}.{name}")


def receive(conn) -> dict:
    """The next message from a worker, unpickled with the plain-values whitelist."""
    message = _PlainUnpickler(io.BytesIO(conn.recv_bytes())).load()
    if not isinstance(message, dict) or not isinstance(message.get("kind"), str):
        raise pickle.UnpicklingError("a worker message must be a dict with a 'kind'")
    return message


def pack_tensor(tensor: torch.Tensor) -> dict:
    """An output ready to send: the shared device tensor, or the bytes of a CPU tensor."""
    plain = tensor.detach().as_subclass(torch.Tensor)
    if plain.device.type == "cpu":
        flat = plain.contiguous().reshape(-1)
        return {"bytes": flat.view(torch.uint8).numpy().tobytes() if flat.numel() else b"",
                "dtype": str(plain.dtype).removeprefix("torch."), "shape": tuple(plain.shape)}
    return {"tensor": plain}


def unpack_tensor(packed: dict) -> torch.Tensor:
    if "tensor" in packed:
        if not isinstance(packed["tensor"], torch.Tensor):
            raise TypeError("a packed output holds no tensor")
        return packed["tensor"]
    dtype = getattr(torch, packed["dtype"])
    if not isinstance(dtype, torch.dtype):
        raise TypeError(f"unknown dtype {packed['dtype']!r}")
    raw = torch.frombuffer(bytearray(packed["bytes"]), dtype=torch.uint8) if packed["bytes"] \
        else torch.empty(0, dtype=torch.uint8)
    return raw.view(dtype).reshape(packed["shape"])
