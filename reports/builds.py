"""Cold and warm build times on both engines and in the offline report (printed only).

    python -m reports.builds                      # submission.py and tests/submissions/zlib_base64.py
    python -m reports.builds FILE ... [--tools source,isa,offline] [--markdown]

Each file is built three times by each tool, each time in a fresh Python process, in build
caches of the benchmark's own (new temporary folders as AMD_FP8_MM_CACHE and CCACHE_DIR, removed
at the end; the user's caches are neither read nor written):

  cold  an empty cache: the engine's shared parts (runtime, precompiled headers, generated
        headers) and the file's own modules;
  warm  right after, the same cache: what a second run of the same file costs;
  new   the cache the previous file's cold and warm builds left (in a cycle): the shared parts
        cached, this file's modules not, as for a new submission (needs two files).

An engine's build is the file's import with load_inline routed to that engine, as the harness
imports it (a file that builds at its first call instead builds nothing here); the offline
report compiles every translation unit, cached or not. Beside
the times, the compiles each build ran (clang processes started with an output file, counted by
a wrapper first on PATH) and the cache's hits: the cold build's compiles a new or warm build did
not run. Times are wall seconds of this machine, other work on it included: compare rows measured
together, never MI300X numbers.
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from machine import cache

ROOT = Path(__file__).resolve().parents[1]
FILES = [ROOT / "submission.py", ROOT / "tests" / "submissions" / "zlib_base64.py"]
TOOLS = ("source", "isa", "offline")
RUNS = ("cold", "new", "warm")
COMPILERS = ("clang++-19", "clang-19", "clang++")
SHIM = """#!/bin/sh
case " $* " in *" -o "*) echo x >> "{log}" ;; esac
exec "{real}" "$@"
"""


def child(tool: str, path: Path) -> None:
    """One build of `path` by `tool` in this process; prints its seconds as the last line."""
    start = time.perf_counter()
    if tool == "offline":
        from reports.offline import report

        report(path)
    else:
        from eval.device import detect
        from eval.worker import load_submission

        load_submission(str(path), detect("cpu"), tool)
    print(json.dumps({"seconds": time.perf_counter() - start}))


def compiler_shims(folder: Path, log: Path) -> Path:
    """A folder of wrappers that count the compiles of the clang they stand for."""
    folder.mkdir(parents=True)
    for name in COMPILERS:
        real = shutil.which(name)
        if real:
            shim = folder / name
            shim.write_text(SHIM.format(log=log, real=real))
            shim.chmod(0o755)
    return folder


def measure(tool: str, path: Path, root: Path, shims: Path, log: Path) -> tuple[float, int]:
    """(seconds, compiles) of one build in a child process using the cache under `root`."""
    log.write_text("")
    env = {**os.environ, cache.ENVIRONMENT: str(root), "CCACHE_DIR": str(root / "ccache"),
           "PATH": f"{shims}{os.pathsep}{os.environ['PATH']}"}
    env.pop(cache.SPACE_ENVIRONMENT, None)
    proc = subprocess.run([sys.executable, "-m", "reports.builds", "--child", tool, str(path)], cwd=ROOT, env=env,
                          capture_output=True, text=True)
    lines = proc.stdout.strip().splitlines()
    if proc.returncode != 0 or not lines:
        raise RuntimeError(f"{tool} build of {path} failed:\n{(proc.stderr or proc.stdout)[-2000:]}")
    return json.loads(lines[-1])["seconds"], len(log.read_text().split())


def bench(tool: str, files: list[Path], scratch: Path) -> dict[Path, dict[str, tuple[float, int]]]:
    """Each file's cold, new and warm (seconds, compiles) by `tool`: cold and warm in a cache root of
    the file's own, new in the root the previous file (in a cycle) left (with one file, no new)."""
    results: dict[Path, dict[str, tuple[float, int]]] = {path: {} for path in files}
    for index, path in enumerate(files):
        root = scratch / f"{tool}-{index}"
        log = root.with_suffix(".log")
        shims = compiler_shims(root.with_suffix(".bin"), log)
        results[path]["cold"] = measure(tool, path, root, shims, log)
        results[path]["warm"] = measure(tool, path, root, shims, log)
        if len(files) > 1:
            following = files[(index + 1) % len(files)]
            results[following]["new"] = measure(tool, following, root, shims, log)
    return results


def tools(text: str) -> list[str]:
    chosen = text.split(",")
    unknown = [name for name in chosen if name not in TOOLS]
    if unknown:
        raise argparse.ArgumentTypeError(f"unknown tool {unknown[0]!r}: expected some of {', '.join(TOOLS)}")
    return chosen


def table(rows: list[tuple[str, str, dict]], markdown: bool) -> str:
    """One row per tool and file: the three times, the compiles each ran, and the cache's hits: the
    compiles of the cold build a new or warm build did not run."""
    def cell(results: dict, run: str, value) -> str:
        return value(results[run]) if run in results else "-"
    header = ["tool", "file", *(f"{run} s" for run in RUNS), *(f"{run} compiles" for run in RUNS), "new hits",
              "warm hits"]
    body = [[tool, name, *(cell(r, run, lambda m: f"{m[0]:.1f}") for run in RUNS),
             *(cell(r, run, lambda m: str(m[1])) for run in RUNS),
             *(cell(r, run, lambda m, cold=r["cold"][1]: str(cold - m[1])) for run in ("new", "warm"))]
            for tool, name, r in rows]
    if markdown:
        return "\n".join("| " + " | ".join(cells) + " |" for cells in [header, ["---"] * len(header), *body])
    widths = [max(len(cells[i]) for cells in [header, *body]) for i in range(len(header))]
    return "\n".join("  ".join(cell.ljust(width) for cell, width in zip(cells, widths)).rstrip()
                     for cells in [header, *body])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m reports.builds", description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="*", type=Path, help="submission files (default: submission.py and "
                                                             "tests/submissions/zlib_base64.py)")
    parser.add_argument("--tools", type=tools, default=list(TOOLS), metavar=",".join(TOOLS),
                        help="the tools to build with, comma-separated (default: all)")
    parser.add_argument("--markdown", action="store_true", help="print the table as Markdown")
    parser.add_argument("--child", nargs=2, metavar=("TOOL", "FILE"), help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        child(args.child[0], Path(args.child[1]).resolve())
        return 0
    missing = [str(path) for path in args.files if not path.is_file()]
    if missing:
        print(f"error: no such file: {', '.join(missing)}", file=sys.stderr)
        return 2
    files = [path.resolve() for path in args.files] or FILES
    rows = []
    with tempfile.TemporaryDirectory(prefix="bench-builds-") as scratch:
        for tool in args.tools:
            for path, results in bench(tool, files, Path(scratch)).items():
                name = str(path.relative_to(ROOT)) if path.is_relative_to(ROOT) else str(path)
                print(f"{tool} {name}: " + ", ".join(f"{run} {results[run][0]:.1f} s ({results[run][1]} compiles)"
                                                   for run in RUNS if run in results), file=sys.stderr, flush=True)
                rows.append((tool, name, results))
    print(table(rows, args.markdown))
    return 0


if __name__ == "__main__":
    sys.exit(main())
