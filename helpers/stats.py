"""Statistics for reading benchmark numbers honestly: intervals, fits, frontiers, smoothing."""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import polars as pl

Z95 = 1.959963984540054

# Problems in each benchmark's test set (what a binomial interval counts over).
BENCHMARK_SIZES = {"MATH500": 500, "AIME2024": 30, "AIME24": 30, "MATH": 5000, "GPQA": 198}


def wilson_interval(successes: float, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval for a binomial proportion (as fractions)."""
    if n <= 0:
        raise ValueError("n must be positive")
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


def wilson_exprs(p: pl.Expr, n: pl.Expr, z: float = Z95) -> tuple[pl.Expr, pl.Expr]:
    """Wilson score bounds (as fractions) for proportions `p` over `n` items, as polars
    expressions: the same formula as `wilson_interval`, for whole columns at once."""
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * (p * (1 - p) / n + z * z / (4 * n * n)).sqrt() / denom
    return (centre - half).clip(lower_bound=0.0), (centre + half).clip(upper_bound=1.0)


def exact_interval(successes: int, n: int, level: float = 0.95) -> tuple[float, float]:
    """Clopper-Pearson (exact) binomial interval (as fractions)."""
    from scipy import stats as _st  # imported here: scipy.stats costs ~1 s at start-up

    alpha = 1 - level
    lo = 0.0 if successes == 0 else _st.beta.ppf(alpha / 2, successes, n - successes + 1)
    hi = 1.0 if successes == n else _st.beta.ppf(1 - alpha / 2, successes + 1, n - successes)
    return float(lo), float(hi)


def pass_at_k(n: int, c: int, k: int) -> float:
    """Unbiased pass@k for one problem: n samples, c correct (Chen et al. 2021),
    1 - C(n - c, k) / C(n, k)."""
    if not 0 <= c <= n or not 1 <= k <= n:
        raise ValueError(f"need 0 <= c <= n and 1 <= k <= n; got n={n}, c={c}, k={k}")
    if n - c < k:
        return 1.0
    return 1.0 - math.comb(n - c, k) / math.comb(n, k)


def binomial_se(p: float, n: int) -> float:
    """Standard error of a proportion p measured on n independent problems."""
    return math.sqrt(p * (1 - p) / n)


def with_intervals(
    df: pl.DataFrame, value: str, n: int | str, *, scale: float = 100.0
) -> pl.DataFrame:
    """Add Wilson 95% bounds `lo`, `hi` (same scale as `value`) for accuracies measured on n items.

    `n` is a number, or the name of a column holding each row's benchmark size.
    """
    sizes = df[n].to_list() if isinstance(n, str) else [n] * len(df)
    bounds = [
        wilson_interval(v / scale * size, size) if v is not None else (None, None)
        for v, size in zip(df[value].to_list(), sizes, strict=True)
    ]
    return df.with_columns(
        lo=pl.Series([b[0] * scale if b[0] is not None else None for b in bounds]),
        hi=pl.Series([b[1] * scale if b[1] is not None else None for b in bounds]),
    )


def distinguishable(p1: float, p2: float, n: int, z: float = Z95) -> bool:
    """Two-proportion z-test (pooled) at the 5% level for two models scored on the same n items.

    Treats the two scores as independent samples; scores on the same items are positively
    correlated in practice, so this errs towards 'cannot tell apart'.
    """
    pooled = (p1 + p2) / 2
    se = math.sqrt(2 * pooled * (1 - pooled) / n)
    return se > 0 and abs(p1 - p2) / se > z


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
        from scipy import stats as _st  # imported here: scipy.stats costs ~1 s at start-up

        half = _st.t.ppf(0.975, dof) * math.sqrt(cov[1, 1])
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
    Returns the mean observed maximum, the mean true score at the picked checkpoint, the best true
    score, and the mean overstatement against the best true score.
    """
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
