"""python -m reports.offline [files...] [--csv PATH] [--keep-asm DIR]

Compiles each .hip file / submission .py for gfx942 and prints one row per kernel; with no
files, every kernels/*.hip plus submission.py. A submission is imported with load_inline
intercepted to get its sources and flags; the sources are hipified first, as torch's
load_inline does on the ROCm runner. Exit status 1 if any file failed to compile.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from reports.offline import CompileError, SourceError, default_files, report
from reports.offline.table import format_table, write_csv
from toolchain import REPO_ROOT
from toolchain.hipcc import ToolchainMissing

DEFAULT_CSV = REPO_ROOT / "eval" / "reports" / "isa_gfx942.csv"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m reports.offline", description="\n".join(__doc__.splitlines()[2:]),
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("files", nargs="*", type=Path)
    parser.add_argument("--csv", type=Path, default=DEFAULT_CSV, help=f"default {DEFAULT_CSV.relative_to(REPO_ROOT)}")
    parser.add_argument("--keep-asm", type=Path, metavar="DIR", help="keep each file's .s here")
    args = parser.parse_args(argv)
    missing = [str(path) for path in args.files if not path.is_file()]
    if missing:
        print(f"error: no such file: {', '.join(missing)} (nothing compiled, {args.csv} left as it was)", file=sys.stderr)
        return 2
    files = args.files or default_files()
    if not files:
        print("no kernels/*.hip or submission.py to report on", file=sys.stderr)
        return 0

    def build(path: Path):
        start = time.perf_counter()
        try:
            return path, report(path, args.keep_asm), None, time.perf_counter() - start
        except (CompileError, SourceError, ToolchainMissing) as error:
            return path, [], error, time.perf_counter() - start

    rows, failed = [], 0
    with ThreadPoolExecutor(max_workers=os.cpu_count() or 1) as pool:
        for done, (path, kernels, error, seconds) in enumerate(pool.map(build, files), 1):
            status = f"FAILED\n{error}" if error else f"{len(kernels)} kernel(s)" + _notes(kernels)
            print(f"[{done}/{len(files)}] {path} ({seconds:.1f} s): {status}", file=sys.stderr)
            failed += error is not None
            rows += kernels
    print(format_table(rows))
    write_csv(rows, args.csv)
    print(f"wrote {args.csv}", file=sys.stderr)
    return 1 if failed else 0


def _notes(kernels) -> str:
    hipified_by = {kernel.hipified_by for kernel in kernels} - {""}
    standins = {name for kernel in kernels for name in kernel.standins.split(", ") if name}
    note = f", hipified as load_inline does on ROCm ({', '.join(sorted(hipified_by))})" if hipified_by else ""
    all_of_torch = {kernel.all_of_torch for kernel in kernels} - {""}
    if all_of_torch:
        note += f"; {'; '.join(sorted(all_of_torch))}"
    if standins:
        note += (f"; compiled against our stand-in headers for {', '.join(sorted(standins))}, not the real "
                 "libraries (toolchain/include/standins): their code generation may differ")
    return note


if __name__ == "__main__":
    sys.exit(main())
