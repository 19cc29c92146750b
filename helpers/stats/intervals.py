"""Intervals for one accuracy, and pass@k: Wilson (as a number and as a polars expression,
from one formula), Clopper-Pearson, the binomial standard error; and for a mean reward that is
not 0/1, the problem-level percentile bootstrap."""

from __future__ import annotations

import functools
import math
from collections.abc import Sequence
from typing import TYPE_CHECKING

import polars as pl

from helpers.stats.student_t import t_quantile

if TYPE_CHECKING:  # numpy loads where a function needs it: `plot -o x.csv` never does
    import numpy as np

Z95 = 1.959963984540054
BOOTSTRAP_RESAMPLES = 10_000  # resamples of the problems for every bootstrap interval
BOOTSTRAP_MIN_PROBLEMS = 10  # fewer: no bootstrap interval (see `bootstrap_interval`)


def wilson_interval(successes: float, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval for a binomial proportion (as fractions).

    Parameters
    ----------
    successes : float
        Problems solved (a count; a share times `n` also works).
    n : int
        Problems attempted: count problems, not samples.
    z : float
        The normal quantile; 1.96 for 95%.

    Returns
    -------
    tuple of float
        The lower and upper bound.

    Examples
    --------
    >>> lo, hi = wilson_interval(9, 30)  # 9 of AIME's 30 problems
    >>> round(lo, 3), round(hi, 3)
    (0.167, 0.479)
    """
    if n <= 0:
        raise ValueError("n must be positive")
    lo, hi = _wilson(successes / n, n, z, math.sqrt)
    return max(0.0, lo), min(1.0, hi)


def wilson_exprs(p: pl.Expr, n: pl.Expr, z: float = Z95) -> tuple[pl.Expr, pl.Expr]:
    """Wilson score bounds (as fractions) for proportions `p` over `n` items, as polars
    expressions, for whole columns at once (the formula is `_wilson`'s, as for
    `wilson_interval`)."""
    lo, hi = _wilson(p, n, z, pl.Expr.sqrt)
    return lo.clip(lower_bound=0.0), hi.clip(upper_bound=1.0)


def _wilson(p, n, z: float, sqrt):
    """The Wilson score bounds, unclipped, written once for numbers (`sqrt` = math.sqrt: one
    interval costs a microsecond, as paired comparisons over thousands of steps need) and for
    polars expressions (`sqrt` = pl.Expr.sqrt)."""
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return centre - half, centre + half


def exact_interval(successes: int, n: int, level: float = 0.95) -> tuple[float, float]:
    """Clopper-Pearson (exact) binomial interval (as fractions)."""
    from scipy.special import betaincinv  # the beta quantile (scipy.stats.beta.ppf)

    alpha = 1 - level
    lo = 0.0 if successes == 0 else betaincinv(successes, n - successes + 1, alpha / 2)
    hi = 1.0 if successes == n else betaincinv(successes + 1, n - successes, 1 - alpha / 2)
    return float(lo), float(hi)


def pass_at_k(n: int, c: int, k: int) -> float:
    """Unbiased pass@k for one problem: n samples, c correct (Chen et al. 2021),
    1 - C(n - c, k) / C(n, k), by the one formula `pass_at_k_expr` states.

    Examples
    --------
    >>> pass_at_k(8, 2, 1), round(pass_at_k(8, 2, 4), 4)
    (0.25, 0.7857)
    """
    if not 0 <= c <= n or not 1 <= k <= n:
        raise ValueError(f"need 0 <= c <= n and 1 <= k <= n; got n={n}, c={c}, k={k}")
    value = pass_at_k_expr(pl.lit(n, pl.Int64), pl.lit(c, pl.Int64), k)
    return pl.select(value.alias("pass_k")).item()


def pass_at_k_expr(n, c, k: int):
    """Unbiased pass@k of problems with n samples, c correct (k >= 1): 1 - C(n-c, k) / C(n, k),
    as the product of (n - c - i) / (n - i) for i < k (no large binomials; zero once n - c < k).
    `n` and `c` are polars or narwhals expressions; the result is one of the same kind."""
    term = (n - c).clip(lower_bound=0) / n
    for i in range(1, k):
        term = term * ((n - c - i).clip(lower_bound=0) / (n - i))
    return 1 - term


def binomial_se(p: float, n: int) -> float:
    """Standard error of a proportion p measured on n independent problems.

    Parameters
    ----------
    p : float
        The proportion, as a fraction.
    n : int
        Problems it was measured on: count problems, not samples.

    Returns
    -------
    float
        sqrt(p (1 - p) / n), as a fraction.

    Examples
    --------
    >>> round(binomial_se(0.6, 30), 4)  # 60% on 30 problems: about 9 points
    0.0894
    """
    return math.sqrt(p * (1 - p) / n)


def with_intervals(
    df: pl.DataFrame, value: str, n: int | str, *, scale: float = 100.0
) -> pl.DataFrame:
    """Add Wilson 95% bounds `lo`, `hi` (same scale as `value`) for accuracies measured on n items.

    `n` is a number, or the name of a column holding each row's benchmark size.
    """
    size = (pl.col(n) if isinstance(n, str) else pl.lit(n)).cast(pl.Float64)
    solved = pl.col(value) / scale * size  # problems solved, then their share, as wilson_interval
    lo, hi = wilson_exprs(solved / size, size)
    return df.with_columns(lo=lo * scale, hi=hi * scale)


def distinguishable(p1: float, p2: float, n: int, z: float = Z95) -> bool:
    """Two-proportion z-test (pooled) at the 5% level for two models scored on the same n items.

    Treats the two scores as independent samples; scores on the same items are positively
    correlated in practice, so this errs towards 'cannot tell apart'.

    Parameters
    ----------
    p1, p2 : float
        The two models' accuracies, as fractions.
    n : int
        Items each model was scored on.
    z : float
        Two-sided critical value of the standard normal; 1.96 for the 5% level.

    Returns
    -------
    bool
        True when |p1 - p2| is more than `z` standard errors of the difference,
        sqrt(2 p (1 - p) / n) at p the mean of p1 and p2; False when that error is 0 (both at 0
        or both at 1).

    Examples
    --------
    >>> distinguishable(0.6, 0.5, 100), distinguishable(0.6, 0.5, 500)  # 10 points apart
    (False, True)
    """
    pooled = (p1 + p2) / 2
    se = math.sqrt(2 * pooled * (1 - pooled) / n)
    return se > 0 and abs(p1 - p2) / se > z


def bootstrap_means(
    values: Sequence[float], resamples: int = BOOTSTRAP_RESAMPLES, seed: int = 0
) -> np.ndarray:
    """The means of `resamples` resamples of `values` drawn with replacement (numpy's PCG64
    seeded with `seed`, so the same values give the same bytes), rounded to 12 decimals so that
    a mean that is 0 in exact arithmetic counts as 0 and not as a rounding error's sign.

    Each value is one problem's mean reward over its samples: resampling values resamples
    problems with their samples together (samples of one problem are not independent). The
    indices are drawn in blocks of about two million, so memory stays bounded."""
    import numpy as np

    x = np.asarray(values, dtype=float)
    rng = np.random.default_rng(seed)
    out = np.empty(resamples)
    block = max(1, 2_000_000 // x.size)
    for start in range(0, resamples, block):
        stop = min(resamples, start + block)
        out[start:stop] = x[rng.integers(0, x.size, size=(stop - start, x.size))].mean(axis=1)
    return np.round(out, 12)


def percentile_bounds(means: np.ndarray, level: float = 0.95) -> tuple[float, float]:
    """The percentile interval of bootstrap means: the r-th smallest and the r-th largest,
    r = ceil(B (1 - level) / 2) of B means (250 of 10,000 at 95%), with no interpolation, so
    that it excludes 0 exactly when `bootstrap_p` is below 1 - level."""
    import numpy as np

    r = max(1, math.ceil(means.size * (1 - level) / 2 - 1e-9))
    ordered = np.sort(means)
    return float(ordered[r - 1]) + 0.0, float(ordered[means.size - r]) + 0.0  # no -0.0


def bootstrap_interval(
    values: Sequence[float],
    *,
    resamples: int = BOOTSTRAP_RESAMPLES,
    seed: int = 0,
    level: float = 0.95,
) -> tuple[float, float] | None:
    """Percentile bootstrap interval for a mean reward over problems.

    Problems are resampled with replacement, each with all its samples (`values` holds one
    mean per problem), `resamples` times; the bounds are the r-th smallest and largest of the
    resampled means (`percentile_bounds`). With fewer than BOOTSTRAP_MIN_PROBLEMS problems
    there is none (the percentile interval is too narrow in small samples). Where every
    problem has the same reward the resamples cannot spread: rewards from 0 to 1 then get
    the Wilson interval of that share (0/1 answers have the largest spread such rewards can
    have), others none.

    Parameters
    ----------
    values : sequence of float
        One value per problem: its mean reward over its samples.
    resamples : int
        Bootstrap resamples (10,000 by default).
    seed : int
        The generator's seed: the same input gives the same bounds, to the bit.
    level : float
        Coverage of the interval.

    Returns
    -------
    tuple of float, or None
        The lower and upper bound, or None (too few problems, or no spread to measure).

    Examples
    --------
    >>> lo, hi = bootstrap_interval([0.0, 0.5, 1.0, 0.5, 0.25] * 6)  # 30 problems, mean 0.45
    >>> round(lo, 2), round(hi, 2)
    (0.33, 0.57)
    """
    import numpy as np

    x = np.asarray(values, dtype=float)
    if x.size < BOOTSTRAP_MIN_PROBLEMS:
        return None
    if np.all(x == x[0]):
        return wilson_interval(float(x.mean()) * x.size, x.size) if 0 <= x[0] <= 1 else None
    return percentile_bounds(bootstrap_means(x, resamples, seed), level)


# Distribution functions come from scipy.special, which scipy.stats wraps for these: importing
# scipy.stats costs a process about half a second more than scipy.special. Student's t, which
# every `compare` takes many times, is `student_t`'s, on `math` alone: importing
# scipy.special (with numpy) would cost `compare` 0.12-0.19 s.


@functools.lru_cache(maxsize=1024)
def _t_quantile(df: float) -> float:
    """The 97.5% quantile of Student's t (scipy.stats.t.ppf; remembered: the paired
    comparisons of a run's steps share one df)."""
    return t_quantile(0.975, df)


def _normal_quantile(q: float) -> float:
    """The q quantile of the standard normal (scipy.stats.norm.ppf)."""
    from scipy.special import ndtri

    return float(ndtri(q))
