"""Which engine runs the per-sample query (`query` states it once): polars on this machine, or
Apache Spark through `spark`. The choice is made here, so the query knows nothing of Spark and
Spark's module imports the query, not the other way round."""

from __future__ import annotations

from collections.abc import Sequence

import polars as pl

from helpers.runs.query import ROWS_PER_PASS, TOKEN_BIN, polars_summary

ENGINES = ("polars", "spark")


def check(engine: str) -> None:
    if engine not in ENGINES:
        raise ValueError(f"engine must be one of {ENGINES}; got {engine!r}")


def collect(frame, where: object = "--engine spark") -> pl.DataFrame:
    """A query's result as a polars frame on this machine: a polars query streamed here, a
    narwhals one over Spark run where its session points, only the result sent back (its
    failure to read is the package's error naming `where`)."""
    if isinstance(frame, pl.LazyFrame):
        return frame.collect(engine="streaming")
    from helpers.runs import spark

    return spark.collect(frame, where)


def aggregate(
    samples,
    *,
    engine: str = "polars",
    percentiles: Sequence[float] = (0.5, 0.9),
    bin_tokens: int = TOKEN_BIN,
    rows_per_pass: int = ROWS_PER_PASS,
    progress=None,
) -> pl.DataFrame:
    """The per-step summary of a per-sample log (a polars LazyFrame, or a Spark DataFrame with
    engine="spark"): step, benchmark, problems, samples, k, k_max, accuracy, any_correct, mean
    and percentile tokens, and `fixed` (pass@k) where problems have uneven sample counts."""
    check(engine)
    if engine == "spark":
        from helpers.runs import spark

        out = spark.summary(samples, bin_tokens, percentiles)
    else:
        out = polars_summary(samples, rows_per_pass, bin_tokens, percentiles, progress)
    if "fixed" not in out.columns:
        out = out.with_columns(fixed=pl.lit(None, pl.Float64))
    return out.with_columns(
        pl.col("step").cast(pl.Int64),
        pl.col("benchmark").cast(pl.String),
        pl.col("problems", "samples", "k", "k_max").cast(pl.Int64),
    )
