"""Make this process look like a one-GPU MI300X host to a submission run on the CPU.

Real submissions ask torch.cuda about the device, put workspaces on "cuda", use streams,
events and CUDA graphs. `install()` answers all of that; the harness's worker calls it once it
has detected that there is no GPU, before the submission is imported (either engine), and so do
the offline report's capture (toolchain/capture.py) and the emulator's bench:

  device queries  is_available() True, device_count() 1, get_device_name(), get_device_properties(0)
                  with MI300X facts from machine/mi300x.yaml (304 CUs, gfx942:sramecc+:xnack-, 192 GiB)
  'cuda' tensors  device="cuda"/"cuda:0"/torch.device("cuda")/0 in factory functions, .cuda(),
                  .to("cuda"), torch.Generator(device="cuda") all give CPU tensors; .is_cuda is True
  streams, events current_stream(), Stream, stream(...), synchronize() are no-ops (everything runs
                  synchronously); Event.elapsed_time() measures the host clock
  CUDA graphs     capture records every torch call and every emulated kernel call (toolchain.calls)
                  (and runs them);
                  replay() runs them again, writing into the tensors the capture produced
  memory, seeds   memory queries answer 0 (or empty), seeds and RNG state are the CPU generator's
  the rest        every other torch.cuda function (BLAS handles, the caching allocator, ...)
                  raises RuntimeError naming it (toolchain.host_api.message)

The facts are the published MI300X ones, not measured here. The facade lives in this process
only; the harness's own device detection ran before it and is not affected.
"""
from __future__ import annotations

import contextlib
import inspect
import time
from types import SimpleNamespace

import torch
from torch.overrides import TorchFunctionMode

import machine
from toolchain import host_api
from toolchain.calls import CALL_OBSERVERS

MI300X = {
    "name": machine.description()["name"],
    "gcnArchName": machine.description()["gcn_arch_name"],
    "multi_processor_count": machine.fact("cus"),
    "total_memory": machine.fact("hbm_bytes"),
    "major": 9,
    "minor": 4,
    "warp_size": machine.fact("wave_size"),
    "max_threads_per_multi_processor": machine.fact("max_threads_per_cu"),
    "max_threads_per_block": machine.fact("max_workgroup_size"),
    "regs_per_multiprocessor": machine.fact("reported_regs_per_block"),
    "shared_memory_per_block": machine.fact("lds_bytes_per_cu"),
    "shared_memory_per_multiprocessor": machine.fact("lds_bytes_per_cu"),
    "L2_cache_size": machine.fact("l2_bytes_per_xcd"),
    "is_integrated": False,
    "is_multi_gpu_board": False,
    "uuid": "00000000-0000-0000-0000-000000000000",
    "pci_bus_id": 0,
    "pci_device_id": 0,
    "pci_domain_id": 0,
}
ROCM_VERSION = "6.3.42131"
CPU = torch.device("cpu")
_state: dict = {}


class DeviceProperties(SimpleNamespace):
    def __repr__(self) -> str:
        return (f"_CudaDeviceProperties(name='{self.name}', major={self.major}, minor={self.minor}, "
                f"gcnArchName='{self.gcnArchName}', total_memory={self.total_memory // 2**20}MB, "
                f"multi_processor_count={self.multi_processor_count})")


def _check_device(device=None) -> int:
    """The index of `device` (None, int, "cuda", "cuda:0", torch.device); only device 0 exists."""
    if device is None:
        return 0
    if isinstance(device, str):
        device = torch.device(device)
    if isinstance(device, torch.device):
        index = device.index or 0
    else:
        index = int(device)
    if index != 0:
        raise RuntimeError(f"invalid device ordinal {index}: this emulated host has one GPU (device 0)")
    return 0


def _is_gpu(device) -> bool:
    if isinstance(device, str):
        return device.split(":")[0] in ("cuda", "hip")
    if isinstance(device, torch.device):
        return device.type in ("cuda", "hip")
    return isinstance(device, int) and not isinstance(device, bool)


def _host(device):
    return CPU if _is_gpu(device) else device


# ---- streams, events, graphs ----------------------------------------------------------------
class Stream:
    """A stream of the emulated device: work runs synchronously, so every wait is already met."""

    def __init__(self, device=None, priority: int = 0, **_):
        _check_device(device)
        self.device = torch.device("cuda", 0)
        self.priority = priority
        self.cuda_stream = 0
        self.stream_id = 0

    def synchronize(self) -> None:
        pass

    def query(self) -> bool:
        return True

    def wait_stream(self, stream) -> None:
        pass

    def wait_event(self, event) -> None:
        pass

    def record_event(self, event=None):
        event = event or Event()
        event.record(self)
        return event

    def __eq__(self, other) -> bool:
        return isinstance(other, Stream)

    def __hash__(self) -> int:
        return 0

    def __repr__(self) -> str:
        return "<torch.cuda.Stream device=cuda:0 cuda_stream=0x0 (emulated)>"


_DEFAULT_STREAM = Stream()


class Event:
    """An event stamped with the host clock when recorded (work is synchronous)."""

    def __init__(self, enable_timing: bool = False, blocking: bool = False, interprocess: bool = False, **_):
        self.enable_timing = enable_timing
        self.stamp = None

    def record(self, stream=None) -> None:
        self.stamp = time.perf_counter()

    def elapsed_time(self, end: "Event") -> float:
        if self.stamp is None or end.stamp is None:
            raise RuntimeError("elapsed_time: both events must be recorded first")
        return (end.stamp - self.stamp) * 1000.0

    def synchronize(self) -> None:
        pass

    def query(self) -> bool:
        return True

    def wait(self, stream=None) -> None:
        pass


class _StreamContext(contextlib.AbstractContextManager):
    def __init__(self, stream=None):
        self.stream = stream

    def __exit__(self, *exc) -> None:
        return None


class CUDAGraph:
    """Capture records what runs (torch calls and emulated kernel calls); replay runs it again
    into the same output tensors."""

    def __init__(self, *_, **__):
        self._calls: list = []
        self._captured = False

    def capture_begin(self, pool=None, capture_error_mode=None) -> None:
        self._calls = []
        _state["capturing"].append(self)

    def capture_end(self) -> None:
        _state["capturing"].remove(self)
        self._captured = True

    def record(self, fn, args, kwargs, result) -> None:
        self._calls.append((fn, args, kwargs, result))

    def replay(self) -> None:
        if not self._captured:
            raise RuntimeError("CUDAGraph.replay() before a capture ended")
        with _Replaying():
            for fn, args, kwargs, result in self._calls:
                _copy_into(result, fn(*args, **kwargs))

    def reset(self) -> None:
        self._calls, self._captured = [], False

    def pool(self):
        return (0, 0)

    def enable_debug_mode(self) -> None:
        pass

    def debug_dump(self, path) -> None:
        pass


def _copy_into(captured, fresh) -> None:
    """Write a replayed call's result into the tensor(s) the capture handed out."""
    if isinstance(captured, torch.Tensor) and isinstance(fresh, torch.Tensor):
        if fresh is not captured and fresh.shape == captured.shape and captured.data_ptr() != fresh.data_ptr():
            with torch.no_grad():
                captured.copy_(fresh)
    elif isinstance(captured, (tuple, list)) and isinstance(fresh, (tuple, list)):
        for c, f in zip(captured, fresh):
            _copy_into(c, f)


class _Replaying(contextlib.AbstractContextManager):
    """While a graph replays, nothing is recorded into a capture that might be open."""

    def __enter__(self):
        self.saved = _state["capturing"][:]
        _state["capturing"].clear()
        return self

    def __exit__(self, *exc) -> None:
        _state["capturing"][:] = self.saved


class graph(contextlib.AbstractContextManager):
    """`with torch.cuda.graph(g): ...` captures the block into g."""

    def __init__(self, cuda_graph: CUDAGraph, pool=None, stream=None, capture_error_mode: str = "global"):
        self.cuda_graph = cuda_graph

    def __enter__(self):
        self.cuda_graph.capture_begin()
        return self

    def __exit__(self, *exc) -> None:
        self.cuda_graph.capture_end()


def _record(fn, args, kwargs, result) -> None:
    for g in _state["capturing"]:
        g.record(fn, args, kwargs, result)


# ---- 'cuda' tensors on the CPU ----------------------------------------------------------------
def _is_cuda_get(func) -> bool:
    return getattr(func, "__name__", "") == "__get__" and getattr(func, "__self__", None) is torch.Tensor.is_cuda


class _CudaOnCpu(TorchFunctionMode):
    """Maps every 'cuda' device argument to the CPU; records calls while a graph captures."""

    def __torch_function__(self, func, types, args=(), kwargs=None):
        kwargs = dict(kwargs or {})
        if "device" in kwargs:
            kwargs["device"] = _host(kwargs["device"])
        if kwargs.get("pin_memory"):
            kwargs["pin_memory"] = False
        if _is_cuda_get(func):
            return True
        if func in (torch.Tensor.cuda, torch.Tensor.pin_memory):
            return args[0]
        if func is torch.Tensor.to and len(args) > 1 and _is_gpu(args[1]):
            args = (args[0], CPU, *args[2:])
        result = func(*args, **kwargs)
        if _state["capturing"]:
            _record(func, args, kwargs, result)
        return result


class _Generator(torch.Generator):
    """torch.Generator that accepts device='cuda' (a CPU generator, seeded the same way)."""

    def __new__(cls, device=None):
        return super().__new__(cls, device=_host(device) if device is not None else CPU)


# ---- install ----------------------------------------------------------------------------------
def _cuda_functions() -> dict:
    props = DeviceProperties(**MI300X)
    return {
        "is_available": lambda: True,
        "device_count": lambda: 1,
        "is_initialized": lambda: True,
        "init": lambda: None,
        "current_device": lambda: 0,
        "set_device": _check_device,
        "get_device_name": lambda device=None: (_check_device(device), MI300X["name"])[1],
        "get_device_properties": lambda device=None: (_check_device(device), props)[1],
        "get_device_capability": lambda device=None: (_check_device(device), (9, 4))[1],
        "get_arch_list": lambda: ["gfx942"],
        "is_bf16_supported": lambda *a, **k: True,
        "synchronize": lambda device=None: None,
        "current_stream": lambda device=None: _DEFAULT_STREAM,
        "default_stream": lambda device=None: _DEFAULT_STREAM,
        "set_stream": lambda stream: None,
        "stream": _StreamContext,
        "Stream": Stream,
        "Event": Event,
        "CUDAGraph": CUDAGraph,
        "graph": graph,
        "graph_pool_handle": lambda: (0, 0),
        "is_current_stream_capturing": lambda: bool(_state["capturing"]),
        "empty_cache": lambda: None,
        "memory_allocated": lambda device=None: 0,
        "max_memory_allocated": lambda device=None: 0,
        "memory_reserved": lambda device=None: 0,
        "reset_peak_memory_stats": lambda device=None: None,
        "mem_get_info": lambda device=None: (MI300X["total_memory"], MI300X["total_memory"]),
        "memory_stats": lambda device=None: {},
        "memory_summary": lambda device=None, abbreviated=False: "",
        "max_memory_reserved": lambda device=None: 0,
        "reset_max_memory_allocated": lambda device=None: None,
        "reset_accumulated_memory_stats": lambda device=None: None,
        "initial_seed": torch.initial_seed,
        "get_rng_state": lambda device="cuda": torch.get_rng_state(),
        "set_rng_state": lambda new_state, device="cuda": torch.set_rng_state(new_state),
        "manual_seed": lambda seed: torch.manual_seed(seed) and None,
        "manual_seed_all": lambda seed: torch.manual_seed(seed) and None,
        "seed": lambda: None,
        "seed_all": lambda: None,
    }


def _unserved(name: str):
    def unavailable(*args, **kwargs):
        raise RuntimeError(host_api.message(f"torch.cuda.{name}"))
    unavailable.__name__ = name
    return unavailable


def _unserved_functions(served: dict) -> dict:
    """torch.cuda's own public functions the facade does not answer (BLAS handles, the caching
    allocator, sync debug modes, ...): each raises the CPU engines' message naming it, never
    torch's "Torch not compiled with CUDA enabled" or a missing torch._C attribute."""
    return {name: _unserved(name) for name in dir(torch.cuda)
            if not name.startswith("_") and name not in served and inspect.isfunction(value := getattr(torch.cuda, name))
            and value.__module__.startswith("torch.cuda")}


def install() -> None:
    """Make torch.cuda answer as a one-GPU MI300X host (see the module docstring). Idempotent."""
    if _state.get("installed"):
        return
    _state.update(capturing=[], saved={}, installed=True)
    served = _cuda_functions()
    for name, value in {**_unserved_functions(served), **served}.items():
        _state["saved"][name] = getattr(torch.cuda, name, None)
        setattr(torch.cuda, name, value)
    _state["saved_hip"] = torch.version.hip
    torch.version.hip = ROCM_VERSION
    _state["saved_generator"] = torch.Generator
    torch.Generator = _Generator
    CALL_OBSERVERS.append(_record)
    _state["mode"] = _CudaOnCpu()
    _state["mode"].__enter__()


def uninstall() -> None:
    """Undo install() (for tests that share a process)."""
    if not _state.get("installed"):
        return
    _state["mode"].__exit__(None, None, None)
    CALL_OBSERVERS.remove(_record)
    torch.Generator = _state["saved_generator"]
    torch.version.hip = _state["saved_hip"]
    for name, value in _state["saved"].items():
        if value is None:
            delattr(torch.cuda, name)
        else:
            setattr(torch.cuda, name, value)
    _state.clear()
