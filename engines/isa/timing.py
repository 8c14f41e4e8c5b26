"""The ISA engine's timing switch: while on, every launch is timed on a simulated
MI300X instead of run in full (engines/isa/core/timing.cpp; outputs stay incomplete), and
its timing is kept until taken. The predictor (predictor/) decides the hardware and reads the timings."""
from __future__ import annotations

import ctypes
import json

_TIMINGS_BUFFER = 1 << 22
_PROGRESS = ctypes.CFUNCTYPE(None, ctypes.c_double)
_listener = None  # the ctypes callback the runtimes hold: kept alive while they do


def _runtimes() -> list[ctypes.CDLL]:
    """The runtimes the loaded extensions link (one, unless the engine was rebuilt meanwhile)."""
    from engines.isa import loader

    if not loader.LOADED:
        raise RuntimeError("no ISA engine runtime is loaded yet: load the submission first")
    for lib in loader.LOADED:
        lib.isa_rt_set_timing.argtypes = [ctypes.c_char_p, ctypes.c_char_p, ctypes.c_size_t]
        lib.isa_rt_set_timing.restype = ctypes.c_int
        lib.isa_rt_take_timings.argtypes = [ctypes.c_char_p, ctypes.c_size_t]
        lib.isa_rt_take_timings.restype = ctypes.c_size_t
        lib.isa_rt_set_progress.argtypes = [_PROGRESS]
        lib.isa_rt_set_progress.restype = None
        lib.isa_rt_remember_timings.argtypes = [ctypes.c_int]
        lib.isa_rt_remember_timings.restype = None
    return loader.LOADED


def enable(hardware: dict[str, float]) -> None:
    """Time every launch from now on; `hardware` maps isa::Hardware field names (and
    "mfma.<mnemonic>" cycle counts) to values."""
    spec = "".join(f"{key}={value!r}\n" for key, value in hardware.items())
    error = ctypes.create_string_buffer(512)
    for lib in _runtimes():
        if lib.isa_rt_set_timing(spec.encode(), error, len(error)) != 0:
            raise ValueError(f"the timing model's settings: {error.value.decode()}")


def listen(report) -> None:
    """report(fraction) hears how far each timed launch is (0..1), a few times a second, while
    the launch runs; None: nobody listens."""
    global _listener
    _listener = _PROGRESS(report) if report else _PROGRESS()
    for lib in _runtimes():
        lib.isa_rt_set_progress(_listener)


def remember(on: bool) -> None:
    """While on, a launch like one timed before (kernel, geometry, argument bytes, the tensors'
    places) takes that one's timing instead of being timed again; off forgets them."""
    for lib in _runtimes():
        lib.isa_rt_remember_timings(int(on))


def disable() -> None:
    for lib in _runtimes():
        lib.isa_rt_set_timing(None, None, 0)


def take() -> list[dict]:
    """The timings of the launches since the last take, in launch order."""
    timings = []
    for lib in _runtimes():
        buffer = ctypes.create_string_buffer(_TIMINGS_BUFFER)
        length = lib.isa_rt_take_timings(buffer, len(buffer))
        if length >= len(buffer):
            raise RuntimeError(f"{length} bytes of launch timings overflowed the {len(buffer)}-byte buffer")
        timings += json.loads(buffer.value.decode())
    return timings
