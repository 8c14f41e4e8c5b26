"""The ISA engine: runs the gfx942 machine code clang emits for a HIP submission on the CPU.

    import engines.isa
    module = engines.isa.load_inline(name, cpp_sources, cuda_sources, functions=[...], ...)

`load_inline` and `load` (engines.isa.drop_in) take torch's arguments and build as the ROCm runner does
(engines.isa.build); the extension's host code runs natively against our HIP runtime for a
simulated MI300X (engines/isa/runtime/), whose launches run on the instruction-level core
(engines/isa/core/).
"""
from engines.isa.drop_in import load, load_inline
from engines.isa.errors import IsaBuildError, IsaError, IsaFault

__all__ = ["load", "load_inline", "prepare", "set_strict", "set_device_code", "IsaBuildError", "IsaError", "IsaFault"]


def set_strict(on: bool) -> None:
    """Strict mode: the engine's diagnostics (engines/isa/diagnostics.py) fault instead of being
    printed. Applies to runtimes loaded now and later in this process."""
    import os

    from engines.isa import loader

    os.environ["ISA_ENGINE_STRICT"] = "1" if on else "0"
    for lib in loader.LOADED:
        lib.isa_rt_set_strict(int(on))


def set_device_code(folder: str) -> None:
    """Builds in this process and the processes it starts take `folder`/<module>.co, compiled by
    another compiler (engines/isa/device_code.py), instead of compiling their device code."""
    import os

    from engines.isa import device_code

    os.environ[device_code.ENV] = os.path.abspath(folder)


def prepare() -> None:
    """Build what every module shares (the runtime, the gfx942 bitcode, the generated headers) in
    this process: the harness calls it before a sandboxed stage, which may not write them."""
    from engines.isa import build
    from toolchain import hipcc

    build.runtime_library()
    hipcc.device_lib_dir()
    hipcc.header_dirs()
