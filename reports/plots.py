"""Charts of a report frame: one PNG per group (mode, method, device, engine).

A figure has two panels, mean time and mean / speed of light, with one bar per submission
at every shape and at the geomean, on linear axes from zero (a 1.2x gap looks like one), each
bar of a later submission labelled with its speedup over the first; the title carries the
geomean speedups (and, for predicted times, how often such a gap held on measured MI300X
times). Everything drawn comes from the frame (through eval.comparison), the schema's units
and the contract; nothing is hard-coded here.
"""
from __future__ import annotations

import re
import textwrap
from pathlib import Path

import pandas as pd
# A bare Figure, not pyplot: needs no display here, and leaves a notebook's backend alone.
from matplotlib.figure import Figure

from eval.comparison import (Group, common_shapes, covers_benchmarks, geomeans, groups, is_timed, pivot,
                             speedup_notes)
from eval.report import SCHEMA
from reference.contract import load

FAIL_HATCH, FAIL_EDGE = "//", "tab:red"


def _panel_data(table: pd.DataFrame, metric: str) -> pd.DataFrame:
    """One metric per shape, then its geomean, with readable shape labels."""
    per_shape = table[metric].copy()
    per_shape.index = [f"{m}x{n}x{k}" for m, n, k in table.index]
    summary = geomeans(table)[metric].rename(
        f"geomean\n({len(common_shapes(table))} of {len(table)})")
    return pd.concat([per_shape, summary.to_frame().T])


def _mark_failures(ax, table: pd.DataFrame) -> None:
    """Hatch the bars of failed results: a fast wrong kernel must not look like a win."""
    failed = ~table["passed"].fillna(True).astype(bool)
    for container, submission in zip(ax.containers, failed.columns):
        for bar, fail in zip(container.patches, failed[submission]):
            if fail:
                bar.set_hatch(FAIL_HATCH)
                bar.set_edgecolor(FAIL_EDGE)


def _label_speedups(ax, speedups: pd.DataFrame) -> None:
    """Each bar of a submission after the first, labelled with its speedup over the first."""
    for container, submission in list(zip(ax.containers, speedups.columns))[1:]:
        ax.bar_label(container, labels=["" if pd.isna(v) else f"{v:.2f}x" for v in speedups[submission]],
                     fontsize=7, padding=2)


def figure(group: Group, table: pd.DataFrame):
    """The chart of one group's pivot table (eval.comparison.pivot)."""
    shapes, submissions = len(table), table["mean_us"].shape[1]
    width = min(40.0, max(8.0, 4.0 + 0.3 * (shapes + 1) * max(2, submissions)))
    fig = Figure(figsize=(width, 8))
    time_ax, sol_ax = fig.subplots(2, 1, sharex=True)
    kind = "predicted" if group.predicted else "mean"
    legend = ("hatched: failed the check; no bar: not run or untimed; "
              "geomean over the shapes every submission passed")
    title = [group.title, *speedup_notes(group, table), legend]
    fig.suptitle("\n".join(line for text in title for line in textwrap.wrap(text, int(width * 12))), fontsize=10)
    _panel_data(table, "mean_us").plot.bar(ax=time_ax, width=0.8)
    time_ax.set_ylim(bottom=0)
    time_ax.set_ylabel(f"{kind} time ({SCHEMA['mean_us'].unit}), lower is better")
    _label_speedups(time_ax, _panel_data(table, "speedup"))
    _panel_data(table, "xsol").plot.bar(ax=sol_ax, width=0.8, legend=False, rot=30)
    sol_ax.set_ylim(bottom=0)
    sol_ax.set_ylabel(f"{kind} / MI300X speed of light")
    sol_ax.axhline(1.0, color="black", linewidth=0.8, linestyle=":")
    for ax in (time_ax, sol_ax):
        _mark_failures(ax, table)
    if covers_benchmarks(table):
        # Same shape set as the leaderboard score, so it is a like-for-like target there.
        top = float(load()["published_top_score_us"])
        time_ax.hlines(top, shapes - 0.45, shapes + 0.45, color="tab:green", linestyle="--",
                       label=f"published top score, MI300X ({top:.1f} us)")
    time_ax.legend(fontsize=8)
    fig.tight_layout()
    return fig


def file_name(group: Group) -> str:
    parts = [group.mode or "nomode", group.method or "untimed", group.device or "nodevice", group.engine]
    return "_".join(re.sub(r"[^A-Za-z0-9.]+", "-", part) for part in parts) + ".png"


def write_charts(frame: pd.DataFrame, out_dir: str | Path) -> list[Path]:
    """Write the chart of every timed group of a report frame; returns the files written."""
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    written = []
    for group, rows in groups(frame):
        table = pivot(rows)
        if not is_timed(table):
            continue
        fig = figure(group, table)
        # The title also goes into the PNG's text chunk, where tools (and tests) can read it.
        fig.savefig(out / file_name(group), dpi=110, metadata={"Title": group.title})
        written.append(out / file_name(group))
    return written
