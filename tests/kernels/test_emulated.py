"""Packed variants run under the CPU wave64 emulator and pass the reference check.

Covers shapes off the ranked grid (m, n not multiples of 16, split-K forced on ragged tiles) for
every variant and a benchmark sample for the tuned one; its 11 published test cases run in
tests/engines/isa/test_submission_engines.py, on both engines through the packed submission.py.
The 18 benchmark cases are slow: `python -m kernels.emulate --cases benchmarks`.
"""
import functools

import pytest

from kernels import config, pack
from kernels.emulate import load_packed, run_case
from reference import contract

pytest.importorskip("engines.source")

TUNED = pack.TARGETS["submission.py"]  # the variant submission.py packs
# (m, n, k): a single element, ragged rows and columns, a partial last b_scale block
OFF_GRID = [(1, 1, 128), (33, 130, 384), (100, 200, 256), (80, 272, 640)]


@functools.lru_cache(maxsize=None)
def packed(variant):
    return load_packed(variant)  # the build tests/engines/isa/test_core.py's comparison uses too


# a cheap benchmark sample: the n=576 case (64-row tile, split-K 6) and the k=256 case
# (128x128 tile, no split)
BENCHMARK_SAMPLE = [contract.cases("benchmarks")[i] for i in (2, 3)]


@pytest.mark.parametrize("case", BENCHMARK_SAMPLE, ids=lambda c: f"{c.m}x{c.n}x{c.k}")
def test_tuned_variant_passes_benchmark_sample(case):
    ok, message = run_case(packed(TUNED), case)
    assert ok, message


@pytest.mark.parametrize("variant", config.VARIANTS)
@pytest.mark.parametrize("shape", OFF_GRID, ids=lambda s: "x".join(map(str, s)))
def test_off_grid_shapes_take_the_general_path(variant, shape):
    ok, message = run_case(packed(variant), contract.Case(*shape, seed=7))
    assert ok, message


@pytest.mark.parametrize("split_k", [2, 3, 5])
@pytest.mark.parametrize("tile", range(len(config.instances(TUNED))),
                         ids=lambda i: config.instances(TUNED)[i].name.removesuffix("_sk1"))
def test_split_k_on_ragged_tiles(tile, split_k):
    module = packed(TUNED)
    m, n, k = 100, 200, 640
    module._TABLE[(m, n, k)] = (tile, split_k)  # forced tile and split
    try:
        for seed in (1, 2):  # a second call checks the tile counters were left at zero
            ok, message = run_case(module, contract.Case(m, n, k, seed))
            assert ok, message
    finally:
        del module._TABLE[(m, n, k)]
