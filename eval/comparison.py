"""Side-by-side comparison of submissions, from a report frame (eval/report.py schema).

Rows are compared only with rows of the same mode, timing method, device and engine
(`groups`): a leaderboard-loop time, an events time, a cold-cache time, a predicted time,
a time on another device or on a CPU engine measure different things, so each such group
gets its own table and chart. Inside a group, `pivot` gives one
line per shape (m, n, k) and one column per submission, in order of first appearance;
`geomeans` summarises it. `side_by_side` prints all groups: eval/summary.py calls it with the
rows of a run, `python reports/compare.py` with the rows of report CSVs.
"""
from __future__ import annotations

import math
from pathlib import Path
from typing import NamedTuple

import pandas as pd

from predictor import ranking
from eval.report import frame_from_rows
from reference.contract import cases, geometric_mean, load, speed_of_light_us

SHAPE = ["m", "n", "k"]
PREDICTED = "predicted"  # the method of predictor/ times: never to be read as a measurement
GPU = "gpu"              # the engine of rows that ran on a real GPU; the others are CPU engines


class Group(NamedTuple):
    """What must be equal for two rows to be compared."""

    mode: str
    method: str
    device: str
    engine: str

    @property
    def predicted(self) -> bool:
        return self.method == PREDICTED

    @property
    def title(self) -> str:
        return (f"mode={self.mode or '-'} method={self.method or '-'} device={self.device or '-'} "
                f"engine={self.engine}"
                + (" [PREDICTED MI300X times (predictor/), not measured]" if self.predicted else "")
                + (" [run on the CPU: the times say nothing about a GPU]" if self.on_cpu and not self.predicted
                   else ""))

    @property
    def on_cpu(self) -> bool:
        return self.engine not in ("", GPU)


def groups(frame: pd.DataFrame) -> list[tuple[Group, pd.DataFrame]]:
    """The frame split by Group, in order of first appearance; a missing key (an untimed
    mode's method, an engine not recorded) is "" and forms a group of its own."""
    split = frame.groupby(list(Group._fields), sort=False, observed=True, dropna=False)
    return [(Group(*("" if pd.isna(v) else str(v) for v in key)), rows) for key, rows in split]


def labels(frame: pd.DataFrame) -> pd.Series:
    """A column label per row: the submission name; prefixed with its file's stem when
    the same name and hash were already read from an earlier file (one submission
    measured in two runs); suffixed with its hash when one name has several versions
    (e.g. submission.py before and after an edit); suffixed with the secret seed for rows
    of a secret-seed run (`ranked` holds both runs of the same shapes)."""
    names = frame["submission"].astype(str)
    secret = frame["secret_seed"]
    names = names.where(secret.isna(), names + " [secret " + secret.astype("string") + "]")
    hashes = frame["submission_hash"].astype(str)
    if "file" in frame.index.names:  # read by report.read_frame
        files = pd.Series(frame.index.get_level_values("file"), index=frame.index)
        earliest = files.groupby([names, hashes]).transform("first")
        names = names.where(files == earliest, files.map(lambda p: Path(p).stem) + ":" + names)
    versions = hashes.groupby(names).transform("nunique")
    return names.where(versions == 1, names + "@" + hashes.replace("", "?"))


def pivot(rows: pd.DataFrame) -> pd.DataFrame:
    """One group's rows as a table: index (m, n, k) in order of first appearance; columns
    (metric, submission) for the metrics mean_us, passed, speedup (the first submission's
    mean / this mean, above 1 is faster) and xsol (mean / MI300X speed of light). A
    submission that did not run a shape has NaN there and <NA> as `passed`."""
    group = _one_group(rows)
    rows = rows.assign(label=labels(rows).to_numpy())
    doubled = rows[rows.duplicated(SHAPE + ["label"])]
    if len(doubled):
        row = doubled.iloc[0]
        # Keeping either row silently would hide a mixed-up input.
        raise ValueError(f"two rows for {row['label']} at m={row['m']} n={row['n']} k={row['k']} "
                         f"({group.title})")
    shapes = pd.MultiIndex.from_frame(rows[SHAPE].drop_duplicates())
    submissions = list(dict.fromkeys(rows["label"]))
    wide = rows.pivot(index=SHAPE, columns="label", values=["mean_us", "passed"])
    mean = wide["mean_us"].reindex(index=shapes, columns=submissions).astype("float64")
    passed = wide["passed"].reindex(index=shapes, columns=submissions).astype("boolean")
    table = pd.concat({"mean_us": mean, "passed": passed,
                       "speedup": mean.rdiv(mean[submissions[0]], axis=0),
                       "xsol": mean.div(_speed_of_light(shapes), axis=0)}, axis=1)
    table.columns.names = ["metric", "submission"]
    return table


def _one_group(rows: pd.DataFrame) -> Group:
    found = groups(rows)
    if len(found) != 1:
        raise ValueError(f"pivot takes the rows of one group, got {len(found)}: "
                         + "; ".join(group.title for group, _ in found)
                         + " (split them with compare.groups)")
    return found[0][0]


def _speed_of_light(shapes: pd.Index) -> pd.Series:
    return pd.Series([speed_of_light_us(*shape) for shape in shapes], index=shapes, dtype="float64")


def common_shapes(table: pd.DataFrame) -> pd.Index:
    """Shapes every submission passed with a timing: the only fair geomean basis."""
    ok = table["passed"].fillna(False).astype(bool) & table["mean_us"].notna()
    return table.index[ok.all(axis=1)]


def geomeans(table: pd.DataFrame) -> pd.DataFrame:
    """Per submission, over `common_shapes`: geometric mean time, its speedup over the
    first submission and its ratio to the geomean speed of light (NaN when no shape is
    common)."""
    common = common_shapes(table)
    submissions = table["mean_us"].columns
    if len(common) == 0:
        nan = pd.Series(float("nan"), index=submissions)
        return pd.DataFrame({"mean_us": nan, "speedup": nan, "xsol": nan})
    means = table["mean_us"].loc[common].apply(geometric_mean)
    sol = geometric_mean(_speed_of_light(common))
    return pd.DataFrame({"mean_us": means, "speedup": means.iloc[0] / means, "xsol": means / sol})


def covers_benchmarks(table: pd.DataFrame) -> bool:
    """True when the geomean basis is exactly the published benchmark shapes, so the
    published top score is a like-for-like reference."""
    return set(common_shapes(table)) == {(c.m, c.n, c.k) for c in cases("benchmarks")}


def is_timed(table: pd.DataFrame) -> bool:
    return bool(table["mean_us"].notna().any().any())


# -- text table -------------------------------------------------------------------------

_SHAPE_HEAD = f"{'m':>5} {'n':>5} {'k':>5}"
_SUB_HEAD = f"{'mean_us':>10} {'pass':<4} {'speedup':>7} {'xSOL':>6}"


def _num(value, fmt: str, suffix: str = "") -> str:
    return "-" if pd.isna(value) else format(value, fmt) + suffix


def _cell_text(table: pd.DataFrame, shape: tuple, submission: str, checked: bool) -> str:
    """A submission's cell; `checked`: whether the group's rows checked outputs ("-" in the pass
    column of a predicted time, which checks none)."""
    passed = table["passed"].at[shape, submission]
    if pd.isna(passed):
        return f"{'-':>10} {'n/a':<4} {'-':>7} {'-':>6}"
    return (f"{_num(table['mean_us'].at[shape, submission], '.2f'):>10} "
            f"{('ok' if checked else '-') if passed else 'FAIL':<4} "
            f"{_num(table['speedup'].at[shape, submission], '.2f', 'x'):>7} "
            f"{_num(table['xsol'].at[shape, submission], '.1f'):>6}")


def _geomean_text(summary: pd.DataFrame, submission: str) -> str:
    row = summary.loc[submission]
    return (f"{_num(row['mean_us'], '.2f'):>10} {'':<4} {_num(row['speedup'], '.2f', 'x'):>7} "
            f"{_num(row['xsol'], '.1f'):>6}")


def group_table(group: Group, table: pd.DataFrame) -> str:
    """The text block of one group's pivot table."""
    submissions = list(table["mean_us"].columns)
    width = len(_SUB_HEAD)
    names = " | ".join(f"{sub[:width]:<{width}}" for sub in submissions)
    lines = [f"{group.title} (speedup vs {submissions[0]}; xSOL = mean / MI300X speed of light)",
             f"{'':17} | {names}",
             f"{_SHAPE_HEAD} | " + " | ".join(_SUB_HEAD for _ in submissions)]
    for shape in table.index:
        cells = " | ".join(_cell_text(table, shape, sub, not group.predicted) for sub in submissions)
        lines.append(f"{shape[0]:>5} {shape[1]:>5} {shape[2]:>5} | {cells}")
    if is_timed(table):
        summary = geomeans(table)
        lines.append(f"{'geomean':<17} | " + " | ".join(_geomean_text(summary, sub) for sub in submissions))
        kept, total = len(common_shapes(table)), len(table)
        if kept < total:
            lines.append(f"  geomean over {kept} of {total} shapes: {total - kept} dropped "
                         "because a submission failed, was untimed or did not run them")
        lines += [f"  {note}" for note in speedup_notes(group, table) if group.predicted]
    return "\n".join(lines)


def speedup_notes(group: Group, table: pd.DataFrame) -> list[str]:
    """Each submission's geomean speedup over the first, with, for predicted times, how often a
    predicted gap that large held on measured MI300X times (predictor/ranking.py)."""
    first = table["mean_us"].columns[0]
    return [f"{sub} {speedup:.2f}x vs {first}" + (f", predicted: {ranking.gap_note(speedup)}" if group.predicted else "")
            for sub, speedup in geomeans(table)["speedup"].iloc[1:].items() if math.isfinite(speedup)]


def side_by_side(report: pd.DataFrame | list[dict]) -> str:
    """The comparison text of a report frame (or of the harness's row dicts), one block
    per group."""
    frame = report if isinstance(report, pd.DataFrame) else frame_from_rows(report)
    tables = [(group, pivot(rows)) for group, rows in groups(frame)]
    if not any(is_timed(table) for _, table in tables):
        raise ValueError("no row has a timing (mean_us); nothing to compare")
    blocks = [group_table(group, table) for group, table in tables]
    if len(tables) > 1:
        blocks.insert(0, f"{len(tables)} tables: rows of different mode, method, device or "
                         "engine are never compared with each other (keep one with "
                         "--mode, --method, --device, --engine)")
    blocks.append(published_score_note([table for _, table in tables if is_timed(table)]))
    return "\n\n".join(blocks)


def published_score_note(timed: list[pd.DataFrame]) -> str:
    """The published top score, when every geomean row above is over the benchmark shapes; else
    a line saying the rows are over a subset (a geomean of some shapes is not comparable)."""
    total = len(cases("benchmarks"))
    if all(covers_benchmarks(table) for table in timed):
        return (f"published top score: {float(load()['published_top_score_us']):.3f} us "
                f"(geomean of leaderboard-mode means over the {total} benchmark shapes, MI300X)")
    kept = sorted({len(common_shapes(table)) for table in timed if not covers_benchmarks(table)})
    return (f"geomean over {' or '.join(map(str, kept))} shapes, not the {total} benchmark shapes: "
            f"not comparable with the published top score (a geomean over all {total})")
