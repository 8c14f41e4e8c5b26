"""engines.isa.load_inline end to end: a HIP submission built as the runner builds it, its
kernels run by the ISA engine's core. Skipped until the core (engines/isa/core/*.cpp) exists."""
from __future__ import annotations

import pytest
import torch

import engines.isa
from engines.isa.build import CORE_DIR

pytestmark = pytest.mark.skipif(not any(CORE_DIR.glob("*.cpp")), reason="the ISA engine's core is not built yet")

HIP = r"""
#include <hip/hip_runtime.h>

// Each work-item writes (block, thread) coordinates: x + 8 y for both, and the block in the tens.
__global__ void coordinates(int* out) {
  const int block = blockIdx.x + gridDim.x * blockIdx.y;
  const int thread = threadIdx.x + blockDim.x * threadIdx.y;
  out[block * blockDim.x * blockDim.y + thread] = 1000 * block + thread;
}

__global__ void write_past(int* out, int n) { out[n + threadIdx.x] = 1; }

// 2304 bytes of LDS (a 2560-byte allocation in 512-byte granules); lane 0 stores at `index`.
__global__ void lds_store_at(int* out, int index) {
  __shared__ int tile[576];
  if (threadIdx.x == 0) ((volatile int*)tile)[index] = 7;
  __syncthreads();
  out[threadIdx.x] = threadIdx.x == 0 ? ((volatile int*)tile)[index] : 0;
}

// With step 0 the outer loop never ends; the inner loop's branch between its rounds keeps any one
// backward branch from repeating (the engine's own loop limit counts repeats of one branch).
__global__ void endless(int* out, int step, int inner) {
  for (int j = 0; j < 64; j += step)
    for (int i = 0; i < inner; ++i) ((volatile int*)out)[threadIdx.x] += i;
}

void launch_coordinates(int* out, int grid_x, int grid_y, int block_x, int block_y) {
  coordinates<<<dim3(grid_x, grid_y), dim3(block_x, block_y)>>>(out);
}

// 4 GiB past the tensor: beyond every tensor a test process holds (64 MiB past it was not, on a
// worker that had run other test files and held their tensors).
void launch_write_past(int* out) { write_past<<<1, 64>>>(out, 1 << 30); }

void launch_lds_store_at(int* out, int index) { lds_store_at<<<1, 64>>>(out, index); }

void launch_endless(int* out, int step) { endless<<<1, 64>>>(out, step, 2); }
"""
# NOTE: the HIP source stays free of torch (no_implicit_headers; the launchers take pointers) and the
# bindings wrap them: the build parses torch's headers in the PCH'd bindings only (torch's API in
# HIP host code is test_runtime.py's probe).
CPP = """#include <torch/extension.h>
void launch_coordinates(int* out, int grid_x, int grid_y, int block_x, int block_y);
void launch_write_past(int* out);
void launch_lds_store_at(int* out, int index);
void launch_endless(int* out, int step);
torch::Tensor run_coordinates(torch::Tensor out, int64_t grid_x, int64_t grid_y, int64_t block_x, int64_t block_y) {
  launch_coordinates(out.data_ptr<int>(), grid_x, grid_y, block_x, block_y);
  return out;
}
void run_write_past(torch::Tensor out) { launch_write_past(out.data_ptr<int>()); }
void run_lds_store_at(torch::Tensor out, int64_t index) { launch_lds_store_at(out.data_ptr<int>(), index); }
void run_endless(torch::Tensor out, int64_t step) { launch_endless(out.data_ptr<int>(), step); }
"""


@pytest.fixture(scope="module")
def module():
    return engines.isa.load_inline("isa_load_inline_probe", CPP, HIP, no_implicit_headers=True,
                                  functions=["run_coordinates", "run_write_past", "run_lds_store_at", "run_endless"],
                                  extra_cuda_cflags=["--offload-arch=gfx942", "-std=c++20"])


@pytest.mark.parametrize("grid, block", [((1, 1), (64, 1)), ((3, 2), (32, 4)), ((2, 1), (256, 1))])
def test_every_work_item_writes_its_coordinates(module, grid, block):
    threads = block[0] * block[1]
    out = torch.full((grid[0] * grid[1] * threads,), -1, dtype=torch.int32)
    module.run_coordinates(out, *grid, *block)
    expected = torch.tensor([1000 * b + t for b in range(grid[0] * grid[1]) for t in range(threads)], dtype=torch.int32)
    assert torch.equal(out, expected)


def test_an_access_outside_every_tensor_is_a_fault_naming_the_kernel(module):
    with pytest.raises(engines.isa.IsaFault, match="write_past"):
        module.run_write_past(torch.zeros(64, dtype=torch.int32))


def test_a_workgroup_that_makes_no_progress_is_stopped_naming_kernel_and_instruction(module, monkeypatch):
    out = torch.zeros(64, dtype=torch.int32)
    module.run_endless(out, 1)  # a good step ends
    monkeypatch.setenv("WORKBENCH_HANG_S", "1")
    with pytest.raises(engines.isa.IsaFault, match=r"endless.*no wave ended or met the others at a barrier for 1 s: "
                                                  r"an endless loop"):
        module.run_endless(out, 0)


def test_the_stage_deadline_stops_a_launch_naming_its_kernel(module, monkeypatch):
    import time
    monkeypatch.setenv("WORKBENCH_DEADLINE", str(time.time() + 1))
    with pytest.raises(engines.isa.IsaFault, match=r"endless.*the stage's time limit ran out in this launch"):
        module.run_endless(torch.zeros(64, dtype=torch.int32), 0)


# pybind11 alone (torch's headers would add two parses of ~10 s to the build): the module is the
# source's own either way.
OWN_MODULE = r"""
#include <pybind11/pybind11.h>
#include <hip/hip_runtime.h>

__global__ void add_one(int* x) { x[threadIdx.x] += 1; }

void run(uintptr_t x) { add_one<<<1, 64>>>(reinterpret_cast<int*>(x)); }

PYBIND11_MODULE(isa_own_module_probe, m) { m.def("run", &run); }
"""


def test_a_source_defining_its_own_module_under_load_inlines_name_imports():
    """no_implicit_headers and PYBIND11_MODULE(<the name given to load_inline>, m) in the HIP
    source, no `functions`: torch imports that module by its name, so must we."""
    module = engines.isa.load_inline("isa_own_module_probe", "", OWN_MODULE, no_implicit_headers=True,
                                    extra_cuda_cflags=["--offload-arch=gfx942", "-std=c++20"])
    x = torch.arange(64, dtype=torch.int32)
    module.run(x.data_ptr())
    assert torch.equal(x, torch.arange(1, 65, dtype=torch.int32))


def test_lds_past_the_arrays_end_but_inside_its_512_byte_granule_is_the_workgroups(module, capfd):
    out = torch.zeros(64, dtype=torch.int32)
    module.run_lds_store_at(out, 576)  # one past the array: byte 2304 of a 2560-byte allocation
    assert out[0].item() == 7
    module.run_lds_store_at(out, 640)  # byte 2560: past the allocation, dropped, reads 0
    assert out[0].item() == 0
    assert "LDS outside the allocation" in capfd.readouterr().err
    engines.isa.set_strict(True)
    try:
        with pytest.raises(engines.isa.IsaFault, match="past the workgroup's 2560 bytes"):
            module.run_lds_store_at(out, 640)
    finally:
        engines.isa.set_strict(False)
