"""Side-by-side comparison of submissions from report rows (eval/report.py schema).

`side_by_side(rows)` is a pure function of rows: eval/run.py calls it when several
submissions ran, and the CLI below calls it on CSV files:

    python eval/compare.py A.csv [B.csv ...] [--png DIR] [--mode M] [--method X]

Rows are grouped by (mode, method); inside a group one line per shape (m, n, k) and one
column group per submission, in the order the submissions first appear.
"""
from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass, field
from pathlib import Path

if __package__ in (None, ""):
    # Run as a script: make the repository root importable without an install.
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from eval.report import read_rows
from reference.contract import cases, geometric_mean, load, speed_of_light_us

Shape = tuple[int, int, int]


@dataclass(frozen=True)
class Cell:
    """One submission's result on one shape."""

    mean_us: float | None
    passed: bool


@dataclass
class Group:
    """All results of one (mode, method), keyed by shape and submission label."""

    mode: str
    method: str
    submissions: list[str] = field(default_factory=list)
    shapes: list[Shape] = field(default_factory=list)
    cells: dict[tuple[Shape, str], Cell] = field(default_factory=dict)

    @property
    def timed(self) -> bool:
        return any(cell.mean_us is not None for cell in self.cells.values())

    @property
    def baseline(self) -> str:
        return self.submissions[0]

    def cell(self, shape: Shape, submission: str) -> Cell | None:
        return self.cells.get((shape, submission))

    def speedup(self, shape: Shape, submission: str) -> float | None:
        """Baseline mean / this mean: above 1 means faster than the first submission."""
        base, this = self.cell(shape, self.baseline), self.cell(shape, submission)
        if base is None or this is None or base.mean_us is None or this.mean_us is None:
            return None
        return base.mean_us / this.mean_us

    def sol_ratio(self, shape: Shape, submission: str) -> float | None:
        this = self.cell(shape, submission)
        if this is None or this.mean_us is None:
            return None
        return this.mean_us / speed_of_light_us(*shape)

    def common_shapes(self) -> list[Shape]:
        """Shapes every submission passed with a timing: the only fair geomean basis."""
        def ok(shape, submission):
            cell = self.cell(shape, submission)
            return cell is not None and cell.passed and cell.mean_us is not None
        return [s for s in self.shapes if all(ok(s, sub) for sub in self.submissions)]

    def geomean_us(self, submission: str) -> float | None:
        shapes = self.common_shapes()
        if not shapes:
            return None
        return geometric_mean([self.cells[(s, submission)].mean_us for s in shapes])

    def geomean_sol_us(self) -> float | None:
        shapes = self.common_shapes()
        return geometric_mean([speed_of_light_us(*s) for s in shapes]) if shapes else None

    def covers_benchmarks(self) -> bool:
        """True when the geomean basis is exactly the published benchmark shapes, so the
        published top score is a like-for-like reference."""
        benchmark_shapes = {(c.m, c.n, c.k) for c in cases("benchmarks")}
        return set(self.common_shapes()) == benchmark_shapes


def submission_labels(rows: list[dict]) -> list[str]:
    """A column label per row: the submission name, plus its hash when one name was
    measured in several versions (e.g. submission.py before and after an edit)."""
    hashes: dict[str, set[str]] = {}
    for row in rows:
        hashes.setdefault(row["submission"], set()).add(row.get("submission_hash") or "")
    return [row["submission"] + (f"@{row.get('submission_hash') or '?'}"
                                 if len(hashes[row["submission"]]) > 1 else "")
            for row in rows]


def group_rows(rows: list[dict]) -> list[Group]:
    """Groups in order of first appearance; a repeated (group, shape, submission) is an
    error because silently keeping one of them would hide a mixed-up input."""
    groups: dict[tuple[str, str], Group] = {}
    for row, label in zip(rows, submission_labels(rows)):
        key = (row["mode"] or "", row["method"] or "")
        group = groups.setdefault(key, Group(*key))
        shape = (row["m"], row["n"], row["k"])
        if (shape, label) in group.cells:
            raise ValueError(f"two rows for {label} at m={shape[0]} n={shape[1]} k={shape[2]} "
                             f"(mode={key[0]}, method={key[1] or '-'})")
        if label not in group.submissions:
            group.submissions.append(label)
        if shape not in group.shapes:
            group.shapes.append(shape)
        group.cells[(shape, label)] = Cell(row["mean_us"], row["passed"] == 1)
    return list(groups.values())


# -- text table -------------------------------------------------------------------------

_SHAPE_HEAD = f"{'m':>5} {'n':>5} {'k':>5}"
_SUB_HEAD = f"{'mean_us':>10} {'pass':<4} {'speedup':>7} {'xSOL':>6}"


def _num(value: float | None, fmt: str) -> str:
    return "-" if value is None else format(value, fmt)


def _cell_text(group: Group, shape: Shape, submission: str) -> str:
    cell = group.cell(shape, submission)
    if cell is None:
        return f"{'-':>10} {'n/a':<4} {'-':>7} {'-':>6}"
    speedup = group.speedup(shape, submission)
    return (f"{_num(cell.mean_us, '.2f'):>10} {'ok' if cell.passed else 'FAIL':<4} "
            f"{_num(speedup, '.2f') + ('x' if speedup else ''):>7} "
            f"{_num(group.sol_ratio(shape, submission), '.1f'):>6}")


def _geomean_text(group: Group, submission: str) -> str:
    mean = group.geomean_us(submission)
    base = group.geomean_us(group.baseline)
    sol = group.geomean_sol_us()
    speedup = base / mean if mean else None
    return (f"{_num(mean, '.2f'):>10} {'':<4} "
            f"{_num(speedup, '.2f') + ('x' if speedup else ''):>7} "
            f"{_num(mean / sol if mean else None, '.1f'):>6}")


def _group_table(group: Group) -> list[str]:
    width = len(_SUB_HEAD)
    names = " | ".join(f"{sub[:width]:<{width}}" for sub in group.submissions)
    lines = [f"mode={group.mode or '-'} method={group.method or '-'} "
             f"(speedup vs {group.baseline}; xSOL = mean / MI300X speed of light)",
             f"{'':17} | {names}",
             f"{_SHAPE_HEAD} | " + " | ".join(_SUB_HEAD for _ in group.submissions)]
    for shape in group.shapes:
        cells = " | ".join(_cell_text(group, shape, sub) for sub in group.submissions)
        lines.append(f"{shape[0]:>5} {shape[1]:>5} {shape[2]:>5} | {cells}")
    if group.timed:
        lines.append(f"{'geomean':<17} | "
                     + " | ".join(_geomean_text(group, sub) for sub in group.submissions))
        kept, total = len(group.common_shapes()), len(group.shapes)
        if kept < total:
            lines.append(f"  geomean over {kept} of {total} shapes: {total - kept} dropped "
                         "because a submission failed, was untimed or did not run them")
    return lines


def side_by_side(rows: list[dict]) -> str:
    """The comparison table of report rows, one block per (mode, method)."""
    groups = group_rows(rows)
    if not any(group.timed for group in groups):
        raise ValueError("no row has a timing (mean_us); nothing to compare")
    blocks = ["\n".join(_group_table(group)) for group in groups]
    blocks.append(f"published top score: {float(load()['published_top_score_us']):.3f} us "
                  f"(geomean of leaderboard-mode means over the {len(cases('benchmarks'))} "
                  "benchmark shapes, MI300X)")
    return "\n\n".join(blocks)


# -- command line -----------------------------------------------------------------------

def load_csvs(paths: list[str]) -> list[dict]:
    """Rows of several CSVs; a submission seen in an earlier file (same name and hash)
    is prefixed with its file's stem so the two measurements stay separate columns."""
    rows: list[dict] = []
    seen: set[tuple[str, str]] = set()
    for path in paths:
        if not Path(path).is_file():
            raise FileNotFoundError(f"no such file: {path}")
        file_rows = read_rows(path)
        ids = {(row["submission"], row["submission_hash"]) for row in file_rows}
        for row in file_rows:
            if (row["submission"], row["submission_hash"]) in seen:
                row["submission"] = f"{Path(path).stem}:{row['submission']}"
        seen |= ids
        rows += file_rows
    return rows


def select(rows: list[dict], mode: str | None, method: str | None) -> list[dict]:
    return [row for row in rows
            if (mode is None or row["mode"] == mode) and (method is None or row["method"] == method)]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("csv", nargs="+", help="report CSVs written by eval/run.py")
    parser.add_argument("--png", metavar="DIR", help="also write bar charts into DIR")
    parser.add_argument("--mode", help="keep only rows of this mode")
    parser.add_argument("--method", help="keep only rows of this timing method")
    args = parser.parse_args(argv)
    try:
        rows = load_csvs(args.csv)
        kept = select(rows, args.mode, args.method)
        if not kept:
            found = sorted({(r["mode"], r["method"] or "-") for r in rows})
            raise ValueError(f"no rows for mode={args.mode} method={args.method}; "
                             f"the files hold (mode, method): {found}")
        print(side_by_side(kept))
    except (OSError, ValueError) as err:
        print(f"compare: error: {err}", file=sys.stderr)
        return 2
    if args.png:
        from eval.plots import write_charts  # matplotlib only when charts are asked for
        for path in write_charts(kept, args.png):
            print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
