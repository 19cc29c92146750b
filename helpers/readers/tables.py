"""Tables: tidy per-sample logs (CSV or Parquet, one file, many, or a hive-partitioned folder)
and scores tables (one row per model)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import polars as pl

from ..errors import DataError
from ._common import csv_header, numeric

SAMPLE_COLUMNS = {
    "step": pl.Int64,
    "benchmark": pl.String,
    "problem_id": pl.String,
    "sample_id": pl.Int64,
    "correct": pl.Boolean,
    "response_tokens": pl.Int64,
}


def scan_samples(paths: Sequence[str | Path], *, progress=None) -> pl.LazyFrame:
    """Lazy scan of one or many tidy per-sample tables (CSV or Parquet files, or hive-partitioned
    folders), checked for the required columns. `progress(i, n, path)` is called per file."""
    frames = []
    for i, raw in enumerate(paths, 1):
        path = Path(raw)
        if progress is not None:
            progress(i, len(paths), path)
        if path.is_dir():
            lf = pl.scan_parquet(path / "**" / "*.parquet", hive_partitioning=True)
        elif path.suffix == ".parquet":
            lf = pl.scan_parquet(path)
        elif path.suffix == ".csv":
            lf = pl.scan_csv(path, schema_overrides={"problem_id": pl.String})
        else:
            raise DataError(path, "a .csv or .parquet per-sample table, or a folder of Parquet")
        names = lf.collect_schema().names()
        missing = [c for c in SAMPLE_COLUMNS if c not in names]
        if missing:
            raise DataError(path, f"the columns {list(SAMPLE_COLUMNS)}", line=1, column=missing[0])
        # problem ids keep their own type (casting 50M ids to text costs more than the query)
        frames.append(
            lf.select(
                pl.col(c) if c in ("problem_id", "benchmark") else pl.col(c).cast(t)
                for c, t in SAMPLE_COLUMNS.items()
            )
        )
    if len(frames) == 1:  # keep the file's own types (a categorical benchmark stays cheap)
        return frames[0]
    return pl.concat(
        [
            f.with_columns(
                pl.col("benchmark").cast(pl.String), pl.col("problem_id").cast(pl.String)
            )
            for f in frames
        ]
    )


def read_scores(
    path: str | Path,
    *,
    size: str | None = None,
    family: str | None = None,
    model: str | None = None,
    benchmarks: Sequence[str] | None = None,
) -> pl.DataFrame:
    """A one-row-per-model table as long rows: model, family, size_b, benchmark, accuracy.

    Columns are found by name where not given: the first with 'size' in its name, one with
    'family', one named 'model' (else the first column). Benchmarks default to the numeric
    columns whose values all lie between 0 and 1 (accuracies as fractions)."""
    path = Path(path)
    header = csv_header(path)
    size = size or next((c for c in header if "size" in c.lower()), None)
    if size is None:
        raise DataError(path, "a model-size column", line=1, column="size")
    family = family or next((c for c in header if "family" in c.lower()), None)
    model = model or next((c for c in header if c.lower() == "model"), header[0])
    frame = pl.read_csv(path, infer_schema=False)
    if benchmarks is None:
        benchmarks = []
        for c in header:
            if c in {size, family, model}:
                continue
            values = frame[c].cast(pl.Float64, strict=False)
            is_numeric = values.is_not_null().sum() == frame[c].is_not_null().sum() > 0
            if is_numeric and values.min() >= 0 and values.max() <= 1:
                benchmarks.append(c)
    missing = [b for b in benchmarks if b not in header]
    if missing:
        raise DataError(
            path, f"the benchmark columns {list(benchmarks)}", line=1, column=missing[0]
        )
    scores = list(benchmarks)
    frame = numeric(path, frame, [size, *scores])
    return (
        frame.unpivot(
            index=[c for c in (model, family, size) if c],
            on=scores,
            variable_name="benchmark",
            value_name="accuracy",
        )
        .rename({model: "model", size: "size_b", **({family: "family"} if family else {})})
        .drop_nulls("accuracy")
    )
