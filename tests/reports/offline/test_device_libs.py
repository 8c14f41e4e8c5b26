"""The gfx942 device-library folder every device compile names (toolchain.hipcc.device_lib_dir)
is set up safely by builds that start together on a machine that has none yet."""

from pathlib import Path

from toolchain import hipcc


def _fresh(tmp_path, monkeypatch) -> Path:
    folder = tmp_path / "gfx942-bitcode"
    monkeypatch.setattr(hipcc, "DEVICE_LIB_CACHE", folder)
    return folder


def test_the_folder_holds_the_system_bitcode_and_the_gfx942_isa_version(tmp_path, monkeypatch):
    folder = _fresh(tmp_path, monkeypatch)
    assert hipcc.device_lib_dir.__wrapped__() == folder
    system = [lib.name for lib in hipcc.SYSTEM_DEVICE_LIBS.glob("*.bc")]
    assert (folder / "oclc_isa_version_942.bc").stat().st_size > 0
    assert sorted(p.name for p in folder.iterdir()) == sorted({*system, "oclc_isa_version_942.bc"}), \
        "no temporary file is left behind"


def test_a_build_that_loses_the_race_to_another_finds_the_folder_ready(tmp_path, monkeypatch):
    """Two Ray workers building at once on a new machine both see a link missing, and the second
    to create it finds it there: that build must go on, not fail with FileExistsError."""
    folder = _fresh(tmp_path, monkeypatch)
    hipcc.device_lib_dir.__wrapped__()  # the other process, done first
    real_exists = Path.exists
    monkeypatch.setattr(Path, "exists", lambda p: False if p.parent == folder else real_exists(p))
    assert hipcc.device_lib_dir.__wrapped__() == folder  # this one checked before the other wrote
    monkeypatch.undo()
    assert (folder / "oclc_isa_version_942.bc").stat().st_size > 0
