"""Human-readable tables of a run: one per stage, then the verdict per submission."""
from __future__ import annotations

from pathlib import Path

from eval import timing
from reference import contract


def _fmt(value, spec: str) -> str:
    """format(value, spec), or a dash of the same width when the value is missing."""
    if value is None or value == "":
        width = "".join(ch for ch in spec.split(".")[0] if ch.isdigit())
        return format("-", f">{width}")
    return format(value, spec)


def status_of(row: dict, checked: bool) -> str:
    """pass / FAIL, or "not checked" for a row whose stage checks no output (predicted)."""
    return "FAIL" if not row["passed"] else "pass" if checked else "not checked"


def print_stage(path: Path, stage: str, rows: list[dict], texts: list[str], checked: bool = True) -> None:
    method = next((r.get("method") for r in rows if r.get("method")), "")
    width = 6 if checked else 11
    print(f"\n{path.name} · {stage}" + (f" · timing method {method}" if method else ""))
    print(f"  {'case':>4} {'m':>5} {'n':>5} {'k':>5} {'seed':>7}  {'status':{width}} {'mean us':>9} "
          f"{'err us':>7} {'best us':>9} {'TFLOP/s':>8} {'SOL x':>6} {'max err':>9}")
    for row in rows:
        sol = contract.speed_of_light_us(row["m"], row["n"], row["k"])
        ratio = row["mean_us"] / sol if row.get("mean_us") else None
        print(f"  {_fmt(row['case'], '>4')} {row['m']:>5} {row['n']:>5} {row['k']:>5} "
              f"{row['seed']:>7}  {status_of(row, checked):{width}} "
              f"{_fmt(row.get('mean_us'), '>9.1f')} {_fmt(row.get('err_us'), '>7.2f')} "
              f"{_fmt(row.get('best_us'), '>9.1f')} {_fmt(row.get('tflops'), '>8.1f')} "
              f"{_fmt(ratio, '>6.1f')} {_fmt(row.get('max_error'), '>9.2g')}")
    for row in rows:
        if not row["passed"]:
            detail = "\n      ".join(row["message"].splitlines())
            print(f"  case {_fmt(row['case'], '')} ({row['m']},{row['n']},{row['k']}) failed:\n      {detail}")
    for text in texts:
        print(text)


def stage_verdict(rows: list[dict], checked: bool = True) -> str:
    passed = sum(1 for r in rows if r["passed"])
    text = f"{passed}/{len(rows)} " + ("passed" if checked else "predicted, not checked")
    means = [r["mean_us"] for r in rows if r.get("mean_us")]
    if means and passed == len(rows):
        text += f", geometric mean {contract.geometric_mean(means):.1f} us"
    return text


def print_verdicts(rows: list[dict], submissions: list[Path], method: str = "") -> None:
    top = contract.load()["published_top_score_us"]
    print("\nverdict")
    for path in submissions:
        own = [r for r in rows if r["submission"] == path.stem]
        stages = dict.fromkeys(r["mode"] for r in own)
        parts = [f"{stage}: {stage_verdict([r for r in own if r['mode'] == stage], timing.checked(method, stage))}"
                 for stage in stages]
        print(f"  {path.name}: " + "; ".join(parts))
        board = [r for r in own if r["mode"] == "leaderboard"]
        if board and all(r["passed"] for r in board) and len(board) == len(contract.cases("benchmarks")):
            score = contract.geometric_mean([r["mean_us"] for r in board])
            what = "leaderboard score" if timing.checked(method, "leaderboard") else "predicted leaderboard score"
            print(f"  {path.name}: {what} {score:.1f} us (published top score {top} us)")
    timed = [r for r in rows if r["mean_us"] is not None]
    if len(submissions) > 1 and timed:
        from eval.compare import side_by_side

        print("\n" + side_by_side([r for r in rows if r["method"]]))
