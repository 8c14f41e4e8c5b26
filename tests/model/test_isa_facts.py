"""Kernel facts from the compiled ISA: read when kernels/fp8_mm_<variant>.hip exists, else the
tiling estimate; the CLI says which."""
import shutil
from collections import Counter
from types import SimpleNamespace

import pytest

from eval.model import facts_used, isa_facts
from eval.model.__main__ import format_facts

VARIANT = "v2_swizzle_splitk"
needs_clang = pytest.mark.skipif(shutil.which("clang++-19") is None and shutil.which("clang-19") is None,
                                 reason="clang-19 builds the gfx942 ISA")


@needs_clang
def test_variant_facts_come_from_its_compiled_kernels():
    from eval.isa import report
    from kernels import config
    by_tile = isa_facts.facts_by_tile(VARIANT)
    assert set(by_tile) == {tile.name for tile in config.instances(VARIANT)}
    reports = report(config.KERNEL_DIR / f"fp8_mm_{VARIANT}.hip")
    for tile in config.instances(VARIANT):
        facts = by_tile[tile.name]
        matching = [r for r in reports if f"<{tile.template_args}>" in r.name]
        assert facts.source == isa_facts.ISA_SOURCE
        assert facts.lds_bytes in {r.lds_bytes for r in matching}
        assert facts.isa_waves_per_simd in {r.waves_per_simd for r in matching}
        assert facts.mfmas_per_k_tile in {r.mfma_total for r in matching}
        assert facts.waves_per_workgroup == tile.threads // 64


@needs_clang
def test_cli_table_names_the_source_of_each_tile():
    assert all(used.source == "isa" for _, used, _ in facts_used(VARIANT))
    assert all(used.source == "tiling estimate" for _, used, _ in facts_used("winner"))
    table = format_facts(VARIANT, None)
    assert table.count(" isa ") == len(facts_used(VARIANT))


def test_a_variant_without_a_source_file_falls_back_to_the_tiling_estimate(monkeypatch):
    monkeypatch.setattr(isa_facts, "variant_source", lambda variant: None)
    assert isa_facts.facts_by_tile(VARIANT) == {}
    assert all(used.source == "tiling estimate" for _, used, _ in facts_used(VARIANT))


def fake_report(**loop):
    return SimpleNamespace(name="k<64, 64, 128, 2, 2>", workgroup_size=256, vgprs=96, agprs=32,
                           lds_bytes=16384, waves_per_simd=3, loop_mix=Counter(loop))


def test_report_fields_map_onto_kernel_facts():
    facts = isa_facts.from_report(fake_report(mfma_f32_32x32x16_fp8_fp8=8, valu=40))
    assert (facts.waves_per_workgroup, facts.vgprs_per_lane, facts.lds_bytes) == (4, 128, 16384)
    assert facts.mfma.name == "v_mfma_f32_32x32x16_fp8_fp8" and facts.mfmas_per_k_tile == 8
    assert facts.workgroups_per_cu == 3  # eval.isa's waves/SIMD, one wave per SIMD each


def test_a_loop_without_mfma_is_refused():
    with pytest.raises(ValueError, match="no MFMA"):
        isa_facts.from_report(fake_report(valu=40))
