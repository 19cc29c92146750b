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
    (every table that prints one; `keep` carries more of the description's columns along).

    Parameters
    ----------
    document : str
        The document whose rows of the `published_values` resource are read ("000", "002",
        "003"); only rows with a `matches` label and the given `metric` are used.
    described : polars.DataFrame
        The description's readings, with the `label` and `value` columns (and `benchmark`, if it
        names a column).
    label : str
        The column of `described` whose values are the published rows' `matches` labels.
    benchmark : str or None
        The column of `described` naming each row's benchmark or, if no column has this name,
        the benchmark of every row (e.g. "MATH" for 002).
    value : str
        The column of `described` holding the readings, in the papers' unit.
    metric : str
        The published metric to compare with.
    keep : sequence of str
        More columns of `described` to carry along.

    Returns
    -------
    polars.DataFrame
        Columns label, the `keep` columns, benchmark, described, model, source, published and
        difference (described - published, rounded to 2 decimals): one row per reading and table
        that prints it.

    Examples
    --------
    >>> import helpers
    >>> df = helpers.load("rl_length_scaling")
    >>> rows = described_vs_published("000", df, "model", "panel", "accuracy")
    >>> rows.select("label", "benchmark", "described", "published", "difference").row(0)
    ('k1.5-shortest', 'MATH500', 88.5, 88.2, 0.3)
    """
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
