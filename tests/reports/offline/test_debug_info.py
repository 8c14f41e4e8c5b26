"""A submission built with `-g` reports the same hot loop as without it.

Debug info makes clang put `.LtmpN:` line-table labels inside basic blocks; they are not block
starts, so they must not cut a loop's blocks out of the loop."""

from pathlib import Path

from reports.offline import report

MFMA_LOOP = Path(__file__).parent / "data" / "mfma_loop.hip"


def _submission(tmp_path: Path, flags: list[str]) -> Path:
    path = tmp_path / "debug_flags_submission.py"
    path.write_text(
        "from pathlib import Path\n"
        "from torch.utils.cpp_extension import load_inline\n"
        f"SOURCE = Path({str(MFMA_LOOP)!r}).read_text()\n"
        "module = load_inline(name='debug_flags', cpp_sources='', cuda_sources=SOURCE,\n"
        f"                     extra_cuda_cflags={flags!r})\n"
    )
    return path


def test_debug_info_keeps_the_hot_loop(tmp_path):
    (kernel,) = report(_submission(tmp_path, ["-g"]))
    # 4 unrolled steps x 2 accumulators per K iteration, as in tests/reports/offline/test_report.py
    assert kernel.loop == ".LBB0_2"
    assert kernel.widths("mfma_") == {"mfma_f32_16x16x32_fp8_fp8": 8}
    assert kernel.count("s_barrier") == 2
    assert kernel.count("ds_write_b64") == 1
