"""The hipify pass torch's load_inline runs over cuda_sources on a ROCm build, run here.

On ROCm (IS_HIP_EXTENSION), load_inline writes the joined cuda_sources to `<build>/cuda.cu`
and `_jit_compile` calls torch.utils.hipify.hipify_python.hipify on the build folder with
is_pytorch_extension=True before compiling; hipcc then compiles the result, `<build>/hip.hip`
(get_hip_file_path renames "cuda" to "hip" and .cu to .hip). We make the same call, with the
same options, on a private folder holding only that file, and compile what it writes.

The pass is torch's own code, so it is the installed torch's generation of it (`version()`
says which). hipify 2.0 (torch >= 2.11) rewrites CUDA runtime names, headers, <<<>>> launches
and, in .cu files, std::max( / std::min( / ... to ::max( ...; hipify 1.x (torch <= 2.10, the
runner's 2.10 nightly) also renames torch's stream API (at::cuda::getCurrentCUDAStream ->
at::hip::getCurrentHIPStreamMasqueradingAsCUDA). The torch stubs declare both spellings.
"""

from __future__ import annotations

import contextlib
import functools
import os
import tempfile
import threading
from pathlib import Path

# hipify keeps its results in a module-level dict and prints: one pass at a time.
_LOCK = threading.Lock()


@contextlib.contextmanager
def _quiet(module):
    """Silence `module`'s own print calls only: redirecting sys.stderr would also swallow the
    progress lines other threads of `python -m reports.offline` print meanwhile."""
    module.print = lambda *args, **kwargs: None  # a module global shadows the builtin
    try:
        yield
    finally:
        del module.print


def _hipify_module():
    from torch.utils.hipify import hipify_python  # imported late: importing torch takes seconds

    return hipify_python


@functools.cache
def version() -> str:
    """`torch <version>, hipify <version>`: which pass the report ran."""
    import torch
    from torch.utils.hipify.version import __version__ as hipify_version

    return f"torch {torch.__version__}, hipify {hipify_version}"


def hipify_cuda_source(text: str) -> str:
    """`text` as load_inline's cuda.cu -> the text of the .hip file hipcc compiles on ROCm."""
    hipify_python = _hipify_module()
    with _LOCK, tempfile.TemporaryDirectory(prefix="isa-hipify-") as build:
        source = os.path.abspath(os.path.join(build, "cuda.cu"))  # load_inline passes abspath
        Path(source).write_text(text)
        with hipify_python.GeneratedFileCleaner(keep_intermediates=False) as clean_ctx, _quiet(hipify_python):
            # The arguments of cpp_extension._jit_compile's call (verbose=False); ROCm's and
            # torch's own header folders are ignored there, and none lie in this folder.
            result = hipify_python.hipify(
                project_directory=build,
                output_directory=build,
                header_include_dirs=[],
                extra_files=[source],
                ignores=[],
                show_detailed=False,
                show_progress=False,
                is_pytorch_extension=True,
                clean_ctx=clean_ctx,
            )
            hipified = result[source].hipified_path
            return Path(hipified).read_text() if hipified else text
