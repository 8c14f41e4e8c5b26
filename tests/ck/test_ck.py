"""Composable Kernel's real headers (toolchain/ck.py): the config.h ROCm's build writes, the
pinned wheel, and a submission wrapping one CK blockscale instance in the harness's test mode."""
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from toolchain import ck

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
needs_ck = pytest.mark.skipif(ck.include_dir() is None, reason="CK's headers not fetched: python -m toolchain.ck")


def test_config_h_turns_on_what_a_gfx942_build_of_ck_has():
    template = ("#ifndef CK_USE_XDL\n#cmakedefine CK_USE_XDL @CK_USE_XDL@\n#endif\n"
                "#cmakedefine CK_USE_WMMA @CK_USE_WMMA@\n#cmakedefine CK_USE_OCP_FP8 @CK_USE_OCP_FP8@\n"
                "#cmakedefine CK_USE_FNUZ_FP8 @CK_USE_FNUZ_FP8@\n#cmakedefine DTYPES \"@DTYPES@\"\n")
    text = ck.config_h(template)
    assert "#define CK_USE_XDL ON" in text and "#define CK_USE_FNUZ_FP8 ON" in text
    assert "/* #undef CK_USE_WMMA */" in text and "/* #undef CK_USE_OCP_FP8 */" in text and "/* #undef DTYPES */" in text
    assert "cmakedefine" not in text


def test_a_wheel_that_is_not_the_pinned_one_is_refused(tmp_path):
    wheel = tmp_path / ck.WHEEL_FILE
    with zipfile.ZipFile(wheel, "w") as archive:
        archive.writestr(ck.CK_INCLUDE + "ck/config.h.in", "#cmakedefine CK_USE_XDL @CK_USE_XDL@\n")
    with pytest.raises(ck.CkUnavailable, match="sha256"):
        ck.unpack(wheel)
    done = subprocess.run([sys.executable, "-m", "toolchain.ck", "--wheel", str(wheel)], capture_output=True, text=True)
    assert done.returncode == 1 and "not amd-aiter" in done.stderr and "Traceback" not in done.stderr


@needs_ck
def test_the_fetched_headers_carry_the_generated_config():
    config = (ck.include_dir() / "ck" / "config.h").read_text()
    assert "#define CK_USE_GFX94 ON" in config and (ck.include_dir() / "ck" / "utility" / "amd_ck_fp8.hpp").is_file()


def run_test_mode(engine: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "eval/run.py", "test", "--submission", str(HERE / "ck_blockscale.py"),
                           "--engine", engine, "--shapes", "0", "--skip-preflight"], cwd=ROOT, capture_output=True,
                          text=True, timeout=1800)


@needs_ck
def test_a_ck_blockscale_instance_passes_test_mode_on_the_isa_engine():
    done = run_test_mode("isa")
    assert done.returncode == 0 and "1/1 passed" in done.stdout, done.stdout[-2000:] + done.stderr[-2000:]


def test_the_source_engine_stops_at_the_build_naming_ck():
    # NOTE: the source engine searches CK's stand-ins only (toolchain/headers.py source_real_dirs);
    # the blockscale device op is not among ROCm 6.3's CK headers, so the include is what fails.
    done = run_test_mode("source")
    assert done.returncode != 0 and "emulator build of 'ck_blockscale' failed" in done.stdout, done.stdout[-2000:]
    assert "device_gemm_multiple_d_xdl_cshuffle_v3_ab_scale.hpp' file not found" in done.stdout
    assert "builds for gfx942 only: run it on the ISA engine (--engine isa)" in done.stdout
