"""Figure 004, GRPO against MEL: points, stated ranges and peaks, with intervals at AIME's
size, and TensorBoard-style smoothing."""

from __future__ import annotations

from typing import NamedTuple

import polars as pl

from helpers import stats


class MethodCurves(NamedTuple):
    """What figure 004 draws: the points (with `lo`, `hi` when a benchmark size is given), the
    stated ranges as boxes, and each method's peak with its note."""

    points: pl.DataFrame
    stated: pl.DataFrame
    peaks: pl.DataFrame


def method_curves(df: pl.DataFrame, *, n_problems: int | None = None) -> MethodCurves:
    """Split the 004 frame (kind point or range bound) into points, stated ranges and peaks;
    `n_problems` adds Wilson 95% intervals for a benchmark of that size.

    Parameters
    ----------
    df : polars.DataFrame
        The 004 readings, with the columns method, kind ("point", or a range bound such as
        "range low"), step, step_end and score (a fraction).
    n_problems : int or None
        Problems in the benchmark; None gives no intervals.

    Returns
    -------
    MethodCurves
        `points` (the rows of kind point, sorted by method and step, with `lo`, `hi` when
        `n_problems` is given), `stated` (one row per range: method, step, step_end and a column
        per bound) and `peaks` (each method's highest point, with a `note` naming it).

    Examples
    --------
    >>> import helpers
    >>> curves = method_curves(helpers.load("grpo_vs_mel"), n_problems=30)
    >>> curves.peaks.select("method", "step", "score").rows()
    [('GRPO', 100, 0.37), ('MEL', 130, 0.46)]
    """
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


def smooth(
    df: pl.DataFrame,
    weight: float,
    *,
    by: str = "method",
    order: str = "step",
    value: str = "score",
) -> pl.DataFrame:
    """Bias-corrected exponential moving average of `value` within each `by` group, in `order`
    (as TensorBoard smooths: the spacing between points is ignored).

    Parameters
    ----------
    df : polars.DataFrame
        Rows with the `by`, `order` and `value` columns.
    weight : float
        The smoothing weight, at least 0 (no smoothing) and below 1.
    by : str
        The column grouping the curves.
    order : str
        The column each curve is sorted by.
    value : str
        The column smoothed.

    Returns
    -------
    polars.DataFrame
        `df` with the columns smoothed and weight (the weight, for the chart to say) added,
        sorted by `by` and `order`.

    Examples
    --------
    >>> import helpers
    >>> points = helpers.load("grpo_vs_mel").filter(kind="point")
    >>> [round(v, 3) for v in smooth(points, 0.6).filter(method="GRPO")["smoothed"][:3]]
    [0.13, 0.174, 0.223]
    """
    parts = [
        g.sort(order).with_columns(
            smoothed=pl.Series(stats.ema(g.sort(order)[value].to_list(), weight)),
            weight=pl.lit(weight, pl.Float64),
        )
        for _, g in df.group_by(by, maintain_order=True)
    ]
    return pl.concat(parts).sort(by, order)
