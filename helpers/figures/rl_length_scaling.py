"""Figure 000, RL length scaling: the accuracy/length frontier, slopes, rank agreement between
the panels, which neighbouring gaps are separable, and intervals at each benchmark's size."""

from __future__ import annotations

import polars as pl

from helpers import benchmark_sizes, data, stats


def per_1k_tokens(df: pl.DataFrame, x: str = "token_length", y: str = "accuracy") -> float:
    """Least-squares slope of y per extra 1,000 tokens.

    Parameters
    ----------
    df : polars.DataFrame
        The points to fit (two or more), with the `x` and `y` columns.
    x : str
        The column of lengths, in tokens.
    y : str
        The column fitted against them.

    Returns
    -------
    float
        The change in `y` per 1,000 more tokens, in `y`'s unit.

    Examples
    --------
    >>> import helpers
    >>> k15 = helpers.load("rl_length_scaling").filter(group="k1.5", panel="AIME2024")
    >>> round(per_1k_tokens(k15), 1)  # points per 1k tokens
    14.1
    """
    import numpy as np

    slope, _ = np.polyfit(df[x].to_numpy() / 1000, df[y].to_numpy(), 1)
    return float(slope)


def steps_along(
    df: pl.DataFrame, label: str = "model", x: str = "token_length", y: str = "accuracy"
) -> pl.DataFrame:
    """Consecutive differences after sorting by `x`: what each step to a longer variant buys
    in `y`, and what it costs in `x`.

    Parameters
    ----------
    df : polars.DataFrame
        One row per variant, with the `label`, `x` and `y` columns.
    label, x, y : str
        The columns that name each row, that rows are sorted by (ties broken by `y`), and
        whose differences are taken.

    Returns
    -------
    polars.DataFrame
        Columns from, to, extra_tokens (the difference in `x`) and gain (the difference in `y`),
        one row per neighbouring pair, in order of `x`.

    Examples
    --------
    >>> import helpers
    >>> k15 = helpers.load("rl_length_scaling").filter(group="k1.5", panel="AIME2024")
    >>> steps_along(k15).to_dicts()[:1]
    [{'from': 'k1.5-shortest', 'to': 'k1.5-short w/ merge', 'extra_tokens': 1500, 'gain': 13.0}]
    """
    ordered = df.sort(x, y)
    return ordered.select(
        pl.col(label).shift(1).alias("from"),
        pl.col(label).alias("to"),
        (pl.col(x) - pl.col(x).shift(1)).alias("extra_tokens"),
        (pl.col(y) - pl.col(y).shift(1)).alias("gain"),
    ).drop_nulls()


def rank_agreement(
    df: pl.DataFrame, by: str, panels: tuple[str, str], value: str, label: str
) -> tuple[float, float, pl.DataFrame]:
    """Kendall's tau between two panels' values for the same labels, its p-value, and ranks.

    Parameters
    ----------
    df : polars.DataFrame
        Rows with the `by`, `label` and `value` columns.
    by : str
        The column naming each row's panel.
    panels : tuple of str
        The two panels compared.
    value : str
        The column ranked.
    label : str
        The column that matches rows across the panels; labels in only one panel are dropped.

    Returns
    -------
    tau : float
        Kendall's tau over the labels in both panels (`scipy.stats.kendalltau`).
    p : float
        Its two-sided p-value.
    ranks : polars.DataFrame
        Columns `label`, one column per panel with its value, and `rank <panel>` for each (1 the
        highest; ties share the best rank), sorted by the first panel's rank.

    Examples
    --------
    >>> import helpers
    >>> df = helpers.load("rl_length_scaling")
    >>> tau, p, ranks = rank_agreement(df, "panel", ("MATH500", "AIME2024"), "accuracy", "model")
    >>> round(tau, 2), round(p, 4), ranks.row(0)
    (0.94, 0.0002, ('k1.5-short w/ rl', 95.0, 61.0, 1, 2))
    """
    a = df.filter(pl.col(by) == panels[0]).select(label, pl.col(value).alias(panels[0]))
    b = df.filter(pl.col(by) == panels[1]).select(label, pl.col(value).alias(panels[1]))
    both = a.join(b, on=label, how="inner", maintain_order="left")
    from scipy import stats as _st  # imported here: scipy.stats costs ~1 s at start-up

    tau, p = _st.kendalltau(both[panels[0]].to_numpy(), both[panels[1]].to_numpy())
    ranks = both.with_columns(
        pl.col(panels[0]).rank("min", descending=True).cast(pl.Int64).alias(f"rank {panels[0]}"),
        pl.col(panels[1]).rank("min", descending=True).cast(pl.Int64).alias(f"rank {panels[1]}"),
    ).sort(f"rank {panels[0]}")
    return float(tau), float(p), ranks


def adjacent_gaps(
    df: pl.DataFrame, label: str, value: str, n: int, scale: float = 100.0
) -> pl.DataFrame:
    """Each model against the next one down the ranking: gap, and whether a two-proportion test
    on n problems separates them at the 5% level.

    Parameters
    ----------
    df : polars.DataFrame
        One row per model of one benchmark, with the `label` and `value` columns.
    label : str
        The column naming each model.
    value : str
        The column of accuracies.
    n : int
        Problems in the benchmark.
    scale : float
        The full scale of `value`: 100 for percent, 1 for fractions.

    Returns
    -------
    polars.DataFrame
        Columns higher, lower, gap (`value` apart, rounded to 2 decimals) and separable
        (`stats.distinguishable`), one row per neighbouring pair, highest first.

    Examples
    --------
    >>> import helpers
    >>> aime = helpers.load("rl_length_scaling").filter(panel="AIME2024")
    >>> adjacent_gaps(aime, "model", "accuracy", 30).row(0)
    ('k1.5-long', 'k1.5-short w/ rl', 2.0, False)
    """
    ranked = df.sort(value, descending=True).select(label, value)
    ordered = list(ranked.iter_rows())
    rows = [
        (a, b, round(va - vb, 2), stats.distinguishable(va / scale, vb / scale, n))
        for (a, va), (b, vb) in zip(ordered, ordered[1:], strict=False)
    ]
    return pl.DataFrame(rows, schema=["higher", "lower", "gap", "separable"], orient="row")


def with_benchmark_intervals(
    df: pl.DataFrame, value: str = "accuracy", benchmark: str = "panel"
) -> pl.DataFrame:
    """Add Wilson 95% bounds `lo`, `hi` (percent, as `value`) for each row's benchmark size
    (from `helpers.benchmark_sizes`).

    Parameters
    ----------
    df : polars.DataFrame
        Rows with the `value` and `benchmark` columns.
    value : str
        The column of accuracies, in percent.
    benchmark : str
        The column naming each row's benchmark; a name of unknown size raises ValueError.

    Returns
    -------
    polars.DataFrame
        `df` with the columns lo and hi added.

    Examples
    --------
    >>> import helpers
    >>> df = with_benchmark_intervals(helpers.load("rl_length_scaling"))
    >>> [round(v, 1) for v in df.select("accuracy", "lo", "hi").row(0)]  # k1.5-shortest, MATH500
    [88.5, 85.4, 91.0]
    """
    sizes = {name: benchmark_sizes.size(name) for name in df[benchmark].unique()}
    unknown = [name for name, n in sizes.items() if n is None]
    if unknown:
        raise ValueError(f"no known size for the benchmarks {unknown}")
    sized = df.with_columns(_n=pl.col(benchmark).replace_strict(sizes, return_dtype=pl.Int64))
    return stats.with_intervals(sized, value, "_n").drop("_n")


def frontiers(
    df: pl.DataFrame, cost: str = "token_length", value: str = "accuracy", by: str = "panel"
) -> pl.DataFrame:
    """The Pareto frontier (lower cost, higher value) within each `by` group, sorted by cost.

    Parameters
    ----------
    df : polars.DataFrame
        One row per model, with `model` and the three columns named next.
    cost, value, by : str
        The columns to keep low, to keep high, and to group by.

    Returns
    -------
    polars.DataFrame
        Per group, cheapest first, the models no other model matches or beats on both cost and
        value while beating them on one.

    Examples
    --------
    >>> import helpers
    >>> fronts = frontiers(helpers.load("rl_length_scaling"))
    >>> fronts.filter(panel="AIME2024")["model"].to_list()[:2]
    ['Claude 3.5', 'qwen25-72B-inst']
    """
    return pl.concat(
        stats.pareto_frontier(g.select(by, "model", cost, value), cost, value)
        for _, g in df.group_by(by, maintain_order=True)
    )


def published_points(df: pl.DataFrame) -> pl.DataFrame:
    """The accuracies the paper prints for the models the description draws, placed at the
    description's token length (the paper's tables give no length): columns panel, model,
    token_length, accuracy, source, for `charts.rl_length_scaling(..., published=...)`.

    Parameters
    ----------
    df : polars.DataFrame
        The description's readings (the `rl_length_scaling` resource), with the columns model,
        panel and token_length.

    Returns
    -------
    polars.DataFrame
        One row per accuracy printed for document 000 whose `matches` label and benchmark are a
        model and panel of `df`; model is the paper's name for it.

    Examples
    --------
    >>> import helpers
    >>> points = published_points(helpers.load("rl_length_scaling"))
    >>> points.height, points.sort("panel", "model").row(0)
    (10, ('AIME2024', 'Claude-3.5-Sonnet-1022', 900, 16.0, 'Table 3'))
    """
    published = data.load("published_values").filter(
        pl.col("document") == "000", pl.col("matches").is_not_null(), metric="accuracy"
    )
    drawn = df.select(
        pl.col("model").alias("matches"), pl.col("panel").alias("benchmark"), "token_length"
    )
    return published.join(drawn, on=["matches", "benchmark"], maintain_order="right").select(
        pl.col("benchmark").alias("panel"),
        "model",
        "token_length",
        pl.col("value").alias("accuracy"),
        "source",
    )
