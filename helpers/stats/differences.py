"""Two runs compared: paired (Tango's score interval with McNemar's score test, the t interval
for several answers, the problem bootstrap for rewards that are not 0/1) and unpaired
differences. Their p-values are adjusted for many comparisons in `adjust`."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from statistics import NormalDist
from typing import TYPE_CHECKING

from helpers.stats.intervals import (
    BOOTSTRAP_MIN_PROBLEMS,
    BOOTSTRAP_RESAMPLES,
    Z95,
    _t_quantile,
    bootstrap_means,
    percentile_bounds,
    wilson_interval,
)
from helpers.stats.student_t import t_cdf, t_quantile

if TYPE_CHECKING:  # numpy loads where a function needs it: `plot -o x.csv` never does
    import numpy as np


@dataclass(frozen=True)
class Difference:
    """A difference in accuracy (fractions: method minus baseline) with its 95% interval, the
    p-value of the test the interval inverts, and (`at_level`) the same interval at any other
    level, for intervals adjusted for many comparisons (`adjust.adjusted_levels`)."""

    difference: float
    lo: float | None
    hi: float | None
    method: str
    p_value: float | None = None
    at_level: Callable[[float], tuple[float, float]] | None = field(
        default=None, compare=False, repr=False
    )


def z_for(level: float) -> float:
    """The standard normal quantile a two-sided interval at `level` takes (Z95 at 95%)."""
    return Z95 if level == 0.95 else NormalDist().inv_cdf(1 - (1 - level) / 2)


def t_bounds(mean: float, se: float, df: float) -> Callable[[float], tuple[float, float]]:
    """mean -/+ the t quantile of `level` on `df` degrees of freedom times `se`, as a function
    of the level (the normal's quantile at infinite df: every variance taken as known)."""

    def bounds(level: float) -> tuple[float, float]:
        if not math.isfinite(df):
            quantile = NormalDist().inv_cdf(1 - (1 - level) / 2)
        elif level == 0.95:
            quantile = _t_quantile(df)
        else:
            quantile = t_quantile(1 - (1 - level) / 2, df)
        return mean - quantile * se, mean + quantile * se

    return bounds


def tango_bounds(only_b: int, only_a: int, m: int) -> Callable[[float], tuple[float, float]]:
    """`tango_interval` as a function of the level."""
    return lambda level: tango_interval(only_b, only_a, m, z_for(level))


def newcombe_unpaired(
    cb: float, nb: int, ca: float, na: int, z: float = Z95
) -> tuple[float, float]:
    """95% interval (another level: its `z`) for p_b - p_a from two independent binomial
    proportions: Newcombe (1998, Stat Med 17:873, method 10), the hybrid of the two Wilson
    intervals."""
    pb, pa = cb / nb, ca / na
    lb, ub = wilson_interval(cb, nb, z)
    la, ua = wilson_interval(ca, na, z)
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
    close to its nominal level even in small samples, where the exact test is conservative.

    Parameters
    ----------
    only_b : int
        Problems only run b answered correctly (a count).
    only_a : int
        Problems only run a answered correctly (a count).

    Returns
    -------
    float
        The two-sided p-value, from |only_b - only_a| / sqrt(only_b + only_a) against the
        standard normal (no continuity correction); 1.0 with no discordant problems.

    Examples
    --------
    >>> round(mcnemar_score_p(10, 3), 4)  # 10 problems flipped one way, 3 the other
    0.0522
    """
    flips = only_b + only_a
    if flips == 0:
        return 1.0
    return math.erfc(abs(only_b - only_a) / math.sqrt(flips) / math.sqrt(2))


def mcnemar_exact_p(only_b: int, only_a: int) -> float:
    """Two-sided exact McNemar test: are flips one way as likely as flips the other?

    Parameters
    ----------
    only_b, only_a : int
        Problems only run b, and only run a, answered correctly (as `mcnemar_score_p`).

    Returns
    -------
    float
        The two-sided p-value: twice the smaller binomial tail of only_b out of
        only_b + only_a flips at 1/2, at most 1; 1.0 with no discordant problems.

    Examples
    --------
    >>> round(mcnemar_exact_p(10, 3), 4), round(mcnemar_score_p(10, 3), 4)  # 10 flips vs 3
    (0.0923, 0.0522)
    """
    from scipy.special import bdtr  # the binomial distribution function

    flips = only_b + only_a
    if flips == 0:
        return 1.0
    # under the null the flips are Binomial(flips, 1/2), symmetric: the two-sided p-value is
    # twice the smaller tail (scipy.stats.binomtest(only_b, flips, 0.5).pvalue)
    return float(min(1.0, 2 * bdtr(min(only_b, only_a), flips, 0.5)))


TANGO = "Tango score interval and McNemar score test"


@dataclass(frozen=True)
class Paired:
    """What a paired comparison takes of two runs' per-problem values on the problems both
    have: how many, the differences' (b - a) mean and sample standard deviation (None for one
    problem), whether every problem moved by the same amount, whether every value of both
    runs is 0 or 1, and then the problems only b and only a got right; `answers`, the most
    answers a problem has in either run (values of 0 or 1 from several answers: all alike)."""

    problems: int
    mean: float
    sd: float | None
    alike: bool
    binary: bool
    only_b: int
    only_a: int
    answers: int = 1


@dataclass(frozen=True)
class Sample:
    """What an unpaired comparison takes of one run's per-problem values: how many, their
    mean, sample variance (None for one value) and sum, and whether every one is 0 or 1."""

    n: int
    mean: float
    var: float | None
    total: float
    binary: bool


def sample_summary(values: Sequence[float]) -> Sample:
    """`Sample` of per-problem values, on `math` alone (sums exactly rounded)."""
    x = [float(v) for v in values]
    n = len(x)
    total = math.fsum(x)
    mean = total / n if n else math.nan
    var = math.fsum((v - mean) ** 2 for v in x) / (n - 1) if n > 1 else None
    return Sample(n, mean, var, total, all(v in (0.0, 1.0) for v in x))


def paired_summary(a: Sequence[float], b: Sequence[float]) -> Paired:
    """`Paired` of two runs' values on the same problems (a[i], b[i]: problem i)."""
    xa, xb = [float(v) for v in a], [float(v) for v in b]
    if len(xa) != len(xb) or not xa:
        raise ValueError("paired data need the same problems in both runs, at least one")
    d = [y - x for x, y in zip(xa, xb, strict=True)]
    moved = sample_summary(d)
    return Paired(
        problems=moved.n,
        mean=moved.mean,
        sd=None if moved.var is None else math.sqrt(moved.var),
        alike=min(d) == max(d),
        binary=all(v in (0.0, 1.0) for v in (*xa, *xb)),
        only_b=sum(x == 0 and y == 1 for x, y in zip(xa, xb, strict=True)),
        only_a=sum(x == 1 and y == 0 for x, y in zip(xa, xb, strict=True)),
    )


def paired_difference(a: Sequence[float], b: Sequence[float]) -> Difference:
    """Accuracy of run b minus run a on the same problems (a[i] and b[i] are each run's share
    of correct answers on problem i), with a 95% interval that uses the pairing
    (`paired_from` of `paired_summary(a, b)`)."""
    return paired_from(paired_summary(a, b))


def paired_from(s: Paired) -> Difference:
    """The paired comparison from its summary (`Paired`).

    One answer per problem in both runs (every value 0 or 1): Tango's score interval and the
    McNemar score test it inverts. Several answers per problem: the t interval and t test over
    the per-problem differences (problems are the units; samples of one problem are not
    independent). Each pair is one test and its inversion: the interval excludes 0 exactly
    when p < 0.05."""
    m = s.problems
    if s.binary:
        lo, hi = tango_interval(s.only_b, s.only_a, m)
        p = mcnemar_score_p(s.only_b, s.only_a)
        each = "one answer per problem" if s.answers == 1 else "each problem's answers all alike"
        said = f"paired: {TANGO}, {each}"
        return Difference(s.mean, lo, hi, said, p, tango_bounds(s.only_b, s.only_a, m))
    if m < 2:
        return Difference(s.mean, None, None, "paired: one problem, no interval")
    if s.alike:  # every problem moved by the same amount: no spread to build a t interval on
        if s.mean != 0:
            return Difference(s.mean, None, None, "paired: every problem moved alike")
        # none moved: as wide as with one answer per problem and no flips (samples only add)
        lo, hi = tango_interval(0, 0, m)
        return Difference(
            0.0, lo, hi, f"paired: {TANGO}, no problem changed", 1.0, tango_bounds(0, 0, m)
        )
    se = s.sd / math.sqrt(m)
    bounds = t_bounds(s.mean, se, m - 1)
    lo, hi = bounds(0.95)
    p = 2 * t_cdf(-abs(s.mean) / se, m - 1)
    return Difference(s.mean, lo, hi, "paired: t over per-problem differences", p, bounds)


def bootstrap_p(means: np.ndarray) -> float:
    """Two-sided p-value of the bootstrap test that inverts the percentile interval: twice the
    smaller share of bootstrap means at or below 0 and at or above 0, at most 1. It is below
    alpha exactly when `percentile_bounds` at level 1 - alpha excludes 0 (fewer than
    r = ceil(B alpha / 2) means lie on one side of 0 either way)."""
    import numpy as np

    below, above = int(np.sum(means <= 0)), int(np.sum(means >= 0))
    return min(1.0, 2 * min(below, above) / means.size)


def paired_bootstrap(
    a: Sequence[float],
    b: Sequence[float],
    *,
    resamples: int = BOOTSTRAP_RESAMPLES,
    seed: int = 0,
) -> Difference:
    """Mean reward of run b minus run a on the same problems, by the problem bootstrap.

    Problems are resampled with replacement, each with both runs' samples (`a[i]`, `b[i]`: each
    run's mean reward on problem i), `resamples` times; the interval is the percentile
    interval of the resampled mean differences and the p-value the test that inverts it
    (`bootstrap_p`), so the interval excludes 0 exactly when p < 0.05. With fewer than
    BOOTSTRAP_MIN_PROBLEMS problems there is neither. Where no problem's reward changed the
    resamples cannot spread: rewards from 0 to 1 get Tango's interval for no flips (as wide
    as 0/1 answers allow), others no interval, and p = 1; where every problem moved by the
    same amount, neither (as for the t interval).

    Parameters
    ----------
    a, b : sequence of float
        Each run's mean reward per problem, in the same order of problems.
    resamples : int
        Bootstrap resamples (10,000 by default).
    seed : int
        The generator's seed: the same input gives the same interval and p, to the bit.

    Returns
    -------
    Difference
        The difference, its 95% interval, the method in words and the p-value.

    Examples
    --------
    >>> base = [0.0, 0.5, 1.0, 0.5, 0.25] * 6  # partial credit on 30 problems
    >>> new = [0.25, 0.5, 0.75, 0.75, 0.5] * 6
    >>> d = paired_bootstrap(base, new)
    >>> round(d.difference, 3), round(d.lo, 3), round(d.hi, 3), d.p_value
    (0.1, 0.025, 0.167, 0.0104)
    """
    import numpy as np

    a, b = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    if a.shape != b.shape or a.size == 0:
        raise ValueError("paired data need the same problems in both runs, at least one")
    d = b - a
    mean = float(d.mean())
    if d.size < BOOTSTRAP_MIN_PROBLEMS:
        said = f"fewer than {BOOTSTRAP_MIN_PROBLEMS} problems, no bootstrap interval"
        return Difference(mean, None, None, f"paired: {said}")
    if np.all(d == d[0]):
        if d[0] != 0:
            return Difference(mean, None, None, "paired: every problem moved alike")
        said = "paired: no problem's reward changed"
        if np.all((a >= 0) & (a <= 1) & (b >= 0) & (b <= 1)):
            lo, hi = tango_interval(0, 0, d.size)
            return Difference(0.0, lo, hi, f"{said} (Tango's interval for no flips)", 1.0)
        return Difference(0.0, None, None, f"{said}, no spread to resample", 1.0)
    means = bootstrap_means(d, resamples, seed)
    lo, hi = percentile_bounds(means)
    method = f"paired: problem bootstrap, {resamples:,} resamples, percentile interval"
    return Difference(
        mean, lo, hi, method, bootstrap_p(means), lambda level: percentile_bounds(means, level)
    )


def welch_interval(a: Sequence[float], b: Sequence[float]) -> tuple[float, float] | None:
    """95% interval for mean(b) - mean(a) from independent values (Welch's t); None when either
    side has fewer than two values."""
    return welch_from(sample_summary(a), sample_summary(b))


def welch_from(a: Sample, b: Sample) -> tuple[float, float] | None:
    """`welch_interval` from each side's `Sample`."""
    if a.var is None or b.var is None:
        return None
    va, vb = a.var / a.n, b.var / b.n
    se = math.sqrt(va + vb)
    d = b.mean - a.mean
    if se == 0:
        return d, d
    df = (va + vb) ** 2 / (va**2 / (a.n - 1) + vb**2 / (b.n - 1))
    half = _t_quantile(df) * se
    return d - half, d + half


def unpaired_difference(a: Sequence[float], b: Sequence[float]) -> Difference:
    """Accuracy of run b minus run a treating the two as independent samples of problems (what
    one would compute without the pairing, or when the runs share no problems)."""
    return unpaired_from(sample_summary(a), sample_summary(b))


def unpaired_from(a: Sample, b: Sample) -> Difference:
    """`unpaired_difference` from each run's `Sample`: Newcombe's interval where every value
    is 0 or 1, Welch's t otherwise."""
    d = b.mean - a.mean
    if a.binary and b.binary:
        lo, hi = newcombe_unpaired(round(b.total), b.n, round(a.total), a.n)
        return Difference(d, lo, hi, "unpaired: Newcombe (independent proportions)")
    bounds = welch_from(a, b)
    if bounds is None:
        return Difference(d, None, None, "unpaired: too few problems for an interval")
    return Difference(d, bounds[0], bounds[1], "unpaired: Welch t over problems")


def unpaired_scores(score_a: float, n_a: int | None, score_b: float, n_b: int | None) -> Difference:
    """Difference of two scores logged as fractions of n problems (no per-problem data): the
    Newcombe interval for independent proportions, or none where a size is unknown.

    Parameters
    ----------
    score_a, score_b : float
        Each run's accuracy, as a fraction; the difference is b minus a.
    n_a, n_b : int or None
        Problems each score was measured on; None or 0 where unknown.

    Returns
    -------
    Difference
        score_b - score_a, its 95% interval (None where a size is unknown), the method in
        words, and no p-value.

    Examples
    --------
    >>> d = unpaired_scores(0.3, 30, 0.4, 30)  # 9 and 12 of 30 problems
    >>> round(d.difference, 3), round(d.lo, 3), round(d.hi, 3)
    (0.1, -0.136, 0.321)
    """
    d = score_b - score_a
    if not n_a or not n_b:
        return Difference(d, None, None, "no interval: benchmark size unknown (--problems)")
    lo, hi = newcombe_unpaired(score_b * n_b, n_b, score_a * n_a, n_a)
    return Difference(d, lo, hi, "unpaired: Newcombe from scores and benchmark sizes")
