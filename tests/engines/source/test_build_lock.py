"""A build killed halfway leaves torch's lock file in its folder; the next build of the same
sources must not wait for it (torch would, forever)."""
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
SOURCE = """
#include <hip/hip_runtime.h>
#include <torch/extension.h>
__global__ void mark(int* p) { p[threadIdx.x] = 1; }
void run_mark(torch::Tensor t) { mark<<<1, 64>>>(t.data_ptr<int>()); }
"""
BUILD = f"""
import engines.source
module = engines.source.load_inline(name="stale_lock_probe", cpp_sources="", cuda_sources={SOURCE!r}, functions=["run_mark"])
print(module.__file__)
"""


def build() -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", BUILD], cwd=ROOT, capture_output=True, text=True, timeout=300)


def test_a_lock_left_by_a_killed_build_does_not_stall_the_next():
    first = build()
    assert first.returncode == 0, first.stderr[-2000:]
    library = Path(first.stdout.strip().splitlines()[-1])
    library.unlink()  # as if the build had been killed before linking ...
    (library.parent / "lock").write_text("")  # ... holding torch's lock
    second = build()
    assert second.returncode == 0, second.stderr[-2000:]
    assert library.exists() and not (library.parent / "lock").exists()
