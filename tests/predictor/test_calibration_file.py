"""calibration.yaml: every timing-model constant carries its source and is measured or fitted,
never both (the store rate is measured), settings reach the engine as numbers, what the fit
moves is declared with a prior, and the fitted block rewrites in place."""
from __future__ import annotations

import pytest

from predictor import calibrate, calibration, hardware
from predictor.fit import Parameter


def test_every_hardware_constant_has_a_value_and_a_source():
    for key, entry in calibration()["hardware"].items():
        assert set(entry) == {"value", "source"}, key
        assert entry["source"].strip(), key


def test_a_constant_is_measured_or_fitted_never_both():
    # hardware() lays the fitted block over the measured one: a key in both would silently
    # replace the published figure
    cal = calibration()
    assert not set(cal["hardware"]) & set(cal["fitted"])


def test_the_store_rate_is_the_published_write_bandwidth_not_a_fitted_one():
    entry = calibration()["hardware"]["store_bytes_per_s"]
    assert entry["value"] == pytest.approx(4.6e12) and "SC25" in entry["source"]
    assert hardware()["store_bytes_per_s"] == pytest.approx(4.6e12)
    assert "store_bytes_per_s" not in calibration()["fit"]


def test_hardware_settings_are_numbers_with_the_fitted_settings():
    settings = hardware({"lds_latency": 99})
    assert all(isinstance(v, float) for v in settings.values())
    assert settings["l2_reuse_capture"] == calibration()["fitted"]["l2_reuse_capture"]
    assert "host_us" not in settings  # a per-call constant, not the timing model's
    assert settings["lds_latency"] == 99.0


def test_fit_names_fitted_constants_each_with_a_prior_inside_its_grid():
    for name, entry in calibration()["fit"].items():
        assert name in calibration()["fitted"], name
        parameter = Parameter.of(name, entry)
        assert parameter.grid[0] <= parameter.prior <= parameter.grid[-1], name
    assert calibration()["published_scores"][0] == pytest.approx(103.392)


def test_write_fitted_rewrites_only_the_named_lines(tmp_path, monkeypatch):
    copy = tmp_path / "calibration.yaml"
    copy.write_text(calibrate.CALIBRATION.read_text())
    monkeypatch.setattr(calibrate, "CALIBRATION", copy)
    calibrate.write_fitted({"l2_reuse_capture": 0.75, "host_us": 12.5})
    text = copy.read_text()
    assert "  l2_reuse_capture: 0.75\n" in text and "  host_us: 12.5\n" in text
    assert text.count("\n") == calibrate.CALIBRATION.read_text().count("\n")
    with pytest.raises(RuntimeError, match="no single fitted line"):
        calibrate.write_fitted({"no_such_constant": 1})
