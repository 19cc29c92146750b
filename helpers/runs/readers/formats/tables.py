"""Tidy per-sample logs (CSV or Parquet, one file, many, or a hive-partitioned folder)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import polars as pl

from helpers.errors import DataError
from helpers.runs.readers._common import csv_line, files_in, text_only
from helpers.runs.readers.format import Format
from helpers.runs.readers.loaded import SampleLog

SAMPLE_COLUMNS = {
    "step": pl.Int64,
    "benchmark": pl.String,
    "problem_id": pl.String,
    "sample_id": pl.Int64,
    "correct": pl.Boolean,
    "response_tokens": pl.Int64,
}


TRUE, FALSE = ("true", "1"), ("false", "0")  # accepted spellings of `correct`, any case
# optional beside them: a reward per sample that need not be 0 or 1 (partial credit, a reward
# model's score); where one is not 0 or 1, runs are compared and charted by mean reward
REWARD = "reward"


def scan_table(path: Path, file_column: str | None = None) -> pl.LazyFrame:
    """A lazy scan; `file_column` adds each row's file (to name it in an error)."""
    try:
        if path.is_dir():  # the files listed here: polars' own glob follows link loops
            files = files_in(path, (".parquet",))[0]
            if not files:
                raise DataError(path, "Parquet files in the folder; found none")
            lf = pl.scan_parquet(files, hive_partitioning=True, include_file_paths=file_column)
        elif path.suffix == ".parquet":
            lf = pl.scan_parquet(path, include_file_paths=file_column)
        elif path.suffix == ".csv":
            # as text: each column is checked below, naming the first bad value
            lf = pl.scan_csv(path, infer_schema=False, include_file_paths=file_column)
        else:
            raise DataError(path, "a .csv or .parquet per-sample table, or a folder of Parquet")
        lf.collect_schema()
    except (pl.exceptions.PolarsError, OSError) as e:
        raise DataError(
            path, "readable per-sample data", got=str(e).splitlines()[0][:120]
        ) from None
    return lf


def _rules(dtype: pl.DataType, column: str) -> tuple[pl.Expr, pl.Expr | None, str]:
    """The column read as its type, the rows that cannot be (None: none can fail), and what
    was expected."""
    col = pl.col(column)
    if column == "correct":
        if dtype == pl.Boolean:
            return col, None, ""
        if dtype.is_numeric():
            return col == 1, col.is_not_null() & (col != 0) & (col != 1), "0 or 1 (or true/false)"
        text = col.cast(pl.String).str.strip_chars().str.to_lowercase()
        good = text.is_in(TRUE + FALSE)
        return text.is_in(TRUE), col.is_not_null() & ~good, "true/false, True/False or 1/0"
    if dtype.is_integer():
        return col.cast(pl.Int64), None, ""
    as_int = col.cast(pl.String).str.strip_chars().cast(pl.Int64, strict=False)
    if dtype.is_float():
        as_int = col.cast(pl.Int64, strict=False)
        bad = col.is_not_null() & (col.is_nan() | (col != col.round(0)) | as_int.is_null())
        return as_int, bad, "a whole number"
    return as_int, col.is_not_null() & as_int.is_null(), "a whole number"


def _reward(schema: pl.Schema) -> tuple[pl.Expr, pl.Expr, str]:
    """The optional `reward` column read as a float; it must be a finite number in every row."""
    col = pl.col(REWARD)
    value = col.cast(pl.String).str.strip_chars().cast(pl.Float64, strict=False)
    if schema[REWARD].is_numeric():
        value = col.cast(pl.Float64)
    bad = value.is_null() | ~value.is_finite()
    return value.alias(REWARD), bad, "a finite number in every row (a reward per sample)"


def _checked(path: Path, lf: pl.LazyFrame, schema: pl.Schema) -> pl.LazyFrame:
    """The per-sample columns read as their types; a value that is not what the column holds
    (a word in `correct`, 0.5, a step that is not a whole number, a reward that is not a
    number) is a DataError naming it and its line (CSV) or row. Columns already of the right
    type cost no pass over the data."""
    exprs, checks = [], []
    for c in SAMPLE_COLUMNS:
        if c in ("problem_id", "benchmark"):  # ids keep their type: casting 50M ids costs
            exprs.append(pl.col(c))
        else:
            value, bad, expected = _rules(schema[c], c)
            exprs.append(value.alias(c))
            if bad is not None:
                checks.append((c, bad, expected))
            if c == "response_tokens":  # a length below 0 would be averaged in, unsaid
                checks.append((c, value < 0, "a token count of 0 or more"))
        if c != "response_tokens":  # every other column needs a value in every row
            checks.append((c, pl.col(c).is_null(), "a value in every row"))
    if REWARD in schema.names():
        value, bad, expected = _reward(schema)
        exprs.append(value)
        checks.append((REWARD, bad, expected))
    if checks:
        bad = pl.any_horizontal([b for _, b, _ in checks])
        # a row index stops Parquet's statistics from skipping clean row groups: it is
        # counted only once a bad row is known to be there
        if path.suffix == ".csv":
            found = lf.filter(bad).head(1).collect().height
        else:  # each test on its own, which Parquet's statistics (null counts, minima) answer
            # without reading a row where they can; of all at once polars reads every row
            # (20M rows: the check 0.125 s -> 0.03 s)
            found = sum(
                f.height for f in pl.collect_all(lf.filter(b).head(1) for _, b, _ in checks)
            )
        if found:
            found = scan_table(path, "__file").with_row_index("__row").filter(bad).head(1)
            found = found.collect()
            row = found.row(0, named=True)
            c, _, expected = next(x for x in checks if found.select(x[1]).item())
            if path.suffix == ".csv":
                line = csv_line(path, row["__row"])
                raise DataError(path, expected, line=line, column=c, got=row[c])
            where = Path(row["__file"]) if path.is_dir() else path
            raise DataError(where, expected, row=row["__row"] + 1, column=c, got=row[c])
    return lf.select(exprs)


def scan_samples(paths: Sequence[str | Path], *, progress=None) -> pl.LazyFrame:
    """Lazy scan of one or many tidy per-sample tables (CSV or Parquet files, or hive-partitioned
    folders), checked for the required columns and their values. `progress(i, n, path)` is
    called per file."""
    frames = []
    for i, raw in enumerate(paths, 1):
        path = Path(raw)
        if progress is not None:
            progress(i, len(paths), path)
        if path.suffix == ".csv":
            text_only(path)
        lf = scan_table(path)
        schema = lf.collect_schema()
        missing = [c for c in SAMPLE_COLUMNS if c not in schema.names()]
        if missing:
            raise DataError(path, f"the columns {list(SAMPLE_COLUMNS)}", line=1, column=missing[0])
        nested = next((c for c in SAMPLE_COLUMNS if schema[c].is_nested()), None)
        if nested is not None:  # a list of samples in one row: one row per sample is expected
            raise DataError(
                path,
                "one value per row (one row per sample)",
                column=nested,
                got=str(schema[nested]),
            )
        frames.append(_checked(path, lf, schema))
        rewarded = [REWARD in f.collect_schema().names() for f in frames]
        if len(set(rewarded)) > 1:
            raise DataError(path, "a reward column in every table or in none", column=REWARD)
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


FORMAT = Format(
    "samples",
    "tidy per-sample table (" + ", ".join(SAMPLE_COLUMNS) + ")",
    rank=120,
    read=lambda path, where: SampleLog(path, where.kind, samples=scan_samples([path])),
    parquet=lambda ev: set(SAMPLE_COLUMNS) <= ev.names,
    csv=lambda ev: set(SAMPLE_COLUMNS) <= set(ev.header),
    per_sample=True,
)
