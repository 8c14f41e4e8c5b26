"""The ISA engine's `load_inline` and `load`: torch's arguments read by the toolchain
(toolchain/load_call.py), the runner's build (build.py), the device code another compiler made
where one is given (device_code.py), and the module loaded with its kernels on the engine
(loader.py)."""
from __future__ import annotations

import dataclasses
from pathlib import Path

from engines.isa import loader
from engines.isa.build import extension, build, runtime_library
from engines.isa.errors import IsaBuildError
from toolchain import load_call
from toolchain.load_call import LoadInlineCall


def module_of(call: LoadInlineCall, origin: Path | None = None):
    """The module one load_inline call builds; `origin` is the file that made the call."""
    ext = extension(call, origin)
    if ext.hip is not None:
        from engines.isa import device_code  # NOTE: not at the top: `python -m engines.isa.device_code` runs it

        ext = dataclasses.replace(ext, device_code=device_code.replacement(ext.name))
    runtime = runtime_library()
    library, module_name = build(ext, runtime)
    return loader.load(library, module_name, runtime, call.is_python_module)


load_inline, load = load_call.drop_ins(module_of, IsaBuildError)
