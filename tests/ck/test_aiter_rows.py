"""reports/ck_blockscale.py reads an unpacked aiter wheel's MI300X rows and instances, and
reports/validation.py summarises predicted rows against measured ones."""
import textwrap

import pytest

from predictor.parallel import Failed
from reports import ck_blockscale, validation

NAME = "a8w8_blockscale_1x128x128_256x64x64x128_16x16_32x32_8x32x1_8x32x1_1x32x1x8_8_1x1_intrawave_v1"


@pytest.fixture
def aiter(tmp_path):
    csv = tmp_path / ck_blockscale.TUNED_CSV
    csv.parent.mkdir(parents=True)
    csv.write_text("cu_num,M,N,K,kernelId,splitK,us,kernelName,tflops,bw,errRatio\n"
                   f"304,16,1536,7168,8,0,19.3,{NAME},1,1,0\n"
                   f"80,16,1536,7168,8,0,11.0,{NAME},1,1,0\n"
                   f"304,64,576,7168,8,0,12.5,{NAME},1,1,0\n")
    module = tmp_path / ck_blockscale.INSTANCES_PY
    module.parent.mkdir(parents=True)
    module.write_text(textwrap.dedent("""
        from types import SimpleNamespace as K
        fields = dict(BLOCK_SIZE=256, ScaleBlockM=1, ScaleBlockN=128, ScaleBlockK=128, MPerBLOCK=64, NPerBLOCK=64,
                      KPerBLOCK=128, AK1=16, BK1=16, MPerXDL=32, NPerXDL=32, WAVE_MAP_M=1, WAVE_MAP_N=1,
                      ABLOCK_TRANSFER=[8, 32, 1], BBLOCK_TRANSFER=[8, 32, 1], CSHUFFLE_MX_PER_WAVE_PERSHUFFLE=1,
                      CSHUFFLE_NX_PER_WAVE_PERSHUFFLE=1, CBLOCK_TRANSFER=[1, 32, 1, 8], CBLOCK_SPV=[8],
                      PIPELINE_Sched="Intrawave", PIPELINE_VERSION=1)
        kernels_list = {16: K(name=%r, **fields)}
        default_kernels_dict = {}
    """ % NAME))
    return tmp_path


def test_only_the_mi300x_rows_are_read(aiter):
    rows = ck_blockscale.rows(aiter)
    assert [(r.m, r.n, r.k, r.measured_us) for r in rows] == [(16, 1536, 7168, 19.3), (64, 576, 7168, 12.5)]


def test_an_instance_becomes_aiters_template_arguments(aiter):
    inst = ck_blockscale.instances(aiter)[NAME]
    assert inst.tile == (64, 64, 128) and inst.padded(16, 1536, 7168) and not inst.padded(64, 576, 7168)
    text = ck_blockscale.gemm_type(inst, padded=True)
    assert "GemmSpecialization::MNKPadding" in text and "S<8, 32, 1>, S<1, 0, 2>, S<1, 0, 2>, 2, 16, 16, 0" in text
    assert "BlockGemmPipelineVersion::v1" in text and "Default" in ck_blockscale.gemm_type(inst, padded=False)


def test_a_folder_that_is_not_the_wheel_is_named(tmp_path, capsys):
    with pytest.raises(SystemExit):
        validation.main(["--aiter", str(tmp_path)])
    assert "give the unpacked amd-aiter" in capsys.readouterr().err


def test_the_summary_gives_errors_rank_correlations_and_refusals(aiter):
    rows = [ck_blockscale.Row(m, n, k, NAME, us) for m, n, k, us in
            [(16, 512, 7168, 10.0), (64, 512, 7168, 20.0), (256, 512, 7168, 40.0), (1024, 512, 7168, 80.0)]]
    predicted = {0: (11.0, 0), 1: (18.0, 0), 2: (60.0, 480), 3: Failed("build failed")}
    summary = validation.ck_summary(rows, predicted)
    assert summary["rows"] == 3 and summary["median_abs_error"] == pytest.approx(0.1)
    assert summary["spearman"] == {"512x7168": pytest.approx(1.0)}
    assert summary["refused"] == [{"M": 1024, "N": 512, "K": 7168, "kernel": NAME, "reason": "build failed"}]
    assert summary["per_row"][0] == {"M": 16, "N": 512, "K": 7168, "kernel": NAME, "measured_us": 10.0,
                                     "predicted_us": 11.0}
    assert summary["scratch_bytes_per_lane"] == {NAME: 480}
    assert "refused: build failed" in validation.ck_report(summary) and "x128_16x16" in validation.ck_report(summary)


def test_the_reference_applies_both_block_scales():
    import torch

    xq, wq, xs, ws, _ = ck_blockscale.inputs(2, 130, 256)
    a = xq.float() * torch.cat([xs[:, :1].expand(2, 128), xs[:, 1:].expand(2, 128)], dim=1)
    b = wq.float().clone()
    for nb in range(2):
        for kb in range(2):
            b[nb * 128:(nb + 1) * 128, kb * 128:(kb + 1) * 128] *= ws[nb, kb]
    assert torch.equal(ck_blockscale.reference(xq, wq, xs, ws), (a @ b.T).to(torch.bfloat16))
