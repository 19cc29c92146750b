"""Power: the smallest difference a benchmark of N problems detects, paired and unpaired, with
training seeds, and by the paired t test over per-problem differences (several samples per
problem, rewards); the power of a given difference, and the problems a difference needs."""

from __future__ import annotations

import functools
import math
from statistics import NormalDist
from typing import TYPE_CHECKING

from helpers.stats.intervals import _normal_quantile

if TYPE_CHECKING:  # numpy loads where a function needs it: `plot -o x.csv` never does
    pass

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
    # to 1e-4, and to 1% of the difference itself (at 10^12 problems it is about 1e-6)
    return _smallest(reached, 0.0, psi, 1e-4, relative=0.01)


def paired_power(problems: int, differing: float, difference: float, alpha: float = 0.05) -> float:
    """The probability that McNemar's score test (the paired test `compare` uses) finds a
    difference at two-sided `alpha`, when each of `problems` problems is answered differently
    by the two runs with probability `differing`, the method's way with probability
    (differing + difference) / 2: summed exactly over every count of problems won and lost."""
    import numpy as np
    from scipy.special import xlogy

    won, lost, same, log_ways = _rejected(problems, _normal_quantile(1 - alpha / 2))
    p_won, p_lost = (differing + difference) / 2, (differing - difference) / 2
    with np.errstate(divide="ignore"):
        log_p = log_ways + xlogy(won, p_won) + xlogy(lost, p_lost) + xlogy(same, 1 - differing)
    return float(np.exp(log_p).sum())


@functools.lru_cache(maxsize=4)
def _rejected(n: int, z: float) -> tuple:
    """The counts of problems won, lost and answered alike out of `n` at which McNemar's test
    with critical value `z` rejects, each with the log of the number of ways to get it: what
    `paired_power` sums over, whatever the probabilities (a power curve asks for dozens at
    one n; at 1,000 problems the four arrays take 16 MB)."""
    import numpy as np
    from scipy.special import gammaln

    won, lost = np.meshgrid(np.arange(n + 1), np.arange(n + 1), indexing="ij")
    same = n - won - lost
    possible = same >= 0
    same = np.where(possible, same, 0)
    rejects = possible & (np.abs(won - lost) > z * np.sqrt(won + lost))
    log_ways = gammaln(n + 1) - gammaln(won + 1) - gammaln(lost + 1) - gammaln(same + 1)
    kept = tuple(a[rejects] for a in (won, lost, same, log_ways))
    for a in kept:  # shared by every caller of the cache: none may change them
        a.flags.writeable = False
    return kept


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


def mcnemar_power(problems: int, differing: float, difference: float, alpha: float = 0.05) -> float:
    """The power of McNemar's score test as `minimum_detectable_difference` computes it:
    summed exactly (`paired_power`) up to EXACT_POWER_UP_TO problems, Connor's normal
    approximation above; `difference` at most `differing` (a share of problems can only move
    one way as far as all of them differing).

    >>> round(mcnemar_power(100, 0.2, minimum_detectable_difference(100, 0.5, agreement=0.8)), 2)
    0.8
    """
    d = abs(difference)
    if d > differing:
        raise ValueError("a difference larger than the share of problems that differ")
    if problems <= EXACT_POWER_UP_TO:
        return paired_power(problems, differing, d, alpha)
    za = _normal_quantile(1 - alpha / 2)
    spread = math.sqrt(max(differing - d * d, 1e-300))
    return NormalDist().cdf((d * math.sqrt(problems) - za * math.sqrt(differing)) / spread)


def problems_for(
    difference: float,
    differing: float,
    *,
    near: int,
    detectable: float | None = None,
    alpha: float = 0.05,
    power: float = 0.8,
) -> int | None:
    """The fewest problems at which McNemar's test, by the same power as
    `minimum_detectable_difference` (`mcnemar_power`), detects `difference` when a share
    `differing` of problems is answered differently; searched on the side of `near` (the
    problems a benchmark has) that the answer lies on, so that the two never contradict each
    other: if `near` problems detect a difference no larger than `difference` (`detectable`,
    what `minimum_detectable_difference` found for `near`; by default decided by the power at
    `near` itself), the answer is at most `near`, else more. None for no difference, or one
    larger than `differing` allows.
    (The exact power of a discrete test is not monotone in N: it saws up and down by a few
    points, so "about".)

    >>> d = minimum_detectable_difference(100, 0.5, agreement=0.8)  # 100 problems, 20% differ
    >>> round(d, 3), problems_for(d, 0.2, near=100), problems_for(d - 0.01, 0.2, near=100)
    (0.119, 100, 121)
    """
    d = abs(difference)
    if d == 0 or d > differing:
        return None

    def enough(n: int) -> bool:
        return mcnemar_power(n, differing, d, alpha) >= power

    within = enough(near) if detectable is None else d >= detectable
    if within:  # (within the detectable difference's tolerance `near` may fall just short)
        return int(_smallest(enough, 0, near, 1, whole=True)) if enough(near) else near
    bracket = _doubled(enough, near, 2 * near, limit=10**12)
    return None if bracket is None else int(_smallest(enough, *bracket, 1, whole=True))


def design_power(
    problems: int,
    accuracy: float,
    difference: float,
    *,
    agreement: float | None = None,
    seeds: int = 1,
    seed_sd: float = 0.0,
    alpha: float = 0.05,
) -> float | None:
    """The power at `difference` of the design whose smallest detectable difference
    `minimum_detectable_difference` (or `seeded_detectable_difference`) gives: unpaired by
    the normal approximation, each run's variance p (1 - p) / N + seed_sd^2 / S; paired
    (`agreement`) by McNemar's test (`mcnemar_power`), or with seeds by Connor's form with the
    seeds' variance added. None where `difference` is larger than the problems that differ
    allow (paired).

    >>> round(design_power(500, 0.5, minimum_detectable_difference(500, 0.5)), 3)
    0.8
    """
    za = _normal_quantile(1 - alpha / 2)
    d = abs(difference)
    training = 2 * seed_sd**2 / seeds
    if agreement is None:  # the z test `unpaired_power` makes, with the seeds' variance
        se = math.sqrt(2 * accuracy * (1 - accuracy) / problems + training)
        return t_test_power(d / se, math.inf, alpha)
    psi = 1 - agreement
    if d > psi:
        return None
    if training == 0:
        return mcnemar_power(problems, psi, d, alpha)
    null = math.sqrt(psi / problems + training)
    alternative = math.sqrt(max(0.0, psi - d * d) / problems + training)
    return NormalDist().cdf((d - za * null) / alternative)


def unpaired_power(problems: int, accuracy: float, difference: float, alpha: float = 0.05) -> float:
    """The probability that two runs on `problems` problems, near `accuracy` and `difference`
    apart, come out separable at two-sided `alpha` (the normal approximation for two
    proportions that `minimum_detectable_difference` inverts).

    >>> round(unpaired_power(500, 0.5, minimum_detectable_difference(500, 0.5)), 3)
    0.8
    """
    se = math.sqrt(2 * accuracy * (1 - accuracy) / problems)
    return t_test_power(abs(difference) / se, math.inf, alpha)  # a z test: infinite df


def seeded_detectable_difference(
    problems: int,
    accuracy: float,
    seeds: int,
    seed_sd: float,
    *,
    agreement: float | None = None,
    samples: int = 1,
    equally_hard: bool = False,
    alpha: float = 0.05,
    power: float = 0.8,
) -> float:
    """The smallest difference in accuracy detectable when each run is trained `seeds` times
    and its accuracy averaged over them, with between-seed (training) randomness.

    Each run's mean over its seeds varies by problem sampling and by training:
    variance = problem variance / N + seed_sd^2 / S. The problem variance does not shrink with
    seeds (every seed answers the same problems): p (1 - p) where each problem is always or
    never solved, p (1 - p) / (samples x seeds) with `equally_hard`. Unpaired, the difference
    of two runs has twice that variance and d = (z_alpha/2 + z_power) sqrt(2 (p (1 - p) / N +
    seed_sd^2 / S)). Paired (`agreement`, one answer per problem and seed), the problems
    contribute psi / N under no difference and (psi - d^2) / N under d (psi = 1 - agreement,
    as in Connor 1987), the seeds 2 seed_sd^2 / S: d solves d = z_alpha/2 sqrt(psi / N +
    2 seed_sd^2 / S) + z_power sqrt((psi - d^2) / N + 2 seed_sd^2 / S), by bisection; NaN
    where no difference up to psi is detectable. The seed variance is taken as known (given,
    or estimated from runs with several seeds); with seed_sd 0 and no agreement this is
    `minimum_detectable_difference`.

    Parameters
    ----------
    problems : int
        Problems in the benchmark (N).
    accuracy : float
        The runs' accuracy near the difference (p).
    seeds : int
        Training seeds per run (S), each evaluated on the same problems.
    seed_sd : float
        Standard deviation of a run's accuracy across seeds (a fraction).
    agreement : float, optional
        Share of problems both runs answer alike: the paired design.
    samples : int
        Answers per problem and seed (unpaired only).
    equally_hard : bool
        Every problem equally hard: answers independent across samples and seeds.
    alpha, power : float
        Two-sided level and power.

    Returns
    -------
    float
        The difference (a fraction), or NaN where none is detectable.

    Examples
    --------
    >>> round(seeded_detectable_difference(500, 0.5, seeds=3, seed_sd=0.02), 3)  # MATH500
    0.1
    """
    if seeds < 1 or seed_sd < 0:
        raise ValueError("need seeds >= 1 and seed_sd >= 0")
    if problems < 1 or not 0 < accuracy < 1 or not 0 < alpha < 1 or not 0 < power < 1:
        raise ValueError("need problems >= 1, and accuracy, alpha and power between 0 and 1")
    za, zb = _normal_quantile(1 - alpha / 2), _normal_quantile(power)
    training = 2 * seed_sd**2 / seeds  # the two runs' seed means
    if agreement is None:
        spread = accuracy * (1 - accuracy) / (samples * seeds if equally_hard else 1)
        return (za + zb) * math.sqrt(2 * spread / problems + training)
    if samples != 1:
        raise ValueError("several samples per problem: the paired size needs per-sample logs")
    psi = 1 - agreement
    if not 0 < psi <= 1:
        raise ValueError("agreement must be at least 0 and below 1")

    def reached(d: float) -> bool:
        null = math.sqrt(psi / problems + training)
        alternative = math.sqrt(max(0.0, psi - d * d) / problems + training)
        return za * null + zb * alternative <= d

    if not reached(psi):
        return math.nan
    return _smallest(reached, 0.0, psi, 1e-6)


def paired_t_power(
    problems: int,
    sd: float,
    difference: float,
    *,
    seeds: int = 1,
    seed_sd: float = 0.0,
    alpha: float = 0.05,
) -> float:
    """The power of the paired t test over per-problem differences (the test `compare` makes
    with several samples per problem, or with rewards that are not 0/1), from the noncentral
    t distribution.

    Each problem's difference (method's mean over its samples minus the baseline's) has
    standard deviation `sd` across problems; with `seeds` seeds per run and between-seed
    standard deviation `seed_sd`, the mean difference has variance sd^2 / N + 2 seed_sd^2 / S
    (a seed shifts every problem alike, so `sd` holds none of it). The statistic is t with
    N - 1 degrees of freedom and noncentrality d / sqrt(that variance); power =
    P(|T| > t_{1 - alpha/2, N - 1}). With `seed_sd` 0 this is the exact power of the t test
    for normal differences (close for bounded ones past about 20 problems).

    Parameters
    ----------
    problems : int
        Problems both runs answered (N), at least 2.
    sd : float
        Standard deviation of the per-problem differences.
    difference : float
        The true difference in mean accuracy or reward.
    seeds : int
        Training seeds per run (S).
    seed_sd : float
        Standard deviation of a run's mean across seeds.
    alpha : float
        Two-sided level.

    Returns
    -------
    float
        The probability that the test rejects no difference.

    Examples
    --------
    >>> round(paired_t_power(30, 0.3, 0.15), 3)  # 30 problems, sd 0.3, 15 points
    0.754
    """
    if problems < 2:
        raise ValueError("need at least two problems for a t test")
    se = math.sqrt(sd**2 / problems + 2 * seed_sd**2 / seeds)
    if se == 0:
        raise ValueError("need a spread: sd or seed_sd above 0")
    return t_test_power(abs(difference) / se, problems - 1, alpha)


def t_test_power(shift: float, df: float, alpha: float = 0.05) -> float:
    """The power of a two-sided t test at `alpha` on `df` degrees of freedom when the true
    difference is `shift` standard errors: P(|T| > t_{1 - alpha/2}) for T noncentral t with
    noncentrality `shift` (the normal's at infinite df).

    >>> round(t_test_power(2.8, 29), 3), round(t_test_power(2.8, math.inf), 3)
    (0.772, 0.8)
    """
    from scipy.special import nctdtr, ndtr, stdtrit  # noncentral t, normal, t quantile

    if not math.isfinite(df):
        z = _normal_quantile(1 - alpha / 2)
        return float(ndtr(shift - z) + ndtr(-shift - z))
    t = float(stdtrit(df, 1 - alpha / 2))
    found = float(1 - nctdtr(df, shift, t) + nctdtr(df, shift, -t))
    if math.isnan(found):  # scipy gives up far in the tail (power within 1e-9 of 1 there)
        found = float(ndtr(shift - t) + ndtr(-shift - t))
    return found


def paired_t_solve(
    sd: float,
    *,
    problems: int | None = None,
    difference: float | None = None,
    seeds: int = 1,
    seed_sd: float = 0.0,
    alpha: float = 0.05,
    power: float = 0.8,
) -> float | int | None:
    """Solve `paired_t_power(problems, sd, difference, ...) = power` for whichever of
    `problems` and `difference` is not given (as statsmodels' `solve_power` does): the smallest
    difference `problems` problems detect, by bisection to 1e-6, or the fewest problems that
    detect `difference`, searched over N.

    Parameters
    ----------
    sd : float
        Standard deviation of the per-problem differences.
    problems : int, optional
        Problems both runs answered (N), at least 2; give it to get the difference.
    difference : float, optional
        The difference to detect; give it to get the problems.
    seeds, seed_sd : int, float
        Training seeds per run and their standard deviation (`paired_t_power`).
    alpha, power : float
        Two-sided level and power.

    Returns
    -------
    float, int or None
        The detectable difference, in the units of `sd` (a fraction of accuracy, or reward);
        or the number of problems, None for no difference or where the seeds' variance alone
        keeps the power below `power` whatever the number of problems (2 seed_sd^2 / S too
        large for `difference`).

    Examples
    --------
    >>> round(paired_t_solve(0.3, problems=30), 3)  # about 2.9 standard errors
    0.159
    >>> paired_t_solve(0.3, difference=0.05)  # 5 points at a per-problem sd of 0.3
    285
    """
    if (problems is None) == (difference is None):
        raise ValueError("give one of problems and difference, to solve for the other")

    def reached(n: int, d: float) -> bool:
        return paired_t_power(n, sd, d, seeds=seeds, seed_sd=seed_sd, alpha=alpha) >= power

    if problems is not None:
        detects = functools.partial(reached, problems)  # of a difference, at these problems
        return _smallest(detects, *_doubled(detects, 0.0, 1.0), 1e-6)
    d = abs(difference)
    if d == 0:
        return None
    za, zb = _normal_quantile(1 - alpha / 2), _normal_quantile(power)
    if seed_sd > 0 and (za + zb) * math.sqrt(2 * seed_sd**2 / seeds) >= d:
        return None  # even infinitely many problems leave the seeds' variance

    def enough(n: int) -> bool:
        return reached(n, d)

    bracket = _doubled(enough, 1, 2, limit=10**9)
    return None if bracket is None else int(_smallest(enough, *bracket, 1, whole=True))


def _doubled(reached, low, high, limit: float = math.inf):
    """(low, high) with `reached(high)`: `high` doubled (the last one that fell short becoming
    `low`) until it holds; None once `high` passes `limit`."""
    while not reached(high):
        low, high = high, 2 * high
        if high > limit:
            return None
    return low, high


def _smallest(
    reached, low, high, tolerance: float, *, whole: bool = False, relative: float = math.inf
):
    """The smallest value in (low, high] at which `reached` holds, to `tolerance` (and to
    `relative` times the value), by bisection: power grows with the difference and with the
    problems, so `reached` holds from some value on (and at `high`). `whole`: over whole
    numbers."""
    while high - low > min(tolerance, relative * high):
        mid = (low + high) // 2 if whole else (low + high) / 2
        low, high = (low, mid) if reached(mid) else (mid, high)
    return high
