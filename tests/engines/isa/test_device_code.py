"""Device code from another compiler (engines/isa/device_code.py): what a code object brought
from elsewhere must be, and the export -> outside compile -> ISA_DEVICE_CODE round trip, with
clang-19 standing in for ROCm's clang (no ROCm compiler here)."""
from __future__ import annotations

import os
import struct
import subprocess
import sys
from pathlib import Path

import pytest
import torch

import engines.isa
from engines.isa import bundle, device_code
from engines.isa.build import CORE_DIR
from engines.isa.device_code import DeviceCodeError
from toolchain import code_object
from toolchain.flags import code_flags
from toolchain.hipcc import device_lib_dir
from toolchain.load_call import from_load_inline

REPO = Path(__file__).resolve().parents[3]


def elf(machine: int, mach: int) -> bytes:
    """An ELF header (64-bit, little-endian) with this e_machine and e_flags, then padding."""
    header = bytearray(64)
    header[:6] = b"\x7fELF\x02\x01"
    struct.pack_into("<H", header, 18, machine)
    struct.pack_into("<I", header, 48, mach)
    return bytes(header) + bytes(256)


GFX942 = elf(code_object.EM_AMDGPU, code_object.EF_AMDGPU_MACH_GFX942)


def test_a_bare_gfx942_code_object_is_taken_as_it_is(tmp_path):
    (tmp_path / "m.co").write_bytes(GFX942)
    assert device_code.read(tmp_path / "m.co") == GFX942


def test_an_offload_bundle_gives_its_gfx942_entry(tmp_path):
    data = bundle.write_bundle({"gfx90a": elf(code_object.EM_AMDGPU, 0x3F), "gfx942:sramecc+:xnack-": GFX942})
    (tmp_path / "m.co").write_bytes(data)
    assert device_code.read(tmp_path / "m.co") == GFX942


@pytest.mark.parametrize("data, words", [
    (b"not a code object at all", "nor a clang offload bundle"),
    (elf(62, 0), "machine 62, not an AMDGPU code object"),
    (elf(code_object.EM_AMDGPU, 0x3F), "for another GPU (e_flags mach 0x3f)"),
    (bundle.write_bundle({"gfx90a": elf(code_object.EM_AMDGPU, 0x3F)}), "no gfx942 entry"),
    (bundle.COMPRESSED_MAGIC + bytes(64), "compressed offload bundle"),
    (bundle.MAGIC + struct.pack("<Q", 1) + struct.pack("<QQQ", 4096, 4096, 6) + b"hipv4-", "truncated"),
])
def test_what_cannot_stand_in_is_named_with_the_file(tmp_path, data, words):
    (tmp_path / "m.co").write_bytes(data)
    with pytest.raises(DeviceCodeError, match=str(tmp_path / "m.co")) as raised:
        device_code.read(tmp_path / "m.co")
    assert words in str(raised.value)


def test_without_the_variable_nothing_replaces_the_device_compile(monkeypatch):
    monkeypatch.setenv(device_code.ENV, "")
    assert device_code.replacement("any_module") is None


def test_a_module_missing_from_the_folder_says_how_to_make_it(monkeypatch, tmp_path):
    monkeypatch.setenv(device_code.ENV, str(tmp_path))
    with pytest.raises(DeviceCodeError) as raised:
        device_code.replacement("my_module")
    assert "no my_module.co there" in str(raised.value)
    assert "python -m engines.isa.device_code export" in str(raised.value)


def test_the_exported_flags_drop_what_only_the_preprocessor_reads():
    flags = ["-DWITH_HIP", "-I/x", "-isystem", "/usr/include/a folder", "-O3", "-mllvm", "-amdgpu-function-calls=false",
             "--offload-arch=gfx942", "-std=c++20", "-include", "pre.h"]
    assert code_flags(flags) == ["-O3", "-mllvm", "-amdgpu-function-calls=false",
                                             "--offload-arch=gfx942", "-std=c++20"]


def test_the_cli_refuses_a_missing_file_and_a_file_without_device_code(tmp_path):
    def cli(*args):
        return subprocess.run([sys.executable, "-m", "engines.isa.device_code", *args], cwd=REPO, capture_output=True,
                              text=True)

    missing = cli("export", str(tmp_path / "nope.py"), "--out", str(tmp_path / "out"))
    assert missing.returncode == 2 and "nope.py: no such file" in missing.stderr
    (tmp_path / "plain.py").write_text("print('no kernels here')\n")
    plain = cli("export", str(tmp_path / "plain.py"), "--out", str(tmp_path / "out"))
    assert plain.returncode == 2 and "made no load_inline(..., cuda_sources=...) call" in plain.stderr
    assert "Traceback" not in missing.stderr + plain.stderr and "Warning" not in plain.stderr


HIP = r"""
#include <hip/hip_runtime.h>

__global__ void squares(int* out) { out[threadIdx.x] = threadIdx.x * threadIdx.x; }

void launch_squares(int* out) { squares<<<1, 64>>>(out); }
"""
CPP = """#include <torch/extension.h>
void launch_squares(int* out);
torch::Tensor run_squares(torch::Tensor out) { launch_squares(out.data_ptr<int>()); return out; }
"""


@pytest.mark.skipif(not any(CORE_DIR.glob("*.cpp")), reason="the ISA engine's core is not built yet")
def test_code_compiled_outside_runs_in_place_of_clang19s(monkeypatch, tmp_path):
    """Export, compile with the folder's script (clang-19 at -O0, a code object of its own), run."""
    args = dict(no_implicit_headers=True, functions=["run_squares"], extra_cuda_cflags=["--offload-arch=gfx942"])
    name = "isa_device_code_probe"
    monkeypatch.setenv(device_code.ENV, "")
    unit = device_code.export(engines.isa.build.extension(from_load_inline(name, CPP, HIP, **args)), tmp_path)
    assert unit == tmp_path / f"{name}.hipi" and not (tmp_path / f"{name}.hip").exists()
    flags = (tmp_path / f"{name}.flags").read_text()
    assert "-isystem" not in flags and "--offload-arch=gfx942" in flags
    (tmp_path / f"{name}.flags").write_text(flags.strip() + " -O0\n")  # later flags win: not clang-19's -O3 code
    env = dict(os.environ, CLANG="clang++-19", DEVICE_LIB_PATH=str(device_lib_dir()))
    done = subprocess.run(["sh", str(tmp_path / device_code.SCRIPT)], env=env, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    outside = (tmp_path / f"{name}.co").read_bytes()

    # -O0 keeps threadIdx in scratch: clang-19's -O3 build of this kernel has no private segment
    assert [kernel.scratch_bytes > 0 for kernel in code_object.kernels(tmp_path / f"{name}.co")] == [True]

    monkeypatch.setenv(device_code.ENV, str(tmp_path))
    module = engines.isa.load_inline(name, CPP, HIP, **args)
    assert (Path(module.__file__).parent / "hip.gfx942.co").read_bytes() == outside
    out = module.run_squares(torch.full((64,), -1, dtype=torch.int32))
    assert torch.equal(out, torch.arange(64, dtype=torch.int32) ** 2)
