"""Statistics for reading benchmark numbers honestly: intervals, fits, frontiers, smoothing."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import polars as pl

if TYPE_CHECKING:  # numpy loads where a function needs it: `plot -o x.csv` never does
    import numpy as np

Z95 = 1.959963984540054


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
    """Standard error of a proportion p measured on n independent problems."""
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
    Returns the mean observed maximum, the mean true score at the picked checkpoint, the best true
    score, and the mean overstatement against the best true score.
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


# ---- comparing two runs -----------------------------------------------------------------------


@dataclass(frozen=True)
class Difference:
    """A difference in accuracy (fractions: method minus baseline) with its 95% interval."""

    difference: float
    lo: float | None
    hi: float | None
    method: str
    p_value: float | None = None


# Distribution functions come from scipy.special, which scipy.stats wraps for these: importing
# scipy.stats costs a process about half a second more than scipy.special, and every `compare`
# and every notebook kernel that computes an interval pays it.


def _t_quantile(df: float) -> float:
    """The 97.5% quantile of Student's t (scipy.stats.t.ppf)."""
    from scipy.special import stdtrit

    return float(stdtrit(df, 0.975))


def newcombe_unpaired(cb: int, nb: int, ca: int, na: int) -> tuple[float, float]:
    """95% interval for p_b - p_a from two independent binomial proportions: Newcombe (1998,
    Stat Med 17:873, method 10), the hybrid of the two Wilson intervals."""
    pb, pa = cb / nb, ca / na
    lb, ub = wilson_interval(cb, nb)
    la, ua = wilson_interval(ca, na)
    d = pb - pa
    return d - math.sqrt((pb - lb) ** 2 + (ua - pa) ** 2), d + math.sqrt(
        (ub - pb) ** 2 + (pa - la) ** 2
    )


def _tango_score(delta: float, only_b: int, only_a: int, m: int) -> float:
    """Tango's score statistic for H0: p_b - p_a = delta over m paired answers (Tango 1998,
    Stat Med 17:891), with the cell probability of `only_a` at its maximum likelihood under
    H0. At delta = 0 it is McNemar's statistic, (only_b - only_a) / sqrt(only_b + only_a)."""
    a = 2 * m
    b = -only_b - only_a + (2 * m - only_b + only_a) * delta
    c = -only_a * delta * (1 - delta)
    p21 = (math.sqrt(max(0.0, b * b - 4 * a * c)) - b) / (2 * a)
    variance = m * (2 * p21 + delta * (1 - delta))
    if variance <= 0:  # no discordant answers and delta = 0: nothing against H0
        return 0.0
    return (only_b - only_a - m * delta) / math.sqrt(variance)


def tango_interval(only_b: int, only_a: int, m: int, z: float = Z95) -> tuple[float, float]:
    """The interval for p_b - p_a from m paired answers that inverts Tango's score test: every
    delta the test at level 2 * (1 - Phi(z)) does not reject. It excludes 0 exactly when
    McNemar's score test rejects (`mcnemar_score_p` < 0.05 at the default z), so an interval
    and a p-value from this pair never disagree; with no discordant pairs it still has a width
    set by m (identical runs are not certainty). The statistic decreases in delta: each bound
    is found by bisection to 1e-12."""

    def solve(target: float, low: float, high: float) -> float:
        for _ in range(200):
            mid = (low + high) / 2
            if _tango_score(mid, only_b, only_a, m) > target:
                low = mid
            else:
                high = mid
            if high - low < 1e-12:
                break
        return (low + high) / 2

    d = (only_b - only_a) / m
    lo = -1.0 if d == -1 else solve(z, -1.0, d)
    hi = 1.0 if d == 1 else solve(-z, d, 1.0)
    return lo, hi


def mcnemar_score_p(only_b: int, only_a: int) -> float:
    """Two-sided p-value of McNemar's score (asymptotic) test, the test Tango's interval
    inverts; Fagerland, Lydersen and Laake (2013, BMC Med Res Methodol 13:91) find it keeps
    close to its nominal level even in small samples, where the exact test is conservative."""
    flips = only_b + only_a
    if flips == 0:
        return 1.0
    return math.erfc(abs(only_b - only_a) / math.sqrt(flips) / math.sqrt(2))


def mcnemar_exact_p(only_b: int, only_a: int) -> float:
    """Two-sided exact McNemar test: are flips one way as likely as flips the other?"""
    from scipy.special import bdtr  # the binomial distribution function

    flips = only_b + only_a
    if flips == 0:
        return 1.0
    # under the null the flips are Binomial(flips, 1/2), symmetric: the two-sided p-value is
    # twice the smaller tail (scipy.stats.binomtest(only_b, flips, 0.5).pvalue)
    return float(min(1.0, 2 * bdtr(min(only_b, only_a), flips, 0.5)))


TANGO = "Tango score interval and McNemar score test"


ADJUSTMENTS = ("holm", "bh", "none")


def adjust_p(p_values: Sequence[float | None], method: str = "holm") -> list[float | None]:
    """p-values adjusted for making all these comparisons at once (None stays None and does
    not count): Holm's step-down (controls the chance of any false verdict), Benjamini and
    Hochberg's step-up ("bh": controls the expected share of false verdicts among those
    made), or "none". An adjusted value is never below its raw one.

    >>> adjust_p([0.0625, 0.0625, 0.69, 0.125, 0.51])
    [0.3125, 0.3125, 1.0, 0.375, 1.0]
    """
    if method not in ADJUSTMENTS:
        raise ValueError(f"method must be one of {ADJUSTMENTS}; got {method!r}")
    given = [(i, p) for i, p in enumerate(p_values) if p is not None]
    out: list[float | None] = list(p_values)
    if method == "none" or not given:
        return out
    m = len(given)
    ranked = sorted(given, key=lambda ip: ip[1])
    if method == "holm":  # the k-th smallest times (m - k), never below an earlier one
        running = 0.0
        for k, (i, p) in enumerate(ranked):
            running = max(running, min(1.0, (m - k) * p))
            out[i] = running
    else:  # the k-th smallest times m / k, never above a later one
        running = 1.0
        for k in range(m - 1, -1, -1):
            i, p = ranked[k]
            running = min(running, m * p / (k + 1))
            out[i] = running
    return out


def _is_binary(x: np.ndarray) -> bool:
    return bool(((x == 0) | (x == 1)).all())


def paired_difference(a: Sequence[float], b: Sequence[float]) -> Difference:
    """Accuracy of run b minus run a on the same problems (a[i] and b[i] are each run's share
    of correct answers on problem i), with a 95% interval that uses the pairing.

    One answer per problem in both runs (every value 0 or 1): Tango's score interval and the
    McNemar score test it inverts. Several answers per problem: the t interval and t test over
    the per-problem differences (problems are the units; samples of one problem are not
    independent). Each pair is one test and its inversion: the interval excludes 0 exactly
    when p < 0.05."""
    import numpy as np

    a, b = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    if a.shape != b.shape or a.size == 0:
        raise ValueError("paired data need the same problems in both runs, at least one")
    d = b - a
    m = d.size
    if _is_binary(a) and _is_binary(b):
        only_b = int(np.sum((a == 0) & (b == 1)))
        only_a = int(np.sum((a == 1) & (b == 0)))
        lo, hi = tango_interval(only_b, only_a, m)
        p = mcnemar_score_p(only_b, only_a)
        return Difference(float(d.mean()), lo, hi, f"paired: {TANGO}, one answer per problem", p)
    if m < 2:
        return Difference(float(d.mean()), None, None, "paired: one problem, no interval")
    se = float(d.std(ddof=1)) / math.sqrt(m)
    if se == 0:  # every problem moved by the same amount: no spread to build a t interval on
        if d[0] != 0:
            return Difference(float(d[0]), None, None, "paired: every problem moved alike")
        # none moved: as wide as with one answer per problem and no flips (samples only add)
        lo, hi = tango_interval(0, 0, m)
        return Difference(0.0, lo, hi, f"paired: {TANGO}, no problem changed", 1.0)
    from scipy.special import stdtr  # Student's t distribution function

    half = _t_quantile(m - 1) * se
    p = float(2 * stdtr(m - 1, -abs(d.mean()) / se))
    return Difference(
        float(d.mean()),
        float(d.mean() - half),
        float(d.mean() + half),
        "paired: t over per-problem differences",
        p,
    )


def welch_interval(a: Sequence[float], b: Sequence[float]) -> tuple[float, float] | None:
    """95% interval for mean(b) - mean(a) from independent values (Welch's t); None when either
    side has fewer than two values."""
    import numpy as np

    a, b = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    if a.size < 2 or b.size < 2:
        return None
    va, vb = a.var(ddof=1) / a.size, b.var(ddof=1) / b.size
    se = math.sqrt(va + vb)
    d = float(b.mean() - a.mean())
    if se == 0:
        return d, d
    df = (va + vb) ** 2 / (va**2 / (a.size - 1) + vb**2 / (b.size - 1))
    half = _t_quantile(df) * se
    return d - half, d + half


def unpaired_difference(a: Sequence[float], b: Sequence[float]) -> Difference:
    """Accuracy of run b minus run a treating the two as independent samples of problems (what
    one would compute without the pairing, or when the runs share no problems)."""
    import numpy as np

    a, b = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    d = float(b.mean() - a.mean())
    if _is_binary(a) and _is_binary(b):
        lo, hi = newcombe_unpaired(int(b.sum()), b.size, int(a.sum()), a.size)
        return Difference(d, lo, hi, "unpaired: Newcombe (independent proportions)")
    bounds = welch_interval(a, b)
    if bounds is None:
        return Difference(d, None, None, "unpaired: too few problems for an interval")
    return Difference(d, bounds[0], bounds[1], "unpaired: Welch t over problems")


def unpaired_scores(score_a: float, n_a: int | None, score_b: float, n_b: int | None) -> Difference:
    """Difference of two scores logged as fractions of n problems (no per-problem data): the
    Newcombe interval for independent proportions, or none where a size is unknown."""
    d = score_b - score_a
    if not n_a or not n_b:
        return Difference(d, None, None, "no interval: benchmark size unknown (--problems)")
    lo, hi = newcombe_unpaired(score_b * n_b, n_b, score_a * n_a, n_a)
    return Difference(d, lo, hi, "unpaired: Newcombe from scores and benchmark sizes")


# ---- power: what difference a benchmark can see ------------------------------------------------


def _normal_quantile(q: float) -> float:
    """The q quantile of the standard normal (scipy.stats.norm.ppf)."""
    from scipy.special import ndtri

    return float(ndtri(q))


EXACT_POWER_UP_TO = 1000  # problems; above, the paired power is Connor's approximation


def minimum_detectable_difference(
    problems: int,
    accuracy: float,
    *,
    agreement: float | None = None,
    alpha: float = 0.05,
    power: float = 0.8,
    samples: int = 1,
    equally_hard: bool = False,
) -> float:
    """The smallest difference in accuracy (a fraction) that a two-sided test at `alpha`
    detects with probability `power`, comparing two runs on the same `problems`, one answer
    per problem each; NaN where no difference is (the runs differ on too few problems).

    With `samples` answers per problem (accuracy averaged over them; unpaired only), how much
    they help depends on how unequal the problems are, which one number cannot say: by default
    none (each problem always or never solved: the per-problem variance stays p (1 - p)), or
    with `equally_hard` fully (p (1 - p) / samples). A real benchmark lies between the two.

    Unpaired (no `agreement`): the normal approximation for two proportions near `accuracy`,
    (z_alpha/2 + z_power) * sqrt(2 p (1 - p) / n). Paired (`agreement`: the share of problems
    both runs answer alike, right or wrong; psi = 1 - agreement differ): the power of
    McNemar's score test summed exactly over the counts of problems won and lost (up to 1,000
    problems), or Connor's (1987, Biometrics 43:207) approximation n = (z_alpha/2 sqrt(psi) +
    z_power sqrt(psi - d^2))^2 / d^2 above; the largest difference possible is psi.

    >>> round(minimum_detectable_difference(500, 0.5), 3)  # two runs on MATH500 at 50%
    0.089
    >>> round(minimum_detectable_difference(30, 0.3), 2)  # on AIME at 30%: a third
    0.33
    """
    if problems < 1 or not 0 < accuracy < 1 or not 0 < alpha < 1 or not 0 < power < 1:
        raise ValueError("need problems >= 1, and accuracy, alpha and power between 0 and 1")
    za, zb = _normal_quantile(1 - alpha / 2), _normal_quantile(power)
    if agreement is None:
        variance = accuracy * (1 - accuracy) / (samples if equally_hard else 1)
        return (za + zb) * math.sqrt(2 * variance / problems)
    if samples != 1:
        raise ValueError("several samples per problem: the paired size needs per-sample logs")
    psi = 1 - agreement  # the share of problems the runs answer differently
    if not 0 < psi <= 1:
        raise ValueError("agreement must be at least 0 and below 1")
    if problems > EXACT_POWER_UP_TO:  # Connor's normal approximation, good at this size

        def reached(d: float) -> bool:
            n = (za * math.sqrt(psi) + zb * math.sqrt(max(0.0, psi - d * d))) ** 2 / (d * d)
            return n <= problems
    else:  # the power of the test itself, summed exactly

        def reached(d: float) -> bool:
            return paired_power(problems, psi, d, alpha) >= power

    if not reached(psi):  # even every differing problem going one way is too few
        return math.nan
    low, high = 0.0, psi  # power grows with the difference: bisect to 1e-4
    while high - low > 1e-4:
        mid = (low + high) / 2
        low, high = (low, mid) if reached(mid) else (mid, high)
    return high


def paired_power(problems: int, differing: float, difference: float, alpha: float = 0.05) -> float:
    """The probability that McNemar's score test (the paired test `compare` uses) finds a
    difference at two-sided `alpha`, when each of `problems` problems is answered differently
    by the two runs with probability `differing`, the method's way with probability
    (differing + difference) / 2: summed exactly over every count of problems won and lost."""
    import numpy as np
    from scipy.special import gammaln, xlogy

    n = problems
    won, lost = np.meshgrid(np.arange(n + 1), np.arange(n + 1), indexing="ij")
    same = n - won - lost
    possible = same >= 0
    same = np.where(possible, same, 0)
    p_won, p_lost = (differing + difference) / 2, (differing - difference) / 2
    z = _normal_quantile(1 - alpha / 2)
    rejects = possible & (np.abs(won - lost) > z * np.sqrt(won + lost))
    with np.errstate(divide="ignore"):
        log_p = (
            gammaln(n + 1)
            - gammaln(won + 1)
            - gammaln(lost + 1)
            - gammaln(same + 1)
            + xlogy(won, p_won)
            + xlogy(lost, p_lost)
            + xlogy(same, 1 - differing)
        )
    return float(np.exp(log_p[rejects]).sum())


def problems_needed(
    difference: float, differing: float, alpha: float = 0.05, power: float = 0.8
) -> int | None:
    """How many problems two runs need for McNemar's test to detect `difference` with
    `power`, when a share `differing` of problems is answered differently (Connor 1987, the
    planning formula; None for no difference, or one larger than `differing` allows).

    >>> problems_needed(0.05, 0.2)  # 5 points when 20% of problems differ
    626
    """
    d = abs(difference)
    if d == 0 or d > differing:
        return None
    za, zb = _normal_quantile(1 - alpha / 2), _normal_quantile(power)
    n = (za * math.sqrt(differing) + zb * math.sqrt(differing - d * d)) ** 2 / (d * d)
    return math.ceil(n - 1e-9)


def unpaired_power(problems: int, accuracy: float, difference: float, alpha: float = 0.05) -> float:
    """The probability that two runs on `problems` problems, near `accuracy` and `difference`
    apart, come out separable at two-sided `alpha` (the normal approximation for two
    proportions that `minimum_detectable_difference` inverts).

    >>> round(unpaired_power(500, 0.5, minimum_detectable_difference(500, 0.5)), 3)
    0.8
    """
    from scipy.special import ndtr  # the standard normal distribution function

    se = math.sqrt(2 * accuracy * (1 - accuracy) / problems)
    z = _normal_quantile(1 - alpha / 2)
    shift = abs(difference) / se
    return float(ndtr(shift - z) + ndtr(-shift - z))
