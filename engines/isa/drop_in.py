"""The ISA engine's `load_inline`: torch's arguments, the runner's build (build.py), the device
code another compiler made where one is given (device_code.py), and the module loaded with its
kernels on the engine (loader.py)."""
from __future__ import annotations

import dataclasses

from engines.isa import loader
from engines.isa.build import extension, build, runtime_library
from engines.isa.errors import IsaBuildError
from toolchain import diagnostics


def load_inline(name, cpp_sources, cuda_sources=None, sycl_sources=None, functions=None, extra_cflags=None,
                extra_cuda_cflags=None, extra_sycl_cflags=None, extra_ldflags=None, extra_include_paths=None,
                build_directory=None, verbose=False, with_cuda=None, with_sycl=None, is_python_module=True,
                with_pytorch_error_handling=True, keep_intermediates=True, use_pch=False, no_implicit_headers=False):
    """Drop-in for torch.utils.cpp_extension.load_inline: builds as the ROCm runner does and
    returns the module, its kernels running on the ISA engine (a simulated MI300X)."""
    if sycl_sources:
        raise IsaBuildError("load_inline: sycl_sources cannot run on the ISA engine (HIP only)")
    ext = extension(name, cpp_sources, cuda_sources, functions, extra_cflags, extra_cuda_cflags, extra_ldflags,
                    extra_include_paths, build_directory, verbose, with_pytorch_error_handling, no_implicit_headers,
                    diagnostics.calling_file())
    if ext.hip is not None:
        from engines.isa import device_code  # NOTE: not at the top: `python -m engines.isa.device_code` runs it

        ext = dataclasses.replace(ext, device_code=device_code.replacement(ext.name))
    runtime = runtime_library()
    library, module_name = build(ext, runtime)
    return loader.load(library, module_name, runtime, is_python_module)
