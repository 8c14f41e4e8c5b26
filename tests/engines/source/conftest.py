"""Shared fixtures: build a test .hip file under tests/engines/source/data/ through engines.source.load_inline."""
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]
DATA = Path(__file__).resolve().parent / "data"
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))


def build(name: str, functions: list[str]):
    import engines.source
    return engines.source.load_inline(name=name, cpp_sources="", cuda_sources=(DATA / f"{name}.hip").read_text(),
                                functions=functions, extra_cuda_cflags=["--offload-arch=gfx942", "-std=c++20"])


@pytest.fixture(scope="session")
def builtins_module():
    return build("builtins", ["run_mfma", "run_cross_lane", "run_convert", "run_alu", "run_buffer", "run_lds"])


@pytest.fixture(scope="session")
def faults_module():
    return build("faults", ["divergent_shfl", "divergent_mfma", "barrier_exit", "barrier_mismatch", "lds_overflow",
                            "big_block", "lds_race", "wave_sync_ok", "endless", "endless_fill"])


REAL_WORLD_FUNCTIONS = ["run_buffer_copy", "run_general_asm", "run_unknown_intrinsic", "run_overflow",
                        "run_wild_pointer", "run_persistent", "run_cuda_names", "run_clocks",
                        "run_device_queries", "run_coop", "run_lds_direct"]


@pytest.fixture(scope="session")
def real_world_module():
    return build("real_world", REAL_WORLD_FUNCTIONS)
