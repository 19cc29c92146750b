"""Figure 003, PRM data scaling: the log-linear fit with its band, and which pairs of points
are separable on MATH500."""

from __future__ import annotations

from collections.abc import Sequence

import polars as pl

from helpers import stats


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
