"""Exceptions the ISA engine raises into Python."""


class IsaError(RuntimeError):
    """Base of the ISA engine's errors."""


class IsaBuildError(IsaError):
    """The submission could not be built for the ISA engine: the compiler's message, or what is unsupported."""


class IsaFault(IsaError):
    """A kernel launch faulted on the ISA engine (unknown opcode, missing wait, LDS race,
    out-of-allocation access, ...); the message names the kernel, instruction and line."""
