"""Weights & Biases history exports: one CSV row per step, one column per metric."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from pathlib import Path

import polars as pl

from ..errors import DataError
from ._common import csv_header, numeric

VAL_PREFIX = "val/test_score/"
LENGTH_COLUMN = "response_length/mean"


def _frame(path: Path, wanted: Iterable[str]) -> pl.DataFrame:
    header = csv_header(path)
    if "_step" not in header:
        raise DataError(path, "a '_step' column (a W&B history export)", line=1, column="_step")
    columns = ["_step", *[c for c in header if c in set(wanted)]]
    frame = pl.read_csv(path, columns=columns, infer_schema=False)
    frame = numeric(path, frame, columns)
    if frame["_step"].is_null().any():
        row = int(frame["_step"].is_null().arg_true()[0])
        raise DataError(path, "a step number on every row", line=row + 2, column="_step", got="")
    dup = frame["_step"].is_duplicated()
    if dup.any():
        rows = dup.arg_true().to_list()
        raise DataError(
            path,
            f"each step once (also on line {rows[0] + 2})",
            line=rows[1] + 2,
            column="_step",
            got=frame["_step"][rows[1]],
        )
    return frame.with_columns(pl.col("_step").cast(pl.Int64)).rename({"_step": "step"})


def benchmark_names(path: str | Path, prefix: str = VAL_PREFIX) -> list[str]:
    """Benchmark names in an export: the validation columns without their prefix."""
    return [c.removeprefix(prefix) for c in csv_header(Path(path)) if c.startswith(prefix)]


def read_scores(
    path: str | Path, *, prefix: str = VAL_PREFIX, benchmarks: Sequence[str] | None = None
) -> pl.DataFrame:
    """Validation scores as step, benchmark, score (one row per logged value)."""
    path = Path(path)
    names = benchmark_names(path, prefix)
    if benchmarks is not None:
        unknown = sorted(set(benchmarks) - set(names))
        if unknown:
            raise DataError(path, f"benchmarks among {names}", line=1, column=prefix + unknown[0])
        names = [n for n in names if n in set(benchmarks)]
    if not names:
        raise DataError(path, f"validation columns named '{prefix}<benchmark>'", line=1)
    frame = _frame(path, [prefix + n for n in names])
    return (
        frame.unpivot(index="step", variable_name="benchmark", value_name="score")
        .with_columns(pl.col("benchmark").str.strip_prefix(prefix))
        .drop_nulls("score")
        .sort("benchmark", "step", maintain_order=True)
    )


def read_metric(path: str | Path, column: str = LENGTH_COLUMN) -> pl.DataFrame:
    """One training metric as step, value."""
    path = Path(path)
    if column not in csv_header(path):
        raise DataError(path, f"a '{column}' column", line=1, column=column)
    return _frame(path, [column]).rename({column: "value"}).drop_nulls("value").sort("step")


def has_column(path: str | Path, column: str) -> bool:
    return column in csv_header(Path(path))
