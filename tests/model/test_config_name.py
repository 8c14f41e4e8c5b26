"""Config names are the interface with kernels/ and the tables: strict parse, exact round-trip."""
import pytest

from eval.model import ConfigNameError, parse_config
from eval.model.designs import DESIGNS


@pytest.mark.parametrize("name", ["bm256_bn128_bk128_w2x4_sk4", "bm64_bn64_bk128_w2x2_sk1",
                                  "bm16_bn16_bk128_w4x1_sk1", "bm128_bn256_bk64_w4x4_sk8"])
def test_round_trip(name):
    config = parse_config(name)
    assert config.name == name == str(config)
    assert parse_config(config.with_split_k(3).name).split_k == 3


def test_fields_land_in_order():
    c = parse_config("bm256_bn128_bk64_w2x4_sk8")
    assert (c.block_m, c.block_n, c.block_k, c.waves_m, c.waves_n, c.split_k) == (256, 128, 64, 2, 4, 8)
    assert c.waves == 8


@pytest.mark.parametrize("name, reason", [
    ("bm256_bn128_bk128_w2x4", "not of the form"),          # split-K missing
    ("bm256_bn128_bk128_w2x4_sk4 ", "not of the form"),     # trailing space
    ("BM256_bn128_bk128_w2x4_sk4", "not of the form"),
    ("bm256_bn128_bk128_w2*4_sk4", "not of the form"),
    ("bm0256_bn128_bk128_w2x4_sk4", "not canonical"),        # leading zero
    ("bm256_bn128_bk128_w3x4_sk4", "do not divide"),
    ("bm256_bn128_bk128_w2x4_sk0", "at least 1"),
    ("bm256_bn256_bk128_w4x8_sk1", "exceed the 16"),
])
def test_malformed_names_are_rejected_with_the_reason(name, reason):
    with pytest.raises(ConfigNameError, match=reason):
        parse_config(name)


def test_every_design_candidate_parses():
    for design in DESIGNS.values():
        assert [c.name for c in design.configs()] == list(design.candidates)


def test_kernel_helper_names_parse_the_same_way():
    config_module = pytest.importorskip("kernels.config")
    for variant in config_module.VARIANTS:
        for config in config_module.candidates(variant):
            assert parse_config(config.name).name == config.name
