"""Human-readable tables of a run: one per stage, then the verdict per submission."""
from __future__ import annotations

from collections import Counter
from pathlib import Path

from eval import timing
from reference import contract
from reference.check import readable


def _fmt(value, spec: str) -> str:
    """format(value, spec), or a dash of the same width when the value is missing."""
    if value is None or value == "":
        width = "".join(ch for ch in spec.split(".")[0] if ch.isdigit())
        return format("-", f">{width}")
    return format(value, spec)


def checked(rows: list[dict]) -> bool:
    """Whether these rows' outputs were checked: predicted stages check none (each timed launch
    runs only the busiest CU's workgroups); their test stage does."""
    return all(timing.checked(r.get("method") or "", r["mode"]) for r in rows)


def status_of(row: dict) -> str:
    """pass / FAIL, or "not checked" for a row whose stage checks no output (predicted)."""
    return "FAIL" if not row["passed"] else "pass" if checked([row]) else "not checked"


def print_stage(path: Path, stage: str, rows: list[dict], texts: list[str]) -> None:
    method = next((r.get("method") for r in rows if r.get("method")), "")
    width = 6 if checked(rows) else 11
    print(f"\n{path.name} · {stage}" + (f" · timing method {method}" if method else ""))
    print(f"  {'case':>4} {'m':>5} {'n':>5} {'k':>5} {'seed':>7}  {'status':{width}} {'mean us':>9} "
          f"{'err us':>7} {'best us':>9} {'TFLOP/s':>8} {'SOL x':>6} {'max err':>9}")
    for row in rows:
        sol = contract.speed_of_light_us(row["m"], row["n"], row["k"])
        # NOTE: the speed of light is an MI300X's: against an emulator's CPU time it means nothing
        on_mi300x = row.get("engine") == "gpu" or row.get("method") == timing.PREDICTED
        ratio = row["mean_us"] / sol if row.get("mean_us") and on_mi300x else None
        print(f"  {_fmt(row['case'], '>4')} {row['m']:>5} {row['n']:>5} {row['k']:>5} "
              f"{row['seed']:>7}  {status_of(row):{width}} "
              f"{_fmt(row.get('mean_us'), '>9.1f')} {_fmt(row.get('err_us'), '>7.2f')} "
              f"{_fmt(row.get('best_us'), '>9.1f')} {_fmt(row.get('tflops'), '>8.1f')} "
              f"{_fmt(ratio, '>6.1f')} {_fmt(row.get('max_error'), '>9.2g')}")
    for row in rows:
        if not row["passed"]:
            detail = "\n      ".join(readable(row["message"]))
            print(f"  case {_fmt(row['case'], '')} ({row['m']},{row['n']},{row['k']}) failed:\n      {detail}")
    for text in texts:
        print(text)


def stage_verdict(rows: list[dict]) -> str:
    passed = sum(1 for r in rows if r["passed"])
    text = f"{passed}/{len(rows)} " + ("passed" if checked(rows) else "predicted, not checked")
    means = [r["mean_us"] for r in rows if r.get("mean_us")]
    if means and passed == len(rows):
        text += f", geometric mean {contract.geometric_mean(means):.1f} us"
    return text


# The bot's short report of a run (kernelbot's make_short_report): one line per stage it ran.
_SHORT_REPORT = {"test": ("Testing successful", "Testing failed"),
                 "benchmark": ("Benchmarking successful", "Benchmarking failed"),
                 "leaderboard": ("Leaderboard run successful", "Leaderboard run failed")}


def short_report(rows: list[dict]) -> list[str]:
    """The bot's lines; a predicted stage, which checks nothing, says so instead."""
    lines = []
    for stage in dict.fromkeys(r["mode"] for r in rows):
        own = [r for r in rows if r["mode"] == stage]
        good, bad = _SHORT_REPORT[stage]
        if not all(r["passed"] for r in own):
            lines.append(f"❌ {bad}")
        elif checked(own):
            lines.append(f"✅ {good}")
        else:
            lines.append(f"{stage}: predicted, not checked (the test stage checks)")
    return lines


def print_secret_run(path: Path, device: str, seed: int, random: bool, rows: list[dict]) -> None:
    """The secret-seed run as the bot shows it: its title and the short report, no cases."""
    origin = f"random; repeat it with --secret-seed {seed}" if random else "--secret-seed"
    print(f"\n{path.name} · secret-seed run (seed {seed}, {origin}) · all the bot shows of it")
    print(f"  {device} (secret)" if checked(rows) else "  predicted MI300X times (secret), from the CPU's ISA engine")
    for line in short_report(rows):
        print(f"  {line}")
    print(f"  (each case is in the report, rows with secret_seed {seed})")


def print_verdicts(rows: list[dict], submissions: list[Path], secret_rows: list[dict] = (),
                   device: str = "", refused: dict[Path, str] | None = None) -> None:
    """Per submission: the pre-flight's refusal if any, each stage's verdict, the secret-seed
    run's (ranked), and the score, which the bot publishes only when that run passed too."""
    print("\nverdict")
    for path in submissions:
        if path in (refused or {}):
            print(f"  {path.name}: refused by the pre-flight, nothing ran: {refused[path]}")
            continue
        own = [r for r in rows if r["submission"] == path.stem]
        print(f"  {path.name}: " + _stages_text(own))
        secret = [r for r in secret_rows if r["submission"] == path.stem]
        if secret:
            print(f"  {path.name}: secret-seed run (seed {secret[0]['secret_seed']}): " + _stages_text(secret))
        hidden = secret and not (all(r["passed"] for r in secret) and "leaderboard" in {r["mode"] for r in secret})
        board = [r for r in own if r["mode"] == "leaderboard"]
        if hidden:
            print(f"  {path.name}: secret validation failed on {device}; submission will not appear on the leaderboard")
        elif board and all(r["passed"] for r in board):
            print(f"  {path.name}: " + _score_text(board))
    timed = [r for r in rows if r["mean_us"] is not None]
    if len(submissions) > 1 and timed:
        from eval.comparison import side_by_side

        print("\n" + side_by_side([r for r in rows if r["method"]]))


def _score_text(board: list[dict]) -> str:
    """A passed leaderboard stage's score beside the published top score, when the stage ran the
    benchmark shapes the score is over; else how many of them it ran, and no score: the geometric
    mean of a subset (--shapes) is not comparable with the published one."""
    what = "leaderboard score" if checked(board) else "predicted leaderboard score"
    published = Counter((c.m, c.n, c.k) for c in contract.cases("benchmarks"))
    ran = Counter((r["m"], r["n"], r["k"]) for r in board)
    if ran == published:
        score = contract.geometric_mean([r["mean_us"] for r in board])
        return f"{what} {score:.1f} us (published top score {contract.load()['published_top_score_us']} us)"
    total, inside = sum(published.values()), sum((ran & published).values())
    others = f" and {len(board) - inside} other shape(s)" if len(board) > inside else ""
    return f"no {what}: the leaderboard stage ran {inside} of the {total} benchmark shapes{others}; the score is over all {total}"


def _stages_text(rows: list[dict]) -> str:
    stages = dict.fromkeys(r["mode"] for r in rows)
    return "; ".join(f"{stage}: {stage_verdict([r for r in rows if r['mode'] == stage])}" for stage in stages)
