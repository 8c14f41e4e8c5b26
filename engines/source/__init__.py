"""CPU emulator of wave64 gfx942 HIP kernels; see engines/source/README.md."""
from engines.source.build import load, load_inline, prepare
from engines.source.errors import EmulatorBuildError, EmulatorError
from engines.source.guards import set_strict

__all__ = ["load", "load_inline", "prepare", "set_strict", "EmulatorError", "EmulatorBuildError"]
