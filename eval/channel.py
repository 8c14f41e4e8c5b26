"""The pipe between the trusted parent (eval/judge.py) and a worker that runs a submission.

Messages are dicts of plain values. The parent never unpickles anything else from a
worker: the submission runs there and could otherwise hand the parent an object whose
unpickling runs its code. Every message the parent takes is at most a size it names and
matches `SCHEMA` (its kind, its fields and their types), else `ProtocolError` says why. A
tensor (an output to check, the inputs after the call) travels as
  - on a GPU: a device tensor shared through CUDA/HIP IPC by torch's reductions (the worker
    sends copies in buffers of its own, eval/worker.py `packed`, and waits for the verdict
    before it touches them again);
  - on the CPU: its raw bytes with dtype and shape;
and with the strides the submission's tensor had.
"""
from __future__ import annotations

import io
import pickle

import torch
import torch.multiprocessing  # noqa: F401  (registers the reductions that share device tensors)

from reference import contract

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


# The widest output element a check accepts: the published check converts an output of any
# dtype to float32, so a float64 output of the right values passes on the leaderboard.
WIDEST_OUTPUT_BYTES = 8


def check_bytes(case, output_bytes: int = 2) -> int:
    """The bytes of the tensors one check of `case` carries: its output (bf16 unless said) and
    the fp8 inputs with their float32 scales."""
    block_k = contract.load()["block_k"]
    scale_k = case.k // block_k
    return (output_bytes * case.m * case.n + case.m * case.k + case.n * case.k
            + 4 * (case.m * scale_k + scale_k * -(-case.n // block_k)))


class ProtocolError(Exception):
    """A worker message the parent refuses: too large, not plain values, or off the schema."""


# kind -> {field: type}: what a worker may send, and nothing else.
SCHEMA = {
    "progress": {"text": str},
    "advance": {"fraction": float},  # how far the case in progress is (0..1)
    "text": {"text": str},
    "check": {"slot": int, "output": dict, "inputs": list},
    "row": {"slot": int, "passed": bool, "message": str, "durations": list},
    "failed": {"message": str},
    "done": {},
}
_PACKED = ({"tensor", "strides"}, {"bytes", "dtype", "shape", "strides"})


def receive(conn, max_bytes: int | None = None) -> dict:
    """The next message from a worker: at most `max_bytes`, unpickled with the plain-values
    whitelist, and on the schema."""
    try:
        raw = conn.recv_bytes(max_bytes)
    except OSError as exc:
        if max_bytes is not None and "length" in str(exc):
            raise ProtocolError(f"a message over {max_bytes / 2 ** 20:.0f} MiB, more than the largest a case of "
                                f"this stage needs (an output and its inputs)") from None
        raise
    try:
        message = _PlainUnpickler(io.BytesIO(raw)).load()
    except Exception as exc:
        raise ProtocolError(f"a message that is not plain values ({type(exc).__name__}: {exc})") from None
    validate(message)
    return message


def validate(message) -> None:
    """Raise ProtocolError unless `message` is a dict of one SCHEMA kind, with exactly its
    fields, of their types."""
    if not isinstance(message, dict) or message.get("kind") not in SCHEMA:
        kind = message.get("kind") if isinstance(message, dict) else type(message).__name__
        raise ProtocolError(f"a message of unknown kind {str(kind)[:40]!r}")
    fields = SCHEMA[message["kind"]]
    if set(message) != {"kind", *fields}:
        raise ProtocolError(f"a {message['kind']!r} message with fields {sorted(message)}, expected "
                            f"{sorted(['kind', *fields])}")
    for name, kind in fields.items():
        value = message[name]
        if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
            raise ProtocolError(f"a {message['kind']!r} message whose {name} is a {type(value).__name__}, "
                                f"expected {kind.__name__}")
    if message["kind"] == "row" and not all(isinstance(d, (int, float)) and not isinstance(d, bool)
                                            for d in message["durations"]):
        raise ProtocolError("a row whose durations are not all numbers")
    if message["kind"] == "check":
        for packed in [message["output"], *message["inputs"]]:
            if not isinstance(packed, dict) or set(packed) not in _PACKED:
                raise ProtocolError("a check whose tensors are not packed tensors")


def pack_tensor(tensor: torch.Tensor) -> dict:
    """A tensor ready to send: the shared device tensor, or the bytes of a CPU tensor with
    its dtype and shape; with its strides."""
    plain = tensor.detach().as_subclass(torch.Tensor)
    if plain.device.type == "cpu":
        flat = plain.contiguous().reshape(-1)
        return {"bytes": flat.view(torch.uint8).numpy().tobytes() if flat.numel() else b"",
                "dtype": str(plain.dtype).removeprefix("torch."), "shape": tuple(plain.shape),
                "strides": tuple(plain.stride())}
    return {"tensor": plain, "strides": tuple(plain.stride())}


def unpack_tensor(packed: dict) -> tuple[torch.Tensor, tuple[int, ...]]:
    """(the tensor's values, the strides it had in the worker)."""
    if "tensor" in packed:
        if type(packed["tensor"]) is not torch.Tensor:
            raise TypeError("a packed tensor holds no tensor")
        return packed["tensor"], tuple(packed["strides"])
    dtype = getattr(torch, str(packed["dtype"]), None)
    if not isinstance(dtype, torch.dtype):
        raise TypeError(f"unknown dtype {packed['dtype']!r}")
    shape, strides = tuple(packed["shape"]), tuple(packed["strides"])
    if not all(isinstance(x, int) and x >= 0 for x in shape + strides) or len(shape) != len(strides):
        raise TypeError(f"shape {shape} and strides {strides} are not a tensor's")
    raw = torch.frombuffer(bytearray(packed["bytes"]), dtype=torch.uint8) if packed["bytes"] \
        else torch.empty(0, dtype=torch.uint8)
    return raw.view(dtype).reshape(shape), strides
