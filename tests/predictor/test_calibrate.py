"""`python -m predictor.calibrate`: files of the calibration schema read with clear errors, a
deterministic sample, the JSON it writes, refused rows counted and never fatal, rank correlation
and leave-one-shape-out fitting checked on cases worked by hand, and the configurations
generated from a clone's source. The engine is stubbed here: tests/predictor/test_calibrate_ray.py
runs the Ray path, the real build is exercised by the slow test at the end."""
from __future__ import annotations

import csv
import json
import math
import os
from pathlib import Path

import pytest

from predictor import calibrate, fit, measurements, predictions, sweep
from predictor.parallel import Failed
from toolchain import code_object

HEADER = ",".join(measurements.COLUMNS)  # the calibration set's own order
CONFIG = "64,64,128,32,32,16,1,1,256"  # block_m..block_size in the schema's order


def _csv(tmp_path: Path, *lines: str, header: str = HEADER) -> Path:
    path = tmp_path / "sweep.csv"
    path.write_text("\n".join([header, *lines]) + "\n")
    return path


def _row(line: int, shape: str, us: float, config: str = CONFIG) -> str:
    return f"{line},2,{shape},{config},{us},"


def test_the_calibration_set_reads_as_9_shapes_of_396_rows():
    rows = measurements.read(measurements.CALIBRATION_SET)
    assert len(rows) == 3564
    assert {s: sum(r.shape_name == s for r in rows) for s in {r.shape_name for r in rows}} == \
        dict.fromkeys({r.shape_name for r in rows}, 396)
    assert rows[0].line == 2  # the header is line 1


def test_a_missing_column_is_named(tmp_path):
    path = _csv(tmp_path, "1,2,3", header=HEADER.replace(",block_n", ""))
    with pytest.raises(measurements.MeasurementsError, match="missing column.*block_n"):
        measurements.read(path)


@pytest.mark.parametrize("bad, column", [
    ("1,2,1024,512,256,64,64,128,32,32,16,1,2,256,10.0,", "fused_transpose"),
    ("1,2,1024,512,256,64,64,128,32,32,16,1,1,256,-3,", "gemm_kernel_us"),
    ("1,2,1024,512,x,64,64,128,32,32,16,1,1,256,10.0,", "k"),
    ("1,2,1024,512,256,64,64,128,32,32,16,1,1,256,10.0,abc", "transpose_kernel_us"),
])
def test_a_bad_value_names_the_file_line_and_column(tmp_path, bad, column):
    path = _csv(tmp_path, _row(1, "1024,512,256", 10.0), bad)
    with pytest.raises(measurements.MeasurementsError, match=rf"sweep.csv:3: column {column} "):
        measurements.read(path)


def test_the_command_line_reports_a_bad_file_without_a_traceback(tmp_path, capsys):
    path = _csv(tmp_path, header=HEADER.replace(",gemm_kernel_us", ""))
    assert calibrate.main(["--evaluate", str(path), "--source", str(tmp_path)]) == 2
    assert "missing column(s) gemm_kernel_us" in capsys.readouterr().err


def test_a_source_that_is_not_the_kernels_repository_is_refused(tmp_path, capsys):
    path = _csv(tmp_path, _row(1, "1024,512,256", 10.0))
    assert calibrate.main(["--evaluate", str(path), "--source", str(tmp_path)]) == 2
    assert "no fp8_gemm.py" in capsys.readouterr().err


def test_a_sample_is_the_same_for_the_same_seed_and_keeps_file_order():
    rows = measurements.read(measurements.CALIBRATION_SET)
    first, again = measurements.sample(rows, 50, 7), measurements.sample(rows, 50, 7)
    assert first == again and len(first) == 50
    assert [r.line for r in first] == sorted(r.line for r in first)
    assert measurements.sample(rows, 50, 8) != first
    assert measurements.sample(rows, None, 7) == rows == measurements.sample(rows, 10_000, 7)


def test_a_sample_draws_whole_configurations_with_every_shape_they_were_measured_on():
    rows = measurements.read(measurements.CALIBRATION_SET)
    chosen = measurements.sample(rows, 1000, 0)
    configs = {r.config for r in chosen}
    complete = [c for c in configs if sum(r.config == c for r in chosen) == sum(r.config == c for r in rows)]
    assert len(chosen) == 1000 and len(complete) >= len(configs) - 1  # only the last one drawn may be cut
    assert len(configs) < 130  # not the ~360 a row-by-row sample touches


def test_a_sample_is_drawn_a_build_batch_at_a_time():
    rows = measurements.read(measurements.CALIBRATION_SET)
    universe = measurements.build_universe(rows)
    whole = predictions.batches(universe)
    chosen = measurements.sample(rows, 1000, 0, whole)
    assert len(chosen) == 1000 and chosen == measurements.sample(rows, 1000, 0, whole)
    # 85 timed kernels from 4 of the file's 12 batches; drawn one by one they fall in all 12
    assert len(predictions.needed_batches(chosen, universe)) <= 4 < len(whole)
    assert len(predictions.needed_batches(measurements.sample(rows, 1000, 0), universe)) == len(whole)
    assert len({r.shape for r in chosen}) == 9


def test_section_3_rows_are_predicted_as_the_fused_kernel_they_timed():
    rows = measurements.read(measurements.CALIBRATION_SET)
    relabelled = [r for r in rows if r.config != r.labelled]
    assert len(relabelled) == 594  # section 3's half labelled separate, depth 2
    assert all(r.config.fused_transpose and not r.labelled.fused_transpose and r.config.pipeline_depth == 2
               for r in relabelled)
    assert {r.config for r in rows} <= set(measurements.build_universe(rows))  # built with the file's batches
    as_labelled = measurements.read(measurements.CALIBRATION_SET, as_labelled=True)
    assert all(r.config == r.labelled for r in as_labelled) and len({r.config for r in as_labelled}) == 380


def test_one_row_per_configuration_covers_every_configuration_on_drawn_shapes():
    rows = measurements.read(measurements.CALIBRATION_SET)
    chosen = measurements.one_per_config(rows, 0)
    assert len(chosen) == len({r.config for r in rows}) == len({r.config for r in chosen})
    assert [r.line for r in chosen] == sorted(r.line for r in chosen)
    assert len({r.shape for r in chosen}) == 9  # shapes drawn, not always a config's first row
    assert measurements.one_per_config(rows, 0) == chosen != measurements.one_per_config(rows, 1)


def test_a_sample_is_predicted_with_the_builds_of_the_whole_files_batches(tmp_path, monkeypatch):
    every = measurements.read(measurements.CALIBRATION_SET)
    rows = measurements.sample(every, 5, seed=0)
    whole = predictions.batches([r.config for r in every])
    used = predictions.needed_batches(rows, [r.config for r in every])
    assert used and all(batch in whole for batch in used)  # the batches a full run built, not new ones
    assert {r.config for r in rows} <= {config for batch in used for config in batch}
    seen = []
    monkeypatch.setattr(sweep, "build_call", lambda clone: None)
    monkeypatch.setattr(calibrate.parallel, "session", lambda address, cpus: _Null())
    monkeypatch.setattr(calibrate, "predict_rows", lambda rows, predictor, universe=None: (
        seen.append(universe) or {r.line: Failed("stub") for r in rows}, predictions.Cost()))
    path = _csv(tmp_path, _row(1, "1024,512,256", 10.0), _row(2, "1024,512,256", 20.0, "64,64,64,32,32,16,1,1,256"))
    assert calibrate.main(["--evaluate", str(path), "--source", ".", "--sample", "1"]) == 0
    assert len(seen[0]) == 2  # the whole file's configurations, though one row was sampled


def test_spearman_matches_a_hand_computed_case_with_a_tie():
    # ranks of y = [5, 6, 7, 8, 7]: [1, 2, 3.5, 5, 3.5]; deviations from 3: x -2..2, y -2 -1 .5 2 .5
    # sum xy = 4 + 1 + 0 + 2 + 1 = 8, sum xx = 10, sum yy = 9.5 -> 8 / sqrt(95)
    assert fit.spearman([1, 2, 3, 4, 5], [5, 6, 7, 8, 7]) == pytest.approx(8 / math.sqrt(95))
    assert fit.spearman([1, 2, 3], [30, 20, 10]) == pytest.approx(-1.0)
    assert fit.spearman([1.0], [2.0]) is None


def test_median_abs_error_is_a_fraction_of_the_measured_time():
    assert fit.median_abs_error([100, 100, 100], [90, 130, 105]) == pytest.approx(0.10)


def _launches(us: float, transpose: bool = False) -> list[dict]:
    gemm = {"symbol": "_Z6kernelILi256E", "kernel_us": us}
    return ([{"symbol": "_Z22transpose_faster_fused", "kernel_us": 9.0}] if transpose else []) + [gemm]


def test_the_predicted_gemm_time_is_the_gemm_launch_plus_the_fixed_time():
    constants = {"kernel_fixed_us": 4.0}
    assert sweep.gemm_kernel_us(_launches(100.0), constants) == 104.0
    assert sweep.gemm_kernel_us(_launches(100.0, transpose=True), constants) == 104.0  # the transpose is not in it
    with pytest.raises(ValueError, match="no GEMM kernel last"):
        sweep.gemm_kernel_us(_launches(100.0, transpose=True)[:1], constants)


@pytest.fixture
def stub_engine(monkeypatch):
    """The command line with predictions made up: row line -> launches or Failed."""
    outcomes = {}
    monkeypatch.setattr(sweep, "build_call", lambda clone: None)
    monkeypatch.setattr(calibrate.parallel, "session", lambda address, cpus: _Null())
    monkeypatch.setattr(calibrate, "predict_rows", lambda rows, predictor, universe=None: (
        {r.line: outcomes[r.line] for r in rows}, predictions.Cost()))
    return outcomes


class _Null:
    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


def test_evaluate_writes_exactly_the_four_keys_and_counts_refusals(tmp_path, stub_engine, monkeypatch, capsys):
    monkeypatch.setitem(calibrate.calibration()["fitted"], "kernel_fixed_us", 0.0)
    path = _csv(tmp_path, _row(1, "1024,512,256", 10.0), _row(2, "1024,512,256", 20.0),
                _row(3, "1024,512,256", 40.0), _row(4, "6144,512,256", 10.0))
    stub_engine.update({2: _launches(11.0), 3: _launches(18.0), 4: _launches(44.0), 5: Failed("IsaFault: no")})
    out = tmp_path / "eval.json"
    assert calibrate.main(["--evaluate", str(path), "--source", ".", "--json", str(out)]) == 0
    result = json.loads(out.read_text())
    assert set(result) == {"median_abs_error", "spearman", "refused", "points"}
    assert result["points"] == 3
    assert result["refused"] == [{"row": 5, "reason": "IsaFault: no"}]
    assert result["median_abs_error"] == pytest.approx(0.10)  # errors 10%, 10%, 10%
    assert result["spearman"] == {"1024x512x256": pytest.approx(1.0), "6144x512x256": None}
    table = capsys.readouterr().out
    assert "refused row 5: IsaFault: no" in table
    assert "how often the configuration predicted faster was measured faster" in table


def test_the_launch_table_sets_the_engines_occupancy_beside_the_descriptors(tmp_path, stub_engine, monkeypatch,
                                                                            capsys):
    """--launches: a row per CSV row; the GEMM kernel's workgroups per CU from the engine beside
    machine.occupancy of its descriptor (128 unified VGPRs, 256 threads: 4 per CU)."""
    kernel = code_object.Kernel("_Z6kernelILi256E", lds_bytes=16384, scratch_bytes=0, unified_vgprs=128,
                                accum_offset=64, sgprs=40, metadata_vgprs=128, metadata_agprs=64)
    monkeypatch.setattr(calibrate.launch_table, "descriptors", lambda call, rows, universe=None: {kernel.name: kernel})
    engine_says = [dict(launch, workgroups_per_cu=4) for launch in _launches(11.0)]
    wrong = [dict(launch, workgroups_per_cu=1) for launch in _launches(30.0)]
    stub_engine.update({2: engine_says, 3: wrong, 4: Failed("IsaFault: no\nmore")})
    path = _csv(tmp_path, _row(1, "1024,512,256", 10.0), _row(2, "1024,512,256", 20.0), _row(3, "6144,512,256", 5.0))
    out = tmp_path / "launches.csv"
    assert calibrate.main(["--evaluate", str(path), "--source", ".", "--launches", str(out)]) == 0
    records = list(csv.DictReader(out.open()))
    assert [(r["csv_line"], r["workgroups_per_cu"], r["descriptor_workgroups_per_cu"], r["refused"])
            for r in records] == [("2", "4", "4", ""), ("3", "1", "4", ""), ("4", "", "", "IsaFault: no")]
    assert records[0]["occupancy_limiter"] and records[0]["unified_vgprs"] == "128"
    assert "occupancy: 1 of 2 launched rows place as many workgroups per CU as their kernel descriptor allows " \
           "(1 refused" in capsys.readouterr().out


def test_evaluation_never_changes_the_calibration_file(tmp_path, stub_engine):
    before = calibrate.CALIBRATION.read_text()
    stub_engine.update({2: _launches(11.0)})
    path = _csv(tmp_path, _row(1, "1024,512,256", 10.0))
    assert calibrate.main(["--evaluate", str(path), "--source", "."]) == 0
    assert calibrate.CALIBRATION.read_text() == before


def test_the_model_reruns_predictions_only_for_new_timing_model_settings(monkeypatch):
    calls = []
    rows = measurements.read(measurements.CALIBRATION_SET)[:3]

    def predict_rows(rows, predictor, universe=None):
        calls.append(predictor.settings["lds_latency"])
        return {r.line: _launches(100.0) for r in rows}, predictions.Cost()
    monkeypatch.setattr(calibrate, "predict_rows", predict_rows)
    model = calibrate.model(rows, call=None)
    assert model({"kernel_fixed_us": 1.0}) == [101.0] * 3
    assert model({"kernel_fixed_us": 2.0}) == [102.0] * 3
    assert calls == [calibrate.hardware()["lds_latency"]]
    model({"kernel_fixed_us": 2.0, "lds_latency": 80})  # a timing-model setting: predicted anew
    assert calls[-1] == 80.0 and len(calls) == 2


def test_leave_one_shape_out_recovers_a_known_constant_and_isolates_an_outlier():
    # measured = 2 * x + fixed; shapes A and B have fixed = 3, shape C fixed = 9
    xs = [1, 2, 3, 4, 5, 6] * 3
    shapes = ["A"] * 6 + ["B"] * 6 + ["C"] * 6
    measured = [2 * x + (9 if s == "C" else 3) for x, s in zip(xs, shapes)]
    params = [fit.Parameter("scale", 1.0, (1.0, 2.0, 3.0)), fit.Parameter("fixed", 0.0, tuple(range(0, 11)))]
    report = fit.fit(lambda c: [c["scale"] * x + c["fixed"] for x in xs], measured, shapes, params)
    assert report.fold_constants["C"] == {"scale": 2.0, "fixed": 3}     # fitted on A and B alone
    assert report.left_out["C"].median_abs_error > 0.2                 # and so wrong on C
    assert report.constants == {"scale": 2.0, "fixed": 3}               # in sample: A and B exact
    assert report.median_in_sample == 0.0 and report.in_sample["A"].spearman == pytest.approx(1.0)
    assert report.fold_constants["A"] != report.constants               # without A, C pulls the fit
    assert report.median_left_out > 0.2


def test_a_grid_comes_from_from_to_step():
    parameter = fit.Parameter.of("kernel_fixed_us", {"prior": 4.0, "grid": {"from": 0, "to": 1, "step": 0.25}})
    assert parameter.grid == (0.0, 0.25, 0.5, 0.75, 1.0) and parameter.prior == 4.0
    with pytest.raises(ValueError, match="positive step"):
        fit.Parameter.of("x", {"prior": 1, "grid": {"from": 0, "to": 1, "step": 0}})


def test_a_constant_fitted_at_an_end_of_its_grid_is_pointed_out(capsys):
    params = [fit.Parameter("fixed", 4.0, (0.0, 5.0, 10.0)), fit.Parameter("scale", 1.0, (0.5, 1.0, 1.5))]
    scores = {"A": fit.ShapeScore(2, 0.1, 1.0)}
    report = fit.FitReport({"fixed": 10.0, "scale": 1.0}, scores, scores, {"A": {"fixed": 10.0, "scale": 1.0}}, 0.1, 0.1)
    calibrate.print_fit(report, params)
    lines = capsys.readouterr().out.splitlines()
    assert "fixed: prior 4 -> fitted 10 (+6); at the upper end of its grid" in lines[-2]
    assert "the data would move it further (widen fit.fixed in calibration.yaml" in lines[-2]
    assert lines[-1] == "scale: prior 1 -> fitted 1 (+0)"


# A stand-in for the layout of the measured kernel's solution.hip (none of its code).
SOLUTION = """\
struct cube { int m, n, k; };
template <int block_size, cube tile, cube mfma, int depth, bool fused, bool split>
void run_kernel(const fp8* a, const fp8* b, const fp32* as, const fp32* bs, bf16* c, int m, int n, int k, bool measure) {}

void run(uintptr_t a, uintptr_t b, uintptr_t as, uintptr_t bs, uintptr_t c, int m, int n, int k, bool measure) {
    if (m == 1) run_kernel<256, cube{1, 2, 3}, cube{32, 32, 16}, 1, true, true>(0, 0, 0, 0, 0, m, n, k, measure);
}

PYBIND11_MODULE(fp8, m) { m.def("fp8", &run, "x"); }
"""


def test_the_generated_source_replaces_run_with_one_case_per_configuration():
    configs = [sweep.Config(64, 64, 64, 128, 16, 16, 32, 0, False), sweep.Config(512, 256, 128, 128, 32, 32, 16, 2, True)]
    text = sweep.batch_source(SOLUTION, configs)
    assert text.startswith(SOLUTION[:SOLUTION.index("void run(")])
    assert "m == 1" not in text and 'm.def("fp8"' not in text
    assert "case 0: run_kernel<64, cube{64, 64, 128}, cube{16, 16, 32}, 0, false, false>(" in text
    assert "case 1: run_kernel<512, cube{256, 128, 128}, cube{32, 32, 16}, 2, true, false>(" in text
    assert "PYBIND11_MODULE(TORCH_EXTENSION_NAME" in text
    with pytest.raises(sweep.SweepSourceError, match="void run"):
        sweep.batch_source(SOLUTION.replace("void run(", "void go("), configs)


def test_configurations_are_named_from_their_fields():
    row = measurements.read(measurements.CALIBRATION_SET)[0]
    assert row.config.name == "t64_bm64_bn64_bk64_mfma32x32x16_d0_transposed"


class _Call:
    name = "fp8"  # what sweep.module_name reads of the clone's load_inline call


def test_export_device_code_writes_every_batch_of_the_run_and_predicts_nothing(tmp_path, stub_engine, monkeypatch,
                                                                               capsys):
    monkeypatch.setattr(sweep, "build_call", lambda clone: _Call())
    exported = []
    monkeypatch.setattr(sweep, "export_device_code", lambda call, configs, out: exported.append((out, configs)) or
                        out / f"{sweep.module_name(call, configs)}.hipi")
    monkeypatch.setattr(predictions, "BATCH_SIZE", 2)  # 3 configurations: 2 batches
    path = _csv(tmp_path, _row(1, "1024,512,256", 10.0), _row(2, "1024,512,256", 20.0, config="64,64,64,32,32,16,1,1,256"),
                _row(3, "1024,512,256", 30.0, config="64,64,64,32,32,16,1,0,256"))
    out = tmp_path / "code"
    assert calibrate.main(["--evaluate", str(path), "--source", ".", "--export-device-code", str(out)]) == 0
    assert [folder for folder, _ in exported] == [out, out]
    assert sorted(c.name for _, batch in exported for c in batch) == sorted(
        r.config.name for r in measurements.read(path))  # stub_engine has no outcome: nothing was predicted
    assert f"--device-code {out}" in capsys.readouterr().out


def test_device_code_missing_a_batch_stops_before_anything_runs(tmp_path, stub_engine, monkeypatch, capsys):
    monkeypatch.setattr(sweep, "build_call", lambda clone: _Call())
    path = _csv(tmp_path, _row(1, "1024,512,256", 10.0))
    assert calibrate.main(["--evaluate", str(path), "--source", ".", "--device-code", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert f"no code object for 1 of this run's 1 builds (fp8_sweep_" in err and "--export-device-code" in err
    assert "Traceback" not in err


def test_device_code_for_every_batch_is_what_the_builds_take(tmp_path, stub_engine, monkeypatch):
    from engines.isa import device_code

    monkeypatch.setattr(sweep, "build_call", lambda clone: _Call())
    monkeypatch.setenv(device_code.ENV, "")  # restored (absent) after the test, whatever main() sets
    path = _csv(tmp_path, _row(1, "1024,512,256", 10.0))
    stub_engine.update({2: _launches(11.0)})
    (batch,) = predictions.batches(measurements.build_universe(measurements.read(path)))
    code = bytearray(320)  # an ELF header for gfx942: all the check reads
    code[:6], code[18], code[48] = b"\x7fELF\x02\x01", code_object.EM_AMDGPU, code_object.EF_AMDGPU_MACH_GFX942
    (tmp_path / f"{sweep.module_name(_Call(), batch)}.co").write_bytes(bytes(code))
    assert calibrate.main(["--evaluate", str(path), "--source", ".", "--device-code", str(tmp_path)]) == 0
    assert os.environ[device_code.ENV] == str(tmp_path)


CLONE = os.environ.get("SWEEP_SOURCE")


@pytest.mark.slow
@pytest.mark.skipif(not CLONE, reason="set SWEEP_SOURCE to a clone of Snektron/gpumode-amd-fp8-mm")
def test_a_real_sample_evaluates_through_ray(tmp_path):
    out = tmp_path / "eval.json"
    assert calibrate.main(["--evaluate", str(measurements.CALIBRATION_SET), "--source", CLONE, "--sample", "2",
                           "--json", str(out), "--cpus", "2"]) == 0
    result = json.loads(out.read_text())
    assert result["points"] + len(result["refused"]) == 2
