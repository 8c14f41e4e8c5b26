"""Benchmark of the predictor itself: the predicted `benchmark` of all 18 shapes for one
submission, with the wall time it took on this machine (target: under 10 min on 2 cores).

    python -m eval.predicted_bench [--submission submission.py]
"""
from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

from eval import report
from eval.run import main as run_main


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--submission", default="submission.py")
    args = parser.parse_args(argv)
    csv_path = Path(tempfile.mkdtemp(prefix="predict_bench_")) / "predicted.csv"
    started = time.monotonic()
    status = run_main(["benchmark", "--device", "cpu", "--engine", "isa", "--method", "predicted",
                       "--submission", args.submission, "--csv", str(csv_path)])
    wall = time.monotonic() - started
    rows = report.read_rows(csv_path) if csv_path.exists() else []
    print(f"predicted benchmark of {args.submission}: {len(rows)} shapes in {wall:.0f} s wall "
          f"(build included; target < 600 s on 2 cores)")
    return status


if __name__ == "__main__":
    sys.exit(main())
