"""engines/source/guards: a read past the end of a tensor gives zeros and is reported once per kernel,
naming the kernel parameter, the call's argument and the source line (as the ISA engine does);
with strict mode it fails the call, and a write past a tensor always does."""
from pathlib import Path

import pytest
import torch

import engines.source

SRC = r"""
#include <hip/hip_runtime.h>
__global__ void copy_past(const int4* in, int4* out) { out[threadIdx.x] = in[threadIdx.x]; }
__global__ void store_past(int* out, int n) { out[threadIdx.x + n] = 1; }
void run_copy(torch::Tensor in, torch::Tensor out) { copy_past<<<1, 64>>>((const int4*)in.data_ptr(), (int4*)out.data_ptr()); }
void run_store(torch::Tensor out) { store_past<<<1, 64>>>(out.data_ptr<int>(), int(out.numel()) - 63); }
"""
LINE = next(i for i, text in enumerate(Path(__file__).read_text().splitlines(), 1) if "void copy_past" in text)


@pytest.fixture(scope="module")
def module():
    return engines.source.load_inline(name="guards_probe", cpp_sources="void run_copy(torch::Tensor in, torch::Tensor out);"
                                "\nvoid run_store(torch::Tensor out);", cuda_sources=SRC,
                                functions=["run_copy", "run_store"])


def test_a_read_past_a_tensor_gives_zeros_and_is_reported_once(module, capsys):
    data = torch.arange(1, 251, dtype=torch.int32)  # 62.5 int4: lane 62 straddles the end, lane 63 is past it
    for _ in range(2):
        out = torch.full((256,), -1, dtype=torch.int32)
        module.run_copy(data, out)
        assert torch.equal(out, torch.cat([data, torch.zeros(6, dtype=torch.int32)]))
    reported = [line for line in capsys.readouterr().err.splitlines() if "read past the end" in line]
    assert len(reported) == 1, reported
    assert (f"copy_past at test_guards.py:{LINE}: read past the end of `in` (argument 0 of run_copy() "
            f"(int32 [250], 1000 bytes))") in reported[0]


def test_a_read_past_a_tensor_fails_when_strict(module):
    engines.source.set_strict(True)
    try:
        with pytest.raises(engines.source.EmulatorError, match=r"copy_past at .*: read past the end of `in`"):
            module.run_copy(torch.arange(250, dtype=torch.int32), torch.zeros(256, dtype=torch.int32))
    finally:
        engines.source.set_strict(False)


def test_a_write_past_a_tensor_fails_the_call(module):
    out = torch.zeros(256, dtype=torch.int32)
    with pytest.raises(engines.source.EmulatorError, match=r"store_past at .*: write past the end of `out` \(argument 0"):
        module.run_store(out)
