"""CPU emulator of wave64 gfx942 HIP kernels; see emulator/README.md."""
from emulator.build import load, load_inline
from emulator.errors import EmulatorBuildError, EmulatorError
from emulator.guards import set_strict

__all__ = ["load", "load_inline", "set_strict", "EmulatorError", "EmulatorBuildError"]
