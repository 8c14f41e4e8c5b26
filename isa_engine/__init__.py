"""The ISA engine: runs the gfx942 machine code clang emits for a HIP submission on the CPU.

    import isa_engine
    module = isa_engine.load_inline(name, cpp_sources, cuda_sources, functions=[...], ...)

`load_inline` takes torch's arguments and builds as the ROCm runner does (isa_engine.build);
the extension's host code runs natively against our HIP runtime for a simulated MI300X
(isa_engine/runtime/), whose launches run on the instruction-level core (isa_engine/core/).
"""
from isa_engine.build import load_inline
from isa_engine.errors import IsaBuildError, IsaError, IsaFault

__all__ = ["load_inline", "IsaBuildError", "IsaError", "IsaFault"]
