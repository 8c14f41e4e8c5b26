"""Measured kernel times in the calibration set's schema (predictor/data/README.md): reading
with a clear error for a bad file, and the seeded sample an evaluation may take.

    rows = read(path)               # every row, validated, with the kernel it timed
    rows = sample(rows, 1000, seed) # a deterministic random subset, in file order
    rows = one_per_config(rows, seed) # every configuration once, on a shape drawn for it
"""
from __future__ import annotations

import csv
import math
import random
from dataclasses import dataclass, replace
from pathlib import Path

from predictor.sweep import Config

CALIBRATION_SET = Path(__file__).with_name("data") / "mi300x_sweep_calibration.csv"
COLUMNS = ("results_line", "section", "m", "n", "k", "block_m", "block_n", "block_k", "mfma_m", "mfma_n", "mfma_k",
           "pipeline_depth", "fused_transpose", "block_size", "gemm_kernel_us", "transpose_kernel_us")
INTEGERS = COLUMNS[:-2]


class MeasurementsError(ValueError):
    """The file is not in the calibration schema; the message names the file, row and column."""


@dataclass(frozen=True)
class Row:
    line: int            # line of the row in its file (the header is line 1)
    shape: tuple[int, int, int]
    config: Config       # the kernel that was timed (timed_config)
    gemm_kernel_us: float
    labelled: Config     # the configuration as the row's columns name it

    @property
    def shape_name(self) -> str:
        return "x".join(map(str, self.shape))


def timed_config(section: int, labelled: Config) -> Config:
    """The kernel a row timed. Section 3 of the calibration set (pipeline depth 2) timed the fused
    GEMM kernel in both of its halves, whatever fused_transpose says: its rows labelled separate
    and fused agree within 2% in 427 of 594 pairs (median ratio 1.001, while fused costs 11-19%
    at depths 0 and 1), and against depth 1 the separate-labelled ones vary as the fused kernel
    does (predictor/data/README.md)."""
    return replace(labelled, fused_transpose=True) if section == 3 else labelled


def read(path: Path, as_labelled: bool = False) -> list[Row]:
    """Every row, validated; each row's config is the kernel it timed (timed_config), or the
    configuration its columns name with as_labelled."""
    path = Path(path)
    try:
        handle = path.open(newline="")
    except OSError as exc:
        raise MeasurementsError(f"{path}: cannot read it ({exc.strerror})") from None
    with handle:
        reader = csv.DictReader(handle)
        missing = [c for c in COLUMNS if c not in (reader.fieldnames or [])]
        if missing:
            raise MeasurementsError(f"{path}: missing column(s) {', '.join(missing)}; the calibration schema is "
                                    f"{', '.join(COLUMNS)} (predictor/data/README.md)")
        rows = [_row(path, line, record, as_labelled) for line, record in enumerate(reader, 2)]
    if not rows:
        raise MeasurementsError(f"{path}: no rows")
    return rows


def _row(path: Path, line: int, record: dict, as_labelled: bool) -> Row:
    def bad(column: str, why: str) -> MeasurementsError:
        return MeasurementsError(f"{path}:{line}: column {column} = {record.get(column)!r}: {why}")

    values = {}
    for column in INTEGERS:
        try:
            values[column] = int(record[column])
        except (TypeError, ValueError):
            raise bad(column, "expected an integer") from None
        if values[column] < (0 if column in ("fused_transpose", "pipeline_depth") else 1):
            raise bad(column, "out of range")
    if values["fused_transpose"] not in (0, 1):
        raise bad("fused_transpose", "expected 0 or 1")
    try:
        us = float(record["gemm_kernel_us"])
    except (TypeError, ValueError):
        raise bad("gemm_kernel_us", "expected a number of microseconds") from None
    if not (math.isfinite(us) and us > 0):
        raise bad("gemm_kernel_us", "expected a positive time")
    transpose = (record["transpose_kernel_us"] or "").strip()
    try:
        if transpose and not float(transpose) > 0:
            raise ValueError
    except ValueError:
        raise bad("transpose_kernel_us", "expected a positive time or nothing") from None
    labelled = Config.of(values)
    timed = labelled if as_labelled else timed_config(values["section"], labelled)
    return Row(line, (values["m"], values["n"], values["k"]), timed, us, labelled)


def build_universe(rows: list[Row]) -> list[Config]:
    """The configurations the file names, which hold every kernel its rows timed: the build
    batches are dealt from these, so every reading of the file shares one set of builds."""
    return [row.labelled for row in rows]


def sample(rows: list[Row], count: int | None, seed: int, groups: list[list[Config]] | None = None) -> list[Row]:
    """`count` rows drawn with `seed` (all of them when count is None or too large), in file
    order; the same file, count, seed and groups always give the same rows. Whole configurations
    are drawn at random, each with all its rows (every shape it was measured on), until `count`
    rows, so that every shape's rank correlation is taken over the same configurations. Builds
    cost per group of configurations compiled together (`groups`, the build batches, when
    given): then whole groups are drawn at random, their configurations in random order, so a
    sample needs the builds of as few groups as its size allows."""
    if count is None or count >= len(rows):
        return list(rows)
    if count < 1:
        raise MeasurementsError(f"--sample {count}: need at least one row")
    by_config: dict[Config, list[int]] = {}
    for index, row in enumerate(rows):
        by_config.setdefault(row.config, []).append(index)
    draw = random.Random(seed)
    if groups is None:
        configs = sorted(by_config)
        draw.shuffle(configs)
    else:
        ordered = [sorted(c for c in group if c in by_config) for group in groups]
        draw.shuffle(ordered)
        configs = []
        for group in ordered:
            draw.shuffle(group)
            configs += group
        grouped = set(configs)
        configs += sorted(c for c in by_config if c not in grouped)  # configurations in no group last
    chosen: list[int] = []
    for config in configs:
        chosen += by_config[config][:count - len(chosen)]
        if len(chosen) == count:
            break
    return [rows[i] for i in sorted(chosen)]


def one_per_config(rows: list[Row], seed: int) -> list[Row]:
    """One row of each configuration, drawn with `seed` among its rows (its shapes), in file
    order: every configuration built and launched once, at a ninth of the predictions."""
    by_config: dict[Config, list[Row]] = {}
    for row in rows:
        by_config.setdefault(row.config, []).append(row)
    draw = random.Random(seed)
    return sorted((draw.choice(by_config[config]) for config in sorted(by_config)), key=lambda row: row.line)
