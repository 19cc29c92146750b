"""What the documents describe against what the papers print (figures 000, 002, 003)."""

from __future__ import annotations

from collections.abc import Sequence

import polars as pl

from helpers import data


def described_vs_published(
    document: str,
    described: pl.DataFrame,
    label: str,
    benchmark: str | None,
    value: str,
    metric: str = "accuracy",
    keep: Sequence[str] = (),
) -> pl.DataFrame:
    """Join a description's readings with the papers' printed values on the matching label
    (every table that prints one; `keep` carries more of the description's columns along)."""
    pub = data.load("published_values").filter(
        pl.col("document") == document,
        pl.col("matches").is_not_null(),
        pl.col("metric") == metric,
    )
    left = described.select(
        pl.col(label).alias("label"),
        *keep,
        (pl.col(benchmark) if benchmark in described.columns else pl.lit(benchmark)).alias(
            "benchmark"
        ),
        pl.col(value).cast(pl.Float64).alias("described"),
    )
    joined = left.join(
        pub.select(
            pl.col("matches").alias("label"),
            "benchmark",
            "model",
            "source",
            pl.col("value").alias("published"),
        ),
        on=["label", "benchmark"],
        how="inner",
        maintain_order="left",
    )
    return joined.with_columns(difference=(pl.col("described") - pl.col("published")).round(2))
