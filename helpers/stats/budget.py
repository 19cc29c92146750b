"""A noise budget: where the variance of a run's accuracy comes from (answer-to-answer sampling,
problem sampling, training randomness), and the cheapest mix of answers per problem, seeds and
problems that detects a target difference.

The model is the nested random-effects one behind Miller (2024, "Adding Error Bars to Evals",
arXiv:2411.00640: answers within problems, problems from a population) with training seeds
crossed with problems as in `seeds.py` (Madaan et al. 2024, arXiv:2406.10229; Hochlehnert et al.
2025, arXiv:2504.07086): answer j of seed s on problem i is y = mu + u_s + v_i + w_si + e_sij,

    Var(a run's accuracy) = sd_seed^2 / S + sd_problem^2 / N + sd_interaction^2 / (S N)
                            + sd_answer^2 / (S N k)

and two runs on the same problems differ by a variance in which each run's seed, interaction
and answer parts add up and the problems' part is that of the per-problem gain (sd_gain^2 / N;
problem difficulty, shared, cancels). Each part is estimated by the method of moments on the
logs' (seed, problem) cells, floored at 0.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from helpers.stats.differences import sample_summary
from helpers.stats.power import t_test_power
from helpers.stats.seeds import seed_layout


@dataclass(frozen=True)
class Cells:
    """One run's cells: per seed, per problem (the same problems, in the same order, for every
    seed), the number of answers and their mean and sample variance (None for one answer)."""

    counts: Sequence[Sequence[int]]
    means: Sequence[Sequence[float]]
    variances: Sequence[Sequence[float | None]]


@dataclass(frozen=True)
class NoiseBudget:
    """One run's variance parts (None where its logs cannot tell them apart: one answer a
    problem leaves the answers' part inside the interaction's; one seed leaves training
    unmeasured), how many seeds, problems and answers per problem (harmonic mean) it had."""

    answer: float | None
    problem: float
    interaction: float
    training: float | None
    seeds: int
    problems: int
    answers: float

    def run_variance(self, seeds: int, problems: int, answers: int) -> float:
        """Var of a run's accuracy for a design: S seeds, N problems, k answers each. An
        unmeasured answer part is counted in the interaction's (more answers then help
        nothing: the conservative reading); unmeasured training counts 0."""
        part = self.interaction + (
            (self.answer or 0.0) / answers if self.answer is not None else 0.0
        )
        return (self.training or 0.0) / seeds + self.problem / problems + part / (seeds * problems)


def noise_budget(cells: Cells) -> NoiseBudget:
    """The parts of a run's accuracy's variance, from its cells (`Cells`).

    >>> b = noise_budget(Cells([[2, 2, 2], [2, 2, 2]], [[1, 0.5, 0], [1, 0, 0.5]],
    ...                        [[0, 0.5, 0], [0, 0, 0.5]]))
    >>> round(b.answer, 4), round(b.problem, 4), round(b.interaction, 4), b.training
    (0.1667, 0.125, 0.0417, 0.0)
    """
    seeds, problems = len(cells.means), len(cells.means[0])
    within = [
        (n - 1, v)
        for row_n, row_v in zip(cells.counts, cells.variances, strict=True)
        for n, v in zip(row_n, row_v, strict=True)
        if n > 1 and v is not None
    ]
    answer = math.fsum(df * v for df, v in within) / sum(df for df, _ in within) if within else None
    every = [n for row in cells.counts for n in row]
    k = len(every) / math.fsum(1 / n for n in every)  # harmonic mean of answers per cell
    noise = (answer or 0.0) / k  # the answers' part of one cell mean
    if seeds > 1:
        layout = seed_layout(cells.means)
        training = layout.component
        interaction = max(0.0, layout.residual - noise)
        per_problem = [math.fsum(col) / seeds for col in zip(*cells.means, strict=True)]
        spread = sample_summary(per_problem).var
        problem = max(0.0, spread - layout.residual / seeds)
    else:
        training, interaction = None, 0.0
        problem = max(0.0, sample_summary(cells.means[0]).var - noise)
    return NoiseBudget(answer, problem, interaction, training, seeds, problems, k)


def gain_variance(a: NoiseBudget, b: NoiseBudget, difference_var: float) -> float:
    """The variance across problems of the true per-problem gain (b over a), from the observed
    per-problem differences' sample variance: less each run's cell noise over its seeds."""
    noise = sum((x.interaction + (x.answer or 0.0) / x.answers) / x.seeds for x in (a, b))
    return max(0.0, difference_var - noise)


@dataclass(frozen=True)
class Design:
    """A design for comparing two runs: seeds per run, problems, answers per problem, its
    cost (in answers, with each training seed's cost in answers added) and the standard
    error of the difference."""

    seeds: int
    problems: int
    answers: int
    cost: float
    se: float


def cheapest_designs(
    a: NoiseBudget,
    b: NoiseBudget,
    gain: float,
    difference: float,
    *,
    seed_cost: float,
    max_problems: int,
    alpha: float = 0.05,
    power: float = 0.8,
    max_seeds: int = 10,
    answer_counts: Sequence[int] = (1, 2, 4, 8, 16, 32, 64),
) -> list[Design]:
    """The designs (S seeds a run, N problems, k answers) that detect `difference` with
    `power` at two-sided `alpha` by the test `compare` would make on them: the power of the t
    test (noncentral t) on the Satterthwaite df of the design (N - 1 for the problems, S - 1
    for each run's seeds; with one seed a run the training variance is the one measured here,
    taken as known). The verdict will estimate the seed variance from S seeds, which costs
    power this plan does not count: simulated with the verdict's own test, designs of 4-9
    seeds planned at 80% reach 70-76% (`docs/verdict.md`). For each S and k, the fewest
    problems (at most `max_problems`, the problems there are), cheapest first. Cost: both runs'
    answers, 2 S N k, plus 2 S trainings of `seed_cost` answers each. A run whose logs did not
    measure its training variance takes the other's (as the verdict does); where neither did,
    it counts 0 and only one seed is proposed; where the answers' part is unmeasured, only one
    answer a problem (the model cannot say what more would buy)."""
    if a.answer is None or b.answer is None:  # answers' part unmeasured: more help nothing
        answer_counts = (1,)
    trained = [x.training for x in (a, b) if x.training is not None]
    if not trained:  # one seed each: the seeds' parts unknown
        max_seeds = 1
    training = [
        x.training if x.training is not None else (trained[0] if trained else 0.0) for x in (a, b)
    ]
    found = []
    for s in range(1, max_seeds + 1):
        for k in answer_counts:
            per_problem = gain + sum(
                (x.interaction + ((x.answer or 0.0) / k if x.answer is not None else 0.0)) / s
                for x in (a, b)
            )

            def detects(n: int, s: int = s, per_problem: float = per_problem) -> bool:
                parts = [(per_problem / n, n - 1)] + [(t / s, s - 1 or math.inf) for t in training]
                variance = sum(v for v, _ in parts)
                spread = sum(v * v / df for v, df in parts if math.isfinite(df) and v)
                df = variance * variance / spread if spread else math.inf
                return t_test_power(abs(difference) / math.sqrt(variance), df, alpha) >= power

            if not detects(max_problems):
                continue
            low, high = 1, max_problems  # the fewest problems that detect it, by bisection
            while high - low > 1:
                mid = (low + high) // 2
                low, high = (low, mid) if detects(mid) else (mid, high)
            n = max(2, high)
            se = math.sqrt(sum(training) / s + per_problem / n)
            found.append(Design(s, n, k, 2 * s * n * k + 2 * s * seed_cost, se))
    return sorted(found, key=lambda d: (d.cost, d.seeds, d.answers))
