"""Device code from another compiler: a gfx942 code object that the ISA engine runs in place of
the one Debian's clang-19 compiles from a build's HIP source.

The leaderboard's runner compiles with ROCm's hipcc, whose register allocation and scheduling
may differ from clang-19's (docs/predictor.md, "The compiler"): a kernel's spills, its occupancy
and so its predicted time follow the code object. ROCm's compiler runs on any Linux machine, an
MI300X or not, so a user who has it can bring its code here:

  python -m engines.isa.device_code export submission.py --out DIR
        DIR/<module>.hipi   the device translation unit, preprocessed with this build's headers
        DIR/<module>.flags  the flags that shape its code (optimisation, -mllvm, the arch)
        DIR/compile.sh      compiles every .hipi in DIR to <module>.co (CLANG=..., default ROCm's)
  sh DIR/compile.sh                              # on the machine with ROCm
  ISA_DEVICE_CODE=DIR (eval/run.py --device-code DIR; calibrate --device-code DIR)
        every build of a module takes DIR/<module>.co instead of compiling its device code

A code object is the AMDHSA ELF (`--cuda-device-only --no-gpu-bundle-output`) or a clang offload
bundle holding a gfx942 entry. The headers stay ours (preprocessed here), so what differs is the
compiler alone.
"""
from __future__ import annotations

import argparse
import os
import shlex
import sys
from pathlib import Path

import toolchain
from engines.isa import bundle
from engines.isa.build import DEVICE_DEBUG_FLAGS, extension, run
from toolchain import code_object, flags
from toolchain.hipcc import CLANG, device_lib_dir
from engines.isa.errors import IsaBuildError

ENV = "ISA_DEVICE_CODE"  # a folder of <module>.co files; set: builds take their device code from it
SCRIPT = "compile.sh"
# The outside compile: the unit is preprocessed (no HIP headers again), device code only, one ELF;
# it is for the code, so another compiler's warnings on our headers (a build's -Werror) do not stop it.
_COMPILE = "-x hip -nogpuinc --cuda-device-only --no-gpu-bundle-output"
_NOT_FATAL = "-Wno-error"
_SCRIPT = f"""#!/bin/sh
# Compiles every exported device translation unit in this folder to <module>.co for the ISA
# engine (engines/isa/device_code.py). CLANG: the compiler (default ROCm's); DEVICE_LIB_PATH: its
# gfx942 device libraries, where it does not find them itself (ROCm's clang does).
set -e
cd "$(dirname "$0")"
CLANG="${{CLANG:-/opt/rocm/llvm/bin/clang++}}"
for unit in *.hipi; do
  [ -e "$unit" ] || {{ echo "no .hipi here: export first (python -m engines.isa.device_code export)" >&2; exit 1; }}
  module="${{unit%.hipi}}"
  echo "compiling $module with $CLANG" >&2
  eval "\\"\\$CLANG\\" {_COMPILE} $(cat "$module.flags") {_NOT_FATAL} \\
    \\${{DEVICE_LIB_PATH:+--rocm-device-lib-path=\\$DEVICE_LIB_PATH}} -c \\"\\$unit\\" -o \\"\\$module.co\\""
done
"""


class DeviceCodeError(IsaBuildError):
    """The device code brought from elsewhere cannot stand in: missing, not gfx942, unreadable."""


def folder() -> Path | None:
    value = os.environ.get(ENV, "").strip()
    return Path(value) if value else None


def replacement(module: str) -> bytes | None:
    """The code object that replaces `module`'s device compile, when ISA_DEVICE_CODE names a folder."""
    where = folder()
    if where is None:
        return None
    path = where / f"{module}.co"
    if not path.is_file():
        raise DeviceCodeError(
            f"{ENV}={where}: no {path.name} there for the module {module}. Export its device code with "
            f"`python -m engines.isa.device_code export <your .py> --out {where}` and compile it there with "
            f"`sh {where / SCRIPT}` (ROCm's clang), or unset {ENV} to compile it with clang-19")
    return read(path)


def read(path: Path) -> bytes:
    """The gfx942 code object in `path` (an AMDHSA ELF, or an offload bundle holding one)."""
    data = path.read_bytes()
    if data.startswith(bundle.MAGIC) or data.startswith(bundle.COMPRESSED_MAGIC):
        try:
            entries = bundle.read_bundle(data)
        except bundle.BundleError as exc:
            raise DeviceCodeError(f"{path}: {exc}") from None
        found = [code for name, code in entries.items() if _is_gfx942_entry(name)]
        if not found:
            raise DeviceCodeError(f"{path}: the offload bundle has no gfx942 entry (entries: "
                                  f"{', '.join(entries) or 'none'}); compile with --offload-arch=gfx942")
        data = found[0]
    try:
        code_object.check_gfx942(data, path)
    except code_object.CodeObjectError as exc:
        raise DeviceCodeError(str(exc)) from None
    return data


def _is_gfx942_entry(name: str) -> bool:
    kind, _, target = name.partition("-amdgcn-amd-amdhsa--")
    return kind in ("hip", "hipv4") and target.split(":")[0] == toolchain.ROCM_ARCH


def export(ext, out: Path) -> Path:
    """Writes `ext`'s device translation unit, preprocessed as its build compiles it, with its flags
    and the folder's compile script; returns the unit's path."""

    if ext.hip is None:
        raise DeviceCodeError(f"{ext.name}: no cuda_sources, so no device code to export")
    out.mkdir(parents=True, exist_ok=True)
    source = out / f"{ext.name}.hip"
    source.write_text(ext.hip)
    unit = out / f"{ext.name}.hipi"
    try:
        run("preprocessing the device code", [CLANG, "-x", "hip", *ext.hip_flags, "--cuda-device-only",
                                              f"--rocm-device-lib-path={device_lib_dir()}", "-E", source.name,
                                              "-o", unit.name], out)
    finally:
        source.unlink()
    (out / f"{ext.name}.flags").write_text(shlex.join([*flags.code_flags(ext.hip_flags), *DEVICE_DEBUG_FLAGS]) + "\n")
    script = out / SCRIPT
    script.write_text(_SCRIPT)
    script.chmod(0o755)
    return unit


def export_file(path: Path, out: Path) -> list[Path]:
    """Every load_inline call of the Python file `path` (a submission), exported into `out`."""
    from toolchain.capture import SourceError, capture

    try:
        calls = capture(path)
    except SourceError as exc:
        raise DeviceCodeError(str(exc)) from None
    if not any(call.cuda_sources for call in calls):
        raise DeviceCodeError(f"{path}: no load_inline call with cuda_sources, so no device code to export")
    return [export(extension(call, path.resolve()), out) for call in calls if call.cuda_sources]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m engines.isa.device_code", description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter,
                                     epilog=__doc__.split("\n\n", 2)[2])
    sub = parser.add_subparsers(dest="command", required=True)
    export_parser = sub.add_parser("export", help="write a submission's device code for another compiler")
    export_parser.add_argument("submission", type=Path, help="the Python file whose load_inline calls are exported")
    export_parser.add_argument("--out", type=Path, required=True, metavar="DIR", help="the folder to write into")
    args = parser.parse_args(argv)
    if not args.submission.is_file():
        parser.error(f"{args.submission}: no such file")
    try:
        units = export_file(args.submission, args.out)
    except IsaBuildError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    for unit in units:
        print(f"wrote {unit}")
    print(f"next: `sh {args.out / SCRIPT}` where ROCm's clang is (CLANG=... for another), then "
          f"{ENV}={args.out} (eval/run.py --device-code {args.out}) to run its code objects here")
    return 0


if __name__ == "__main__":
    sys.exit(main())
