"""Power: the smallest difference a benchmark of N problems detects, paired and unpaired, the
power of a given difference, and the problems a difference needs."""

from __future__ import annotations

import math
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
