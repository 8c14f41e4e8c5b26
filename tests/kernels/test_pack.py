"""The packer: generated submissions are current, deterministic and well-formed."""
import ast

import pytest

from kernels import config, pack
from reference import contract


def test_generated_files_are_current():
    assert pack.main(["--check"]) == 0, "run `python -m kernels.pack` and commit the result"


@pytest.mark.parametrize("variant", sorted(set(pack.TARGETS.values())))
def test_submission_is_deterministic_python(variant):
    text = pack.submission(variant)
    assert text == pack.submission(variant)
    ast.parse(text)
    header = contract.load()["popcorn_header"]
    assert text.splitlines()[: len(header)] == header
    assert "def custom_kernel(data)" in text


@pytest.mark.parametrize("variant", config.VARIANTS)
def test_config_names_round_trip(variant):
    for cfg in config.candidates(variant):
        assert config.Config.parse(variant, cfg.name) == cfg
        assert cfg.source.exists() or variant not in pack.TARGETS.values()
