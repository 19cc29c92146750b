"""Statistics against known answers."""

from __future__ import annotations

import math

import numpy as np
import polars as pl
import pytest
from scipy.stats import binom

from helpers import stats


def test_wilson_matches_textbook_value():
    # Agresti & Coull (1998) style example: 81 of 263 -> Wilson 95% (0.2553, 0.3662)
    lo, hi = stats.wilson_interval(81, 263)
    assert lo == pytest.approx(0.2553, abs=5e-4) and hi == pytest.approx(0.3662, abs=5e-4)
    # 0 of 10: Wilson upper bound z^2/(n+z^2) = 0.2775
    assert stats.wilson_interval(0, 10) == pytest.approx((0.0, 0.2775), abs=5e-4)


def test_exact_interval_matches_textbook_value():
    # Clopper-Pearson 95% for 0/10 is (0, 1 - 0.025**(1/10)) = (0, 0.3085)
    assert stats.exact_interval(0, 10) == pytest.approx((0.0, 0.30850), abs=1e-4)
    lo, hi = stats.exact_interval(9, 30)
    assert lo == pytest.approx(0.1473, abs=5e-4) and hi == pytest.approx(0.4940, abs=5e-4)


def test_binomial_se_of_a_30_problem_benchmark():
    assert stats.binomial_se(0.3, 30) == pytest.approx(0.0837, abs=1e-4)
    assert stats.binomial_se(0.5, 500) == pytest.approx(0.02236, abs=1e-5)


def test_with_intervals_uses_each_rows_benchmark_size():
    df = pl.DataFrame({"acc": [30.0, 30.0], "n": [30, 500]})
    out = stats.with_intervals(df, "acc", "n")
    widths = (out["hi"] - out["lo"]).to_list()
    assert widths[0] > 3 * widths[1]
    assert out["lo"][0] == pytest.approx(100 * stats.wilson_interval(9, 30)[0])


def test_distinguishable():
    assert not stats.distinguishable(0.37, 0.46, 30)
    assert stats.distinguishable(0.75, 0.95, 500)
    assert stats.distinguishable(0.93, 0.95, 500) is False


def test_loglinear_fit_recovers_a_known_slope():
    rng = np.random.default_rng(1)
    x = np.array([1e3, 3e3, 1e4, 3e4, 1e5] * 40)
    y = 70 + 6.5 * np.log10(x) + rng.normal(0, 0.5, x.size)
    fit = stats.loglinear_fit(x.tolist(), y.tolist())
    assert fit.slope == pytest.approx(6.5, abs=0.1)
    assert fit.slope_lo < 6.5 < fit.slope_hi
    assert fit.method == "ordinary least squares"


def test_weighted_fit_with_two_points_has_the_analytic_interval():
    fit = stats.loglinear_fit([1e3, 1e4], [83.0, 90.0], sigma=[1.0, 2.0])
    assert fit.slope == pytest.approx(7.0)
    # two points, one decade apart: var(slope) = 1^2 + 2^2
    assert fit.slope_hi - fit.slope == pytest.approx(1.959964 * math.sqrt(5), rel=1e-6)
    mean, lo, hi = fit.predict(1e5)
    assert mean == pytest.approx(97.0) and lo < 97 < hi


def test_unweighted_fit_refuses_two_points():
    with pytest.raises(ValueError, match="three points"):
        stats.loglinear_fit([1, 10], [1, 2])


def test_pareto_frontier():
    df = pl.DataFrame({"m": list("abcde"), "tok": [1, 2, 2, 3, 4], "acc": [5, 4, 7, 6, 9]})
    assert stats.pareto_frontier(df, "tok", "acc")["m"].to_list() == ["a", "c", "e"]


def test_ema_matches_hand_computed_sequence():
    assert stats.ema([1.0, 2.0, 3.0], 0.5, debias=False) == pytest.approx([0.5, 1.25, 2.125])
    # debiased: divide by 1 - 0.5**t -> 1, 1.6667, 2.4286
    assert stats.ema([1.0, 2.0, 3.0], 0.5) == pytest.approx([1.0, 5 / 3, 2.125 / 0.875])
    assert stats.ema([4.0, 4.0, 4.0], 0.9) == pytest.approx([4.0, 4.0, 4.0])
    with pytest.raises(ValueError):
        stats.ema([1.0], 1.0)


def test_best_checkpoint_bias_direction_and_size():
    # ten identical checkpoints at 0.3 on 30 problems: the max of ten Binomial(30, .3)/30 draws
    flat = stats.best_checkpoint_bias([0.3] * 10, 30, runs=20000, seed=0)
    # exact: E[max] = sum_k P(max >= k) / 30, with P(max >= k) = 1 - F(k - 1) ** 10
    cdf = binom.cdf(np.arange(30), 30, 0.3)
    expected = float((1 - cdf**10).sum()) / 30
    assert flat["overstatement"] == pytest.approx(expected - 0.3, abs=0.004)
    assert flat["overstatement"] > 0.1
    # one checkpoint: no selection, no bias
    single = stats.best_checkpoint_bias([0.3], 30, runs=20000, seed=0)
    assert abs(single["overstatement"]) < 0.005
    # a large benchmark shrinks the bias
    assert stats.best_checkpoint_bias([0.3] * 10, 3000, seed=0)["overstatement"] < 0.02


def test_distribution_functions_agree_with_scipy_stats():
    """The intervals and p-values use scipy.special (cheaper to import) and, for Student's t,
    `stats.student_t` (no scipy at all); they must give what scipy.stats gives for the same
    quantities."""
    from scipy import stats as st

    for n in (1, 2, 7, 30, 198, 500):
        for k in sorted({0, 1, n // 3, n // 2, n - 1, n}):
            lo, hi = stats.exact_interval(k, n)
            ref_lo = 0.0 if k == 0 else st.beta.ppf(0.025, k, n - k + 1)
            ref_hi = 1.0 if k == n else st.beta.ppf(0.975, k + 1, n - k)
            assert lo == pytest.approx(ref_lo, abs=1e-12) and hi == pytest.approx(ref_hi, abs=1e-12)
    for only_b in range(0, 25):
        for only_a in range(0, 25):
            ref = 1.0 if only_a + only_b == 0 else st.binomtest(only_b, only_a + only_b).pvalue
            assert stats.mcnemar_exact_p(only_b, only_a) == pytest.approx(ref, rel=1e-9)
            chi = 0.0 if only_a + only_b == 0 else (only_b - only_a) ** 2 / (only_b + only_a)
            score = stats.mcnemar_score_p(only_b, only_a)
            assert score == pytest.approx(st.chi2.sf(chi, 1), rel=1e-9)
    rng = np.random.default_rng(3)
    for m in (2, 5, 30, 400):
        a, b = rng.uniform(size=m), rng.uniform(size=m)
        d = stats.paired_difference(a, b)
        ref = st.ttest_rel(b, a)
        half = st.t.ppf(0.975, m - 1) * st.sem(b - a)
        assert d.p_value == pytest.approx(ref.pvalue, rel=1e-9)
        assert d.hi - d.difference == pytest.approx(half, rel=1e-9)


# ---- one rule for interval and test (issue 25, item 3) -----------------------------------------


def test_the_paired_interval_and_test_never_disagree_on_any_table_up_to_60_problems():
    """Every paired 2x2 table of 1 to 60 problems (635,375 tables; the interval and test depend
    on the two discordant counts and m alone, 39,710 cases): Tango's interval excludes 0
    exactly when McNemar's score test gives p < 0.05. Newcombe's interval with the exact
    McNemar test, used before, disagreed on 28,828 of these tables, and with mid-p McNemar on
    4,718 (e.g. 2 of 2 problems flipped: Newcombe 0.07 to 1, exact p 0.5)."""
    disagree = []
    for m in range(1, 61):
        for only_b in range(m + 1):
            for only_a in range(m + 1 - only_b):
                lo, hi = stats.tango_interval(only_b, only_a, m)
                if (lo <= 0 <= hi) != (stats.mcnemar_score_p(only_b, only_a) >= 0.05):
                    disagree.append((m, only_b, only_a))
    assert disagree == []


def test_the_t_interval_and_test_never_disagree():
    """Several answers per problem: the t interval excludes 0 exactly when the t test gives
    p < 0.05, on 3,000 comparisons whose p-values crowd around 0.05 (2 to 800 problems; the
    t quantile and distribution function are `student_t`'s, not one inverted from the other)."""
    rng = np.random.default_rng(8)
    near = 0
    for _ in range(3000):
        m = int(rng.integers(2, 801))
        a = rng.integers(0, 9, m) / 8
        noise = rng.normal(0, 0.2, m)
        t = float(rng.uniform(1.5, 2.5))  # aim the observed t near the 97.5% point
        shift = t * noise.std(ddof=1) / math.sqrt(m) - noise.mean()
        d = stats.paired_difference(a, a + noise + shift)
        assert (d.lo > 0 or d.hi < 0) == (d.p_value < 0.05), (m, d)
        near += abs(d.p_value - 0.05) < 0.01
    assert near > 300  # the test was near its edge often enough to mean something


def test_tango_interval_is_wald_for_many_problems_and_covers_in_few():
    """Far from the edges and with many problems it is the Wald interval; on 30 problems its
    simulated coverage of the true paired difference is near 95%."""
    b, c, m = 400, 200, 10_000
    d = (b - c) / m
    half = stats.Z95 * math.sqrt((b + c) / m - d * d) / math.sqrt(m)
    assert stats.tango_interval(b, c, m) == pytest.approx((d - half, d + half), abs=2e-4)
    rng = np.random.default_rng(11)
    cells = [0.15, 0.05, 0.3, 0.5]  # P(both right), P(only b), P(only a), P(neither)
    truth = cells[1] - cells[2]
    counts = rng.multinomial(30, cells, size=4000)
    held = [
        lo <= truth <= hi
        for lo, hi in (stats.tango_interval(int(x[1]), int(x[2]), 30) for x in counts)
    ]
    assert 0.93 <= np.mean(held) <= 0.98


@pytest.mark.parametrize(
    "a, b",
    [
        ([1, 0, 1, 0] * 5, [1, 0, 1, 0] * 5),  # identical runs, one answer per problem
        ([0.25, 0.5, 1.0, 0.0] * 5, [0.25, 0.5, 1.0, 0.0] * 5),  # identical, several answers
        ([1] * 20, [1] * 20),  # all right
        ([0] * 20, [0] * 20),  # all wrong
    ],
)
def test_no_change_is_not_certainty(a, b):
    """Runs that agree on every problem get an interval around 0 as wide as 20 problems allow
    (Tango's with no flips), and p = 1; never [+0.0, +0.0]."""
    d = stats.paired_difference(a, b)
    assert d.difference == 0 and d.p_value == 1.0
    assert d.lo == pytest.approx(-d.hi) and 0.1 < d.hi < 0.25
    assert (d.lo, d.hi) == stats.tango_interval(0, 0, 20)


def test_one_problem_and_all_flipped():
    one = stats.paired_difference([0], [1])
    assert one.lo < 0 < one.hi == 1.0 and one.p_value > 0.05  # one flip proves nothing
    every = stats.paired_difference([0] * 30, [1] * 30)
    assert 0.7 < every.lo < every.hi == 1.0 and every.p_value < 1e-6
    moved_alike = stats.paired_difference([0.25] * 10, [0.5] * 10)
    assert moved_alike.lo is None and moved_alike.p_value is None


# ---- power (issue 25, item 1) ------------------------------------------------------------------


def test_power_formulas_reach_their_power_in_simulation():
    """At the minimum detectable difference, simulated comparisons find it 80% of the time
    (4,000 each; a standard error of 0.6 points): unpaired by the two-proportion z test on 500
    problems, paired by McNemar's score test on 300 (summed exactly) and 2,000 problems
    (Connor's approximation)."""
    rng = np.random.default_rng(25)
    sims = 4000
    d = stats.minimum_detectable_difference(500, 0.5)
    a = rng.binomial(500, 0.5 - d / 2, sims) / 500
    b = rng.binomial(500, 0.5 + d / 2, sims) / 500
    pooled = (a + b) / 2
    z = (b - a) / np.sqrt(2 * pooled * (1 - pooled) / 500)
    assert abs(np.mean(np.abs(z) > stats.Z95) - 0.8) < 0.025
    for problems, agreement in ((300, 0.8), (2000, 0.85)):
        psi = 1 - agreement
        d = stats.minimum_detectable_difference(problems, 0.5, agreement=agreement)
        counts = rng.multinomial(problems, [(psi + d) / 2, (psi - d) / 2, 1 - psi], size=sims)
        found = [stats.mcnemar_score_p(int(w), int(lost)) < 0.05 for w, lost, _ in counts]
        assert abs(np.mean(found) - 0.8) < 0.025, (problems, np.mean(found))
    exact = stats.paired_power(
        300, 0.2, stats.minimum_detectable_difference(300, 0.5, agreement=0.8)
    )
    assert 0.8 <= exact < 0.82


def test_power_says_when_nothing_is_detectable():
    """30 problems on which the runs agree 90% of the time: three problems differ on average,
    and even all three one way cannot reach 80% power."""
    assert math.isnan(stats.minimum_detectable_difference(30, 0.3, agreement=0.9))
    with pytest.raises(ValueError):
        stats.minimum_detectable_difference(0, 0.3)


def test_samples_per_problem_help_only_as_far_as_problems_are_alike():
    """16 answers per problem on 30 problems: if each problem is always or never solved the
    samples add nothing (the one-answer size); if every problem is equally hard they divide
    the variance by 16. Simulated on equally hard problems, the smaller size is reached."""
    one = stats.minimum_detectable_difference(30, 0.3)
    assert stats.minimum_detectable_difference(30, 0.3, samples=16) == one
    hard = stats.minimum_detectable_difference(30, 0.3, samples=16, equally_hard=True)
    assert hard == pytest.approx(one / 4)
    rng = np.random.default_rng(16)
    sims, n, k = 4000, 30, 16
    a = rng.binomial(k, 0.3 - hard / 2, (sims, n)).mean(axis=1) / k
    b = rng.binomial(k, 0.3 + hard / 2, (sims, n)).mean(axis=1) / k
    pooled = (a + b) / 2
    z = (b - a) / np.sqrt(2 * pooled * (1 - pooled) / (n * k))
    assert abs(np.mean(np.abs(z) > stats.Z95) - 0.8) < 0.03
    with pytest.raises(ValueError):
        stats.minimum_detectable_difference(30, 0.3, agreement=0.8, samples=4)


# ---- rewards that are not 0/1: the problem bootstrap (issue 25, item 4) ------------------------


def _partial_credit(rng, problems, shift=0.0, samples=4):
    """Each problem's mean reward over `samples` answers scored 0, 0.5 or 1, with problems of
    random difficulty; the method (`shift` > 0) earns more on each."""
    hard = rng.uniform(0.1, 0.9, problems)
    p = np.clip(hard + shift, 0, 1)
    full = rng.binomial(samples, p * 0.7, problems)
    half = rng.binomial(samples - full, 0.5)
    return (full + 0.5 * half) / samples


def test_the_bootstrap_is_seeded_and_reproducible_to_the_bit():
    rng = np.random.default_rng(4)
    a, b = _partial_credit(rng, 40), _partial_credit(rng, 40, 0.1)
    first, again = stats.paired_bootstrap(a, b), stats.paired_bootstrap(a, b)
    assert first == again  # the same input: the same interval and p, bit for bit
    assert stats.bootstrap_interval(a) == stats.bootstrap_interval(a)
    assert stats.paired_bootstrap(a, b, seed=1) != first  # the seed is what fixes them
    assert "10,000 resamples, percentile" in first.method


def test_the_bootstrap_resamples_problems_not_samples():
    """Each value is a problem's mean over its samples: a problem counts once however many
    samples it has. Resampling 30 problems' 4 samples each as 120 independent answers would
    give an interval half as wide."""
    rng = np.random.default_rng(5)
    means = _partial_credit(rng, 30)
    lo, hi = stats.bootstrap_interval(means)
    se = means.std(ddof=1) / math.sqrt(30)
    assert (hi - lo) == pytest.approx(2 * stats.Z95 * se, rel=0.1)
    samples = np.repeat(means, 4)  # as if each answer were its own problem
    lo4, hi4 = stats.bootstrap_interval(samples)
    assert (hi4 - lo4) == pytest.approx((hi - lo) / 2, rel=0.1)


def test_the_bootstrap_interval_and_its_p_value_never_disagree():
    """The rule: the interval is the r-th smallest and r-th largest of B bootstrap mean
    differences, r = ceil(0.025 B); p is twice the smaller share of them at or below 0 and at
    or above 0. The interval excludes 0 exactly when p < 0.05: checked on 3,000 random pairs
    of runs (10 to 60 problems, gains from none to large, B of 999, 1,000 and 10,000), a
    fifth of them with p between 0.02 and 0.1, where a looser rule would slip."""
    rng = np.random.default_rng(25)
    disagree, near = [], 0
    for i in range(3000):
        problems = int(rng.integers(10, 61))
        a = _partial_credit(rng, problems)
        b = _partial_credit(rng, problems, float(rng.uniform(0, 0.3)))
        resamples = (999, 1000, 10_000)[i % 3] if i < 300 else (999, 1000)[i % 2]
        d = stats.paired_bootstrap(a, b, resamples=resamples, seed=i)
        if d.lo is None:
            continue
        near += 0.02 < d.p_value < 0.1
        if (d.lo <= 0 <= d.hi) != (d.p_value >= 0.05):
            disagree.append((i, d))
    assert disagree == []
    assert near > 400
    for below in range(20, 31):  # at the edge itself: 25 of 1,000 means at or below 0
        means = np.r_[np.full(below, -0.1), np.full(1000 - below, 0.1)]
        lo, hi = stats.percentile_bounds(means)
        assert (lo > 0) == (stats.bootstrap_p(means) < 0.05) == (below < 25)


def test_the_bootstrap_covers_the_true_mean_reward():
    """On 30 problems of partial credit (0, 0.5 or 1 on each of 4 answers) the interval holds
    the true mean reward, and the paired one the true gain (each problem moving by -0.25, 0,
    +0.25 or +0.5: +0.075 on average), about 95% of the time (500 simulated runs each, 2,000
    resamples; the percentile interval runs a little narrow in small samples)."""
    rng = np.random.default_rng(30)
    population = _partial_credit(rng, 400_000)
    truth = float(population.mean())
    moves, chances = np.array([-0.25, 0.0, 0.25, 0.5]), [0.2, 0.4, 0.3, 0.1]
    gain = float(moves @ chances)
    held = paired = 0
    for i in range(500):
        lo, hi = stats.bootstrap_interval(population[rng.integers(0, 400_000, 30)], seed=i)
        held += lo <= truth <= hi
        a = _partial_credit(rng, 30)
        d = stats.paired_bootstrap(a, a + rng.choice(moves, 30, p=chances), seed=i)
        paired += d.lo <= gain <= d.hi
    assert 0.91 <= held / 500 <= 0.98 and 0.91 <= paired / 500 <= 0.98, (held, paired)


def test_the_bootstrap_in_degenerate_cases():
    """Fewer than 10 problems: no interval and no p (every problem moving one way would be
    'certain' at any size). No problem changed: Tango's interval for no flips where rewards
    lie in 0-1, none otherwise, p = 1. Every problem moved alike: neither, as for the t test.
    One run with the same reward everywhere: Wilson's interval for that share."""
    few = stats.paired_bootstrap([0.5] * 9, [0.75, 1.0, 0.5, 1, 1, 1, 1, 1, 1])
    assert few.lo is None and few.p_value is None
    assert stats.bootstrap_interval([0.5] * 9) is None
    same = stats.paired_bootstrap([0.25, 0.5, 0.75] * 10, [0.25, 0.5, 0.75] * 10)
    assert (same.lo, same.hi) == stats.tango_interval(0, 0, 30) and same.p_value == 1.0
    wide = stats.paired_bootstrap([-1.0, 1.0, 0.5] * 10, [-1.0, 1.0, 0.5] * 10)
    assert wide.lo is None and wide.p_value == 1.0
    alike = stats.paired_bootstrap([0.25] * 20, [0.5] * 20)
    assert alike.lo is None and alike.p_value is None
    assert stats.bootstrap_interval([0.5] * 20) == stats.wilson_interval(10, 20)
    assert stats.bootstrap_interval([3.0] * 20) is None


# ---- power with seeds, and by the paired t test (issue 25, items 1 and 3) -----------------------


def test_seeds_add_their_variance_to_the_detectable_difference():
    """variance = problem variance / N + seed variance / S for each run: no seed variance gives
    the unpaired size; MATH500 at 50% with 3 seeds of sd 2 points detects 10.0 points (8.9
    without training noise); more seeds shrink only the training part."""
    plain = stats.minimum_detectable_difference(500, 0.5)
    assert stats.seeded_detectable_difference(500, 0.5, 3, 0.0) == pytest.approx(plain)
    three = stats.seeded_detectable_difference(500, 0.5, 3, 0.02)
    z = stats.Z95 + 0.8416212335729143
    assert three == pytest.approx(z * math.sqrt(2 * (0.25 / 500 + 0.02**2 / 3)))
    assert round(three, 3) == 0.1
    many = stats.seeded_detectable_difference(500, 0.5, 1000, 0.02)
    assert plain < many < three
    paired = stats.seeded_detectable_difference(500, 0.5, 3, 0.0, agreement=0.8)
    connor = stats.problems_needed(paired, 0.2)
    assert connor == 500 or connor == 501  # Connor's size at that difference: 500 problems


def test_seeded_power_is_reached_in_simulation():
    """Runs of 3 seeds on 500 problems (seed sd 3 points): each problem has a difficulty u and
    a seed of quality q solves it when u < p + q, so problems are shared by the seeds and the
    seeds shift a run's accuracy; at the stated difference, the z test on the seed means with
    the stated variance (seed sd known) finds it 80% of the time in 4,000 comparisons, and the
    paired design (80% agreement) too."""
    rng = np.random.default_rng(3)
    sims, n, s, sd = 4000, 500, 3, 0.03
    d = stats.seeded_detectable_difference(n, 0.5, s, sd)

    def run(p):
        hard = rng.uniform(size=(sims, 1, n))
        quality = rng.normal(0, sd, (sims, s, 1))
        return (hard < p + quality).mean(axis=(1, 2))

    a, b = run(0.5 - d / 2), run(0.5 + d / 2)
    pooled = (a + b) / 2
    z = (b - a) / np.sqrt(2 * (pooled * (1 - pooled) / n + sd**2 / s))
    assert abs(np.mean(np.abs(z) > stats.Z95) - 0.8) < 0.025
    psi = 0.2
    d = stats.seeded_detectable_difference(n, 0.5, s, sd, agreement=1 - psi)
    won, lost, _ = rng.multinomial(n, [(psi + d) / 2, (psi - d) / 2, 1 - psi], sims).T
    training = rng.normal(0, sd, (sims, 2, s)).mean(axis=2)
    diff = (won - lost) / n + training[:, 1] - training[:, 0]
    z = diff / np.sqrt((won + lost) / n / n + 2 * sd**2 / s)
    assert abs(np.mean(np.abs(z) > stats.Z95) - 0.8) < 0.025


def test_paired_t_power_is_the_noncentral_t_and_is_reached_in_simulation():
    """The power of the paired t test over per-problem differences (several samples per
    problem, or rewards) is scipy's noncentral t; at the stated detectable difference on 40
    problems, compare's own test (`paired_difference`, t over per-problem differences) finds
    it 80% of the time in 4,000 simulations with bounded differences of five values (skewed
    ones move it by about 3 points either way, as they move any t test); with 2 seeds of sd 2
    points, the test that adds the seeds' variance does too."""
    from scipy.stats import nct, t

    n, sd = 40, 0.3
    crit = t.ppf(0.975, n - 1)
    shift = 0.12 / (sd / math.sqrt(n))
    expected = nct.sf(crit, n - 1, shift) + nct.cdf(-crit, n - 1, shift)
    assert stats.paired_t_power(n, sd, 0.12) == pytest.approx(expected, rel=1e-9)
    rng = np.random.default_rng(40)
    steps = np.array([-0.5, -0.25, 0.0, 0.25, 0.5])  # per-problem moves, before scaling
    chances = np.array([0.1, 0.2, 0.4, 0.2, 0.1])
    mean = steps @ chances
    scale = sd / math.sqrt(((steps - mean) ** 2) @ chances)
    d = stats.paired_t_solve(sd, problems=n)
    moves = (rng.choice(steps, (4000, n), p=chances) - mean) * scale + d
    base = rng.uniform(0.2, 0.8, n)
    found = [stats.paired_difference(base, base + m).p_value < 0.05 for m in moves]
    assert abs(np.mean(found) - 0.8) < 0.025
    seeds, seed_sd = 2, 0.02
    d = stats.paired_t_solve(sd, problems=n, seeds=seeds, seed_sd=seed_sd)
    moves = (rng.choice(steps, (4000, n), p=chances) - mean) * scale + d
    shifts = rng.normal(0, seed_sd, (4000, 2, seeds)).mean(axis=2)
    diff = moves.mean(axis=1) + shifts[:, 1] - shifts[:, 0]
    se = np.sqrt(moves.var(axis=1, ddof=1) / n + 2 * seed_sd**2 / seeds)
    assert abs(np.mean(np.abs(diff / se) > crit) - 0.8) < 0.025


def test_problems_needed_by_the_t_test():
    """The smallest N reaching the power (N - 1 does not); none where the seeds' variance
    alone keeps the power below it."""
    n = stats.paired_t_solve(0.3, difference=0.05)
    assert stats.paired_t_power(n, 0.3, 0.05) >= 0.8 > stats.paired_t_power(n - 1, 0.3, 0.05)
    assert stats.paired_t_solve(0.3, difference=0.0) is None
    assert stats.paired_t_solve(0.3, difference=0.05, seeds=2, seed_sd=0.03) is None
    with pytest.raises(ValueError, match="one of problems and difference"):
        stats.paired_t_solve(0.3, problems=30, difference=0.05)


def test_every_name_of_the_namespace_comes_from_the_module_it_is_listed_under():
    """`helpers.stats` loads its modules when a name is asked for: each listed name is that
    module's own, and a name it does not list is an AttributeError, not a None."""
    import importlib

    for module, names in stats.WHERE.items():
        source = importlib.import_module(f"helpers.stats.{module}")
        for name in names:
            assert getattr(stats, name) is getattr(source, name)
    with pytest.raises(AttributeError):
        stats.no_such_statistic  # noqa: B018
