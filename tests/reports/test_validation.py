"""reports/validation.py: whole public submissions generated from clones and predicted.

The real clones are not in CI: a fake clone holds two tiny kernels of ours with the
repository's kernel names and signatures, so what is tested is the generation, the launcher's
choice of kernel per shape, the README's table and the refusals."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from reports import validation
from reference import contract

REPO = Path(__file__).resolve().parents[2]

# Each stand-in writes its own marker into c so the test can see which kernel ran.
_KERNEL = r"""
#define K_JUMP 128
#define WMMA_M 32
__global__ void {name}(const __hip_fp8_e4m3_fnuz* A, const __hip_fp8_e4m3_fnuz* B, const float* As, const float* Bs,
                       rocwmma::bfloat16_t* C, int M, int N, int K) {{
  if (blockIdx.x == 0 && blockIdx.y == 0 && threadIdx.x == 0 && threadIdx.y == 0)
    C[0] = rocwmma::bfloat16_t({marker}.0f);
}}
"""


def _readme(shapes) -> str:
    rows = ["| k | m | n | latency (us) | k | m | n | latency (us) |", "|---|---|---|---|---|---|---|---|"]
    for left, right in zip(shapes[:9], shapes[9:]):
        rows.append("| " + " | ".join(f"{c.k} | {c.m} | {c.n} | {10 + i}" for i, c in ((0, left), (1, right))) + " |")
    return "intro\n\n" + "\n".join(rows) + "\n"


@pytest.fixture
def luong_clone(tmp_path):
    (tmp_path / "mn_large.hip").write_text(_KERNEL.format(name="in_smem_kernel", marker=1))
    (tmp_path / "mn_small.hip").write_text(_KERNEL.format(name="k_large_kernel", marker=2))
    (tmp_path / "README.md").write_text(_readme(contract.cases("benchmarks")))
    return tmp_path


def test_the_readme_table_gives_every_benchmark_shape(luong_clone):
    published = validation.luong(luong_clone).published_us
    assert set(published) == {(c.m, c.n, c.k) for c in contract.cases("benchmarks")}
    first = contract.cases("benchmarks")[0]
    assert published[(first.m, first.n, first.k)] == 10.0


def test_a_readme_without_the_table_is_refused(luong_clone):
    (luong_clone / "README.md").write_text("no table here\n")
    with pytest.raises(validation.ValidationSourceError, match="18 benchmark shapes"):
        validation.luong(luong_clone)


def test_the_launcher_picks_the_small_kernel_below_one_round_of_large_tiles(luong_clone, tmp_path):
    # In a process of its own: importing a submission installs the simulated host into torch.
    (tmp_path / "submission.py").write_text(validation.luong(luong_clone).text)
    probe = (
        "import sys; sys.path.insert(0, '.')\n"
        "from eval import device; from eval.worker import load_submission\n"
        "from reference.task import generate_input\n"
        f"kernel, _ = load_submission({str(tmp_path / 'submission.py')!r}, device.detect('cpu'), 'isa')\n"
        "for m, n in ((256, 256), (2432, 2048)):\n"
        "    print(m, n, float(kernel(generate_input(m, n, 256, 1, device='cpu'))[0, 0]))\n")
    out = subprocess.run([sys.executable, "-c", probe], cwd=REPO, capture_output=True, text=True, timeout=900)
    assert out.returncode == 0, out.stderr[-2000:]
    # 256 x 256: 4 large tiles (< 304 CUs) -> mn_small; 2432 x 2048: 19 x 16 = 304 tiles -> mn_large.
    assert out.stdout.split("\n")[:2] == ["256 256 2.0", "2432 2048 1.0"]


def test_the_cli_refuses_a_wrong_clone_in_one_line(tmp_path, capsys):
    with pytest.raises(SystemExit) as exit_info:
        validation.main(["--luong", str(tmp_path)])
    assert exit_info.value.code == 2
    err = capsys.readouterr().err
    assert "no mn_large.hip" in err and "Traceback" not in err


def test_the_cli_refuses_unknown_settings_and_shapes(luong_clone, capsys):
    for argv, says in ((["--set", "no_such_setting=1"], "unknown setting no_such_setting"),
                       (["--set", "lds_latency=fast"], "NAME=NUMBER"), (["--shapes", "18"], "0-17")):
        with pytest.raises(SystemExit):
            validation.main(["--luong", str(luong_clone), *argv])
        assert says in capsys.readouterr().err


def test_snektron_is_packed_from_its_template(tmp_path):
    (tmp_path / "solution.template.py").write_text("kernel_cpp = b'@SOLUTION@'\n")
    (tmp_path / "solution.hip").write_text("// the kernel\n")
    text = validation.snektron(tmp_path).text
    assert "@SOLUTION@" not in text and text.startswith("kernel_cpp = b'")
    (tmp_path / "solution.template.py").write_text("nothing to fill\n")
    with pytest.raises(validation.ValidationSourceError, match="@SOLUTION@"):
        validation.snektron(tmp_path)


def test_the_summary_scores_and_ranks(luong_clone):
    sub = validation.luong(luong_clone)
    predicted = {shape: 2 * us for shape, us in sub.published_us.items()}  # everything twice as slow
    s = validation.summary(sub, predicted)
    assert s["median_abs_error"] == pytest.approx(1.0) and s["spearman"] == pytest.approx(1.0)
    assert s["score_ratio"] == pytest.approx(2.0)
    predicted.pop(next(iter(predicted)))
    assert validation.summary(sub, predicted)["score_ratio"] is None  # the score needs every shape
    json.dumps(s)
