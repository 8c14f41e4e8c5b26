"""predictor/microbench.py: the timing model reproduces published MI300X microbenchmark
figures with the calibration's settings, and the table says which it does not."""
from __future__ import annotations

import pytest

from predictor import microbench

# The one figure the model misses by more than the tolerance: a wave's ds_read_b32 costs the
# port 8 cycles (addresses, then data), where nod-ai's blocks give about 7.
KNOWN_GAPS = {"LDS ds_read_b32 x64, one wave": 0.20}


@pytest.fixture(scope="module")
def results():
    return microbench.measure_all()


def test_every_published_figure_is_reproduced_within_the_tolerance(results):
    for figure, predicted in results:
        off = abs(predicted / figure.published - 1)
        assert off <= KNOWN_GAPS.get(figure.name, microbench.TOLERANCE), (figure.name, predicted, figure.published)


def test_the_known_gap_is_still_a_gap(results):
    # when the model reaches the figure, the exception above should go
    off = {figure.name: abs(predicted / figure.published - 1) for figure, predicted in results}
    for name in KNOWN_GAPS:
        assert off[name] > microbench.TOLERANCE, name


def test_the_table_flags_what_misses(results):
    text = microbench.table(results)
    assert text.count("<- over 10%") == len(KNOWN_GAPS)
    assert "nod-ai/amd-shark-ai" in text and "SC25" in text


def test_a_setting_the_lds_rule_depends_on_moves_its_figure():
    from predictor import hardware

    built = microbench.module()
    figure = next(f for f in microbench.PUBLISHED if f.name == "LDS ds_read_b128 x64, one wave")
    base = figure.measure(built, hardware())
    floored = figure.measure(built, hardware({"lds_instruction_cycles": 32}))
    assert floored > 1.4 * base  # 32 cycles a read against the port's 20
