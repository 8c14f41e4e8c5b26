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
    env = sandbox.environment()
    assert env["TMPDIR"] == str(sandbox.TMP)
    assert Path(env["TRITON_CACHE_DIR"]).is_relative_to(sandbox.TMP)


def test_in_the_box_the_cache_is_writable_the_home_folder_is_not_and_nothing_outlives_the_stage():
    box = sandbox.probe()
    if not box.available:
        pytest.skip(f"needs the sandbox, which cannot start here ({box.description})")
    name = f"sandbox-test-{uuid.uuid4().hex}"
    result = subprocess.run(box.wrap([sys.executable, "-c", PROBE, name], gpu=False, build=False),
                            env=sandbox.environment(), capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    assert result.stdout.split("\n")[:2] == ["home Read-only file system", "cache kernel"]
    assert not (Path(sandbox.environment()["TRITON_CACHE_DIR"]) / name).exists()
    assert not (Path.home() / ".triton" / name).exists()
