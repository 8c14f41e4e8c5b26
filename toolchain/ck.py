"""Composable Kernel's headers, as the runner's ROCm 6.3 has them on its include path.

ROCm ships CK; Debian and PyPI do not, except inside AMD's aiter wheel, which carries CK's
headers at the version its FP8 blockscale GEMMs were tuned with. `include_dir` unpacks them
from that wheel (pinned by version and sha256) into the machine-wide cache, once, and writes the
`ck/config.h` that CK's CMake generates (ROCm's build of CK for gfx942: every data type, XDL,
GFX94, FNUZ fp8). `python -m toolchain.ck` fetches them (scripts/setup.sh runs it); a build
finds them through toolchain/headers.py, and without them CK's stand-in stub is what
`#include <ck/...>` finds.
"""
from __future__ import annotations

import argparse
import hashlib
import re
import shutil
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

from machine.cache import ROOT as CACHE_ROOT

WHEEL = "amd-aiter==0.1.7.post2.dev18"
WHEEL_FILE = "amd_aiter-0.1.7.post2.dev18-py3-none-any.whl"
WHEEL_SHA256 = "fe139d74438217c35e87e3b961166bac8db2d381eadccb371da2e63615f05a31"
# Where in the wheel CK's include folder is.
CK_INCLUDE = "aiter_meta/3rdparty/composable_kernel/include/"
CK_DIR = CACHE_ROOT / f"ck-aiter-{WHEEL_SHA256[:12]}"

# config.h.in's #cmakedefine names that ROCm 6.3's CK build for gfx942 turns on (DTYPES unset:
# every data type; no DL/DPP/WMMA kernels; OCP fp8 off, FNUZ fp8 on).
CONFIG_ON = ("CK_ENABLE_ALL_DTYPES", "CK_USE_XDL", "CK_USE_GFX94", "CK_USE_FNUZ_FP8")


class CkUnavailable(RuntimeError):
    """CK's headers could not be fetched (no network, a wheel that is not the pinned one)."""


def include_dir() -> Path | None:
    """The folder holding ck/ck.hpp and the rest of CK's headers, or None when not fetched."""
    folder = CK_DIR / "include"
    return folder if (folder / "ck" / "config.h").is_file() else None


def config_h(template: str) -> str:
    """config.h from CK's config.h.in, as CMake's configure_file writes it with CONFIG_ON set."""
    def define(match: re.Match) -> str:
        name = match[1]
        return f"#define {name} ON" if name in CONFIG_ON else f"/* #undef {name} */"

    return re.sub(r"^#cmakedefine (\w+).*$", define, template, flags=re.MULTILINE)


def sha256(path: Path) -> str:
    h = hashlib.sha256()
    with path.open("rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def unpack(wheel: Path) -> Path:
    """CK's include folder from `wheel` into the cache (atomically; a second caller's copy wins
    nothing and is dropped). Refuses a file whose sha256 is not the pinned wheel's."""
    digest = sha256(wheel)
    if digest != WHEEL_SHA256:
        raise CkUnavailable(f"{wheel}: sha256 {digest}, not {WHEEL}'s {WHEEL_SHA256}")
    if include_dir():
        return include_dir()
    CACHE_ROOT.mkdir(parents=True, exist_ok=True)
    partial = Path(tempfile.mkdtemp(prefix=f".{CK_DIR.name}.", dir=CACHE_ROOT))
    try:
        with zipfile.ZipFile(wheel) as archive:
            for member in archive.namelist():
                if member.startswith(CK_INCLUDE) and not member.endswith("/"):
                    target = partial / "include" / member.removeprefix(CK_INCLUDE)
                    target.parent.mkdir(parents=True, exist_ok=True)
                    target.write_bytes(archive.read(member))
        ck = partial / "include" / "ck"
        (ck / "config.h").write_text(config_h((ck / "config.h.in").read_text()))
        if not CK_DIR.is_dir():
            partial.rename(CK_DIR)
    finally:
        shutil.rmtree(partial, ignore_errors=True)
    return CK_DIR / "include"


def fetch() -> Path:
    """CK's include folder, downloading the pinned wheel with pip when it is not cached."""
    found = include_dir()
    if found:
        return found
    with tempfile.TemporaryDirectory() as scratch:
        done = subprocess.run([sys.executable, "-m", "pip", "download", "-q", "--no-deps", WHEEL, "-d", scratch],
                              capture_output=True, text=True)
        wheel = Path(scratch) / WHEEL_FILE
        if done.returncode or not wheel.is_file():
            raise CkUnavailable(f"pip download {WHEEL} failed: {(done.stderr or done.stdout).strip()[-400:]}")
        return unpack(wheel)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m toolchain.ck", description=__doc__.splitlines()[0])
    parser.add_argument("--wheel", type=Path, help=f"a downloaded {WHEEL_FILE} (default: pip download it)")
    args = parser.parse_args(argv)
    try:
        folder = unpack(args.wheel) if args.wheel else fetch()
    except (CkUnavailable, OSError, zipfile.BadZipFile) as exc:
        print(f"toolchain.ck: {exc}", file=sys.stderr)
        return 1
    print(f"Composable Kernel's headers ({WHEEL}): {folder}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
