"""Figure 003, PRM data scaling: the log-linear fit with its band, and which pairs of points
are separable on MATH500."""

from __future__ import annotations

import math
from collections.abc import Sequence

import polars as pl

from helpers import stats


def loglinear_band(
    x: list[float], y_percent: list[float], n: int, grid: tuple[float, float], points: int = 40
) -> tuple[stats.LogLinearFit, pl.DataFrame]:
    """Fit accuracy (%) on log10(x), weighting each point by its binomial standard error on n
    problems, and tabulate the fitted mean with its 95% band over `grid` (for charts).

    The slope is the straight line's in points (per tenfold x). The tabulated line and band are
    the same fit made on the logit scale (each error carried there by the delta method,
    se / (p (1 - p))) and brought back to percent: an accuracy's own scale, on which the line
    bends under 100% and the band never passes it, where a straight line in points runs on
    past 100% (through 1k and 10k samples it does by 59k). Through two points both lines
    pass through the readings; they differ in how they continue.

    Parameters
    ----------
    x : list of float
        The points' positions (e.g. training samples), above 0.
    y_percent : list of float
        Their accuracies, in percent.
    n : int
        Problems each accuracy was measured on.
    grid : tuple of float
        The lowest and highest x tabulated.
    points : int
        How many x to tabulate, evenly spaced on a log scale.

    Returns
    -------
    fit : stats.LogLinearFit
        The weighted straight-line fit (slope in points per tenfold x).
    band : polars.DataFrame
        Columns samples, mean, lo and hi (percent, from the logit fit), one row per
        tabulated x.

    Examples
    --------
    >>> import helpers
    >>> df = helpers.load("prm_data_scaling")
    >>> line = df.filter(series="ReasonFlux-PRM-7B", panel="training samples", status="stated")
    >>> fit, band = loglinear_band(
    ...     line["training_samples"].to_list(), line["accuracy"].to_list(), 500, (1000, 59000)
    ... )
    >>> round(fit.slope, 1), [round(v, 1) for v in band.row(-1)]
    (7.0, [59000.0, 93.5, 89.3, 96.1])
    """
    import numpy as np

    sigma = [100 * stats.binomial_se(v / 100, n) for v in y_percent]
    fit = stats.loglinear_fit(x, y_percent, sigma=sigma)
    p = [v / 100 for v in y_percent]
    logits = [math.log(q / (1 - q)) for q in p]
    logit_sigma = [s / 100 / (q * (1 - q)) for s, q in zip(sigma, p, strict=True)]
    on_logits = stats.loglinear_fit(x, logits, sigma=logit_sigma)

    def percent(z: float) -> float:
        return 100 / (1 + math.exp(-z))

    xs = np.geomspace(grid[0], grid[1], points)
    rows = [(float(v), *map(percent, on_logits.predict(float(v)))) for v in xs]
    return fit, pl.DataFrame(rows, schema=["samples", "mean", "lo", "hi"], orient="row")


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
    value_b, separable; a point's name joins its key values.

    Parameters
    ----------
    df : polars.DataFrame
        The described points, with the key columns and the `value` column.
    pairs : sequence of (dict, dict)
        The pairs compared; each dict maps columns to values that pick exactly one row of `df`.
    n : int
        Problems in the benchmark.
    value : str
        The column of accuracies, in percent.

    Returns
    -------
    polars.DataFrame
        One row per pair, in the order given.

    Examples
    --------
    >>> import helpers
    >>> df = helpers.load("prm_data_scaling")
    >>> a = {"series": "ReasonFlux-PRM-7B", "x_label": "7B"}
    >>> b = {"series": "Qwen2.5-Math-PRM-72B", "x_label": "72B"}
    >>> separable_pairs(df, [(a, b)], 500).row(0)
    ('ReasonFlux-PRM-7B 7B', 83.0, 'Qwen2.5-Math-PRM-72B 72B', 79.0, False)
    """
    rows = []
    for a, b in pairs:
        va, vb = (df.filter(**key)[value].item() for key in (a, b))
        names = (" ".join(str(v) for v in key.values()) for key in (a, b))
        rows.append(
            (next(names), va, next(names), vb, stats.distinguishable(va / 100, vb / 100, n))
        )
    return pl.DataFrame(rows, schema=["a", "value_a", "b", "value_b", "separable"], orient="row")
