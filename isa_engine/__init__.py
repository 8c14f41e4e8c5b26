"""The ISA engine: runs the gfx942 machine code clang emits for a HIP submission on the CPU.

    import isa_engine
    module = isa_engine.load_inline(name, cpp_sources, cuda_sources, functions=[...], ...)

`load_inline` takes torch's arguments and builds as the ROCm runner does (isa_engine.build);
the extension's host code runs natively against our HIP runtime for a simulated MI300X
(isa_engine/runtime/), whose launches run on the instruction-level core (isa_engine/core/).
"""
from isa_engine.build import load_inline
from isa_engine.errors import IsaBuildError, IsaError, IsaFault

__all__ = ["load_inline", "set_strict", "set_device_code", "IsaBuildError", "IsaError", "IsaFault"]


def set_strict(on: bool) -> None:
    """Strict mode: the engine's diagnostics (isa_engine/diagnostics.py) fault instead of being
    printed. Applies to runtimes loaded now and later in this process."""
    import os

    from isa_engine import loader

    os.environ["ISA_ENGINE_STRICT"] = "1" if on else "0"
    for lib in loader.LOADED:
        lib.isa_rt_set_strict(int(on))


def set_device_code(folder: str) -> None:
    """Builds in this process and the processes it starts take `folder`/<module>.co, compiled by
    another compiler (isa_engine/device_code.py), instead of compiling their device code."""
    import os

    from isa_engine import device_code

    os.environ[device_code.ENV] = os.path.abspath(folder)
