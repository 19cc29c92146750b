"""Fits, frontiers and smoothing: a log-linear fit with its slope's interval, the Pareto
frontier, the EMA of training curves, and the upward bias of picking the best checkpoint."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING

import polars as pl

from helpers.stats.intervals import Z95, _t_quantile

if TYPE_CHECKING:  # numpy loads where a function needs it: `plot -o x.csv` never does
    import numpy as np


@dataclass(frozen=True)
class LogLinearFit:
    """y = intercept + slope * log10(x), with the slope's 95% interval."""

    slope: float
    intercept: float
    slope_lo: float
    slope_hi: float
    covariance: np.ndarray
    method: str

    def predict(self, x: float) -> tuple[float, float, float]:
        """Prediction and 95% interval of the fitted mean at x."""
        import numpy as np

        v = np.array([1.0, math.log10(x)])
        mean = self.intercept + self.slope * v[1]
        se = math.sqrt(float(v @ self.covariance @ v))
        return mean, mean - Z95 * se, mean + Z95 * se


def loglinear_fit(x: list[float], y: list[float], sigma: list[float] | None = None) -> LogLinearFit:
    """Least-squares fit of y on log10(x).

    With `sigma` (known standard errors of each y, e.g. binomial), a weighted fit whose interval
    follows from those errors (valid even with two points); without it, ordinary least squares
    with a t interval from the residuals (needs three points or more).
    """
    import numpy as np

    lx = np.log10(np.asarray(x, dtype=float))
    yy = np.asarray(y, dtype=float)
    design = np.column_stack([np.ones_like(lx), lx])
    if sigma is not None:
        w = 1 / np.asarray(sigma, dtype=float) ** 2
        cov = np.linalg.inv(design.T @ (design * w[:, None]))
        beta = cov @ design.T @ (w * yy)
        half = Z95 * math.sqrt(cov[1, 1])
        method = "weighted by known standard errors"
    else:
        dof = len(yy) - 2
        if dof < 1:
            raise ValueError("an unweighted fit needs at least three points; pass sigma")
        beta, *_ = np.linalg.lstsq(design, yy, rcond=None)
        resid = yy - design @ beta
        s2 = float(resid @ resid) / dof
        cov = s2 * np.linalg.inv(design.T @ design)
        half = _t_quantile(dof) * math.sqrt(cov[1, 1])
        method = "ordinary least squares"
    return LogLinearFit(
        slope=float(beta[1]),
        intercept=float(beta[0]),
        slope_lo=float(beta[1] - half),
        slope_hi=float(beta[1] + half),
        covariance=cov,
        method=method,
    )


def pareto_frontier(df: pl.DataFrame, cost: str, value: str) -> pl.DataFrame:
    """Rows not dominated by another: none has lower-or-equal cost and higher-or-equal value
    with one of the two strictly better. Sorted by cost."""
    rows = df.sort(cost, pl.col(value), descending=[False, True])
    keep, best = [], -math.inf
    for v in rows[value].to_list():
        keep.append(v > best)
        best = max(best, v)
    return rows.filter(pl.Series(keep))


def ema(values: list[float], weight: float, *, debias: bool = True) -> list[float]:
    """Exponential moving average as TensorBoard smooths scalars (bias-corrected by default)."""
    if not 0 <= weight < 1:
        raise ValueError("weight must be in [0, 1)")
    out, last = [], 0.0
    for t, v in enumerate(values, 1):
        last = last * weight + (1 - weight) * v
        out.append(last / (1 - weight**t) if debias else last)
    return out


def best_checkpoint_bias(
    true_scores: list[float], n: int, *, runs: int = 2000, seed: int = 0
) -> dict[str, float]:
    """How much the best observed checkpoint overstates the truth.

    Each checkpoint's score is drawn as Binomial(n, true score)/n; picking the maximum observed
    score overstates both the true score of the picked checkpoint and the best true score.

    Parameters
    ----------
    true_scores : list of float
        Each checkpoint's true accuracy, as a fraction.
    n : int
        Problems each checkpoint is scored on.
    runs : int
        Simulated evaluations; each scores every checkpoint once.
    seed : int
        Seed of numpy's generator: the same input gives the same result.

    Returns
    -------
    dict of str to float
        Fractions, averaged over the runs: "mean_best_observed", the maximum observed score;
        "mean_true_at_pick", the true score of the checkpoint with that maximum (the first
        listed on a tie); "best_true", the best true score; and "overstatement", the first
        minus the best true score.

    Examples
    --------
    >>> r = best_checkpoint_bias([0.30, 0.32, 0.35], 30, runs=20_000, seed=0)  # on 30 problems
    >>> [round(r[k], 2) for k in ("mean_best_observed", "mean_true_at_pick", "overstatement")]
    [0.4, 0.33, 0.05]
    """
    import numpy as np

    rng = np.random.default_rng(seed)
    p = np.asarray(true_scores, dtype=float)
    observed = rng.binomial(n, np.broadcast_to(p, (runs, len(p)))) / n
    picked = observed.argmax(axis=1)
    best_observed = observed.max(axis=1)
    return {
        "mean_best_observed": float(best_observed.mean()),
        "mean_true_at_pick": float(p[picked].mean()),
        "best_true": float(p.max()),
        "overstatement": float(best_observed.mean() - p.max()),
    }
