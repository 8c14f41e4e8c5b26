"""Side-by-side comparison of submissions, from a report frame (eval/report.py schema).

    python reports/compare.py A.csv [B.csv ...] [--png DIR] [--mode M] [--method X]
                              [--device D] [--engine E]

Prints eval/comparison.py's side-by-side tables of the rows of report CSVs, one per group of
rows that compare (same mode, timing method, device and engine; the filters keep one), and with
`--png` writes one chart per group (reports/plots.py).
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

import pandas as pd

if __package__ in (None, ""):
    # Run as a script: make the repository root importable without an install.
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from eval.comparison import Group, groups, side_by_side  # noqa: E402
from eval.report import read_frame  # noqa: E402

FILTERS = Group._fields  # the command line's --mode, --method, --device, --engine


def select(frame: pd.DataFrame, **wanted: str | None) -> pd.DataFrame:
    """The rows whose columns equal every given value (None: any); "-" or "" asks for an
    empty cell, e.g. --method - for the untimed modes."""
    keep = pd.Series(True, index=frame.index)
    for column, value in wanted.items():
        if value is not None:
            cells = frame[column].astype("string").fillna("")
            keep &= (cells == ("" if value == "-" else value)).to_numpy()
    return frame[keep.to_numpy()]


def _held(frame: pd.DataFrame) -> str:
    """The groups a frame holds, for an error message."""
    return "; ".join(" ".join(f"{field}={value or '-'}" for field, value in zip(FILTERS, group))
                     for group, _ in groups(frame))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("csv", nargs="+", help="report CSVs written by eval/run.py")
    parser.add_argument("--png", metavar="DIR", help="also write one chart per group into DIR")
    for field in FILTERS:
        parser.add_argument(f"--{field}", help=f"keep only rows of this {field} (- for empty)")
    args = parser.parse_args(argv)
    try:
        frame = read_frame(*args.csv)
        wanted = {field: getattr(args, field) for field in FILTERS}
        kept = select(frame, **wanted)
        if kept.empty:
            asked = " ".join(f"{field}={value}" for field, value in wanted.items() if value is not None)
            raise ValueError(f"no rows for {asked}; the files hold: {_held(frame)}")
        print(side_by_side(kept))
    except (OSError, ValueError) as err:
        print(f"compare: error: {err}", file=sys.stderr)
        return 2
    if args.png:
        from reports.plots import write_charts  # matplotlib only when charts are asked for

        for path in write_charts(kept, args.png):
            print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
