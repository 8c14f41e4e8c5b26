"""Exceptions the emulator raises into Python."""


class EmulatorError(RuntimeError):
    """A kernel bug the emulator detected at run time (divergence, deadlock, LDS overflow, ...)."""


class EmulatorBuildError(EmulatorError):
    """A source the emulator cannot build: unsupported construct (named, with its line) or a compile error."""
