"""Training randomness in a comparison of two runs: each run's seeds, on the same problems, as a
two-way layout (seed x problem), its seed variance component by the method of moments, and the
difference's variance and degrees of freedom (Satterthwaite) that count problems and seeds.

The model (the one `power --seeds` plans with): a run's accuracy on problem i from seed s is
y_si = mu + u_s + v_i + e_si, where u_s is what one training run shifts every problem by
(variance sigma_s^2), v_i the problem's difficulty and e_si the rest (the problem's answer
noise and how that seed treats that problem). The paired difference of two runs averages each
run's seeds per problem and then the problems:

    Var(difference) = Var_i(per-problem differences) / N + sigma_sa^2 / S_a + sigma_sb^2 / S_b

The first term is estimated by the per-problem differences' sample variance over N (the u_s
cancel in it: a seed shifts every problem alike). A run's sigma_s^2 is its seeds' accuracies'
sample variance less the residual mean square over N (the seeds' accuracies also vary by the
e_si averaged over N problems, which the first term already counts), floored at 0. The
degrees of freedom are Satterthwaite's (1946) for that sum of mean squares: with 2-5 seeds they
are few, and the t quantile widens as it should.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from statistics import NormalDist

from helpers.stats.differences import sample_summary, t_bounds
from helpers.stats.student_t import t_cdf

SEEDED = "paired: t over per-problem differences, with seed variance (Satterthwaite df)"
_NORMAL = NormalDist()


@dataclass(frozen=True)
class SeedLayout:
    """One run's seeds on the problems every seed of it answered: how many seeds and problems,
    the sample variance of the seeds' accuracies (each a mean over those problems), and the
    residual mean square of the seed x problem table (what is left after each seed's and each
    problem's mean), on (seeds - 1)(problems - 1) degrees of freedom."""

    seeds: int
    problems: int
    seed_var: float
    residual: float

    @property
    def component(self) -> float:
        """The seed variance component sigma_s^2 (method of moments, floored at 0)."""
        return max(0.0, self.seed_var - self.residual / self.problems)


def seed_layout(table: Sequence[Sequence[float]]) -> SeedLayout:
    """`SeedLayout` of a seeds x problems table (table[s][i]: seed s's accuracy on problem i).

    >>> layout = seed_layout([[1, 0, 1, 1], [0, 0, 1, 0], [1, 1, 1, 0]])
    >>> layout.seeds, layout.problems, round(layout.seed_var, 4), round(layout.residual, 4)
    (3, 4, 0.0833, 0.2222)
    """
    rows = [[float(v) for v in row] for row in table]
    s, n = len(rows), len(rows[0]) if rows else 0
    if s < 2 or n < 2 or any(len(r) != n for r in rows):
        raise ValueError("a seed layout needs two seeds or more, each on the same two problems+")
    seed_means = [math.fsum(r) / n for r in rows]
    problem_means = [math.fsum(r[i] for r in rows) / s for i in range(n)]
    grand = math.fsum(seed_means) / s
    residual = math.fsum(
        (rows[k][i] - seed_means[k] - problem_means[i] + grand) ** 2
        for k in range(s)
        for i in range(n)
    ) / ((s - 1) * (n - 1))
    return SeedLayout(s, n, sample_summary(seed_means).var, residual)


@dataclass(frozen=True)
class TDifference:
    """A difference whose estimate is t-distributed: its standard error and degrees of freedom
    give the interval at any level and the test it inverts (`Difference` at 95%)."""

    difference: float
    se: float
    df: float
    method: str

    def bounds(self, level: float = 0.95) -> tuple[float, float]:
        return t_bounds(self.difference, self.se, self.df)(level)

    def p_value(self) -> float:
        if self.se == 0:
            return 1.0 if self.difference == 0 else 0.0
        t = -abs(self.difference) / self.se
        return 2 * (t_cdf(t, self.df) if math.isfinite(self.df) else _NORMAL.cdf(t))


def satterthwaite(
    terms: Sequence[tuple[float, float, float]], variance: float | None = None
) -> tuple[float, float]:
    """The variance sum(c * ms) of a linear combination of independent mean squares, each
    (c, ms, df), and Satterthwaite's degrees of freedom for it,
    (sum c ms)^2 / sum((c ms)^2 / df); a term of infinite df (a variance taken as known)
    adds to the variance and nothing to the denominator. `variance`: the variance to take
    instead of the sum (its parts floored at 0), the df's denominator keeping every term."""
    if variance is None:
        variance = math.fsum(c * ms for c, ms, _ in terms)
    spread = math.fsum((c * ms) ** 2 / df for c, ms, df in terms if math.isfinite(df) and c * ms)
    return variance, (variance**2 / spread if spread > 0 else math.inf)


def seeded_difference(
    problems: int,
    mean: float,
    sd: float,
    a: SeedLayout | None,
    b: SeedLayout | None,
    *,
    seed_sd: float | None = None,
    seeds_a: int = 1,
    seeds_b: int = 1,
) -> tuple[TDifference, float, float]:
    """The paired difference of two runs with the training randomness counted, and the two
    parts of its variance: (difference, seed variance, problem variance).

    `problems`, `mean` and `sd`: the per-problem differences (each problem's accuracy averaged
    over each run's seeds, b minus a); `a`, `b`: each run's `SeedLayout` (None for a run of
    one seed, whose seed variance is then taken to be the other run's); `seed_sd`: a training
    spread assumed known (one seed in each run, or to use instead of the seeds' own), one
    run's accuracy's standard deviation from seed to seed."""
    if problems < 2:
        raise ValueError("a seeded difference needs two problems or more")
    problem_variance = sd * sd / problems
    terms: list[tuple[float, float, float]] = [(1 / problems, sd * sd, problems - 1)]
    seed_variance, borrowed = 0.0, math.inf
    if seed_sd is not None:
        seed_variance = (1 / seeds_a + 1 / seeds_b) * seed_sd * seed_sd
        terms.append((1 / seeds_a + 1 / seeds_b, seed_sd * seed_sd, math.inf))
    else:
        measured = [x for x in (a, b) if x is not None]
        for layout in measured:
            # a run of one seed borrows the other's seed variance (the same training, assumed):
            # its df are then at most the borrowed estimate's
            weight = 1 / layout.seeds
            if len(measured) == 1:
                weight += 1 / (seeds_b if layout is a else seeds_a)
                borrowed = layout.seeds - 1
            seed_variance += weight * layout.component
            terms.append((weight, layout.seed_var, layout.seeds - 1))
            terms.append(
                (
                    -weight / layout.problems,
                    layout.residual,
                    (layout.seeds - 1) * (layout.problems - 1),
                )
            )
    # the variance floors each seed component at 0; the df keep every term, floored or not:
    # a component estimated at 0 is as uncertain as one estimated a little above it (dropping
    # its terms took the df from a few to N - 1 exactly where the seeds were under-estimated)
    variance, df = satterthwaite(terms, problem_variance + seed_variance)
    df = min(df, borrowed)
    return TDifference(mean, math.sqrt(variance), df, SEEDED), seed_variance, problem_variance
