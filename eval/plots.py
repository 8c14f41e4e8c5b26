"""Bar charts of report rows: one PNG per (mode, method, shape) and one geomean summary.

Everything drawn comes from the rows (through eval.compare) and the contract; nothing is
hard-coded here.
"""
from __future__ import annotations

from pathlib import Path

import matplotlib

matplotlib.use("Agg")  # files only; never needs a display
import matplotlib.pyplot as plt  # noqa: E402  (after choosing the backend)

from eval.compare import Group, Shape, group_rows  # noqa: E402
from reference.contract import load  # noqa: E402

PASS_COLOR, FAIL_COLOR = "tab:blue", "tab:red"


def _bars(ax, labels: list[str], values: list[float | None], passed: list[bool], unit: str):
    """Bars with their value printed on top; a failed result is red, a missing one says
    so instead of drawing a zero that would read as infinitely fast."""
    xs = range(len(labels))
    heights = [v or 0.0 for v in values]
    ax.bar(xs, heights, color=[PASS_COLOR if ok else FAIL_COLOR for ok in passed])
    for x, value, ok in zip(xs, values, passed):
        text = "not timed" if value is None else f"{value:.3g}{unit}" + ("" if ok else "\nFAIL")
        ax.annotate(text, (x, value or 0.0), ha="center", va="bottom", fontsize=8,
                    xytext=(0, 2), textcoords="offset points")
    ax.set_xticks(list(xs), labels, rotation=20, ha="right", fontsize=8)
    ax.margins(y=0.18)


def _two_panels(title: str):
    fig, (time_ax, sol_ax) = plt.subplots(1, 2, figsize=(10, 4.2))
    fig.suptitle(title, fontsize=10)
    time_ax.set_ylabel("mean time (us), lower is better")
    sol_ax.set_ylabel("mean / speed of light, 1 = SOL")
    sol_ax.axhline(1.0, color="black", linewidth=0.8, linestyle=":")
    return fig, time_ax, sol_ax


def _shape_chart(group: Group, shape: Shape, path: Path) -> Path:
    subs = group.submissions
    cells = [group.cell(shape, sub) for sub in subs]
    passed = [cell is not None and cell.passed for cell in cells]
    fig, time_ax, sol_ax = _two_panels(
        f"m={shape[0]} n={shape[1]} k={shape[2]}   mode={group.mode} method={group.method or '-'}")
    _bars(time_ax, subs, [cell.mean_us if cell else None for cell in cells], passed, "")
    _bars(sol_ax, subs, [group.sol_ratio(shape, sub) for sub in subs], passed, "x")
    return _save(fig, path)


def _summary_chart(group: Group, path: Path) -> Path:
    subs = group.submissions
    kept, total = len(group.common_shapes()), len(group.shapes)
    sol = group.geomean_sol_us()
    means = [group.geomean_us(sub) for sub in subs]
    fig, time_ax, sol_ax = _two_panels(
        f"geomean over {kept} of {total} shapes (all submissions passed)   "
        f"mode={group.mode} method={group.method or '-'}")
    _bars(time_ax, subs, means, [True] * len(subs), "")
    _bars(sol_ax, subs, [m / sol if m and sol else None for m in means], [True] * len(subs), "x")
    if group.covers_benchmarks():
        # Same shape set as the leaderboard score, so the line is a like-for-like target.
        top = float(load()["published_top_score_us"])
        time_ax.axhline(top, color="tab:green", linestyle="--",
                        label=f"published top score, MI300X ({top:.1f} us)")
        time_ax.legend(fontsize=8)
    return _save(fig, path)


def _save(fig, path: Path) -> Path:
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path


def write_charts(rows: list[dict], out_dir: str | Path) -> list[Path]:
    """Write the charts of every timed (mode, method) group; returns the files written."""
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    written = []
    for group in group_rows(rows):
        if not group.timed:
            continue
        prefix = f"{group.mode or 'nomode'}_{group.method or 'untimed'}"
        for m, n, k in group.shapes:
            written.append(_shape_chart(group, (m, n, k), out / f"{prefix}_m{m}_n{n}_k{k}.png"))
        written.append(_summary_chart(group, out / f"{prefix}_geomean.png"))
    return written
