"""Which device the harness runs on, and how to describe it in reports."""
from __future__ import annotations

from dataclasses import dataclass

import torch


@dataclass(frozen=True)
class DeviceInfo:
    kind: str    # "cuda" (ROCm and CUDA both answer torch.cuda) or "cpu"
    name: str    # e.g. "AMD Instinct MI300X", "NVIDIA H100 80GB HBM3", "cpu"
    arch: str    # gfx942, sm_90, cpu
    torch: str
    rocm: str    # torch.version.hip, "" on CUDA/CPU builds
    cuda: str    # torch.version.cuda, "" on ROCm/CPU builds

    @property
    def is_gpu(self) -> bool:
        return self.kind == "cuda"

    @property
    def is_rocm(self) -> bool:
        return self.is_gpu and bool(self.rocm)

    def columns(self) -> dict[str, str]:
        """The environment columns of a report row."""
        return {"device": self.name, "arch": self.arch, "torch": self.torch,
                "rocm": self.rocm, "cuda": self.cuda}


def detect(requested: str = "auto") -> DeviceInfo:
    """The device to run on: `auto` takes the GPU when one is visible, else the CPU."""
    if requested not in ("auto", "cuda", "cpu"):
        raise ValueError(f"unknown device {requested!r}: expected auto, cuda or cpu")
    versions = {"torch": torch.__version__, "rocm": torch.version.hip or "",
                "cuda": torch.version.cuda or ""}
    use_gpu = torch.cuda.is_available() if requested == "auto" else requested == "cuda"
    if use_gpu and not torch.cuda.is_available():
        raise RuntimeError("--device cuda was asked for, but torch sees no GPU "
                           f"(torch {torch.__version__}); use --device cpu")
    if not use_gpu:
        return DeviceInfo("cpu", "cpu", "cpu", **versions)
    props = torch.cuda.get_device_properties(0)
    if versions["rocm"]:
        arch = getattr(props, "gcnArchName", "gfx").split(":")[0]
    else:
        arch = f"sm_{props.major}{props.minor}"
    return DeviceInfo("cuda", props.name, arch, **versions)


# NOTE: bound at import, before any submission is imported (see eval/timing.py).
_cuda_synchronize = torch.cuda.synchronize


def synchronize(info: DeviceInfo) -> None:
    if info.is_gpu:
        _cuda_synchronize()
