"""Analyses the figure notebooks share: rankings, separable gaps, described vs published."""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

import polars as pl

from . import benchmarks, data, stats


def per_1k_tokens(df: pl.DataFrame, x: str = "token_length", y: str = "accuracy") -> float:
    """Least-squares slope of y per extra 1,000 tokens."""
    import numpy as np

    slope, _ = np.polyfit(df[x].to_numpy() / 1000, df[y].to_numpy(), 1)
    return float(slope)


def steps_along(
    df: pl.DataFrame, label: str = "model", x: str = "token_length", y: str = "accuracy"
) -> pl.DataFrame:
    """Consecutive differences after sorting by x: what each step to a longer variant buys."""
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
    """Kendall's tau between two panels' values for the same labels, its p-value, and ranks."""
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
    on n problems separates them at the 5% level."""
    ranked = df.sort(value, descending=True).select(label, value)
    ordered = list(ranked.iter_rows())
    rows = [
        (a, b, round(va - vb, 2), stats.distinguishable(va / scale, vb / scale, n))
        for (a, va), (b, vb) in zip(ordered, ordered[1:], strict=False)
    ]
    return pl.DataFrame(rows, schema=["higher", "lower", "gap", "separable"], orient="row")


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


def step_dpo_gains(df: pl.DataFrame) -> pl.DataFrame:
    """Each Step-DPO point against every plotted non-Step-DPO point of the same size whose label
    starts with the same model name (e.g. Qwen2-72B-Step-DPO against both Qwen2-72B-Instruct
    points). Sizes with no such point give no row."""
    points = df.filter(pl.col("kind") == "point")
    dpo = points.filter(pl.col("model").str.ends_with("-Step-DPO")).select(
        "model_size",
        pl.col("model").alias("step_dpo_model"),
        pl.col("model").str.strip_suffix("-Step-DPO").alias("stem"),
        pl.col("accuracy").alias("step_dpo"),
    )
    others = points.filter(~pl.col("model").str.ends_with("-Step-DPO")).select(
        "model_size", pl.col("model").alias("base_model"), pl.col("accuracy").alias("base")
    )
    return (
        dpo.join(others, on="model_size", how="inner", maintain_order="left")
        .filter(pl.col("base_model").str.starts_with(pl.col("stem") + "-"))
        .with_columns(
            gain=(pl.col("step_dpo") - pl.col("base")).round(2),
            mid=(pl.col("step_dpo") + pl.col("base")) / 2,
        )
        .drop("stem")
    )


def published_gains(document: str, treatment: str = " + Step-DPO") -> pl.DataFrame:
    """Gains the paper prints: each `<model> + Step-DPO` row against its `<model>` row in the
    same table (a † on the untreated row, the paper's mark for its own SFT models, is ignored
    in matching; a ‡ is kept, since the paper prints Qwen2-72B-Instruct with and without it)."""
    pub = data.load("published_values").filter(pl.col("document") == document)
    key = (
        pl.col("model")
        .str.replace(treatment, "", literal=True)
        .str.replace("†", "")
        .str.strip_chars()
    )
    treated = pub.filter(pl.col("model").str.contains(treatment, literal=True)).select(
        "source",
        "benchmark",
        base_model=key,
        treated=pl.col("value"),
        treated_matches=pl.col("matches"),
    )
    base = pub.filter(~pl.col("model").str.contains(treatment, literal=True)).select(
        "source", "benchmark", base_model=key, base=pl.col("value")
    )
    return treated.join(
        base, on=["source", "base_model", "benchmark"], how="inner", maintain_order="left"
    ).with_columns(gain=(pl.col("treated") - pl.col("base")).round(2))


def loglinear_band(
    x: list[float], y_percent: list[float], n: int, grid: tuple[float, float], points: int = 40
) -> tuple[stats.LogLinearFit, pl.DataFrame]:
    """Fit accuracy (%) on log10(x), weighting each point by its binomial standard error on n
    problems, and tabulate the fitted mean with its 95% band over `grid` (for charts)."""
    import numpy as np

    sigma = [100 * stats.binomial_se(v / 100, n) for v in y_percent]
    fit = stats.loglinear_fit(x, y_percent, sigma=sigma)
    xs = np.geomspace(grid[0], grid[1], points)
    rows = [(float(v), *fit.predict(float(v))) for v in xs]
    return fit, pl.DataFrame(rows, schema=["samples", "mean", "lo", "hi"], orient="row")


def described_curves(td: pl.DataFrame, first: float = 0, last: float = 150) -> pl.DataFrame:
    """What a 001 description states, as curves for `charts.training_dynamics`: a start-to-end
    segment where it gives a start and an end, a band over the whole run where it gives only a
    range, and token length from its start to its end value. Nothing in between is invented."""
    rows = []
    for r in td.sort("position").iter_rows(named=True):
        b = r["benchmark"]
        if r["accuracy_start"] is not None:
            rows += [
                (b, first, "accuracy", r["accuracy_start"], None, None),
                (b, last, "accuracy", r["accuracy_end"], None, None),
            ]
        else:
            rows += [
                (b, it, "accuracy", None, r["accuracy_min"], r["accuracy_max"])
                for it in (first, last)
            ]
        rows += [
            (b, first, "token length", float(r["token_length_start"]), None, None),
            (b, last, "token length", float(r["token_length_end"]), None, None),
        ]
    return pl.DataFrame(
        rows, schema=["benchmark", "iteration", "metric", "value", "lo", "hi"], orient="row"
    )


def curves(
    frame: pl.DataFrame,
    *,
    iteration: str,
    accuracy: str,
    tokens: str | None = None,
    lo: str | None = None,
    hi: str | None = None,
) -> pl.DataFrame:
    """Tidy curves for `charts.training_dynamics` from a frame with one row per benchmark and
    iteration: accuracy (with its interval, where given) and token length (where given)."""
    none = pl.lit(None, pl.Float64)
    parts = [
        frame.select(
            "benchmark",
            iteration=pl.col(iteration).cast(pl.Float64),
            metric=pl.lit("accuracy"),
            value=pl.col(accuracy).cast(pl.Float64),
            lo=pl.col(lo).cast(pl.Float64) if lo else none,
            hi=pl.col(hi).cast(pl.Float64) if hi else none,
        )
    ]
    if tokens:
        parts.append(
            frame.select(
                "benchmark",
                iteration=pl.col(iteration).cast(pl.Float64),
                metric=pl.lit("token length"),
                value=pl.col(tokens).cast(pl.Float64),
                lo=none,
                hi=none,
            )
        )
    return (
        pl.concat(parts)
        .drop_nulls("value")
        .sort("benchmark", "metric", "iteration", maintain_order=True)
    )


def curves_from_counts(df: pl.DataFrame) -> pl.DataFrame:
    """Per-iteration counts (benchmark, iteration, n, correct, token_length) as curves for
    `charts.training_dynamics`: accuracy with its Wilson 95% interval, and token length."""
    bounds = [stats.wilson_interval(c, n) for c, n in zip(df["correct"], df["n"], strict=True)]
    with_bounds = df.with_columns(
        accuracy=(pl.col("correct") / pl.col("n")).round(4),
        lo=pl.Series([b[0] for b in bounds]).round(4),
        hi=pl.Series([b[1] for b in bounds]).round(4),
    )
    return curves(
        with_bounds,
        iteration="iteration",
        accuracy="accuracy",
        tokens="token_length",
        lo="lo",
        hi="hi",
    )


def gain_and_growth(td: pl.DataFrame) -> pl.DataFrame:
    """Per 001 benchmark: accuracy gain (end - start, where stated), the stated range's width
    (where only a range is given), token-length growth, and the ranks of gain and growth."""
    return (
        td.select(
            "position",
            "benchmark",
            "accuracy_shape",
            gain=(pl.col("accuracy_end") - pl.col("accuracy_start")).round(3),
            range_width=(pl.col("accuracy_max") - pl.col("accuracy_min")).round(3),
            token_growth=pl.col("token_length_end") - pl.col("token_length_start"),
        )
        .with_columns(
            gain_rank=pl.col("gain").rank("min", descending=True).cast(pl.Int64),
            growth_rank=pl.col("token_growth").rank("min", descending=True).cast(pl.Int64),
        )
        .sort("position")
    )


def against_published_axes(td: pl.DataFrame, aliases: dict[str, str]) -> pl.DataFrame:
    """Each 001 reading against the tick range of the same panel in the paper's figure;
    `beyond_axis` marks readings that lie more than one tick step past the printed labels.

    `aliases` maps a description label to the paper's panel title where they differ."""
    axes = data.load("published_axes").filter(
        pl.col("document") == "001", pl.col("axis") == "accuracy"
    )
    readings = td.select(
        "position",
        "benchmark",
        panel=pl.col("benchmark").replace(aliases),
        low=pl.coalesce("accuracy_start", "accuracy_min"),
        high=pl.coalesce("accuracy_end", "accuracy_max"),
    )
    return (
        readings.join(
            axes.select("panel", "tick_min", "tick_max", "tick_step"),
            on="panel",
            how="left",
            maintain_order="left",
        )
        .with_columns(
            in_paper=pl.col("tick_min").is_not_null(),
            # beyond where the axis can reach: more than one tick step past the printed labels
            beyond_axis=(pl.col("low") < pl.col("tick_min") - pl.col("tick_step"))
            | (pl.col("high") > pl.col("tick_max") + pl.col("tick_step")),
        )
        .sort("position")
    )


def implied_slopes(td: pl.DataFrame, aliases: dict[str, str]) -> pl.DataFrame:
    """Accuracy gained per token from a description's start and end readings, beside the
    trend slope the paper prints for the same benchmark (Figure 6 legend)."""
    pub = data.load("published_values").filter(
        pl.col("document") == "001", pl.col("metric") == "trend slope"
    )
    return (
        td.filter(pl.col("accuracy_start").is_not_null())
        .select(
            "benchmark",
            described=(pl.col("accuracy_end") - pl.col("accuracy_start"))
            / (pl.col("token_length_end") - pl.col("token_length_start")),
        )
        .join(
            pub.select(pl.col("matches").alias("benchmark"), pl.col("value").alias("published")),
            on="benchmark",
            how="left",
            maintain_order="left",
        )
        .with_columns(ratio=(pl.col("published") / pl.col("described")).round(2))
    )


def smooth(
    df: pl.DataFrame,
    weight: float,
    *,
    by: str = "method",
    order: str = "step",
    value: str = "score",
) -> pl.DataFrame:
    """Bias-corrected exponential moving average of `value` within each `by` group, in `order`
    (as TensorBoard smooths: the spacing between points is ignored)."""
    parts = [
        g.sort(order).with_columns(
            smoothed=pl.Series(stats.ema(g.sort(order)[value].to_list(), weight))
        )
        for _, g in df.group_by(by, maintain_order=True)
    ]
    return pl.concat(parts).sort(by, order)


def separable_pairs(
    df: pl.DataFrame,
    pairs: Sequence[tuple[dict, dict]],
    n: int,
    *,
    value: str = "accuracy",
) -> pl.DataFrame:
    """For pairs of described points, each named by column values (e.g. `{"series": ...,
    "x_label": ...}`), both values as read from `df` and whether their gap is separable at 5%
    on `n` problems (`stats.distinguishable`; `value` in percent). Columns a, value_a, b,
    value_b, separable; a point's name joins its key values."""
    rows = []
    for a, b in pairs:
        va, vb = (df.filter(**key)[value].item() for key in (a, b))
        names = (" ".join(str(v) for v in key.values()) for key in (a, b))
        rows.append(
            (next(names), va, next(names), vb, stats.distinguishable(va / 100, vb / 100, n))
        )
    return pl.DataFrame(rows, schema=["a", "value_a", "b", "value_b", "separable"], orient="row")


# ---- prepared for the charts (the chart functions only draw) ----------------------------------


def with_benchmark_intervals(
    df: pl.DataFrame, value: str = "accuracy", benchmark: str = "panel"
) -> pl.DataFrame:
    """Add Wilson 95% bounds `lo`, `hi` (percent, as `value`) for each row's benchmark size
    (from `helpers.benchmarks`)."""
    sizes = {name: benchmarks.size(name) for name in df[benchmark].unique()}
    unknown = [name for name, n in sizes.items() if n is None]
    if unknown:
        raise ValueError(f"no known size for the benchmarks {unknown}")
    sized = df.with_columns(_n=pl.col(benchmark).replace_strict(sizes, return_dtype=pl.Int64))
    return stats.with_intervals(sized, value, "_n").drop("_n")


def frontiers(
    df: pl.DataFrame, cost: str = "token_length", value: str = "accuracy", by: str = "panel"
) -> pl.DataFrame:
    """The Pareto frontier (lower cost, higher value) within each `by` group, sorted by cost."""
    return pl.concat(
        stats.pareto_frontier(g.select(by, "model", cost, value), cost, value)
        for _, g in df.group_by(by, maintain_order=True)
    )


class MethodCurves(NamedTuple):
    """What figure 004 draws: the points (with `lo`, `hi` when a benchmark size is given), the
    stated ranges as boxes, and each method's peak with its note."""

    points: pl.DataFrame
    stated: pl.DataFrame
    peaks: pl.DataFrame


def method_curves(df: pl.DataFrame, *, n_problems: int | None = None) -> MethodCurves:
    """Split the 004 frame (kind point or range bound) into points, stated ranges and peaks;
    `n_problems` adds Wilson 95% intervals for a benchmark of that size."""
    points = df.filter(pl.col("kind") == "point").sort("method", "step")
    if n_problems is not None:
        points = stats.with_intervals(points, "score", n_problems, scale=1.0)
    stated = df.filter(pl.col("kind") != "point").pivot(
        on="kind", index=["method", "step", "step_end"], values="score"
    )
    peaks = (
        points.sort("score", descending=True)
        .unique("method", keep="first")
        .sort("method")
        .with_columns(note=pl.format("peak {} (step {})", pl.col("score").round(2), pl.col("step")))
    )
    return MethodCurves(points, stated, peaks)
