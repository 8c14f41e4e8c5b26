"""What a submission passes to load_inline, found by importing it with load_inline intercepted.

    python -m toolchain.capture SUBMISSION.py OUT.json

Real submissions compute their sources: zlib/bz2/base64 blobs, `.replace()` on templates,
files read from beside submission.py, or files handed to cpp_extension.load. Only running the
file gives the text, so we run it as the runner imports it: in its own process, its folder the
working directory, the runner's `task` and `utils` modules (reference/runner_env) and our `reference`
importable. Every load_inline (and load) call is recorded with all its arguments and answered
with a stub module whose attributes are inert, so the import completes without a compiler or a
GPU. A GPU query at import time answers as an MI300X host would (toolchain/simulated_host.py),
else harmlessly.

`capture(path)` runs that process and returns the recorded calls; SourceError says why not.
"""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
import tempfile
import traceback
from pathlib import Path

from reference import RUNNER_ENV
from toolchain import REPO_ROOT, load_call
from toolchain.load_call import LoadInlineCall

IMPORT_TIMEOUT_S = 300


class SourceError(ValueError):
    """The file carries no HIP source we can compile; the message says why."""


# NOTE: not `python -m toolchain.capture`: -m puts the working directory (the submission's
# folder) first on sys.path, where a file of its own named eval.py (the #3 finisher's
# repository has one) hides this package.
_CHILD = (f"import sys; sys.path[0] = {str(REPO_ROOT)!r}; from toolchain.capture import _child; "
          "from pathlib import Path; sys.exit(_child(Path(sys.argv[1]), Path(sys.argv[2])))")


def capture(path: Path) -> list[LoadInlineCall]:
    """The load_inline calls importing `path` makes, in order."""
    path = path.resolve()
    if not path.exists():
        raise SourceError(f"{path}: no such file")
    with tempfile.TemporaryDirectory(prefix="isa-capture-") as scratch:
        out = Path(scratch) / "calls.json"
        env = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [str(REPO_ROOT), os.environ.get("PYTHONPATH")])))
        try:
            done = subprocess.run([sys.executable, "-c", _CHILD, str(path), str(out)], cwd=path.parent,
                                  env=env, capture_output=True, text=True, timeout=IMPORT_TIMEOUT_S)
        except subprocess.TimeoutExpired:
            raise SourceError(f"{path}: importing it took over {IMPORT_TIMEOUT_S} s") from None
        if not out.exists():
            raise SourceError(f"{path}: importing it failed\n{done.stderr.strip()[-3000:]}")
        record = json.loads(out.read_text())
    calls = [LoadInlineCall(**call) for call in record["calls"]]
    if not calls:
        why = f"; importing it raised:\n{record['error']}" if record["error"] else ""
        raise SourceError(f"{path}: importing it made no load_inline(..., cuda_sources=...) call{why}")
    return calls


# ----------------------------------------------------------------------------------------------
# The child process: import the submission with load_inline intercepted.


class _Inert:
    """Stands for the built module and anything reached through it: every attribute, call,
    index or iteration gives another inert value, so module-level code after load_inline
    (aliases, warm-up calls) runs to the end."""

    def __init__(self, label: str = "module"):
        self._label = label

    def __getattr__(self, name: str) -> _Inert:
        if name.startswith("__") and name.endswith("__"):
            raise AttributeError(name)
        return _Inert(f"{self._label}.{name}")

    def __call__(self, *args, **kwargs) -> _Inert:
        return _Inert(f"{self._label}()")

    def __getitem__(self, key) -> _Inert:
        return _Inert(f"{self._label}[]")

    def __iter__(self):
        return iter(())

    def __bool__(self) -> bool:
        return True

    def __repr__(self) -> str:
        return f"<isa capture stub {self._label}>"


def _pretend_gpu_host() -> None:
    """GPU queries at import time must not stop the import: the simulated MI300X host the
    engines run submissions on, else (when it cannot install) inert answers."""
    import torch

    from toolchain import simulated_host

    if torch.cuda.is_available():
        return
    try:
        simulated_host.install()
        return
    except Exception as error:  # a broken simulated host must not cost the report
        print(f"toolchain.capture: simulated MI300X host unavailable ({error}); GPU queries answer inertly",
              file=sys.stderr)
    inert_cuda()


def inert_cuda() -> None:
    """torch.cuda's queries, streams, events and graphs answer with inert values; 'cuda' tensors
    stay wherever torch puts them (a CPU build refuses them, which the import then reports)."""
    import torch

    inert = _Inert("torch.cuda")
    for name in ("get_device_name", "get_device_properties", "get_device_capability", "current_device",
                 "synchronize", "current_stream", "set_device", "Stream", "Event", "CUDAGraph", "graph"):
        setattr(torch.cuda, name, getattr(inert, name))
    torch.cuda.is_available = lambda: True
    torch.cuda.device_count = lambda: 1


def _child(submission: Path, out: Path) -> int:
    import torch.utils.cpp_extension as cpp_extension

    calls: list[dict] = []

    def intercept(function: str, read):
        def recorded(*args, **kwargs):
            calls.append(read(*args, **kwargs).record())
            return _Inert(f"{function}({kwargs.get('name', args[0] if args else '')!r})")

        return recorded

    cpp_extension.load_inline = intercept("load_inline", load_call.from_load_inline)
    cpp_extension.load = intercept("load", load_call.from_load)
    sys.path[:0] = [str(RUNNER_ENV), str(submission.parent)]
    error = ""
    try:
        _pretend_gpu_host()
        spec = importlib.util.spec_from_file_location("submission", submission)
        module = importlib.util.module_from_spec(spec)
        sys.modules["submission"] = module
        spec.loader.exec_module(module)
    except BaseException as exc:  # the user's code: any failure is reported, never raised
        frames = [frame for frame in traceback.extract_tb(exc.__traceback__) if frame.filename == str(submission)]
        where = f"{submission.name}:{frames[-1].lineno}: " if frames else ""
        error = f"{where}{type(exc).__name__}: {exc}"
    out.write_text(json.dumps({"calls": calls, "error": error}))
    return 0


if __name__ == "__main__":
    sys.exit(_child(Path(sys.argv[1]), Path(sys.argv[2])))
