"""EMU_ASAN=1 builds catch an out-of-bounds global read (the report aborts the process).

A read past a tensor argument is the guard pages' to report (engines/source/guards.py, tests/engines/source/
test_guards.py); ASan is for the memory no guard covers, such as a buffer from hipMalloc."""
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.engines.source.conftest import ROOT

SCRIPT = r'''
import torch, engines.source
src = """
#include <hip/hip_runtime.h>
__global__ void past_end(const float* x, float* y, int n) { y[threadIdx.x] = x[threadIdx.x + n]; }
void run(torch::Tensor y) {
  float* x = nullptr;
  hipMalloc(&x, y.numel() * sizeof(float));
  past_end<<<1, 64>>>(x, y.data_ptr<float>(), y.numel());
  hipFree(x);
}
"""
module = engines.source.load_inline("asan_past_end", "", src, functions=["run"])
module.run(torch.zeros(64))
print("NOT DETECTED")
'''


def asan_runtime() -> str | None:
    if not shutil.which("clang++-19"):
        return None
    path = subprocess.run(["clang++-19", "-print-file-name=libclang_rt.asan-x86_64.so"], capture_output=True,
                          text=True).stdout.strip()
    return path if Path(path).is_file() else None


@pytest.mark.skipif(asan_runtime() is None, reason="clang's ASan runtime not installed")
def test_out_of_bounds_global_read_is_reported():
    env = dict(os.environ, EMU_ASAN="1", ASAN_OPTIONS="detect_leaks=0", LD_PRELOAD=asan_runtime(),
               PYTHONPATH=str(ROOT))
    result = subprocess.run([sys.executable, "-c", SCRIPT], env=env, capture_output=True, text=True, timeout=600)
    assert "heap-buffer-overflow" in result.stderr and "past_end" in result.stderr
    assert "NOT DETECTED" not in result.stdout
