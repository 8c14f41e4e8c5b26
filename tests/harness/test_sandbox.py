"""What a stage may write (eval/sandbox.py): the caches a GPU runtime fills as it compiles go
to the box's private /tmp, since the home folder, where they go by default, is read-only."""
import subprocess
import sys
import uuid
from pathlib import Path

import pytest

from eval import sandbox

PROBE = """
import os, sys
from pathlib import Path
name = sys.argv[1]
cache = Path(os.environ["TRITON_CACHE_DIR"])
cache.mkdir(parents=True, exist_ok=True)
(cache / name).write_text("kernel")
try:
    (Path.home() / ".triton" / name).parent.mkdir(parents=True, exist_ok=True)
    (Path.home() / ".triton" / name).write_text("kernel")
    print("home writable")
except OSError as exc:
    print("home", exc.strerror)
print("cache", (cache / name).read_text())
"""


def test_a_stage_points_tritons_cache_into_the_private_tmp():
    env = sandbox.environment(Path(__file__))
    assert env["TMPDIR"] == str(sandbox.TMP)
    assert Path(env["TRITON_CACHE_DIR"]).is_relative_to(sandbox.TMP)


def test_in_the_box_the_cache_is_writable_the_home_folder_is_not_and_nothing_outlives_the_stage():
    box = sandbox.probe()
    if not box.available:
        pytest.skip(f"needs the sandbox, which cannot start here ({box.description})")
    name = f"sandbox-test-{uuid.uuid4().hex}"
    result = subprocess.run(box.wrap([sys.executable, "-c", PROBE, name], gpu=False, build=False, submission=None),
                            env=sandbox.environment(Path(__file__)), capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    assert result.stdout.split("\n")[:2] == ["home Read-only file system", "cache kernel"]
    assert not (Path(sandbox.environment(Path(__file__))["TRITON_CACHE_DIR"]) / name).exists()
    assert not (Path.home() / ".triton" / name).exists()


# A submission's import, trying what a planted module needs: to see the other submission's
# builds, to write a module under the other's key, and to write the shared entries.
PLANT = """
import os, sys, tempfile
from pathlib import Path
root, mine, other = Path(sys.argv[1]), Path(sys.argv[2]), Path(sys.argv[3])
def attempt(what, path):
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("planted")
        print(what, "written")
    except OSError as exc:
        print(what, exc.strerror)
print("spaces", sorted(p.name for p in (root / "entries").iterdir()))
print("other's module", (other / "engines" / "source" / "m_1" / "m_1.so").exists())
attempt("other", other / "engines" / "source" / "m_2" / "m_2.so")
attempt("shared", root / "engines" / "source" / "runtime" / "planted.so")
attempt("mine", mine / "engines" / "source" / "m_3" / "m_3.so")
print("tmp", Path(tempfile.mkdtemp()).is_dir())
"""


@pytest.fixture
def two_submissions(tmp_path, monkeypatch):
    """Two submission files (under /tmp, as pytest's folders are) and a build cache of their own,
    the second submission's module built in it."""
    from machine import cache
    monkeypatch.setattr(cache, "ROOT", tmp_path / "cache")
    monkeypatch.setattr(cache, "ENTRIES", tmp_path / "cache" / "entries")
    mine, other = tmp_path / "mine" / "submission.py", tmp_path / "other" / "submission.py"
    for path, text in ((mine, "x = 1\n"), (other, "x = 2\n")):
        path.parent.mkdir()
        path.write_text(text)
    built = sandbox.space(other) / "engines" / "source" / "m_1" / "m_1.so"
    built.parent.mkdir(parents=True)
    built.write_text("module")
    return mine, other


@pytest.mark.parametrize("build", [True, False], ids=["build pass", "stage"])
def test_a_stage_sees_and_writes_only_its_own_submissions_builds(two_submissions, build):
    box = sandbox.probe()
    if not box.available:
        pytest.skip(f"needs the sandbox, which cannot start here ({box.description})")
    from machine import cache
    mine, other = two_submissions
    argv = [sys.executable, "-c", PLANT, str(cache.ROOT), str(sandbox.space(mine)), str(sandbox.space(other))]
    result = subprocess.run(box.wrap(argv, gpu=False, build=build, submission=mine, visible=(mine.parent,)),
                            env=sandbox.environment(mine), capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines() == [
        f"spaces ['{cache.space_of(mine)}']", "other's module False", "other Read-only file system",
        "shared Read-only file system", f"mine {'written' if build else 'Read-only file system'}", "tmp True"]
    assert sorted(p.name for p in (sandbox.space(other) / "engines" / "source").iterdir()) == ["m_1"]
    assert not (cache.ROOT / "engines" / "source" / "runtime").exists()


def test_a_submission_right_in_tmp_imports_in_the_box(tmp_path):
    box = sandbox.probe()
    if not box.available:
        pytest.skip(f"needs the sandbox, which cannot start here ({box.description})")
    submission = Path("/tmp") / f"sandbox-test-{uuid.uuid4().hex}.py"
    submission.write_text("import tempfile\nprint('imported', bool(tempfile.mkdtemp()))\n")
    try:
        argv = [sys.executable, "-c", f"import runpy; runpy.run_path({str(submission)!r})"]
        result = subprocess.run(box.wrap(argv, gpu=False, build=False, submission=submission,
                                         visible=(submission.parent,)),
                                env=sandbox.environment(submission), capture_output=True, text=True, timeout=120)
    finally:
        submission.unlink()
    assert result.returncode == 0, result.stderr
    assert result.stdout == "imported True\n"
