"""Comparing runs: the paired statistics on data with known answers, their coverage, the
comparison of real logs, and one clear error (or a stated fallback) for each bad input."""

from __future__ import annotations

import json
import math
import re
from html import escape

import numpy as np
import polars as pl
import pytest

from helpers import DataError, stats
from helpers.cli import main
from helpers.paths import DATA
from helpers.runs import examples
from helpers.runs.compare import DIFFERENCE_COLUMNS, compare
from tests.realdata import CHECKPOINTS, SKY, SKY14, SKY14_ACCURACY, SKY14_AIME, SKY_ACCURACY, VAL

EXAMPLES = DATA / "examples" / "compare"


# ---- the intervals --------------------------------------------------------------------------------


def test_newcombe_unpaired_matches_the_published_example():
    # Newcombe (1998, Stat Med 17:873), 56/70 against 48/80: method 10 gives 0.0524 to 0.3339
    lo, hi = stats.newcombe_unpaired(56, 70, 48, 80)
    assert (round(lo, 4), round(hi, 4)) == (0.0524, 0.3339)


def _one_way_flips(problems=60, solved=30, flipped=6):
    """Baseline solves `solved` problems; the method solves the same ones and `flipped` more."""
    a = np.zeros(problems)
    a[:solved] = 1
    b = a.copy()
    b[solved : solved + flipped] = 1
    return a, b


def test_a_paired_gain_that_only_the_paired_interval_finds():
    a, b = _one_way_flips()
    paired = stats.paired_difference(a, b)
    unpaired = stats.unpaired_difference(a, b)
    assert paired.difference == pytest.approx(0.1) and unpaired.difference == pytest.approx(0.1)
    assert paired.lo > 0  # six flips one way and none the other: a real gain
    assert unpaired.lo < 0 < unpaired.hi  # 36/60 against 30/60 as independent samples: not
    from scipy.stats import chi2

    # McNemar's score test, 6 of 6 flips one way: chi-square (6 - 0)^2 / 6 on one degree
    assert paired.p_value == pytest.approx(chi2.sf(6.0, 1), rel=1e-12)


def test_paired_t_interval_over_problems_with_several_samples():
    a = np.array([0.25, 0.5, 0.75, 1.0, 0.0])
    b = a + np.array([0.25, 0.0, 0.25, 0.0, 0.25])
    d = b - a
    half = 2.7764451051977987 * d.std(ddof=1) / math.sqrt(5)  # t(0.975, 4)
    got = stats.paired_difference(a, b)
    assert (got.difference, got.lo, got.hi) == pytest.approx((0.15, 0.15 - half, 0.15 + half))
    assert got.method.startswith("paired: t")


def _coverage(samples: int, sims: int = 600, problems: int = 200, gain: float = 0.4) -> float:
    """How often the paired 95% interval holds the true gain: problems with random
    difficulty, each run answering `samples` times per problem."""
    rng = np.random.default_rng(1)
    big = rng.normal(0.0, 1.5, 2_000_000)  # the population of problems, for the true gain
    truth = float(np.mean(1 / (1 + np.exp(-(gain - big))) - 1 / (1 + np.exp(big))))
    hits = 0
    for _ in range(sims):
        difficulty = rng.normal(0.0, 1.5, problems)
        pa, pb = 1 / (1 + np.exp(difficulty)), 1 / (1 + np.exp(-(gain - difficulty)))
        a = rng.binomial(samples, pa) / samples
        b = rng.binomial(samples, pb) / samples
        d = stats.paired_difference(a, b)
        hits += d.lo <= truth <= d.hi
    return hits / sims


@pytest.mark.parametrize("samples", [1, 4])
def test_paired_interval_covers_the_truth_about_95_percent_of_the_time(samples):
    # 600 simulations: a coverage of 0.95 is observed within about +-0.018 (two standard errors)
    assert 0.925 <= _coverage(samples) <= 0.975


# ---- comparisons of runs --------------------------------------------------------------------------


def _frame(rows) -> pl.DataFrame:
    return pl.DataFrame(
        rows,
        schema=["step", "benchmark", "problem_id", "sample_id", "correct", "response_tokens"],
        orient="row",
    )


def _write(tmp_path, name, rows):
    path = tmp_path / f"{name}.parquet"
    _frame(rows).write_parquet(path)
    return path


def test_the_example_runs_are_the_documented_simulation():
    logs, truth = examples.comparison_runs(seed=11)
    for (run, seed), frame in logs.items():
        assert pl.read_parquet(EXAMPLES / f"{run}_seed{seed + 1}.parquet").equals(frame)
    recorded = pl.read_csv(EXAMPLES / "true_difference.csv")
    assert recorded["true_difference"].to_list() == pytest.approx(
        truth["true_difference"].to_list(), abs=1e-6
    )


def test_example_comparison_recovers_the_known_gain():
    c = compare(examples.comparison_logs())
    assert c.runs == ["baseline", "method"]
    assert c.logs == {
        run: [f"{run}_seed1.parquet", f"{run}_seed2.parquet"] for run in ("baseline", "method")
    }
    truth = pl.read_csv(EXAMPLES / "true_difference.csv")
    last = c.differences.filter(pl.col("step") == 200).join(truth, on=["benchmark", "step"])
    assert last.height == 2
    for r in last.iter_rows(named=True):
        assert r["lo"] <= r["true_difference"] <= r["hi"]  # the paired interval holds the truth
        assert (r["lo"] > 0) == r["separable"]  # the interval shown is the verdict's
        assert r["seeds_a"] == r["seeds_b"] == 2
    aime = last.filter(pl.col("benchmark") == "aime-like (simulated)").row(0, named=True)
    math = last.filter(pl.col("benchmark") == "math500-like (simulated)").row(0, named=True)
    # two seeds a run: their variance rests on one df each, so 30 problems cannot tell the
    # gain even at 95% unadjusted; 500 can, adjusted for the 22 comparisons too
    assert aime["paired_lo"] < 0 < aime["paired_hi"] and not aime["separable"]
    assert aime["unpaired_lo"] < 0 < aime["unpaired_hi"]
    assert math["paired_lo"] > 0 and math["separable"] and math["level"] > 0.95


def test_seeds_are_averaged_per_problem_and_banded_by_their_range(tmp_path):
    rows_a1 = [(0, "b", f"p{i}", 0, i < 2, 10) for i in range(4)]  # 0.5
    rows_a2 = [(0, "b", f"p{i}", 0, i < 1, 10) for i in range(4)]  # 0.25
    rows_b = [(0, "b", f"p{i}", 0, i < 3, 10) for i in range(4)]  # 0.75
    runs = [
        ("a", _write(tmp_path, "a1", rows_a1)),
        ("a", _write(tmp_path, "a2", rows_a2)),
        ("b", _write(tmp_path, "b1", rows_b)),
    ]
    c = compare(runs)
    mean_a = c.curves.filter(kind="mean", run="a").row(0, named=True)
    assert (mean_a["accuracy"], mean_a["lo"], mean_a["hi"]) == (0.375, 0.25, 0.5)
    assert mean_a["band"] == "range across 2 seeds"
    row = c.differences.row(0, named=True)
    # per problem: a = (1, 0.5, 0, 0), b = (1, 1, 1, 0)
    assert row["difference"] == pytest.approx(0.375)
    assert (row["won"], row["lost"], row["tied"]) == (2, 0, 2)
    assert row["interval"].startswith("paired: t")


def test_best_checkpoint_reports_its_selection_bias(tmp_path):
    rows_a = [(s, "b", f"p{i}", 0, i < 10 + s // 10, 1) for s in (0, 10, 20) for i in range(30)]
    rows_b = [(s, "b", f"p{i}", 0, i < 12, 1) for s in (0, 10, 20) for i in range(30)]
    c = compare(
        [("a", _write(tmp_path, "a", rows_a)), ("b", _write(tmp_path, "b", rows_b))],
        checkpoint="best",
    )
    row = c.differences.row(0, named=True)
    assert (row["step_a"], row["step_b"]) == (20, 0)  # best of a; b's first of three ties
    assert row["at"] == "best: step 0 vs step 20"
    assert row["checkpoints_a"] == row["checkpoints_b"] == 3
    expected = stats.best_checkpoint_bias([12 / 30] * 3, 30, runs=4000, seed=0)["overstatement"]
    assert row["selection_bias_a"] == pytest.approx(expected) and expected > 0.02


def test_csv_has_every_column_and_says_its_unit(tmp_path, capsys):
    out = tmp_path / "d.csv"
    assert main(["compare", f"7b={SKY}", f"14b={SKY14}", "-o", str(out)]) == 0
    table = pl.read_csv(out)
    assert table.columns == list(DIFFERENCE_COLUMNS) and table["unit"].to_list() == ["fraction"]
    assert "MATH500, single evaluation: 14b vs 7b: +28.0 points" in capsys.readouterr().out


def test_real_math500_pair_is_compared_problem_by_problem(tmp_path):
    """Qwen2.5-Math-7B against Qwen2.5-14B-Instruct (tests/realdata.py) on the same 500 problems;
    the counts of problems each one solved alone are taken from the files directly."""

    def solved(path):
        return {json.loads(line)["idx"]: json.loads(line)["score"][0] for line in path.open()}

    s7, s14 = solved(SKY), solved(SKY14)
    only14 = sum(s14[i] and not s7[i] for i in s7)
    only7 = sum(s7[i] and not s14[i] for i in s7)
    out = tmp_path / "d.csv"
    assert main(["compare", f"7b={SKY}", f"14b={SKY14}", "-o", str(out)]) == 0
    row = pl.read_csv(out).row(0, named=True)
    assert (row["accuracy_a"], row["accuracy_b"]) == pytest.approx((SKY_ACCURACY, SKY14_ACCURACY))
    assert row["difference"] == pytest.approx(0.28) and row["problems"] == 500
    assert (row["won"], row["lost"], row["tied"]) == (only14, only7, 500 - only14 - only7)
    assert (row["lo"], row["hi"]) == pytest.approx(stats.tango_interval(only14, only7, 500))
    assert row["hi"] - row["lo"] < row["unpaired_hi"] - row["unpaired_lo"]


def test_checkpoint_folder_against_a_single_evaluation(tmp_path):
    """Sky-T1 checkpoints (step from the folder name) against Qwen2.5-14B-Instruct evaluated
    once: each checkpoint is compared with the fixed model, and each checkpoint's accuracy is
    the one its harness printed in aime24_metrics.json."""
    out = tmp_path / "d.csv"
    assert main(["compare", f"qwen14b={SKY14_AIME}", f"sky={CHECKPOINTS}", "-o", str(out)]) == 0
    table = pl.read_csv(out)
    steps = [21, 49, 84, 119, 140]
    assert table["step"].to_list() == steps and set(table["benchmark"]) == {"AIME24"}
    printed = [
        json.loads((CHECKPOINTS / f"checkpoint-{s}" / "aime24_metrics.json").read_text())["acc"]
        for s in steps
    ]
    assert [round(a * 100, 1) for a in table["accuracy_b"]] == printed
    assert (table["problems"] == 30).all()


def test_html_output_names_every_run(tmp_path):
    out = tmp_path / "c.html"
    assert main(["compare", f"base={SKY}", f"big={SKY14}", "-o", str(out)]) == 0
    text = out.read_text()
    assert "base" in text and "big" in text and "vega-spec" in text
    # two single evaluations: the subtitle does not speak of steps
    assert "one evaluation of each run" in text and "the same steps" not in text
    steps = tmp_path / "s.html"
    runs = sorted(EXAMPLES.glob("*seed1.parquet"))
    assert main(["compare", *map(str, runs), "-o", str(steps)]) == 0
    assert "compared at the same steps" in steps.read_text()


# ---- bad input: an error, or a fallback that says so ----------------------------------------------


def test_one_run_is_an_error(capsys):
    assert main(["compare", f"a={SKY}", f"a={SKY14}", "-o", "x.csv"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ") and "at least two runs" in err


def test_no_shared_problems_falls_back_to_unpaired_and_says_so(tmp_path):
    a = _write(tmp_path, "a", [(0, "b", f"p{i}", 0, i < 5, 1) for i in range(10)])
    b = _write(tmp_path, "b", [(0, "b", f"q{i}", 0, i < 7, 1) for i in range(10)])
    c = compare({"a": a, "b": b})
    row = c.differences.row(0, named=True)
    assert row["problems"] == 0 and row["paired_lo"] is None
    assert "share no problem ids" in row["interval"] and row["lo"] == row["unpaired_lo"]
    assert any("shares no problem ids" in n for n in c.notes)


def test_mismatched_benchmarks_are_an_error_naming_both(tmp_path):
    a = _write(tmp_path, "a", [(0, "math", "p0", 0, True, 1)])
    b = _write(tmp_path, "b", [(0, "aime", "p0", 0, True, 1)])
    with pytest.raises(DataError, match=r"shared with the baseline 'a' \(\['math'\]\).*aime"):
        compare({"a": a, "b": b})


def test_duplicated_problem_ids_are_an_error(tmp_path):
    a = _write(tmp_path, "a", [(0, "b", "p0", 0, True, 1), (0, "b", "p0", 0, False, 1)])
    b = _write(tmp_path, "b", [(0, "b", "p0", 0, True, 1)])
    with pytest.raises(DataError, match="problem 'p0' of b at step 0 has 2 rows for 1 sample ids"):
        compare({"a": a, "b": b})


def test_different_sample_counts_per_problem_are_compared_as_shares(tmp_path):
    a = _write(tmp_path, "a", [(0, "b", f"p{i}", s, s == 0, 1) for i in range(3) for s in range(4)])
    b = _write(tmp_path, "b", [(0, "b", f"p{i}", 0, True, 1) for i in range(3)])
    row = compare({"a": a, "b": b}).differences.row(0, named=True)
    assert (row["samples_a"], row["samples_b"]) == (4, 1)
    assert row["difference"] == pytest.approx(0.75)


def test_score_only_logs_are_compared_unpaired_with_the_size_given(tmp_path):
    c = compare(
        {"a": VAL, "b": VAL},
        benchmarks=["math__math/unknown"],
        problems={"math__math/unknown": 500},
    )
    row = c.differences.row(-1, named=True)
    assert row["difference"] == 0 and row["problems_a"] == row["problems_b"] == 500
    assert row["lo"] < 0 < row["hi"] and row["interval"].startswith("unpaired: Newcombe")
    unknown = compare({"a": VAL, "b": VAL}, benchmarks=["math__math/unknown"])
    assert unknown.differences["lo"].is_null().all()
    assert unknown.differences["interval"][0].startswith("no interval: benchmark size unknown")


def test_every_comparison_is_adjusted_for_the_others(tmp_path, capsys):
    """Sky-T1's five checkpoints against Qwen2.5-14B-Instruct on AIME24 are five tests: each
    p-value is Holm-adjusted for the five (never below the raw value), 'separable' follows the
    adjusted value, the printed lines say how many were adjusted for, and --adjust none keeps
    the raw values."""
    out = tmp_path / "d.csv"
    assert main(["compare", f"qwen14b={SKY14_AIME}", f"sky={CHECKPOINTS}", "-o", str(out)]) == 0
    printed = capsys.readouterr().out
    holm = pl.read_csv(out)
    assert "adjusted (Holm) for the 5 comparisons tested" in printed
    assert holm["p_adjusted"].to_list() == pytest.approx(stats.adjust_p(holm["p_value"].to_list()))
    assert (holm["p_adjusted"] >= holm["p_value"]).all()
    assert holm["separable"].to_list() == (holm["p_adjusted"] < 0.05).to_list()
    # steps 21 and 49: 5 problems won, none lost; p = 0.025 alone, 0.13 among five
    early = holm.filter(pl.col("step") == 21).row(0, named=True)
    assert (early["won"], early["lost"]) == (5, 0) and early["paired_lo"] > 0
    assert early["p_value"] < 0.05 < early["p_adjusted"] and not early["separable"]
    # the interval shown is at the level that agrees with the adjusted verdict: it holds 0
    assert early["lo"] < 0 < early["hi"] and early["level"] == pytest.approx(1 - 0.05 / 5)
    assert ((holm["lo"] > 0) | (holm["hi"] < 0)).to_list() == holm["separable"].to_list()
    raw = tmp_path / "raw.csv"
    args = ["compare", f"qwen14b={SKY14_AIME}", f"sky={CHECKPOINTS}", "--adjust", "none"]
    assert main([*args, "-o", str(raw)]) == 0
    unadjusted = pl.read_csv(raw)
    assert unadjusted["p_adjusted"].to_list() == unadjusted["p_value"].to_list()
    assert unadjusted.filter(pl.col("step") == 21)["separable"].item()


def test_holm_and_benjamini_hochberg_by_hand():
    """Holm: the k-th smallest of m times (m - k + 1), kept increasing; BH: times m / k, kept
    decreasing from the top; None is not a test."""
    p = [0.01, 0.04, 0.03, 0.005, None]
    assert stats.adjust_p(p) == pytest.approx([0.03, 0.06, 0.06, 0.02, None])
    assert stats.adjust_p(p, "bh") == pytest.approx([0.02, 0.04, 0.04, 0.02, None])
    assert stats.adjust_p(p, "none") == p
    with pytest.raises(ValueError):
        stats.adjust_p(p, "bonferroni")


def test_flipped_problems_carry_their_text_and_answers(tmp_path):
    """Two real SkyThought MATH500 runs: --problems-out writes each of the 202 flipped problems
    with its whole question, the reference answer and each run's first answer, as the files
    hold them; the HTML lists them under the chart, markup escaped, while the chart counts them
    (202 are too many to draw one by one)."""

    def records(path):
        return {str(r["idx"]): r for r in map(json.loads, path.open())}

    r7, r14 = records(SKY), records(SKY14)
    flips, html = tmp_path / "flips.csv", tmp_path / "c.html"
    args = ["compare", f"7b={SKY}", f"14b={SKY14}", "--problems-out", str(flips)]
    assert main([*args, "-o", str(html)]) == 0
    table = pl.read_csv(flips, schema_overrides={"problem_id": pl.String})
    assert table.height == 171 + 31
    for row in table.iter_rows(named=True):
        a, b = r7[row["problem_id"]], r14[row["problem_id"]]
        assert row["question"] == a["question"] and row["reference"] == a["gt"]
        assert (row["answer_a"] or "") == a["pred"][0] and (row["answer_b"] or "") == b["pred"][0]
        assert a["score"][0] != b["score"][0]
    text = html.read_text()
    long = next(r for r in table.iter_rows(named=True) if len(r["question"]) > 240)
    assert escape(long["question"]) in text  # whole, in the list under the chart
    spec = json.loads(
        re.search(r'<script type="application/json" id="vega-spec">(.*?)</script>', text, re.S)[1]
    )
    counted = [r for rows in spec["datasets"].values() for r in rows if "better" in r]
    assert sum(r["problems"] for r in counted) == 202


def test_seed_spread_and_problem_spread_are_reported_apart(tmp_path, capsys):
    """Two seeds of each simulated run: the difference's variance from training randomness is
    each run's seed variance component over its seed count, summed (the seeds' accuracies'
    variance less the seed x problem residual over N, floored at 0); from problem sampling,
    the per-problem differences' variance over N; the printed line says which is larger."""
    e = DATA / "examples" / "compare"
    runs = [f"base={e}/baseline_seed{i}.parquet" for i in (1, 2)]
    runs += [f"method={e}/method_seed{i}.parquet" for i in (1, 2)]
    out = tmp_path / "d.csv"
    assert main(["compare", *runs, "-o", str(out)]) == 0
    printed = capsys.readouterr().out
    row = pl.read_csv(out).filter(benchmark="math500-like (simulated)", step=200).row(0, named=True)
    curves = pl.concat(
        pl.read_parquet(f"{e}/{name}_seed{i}.parquet").with_columns(
            seed=pl.lit(i), run=pl.lit(name)
        )
        for name in ("baseline", "method")
        for i in (1, 2)
    ).filter(benchmark="math500-like (simulated)", step=200)
    tables = {
        run: g.group_by("seed", "problem_id")
        .agg(pl.col("correct").mean())
        .sort("seed", "problem_id")["correct"]
        .to_numpy()
        .reshape(2, -1)
        for (run,), g in curves.group_by("run")
    }
    expected = 0.0
    for y in tables.values():  # the two-way layout by numpy: seed means, residual
        s, n = y.shape
        resid = y - y.mean(axis=1, keepdims=True) - y.mean(axis=0) + y.mean()
        component = np.var(y.mean(axis=1), ddof=1) - (resid**2).sum() / ((s - 1) * (n - 1)) / n
        expected += max(0.0, component) / s
    assert row["seed_variance"] == pytest.approx(expected, rel=1e-9, abs=1e-12)
    d = tables["method"].mean(axis=0) - tables["baseline"].mean(axis=0)
    assert row["problem_variance"] == pytest.approx(np.var(d, ddof=1) / d.size, rel=1e-12)
    assert "spread from seeds (2 and 2)" in printed and "problem sampling dominates" in printed


# ---- rewards that are not 0/1: the problem bootstrap (issue 25, item 4) -------------------------


def _rewards(tmp_path, name, gain=0.0, seed=0, problems=30, samples=4, steps=(0,), binary=False):
    """A tidy per-sample table with a `reward` column: on each of `problems` problems of random
    difficulty, `samples` answers scored 0, 0.5 or 1 (only 0 or 1 with `binary`); the method
    earns `gain` more per answer on average."""
    rng = np.random.default_rng(seed)
    hard = np.random.default_rng(99).uniform(0.1, 0.8, problems)  # the same problems in each run
    rows = []
    for step in steps:
        for i in range(problems):
            for j in range(samples):
                x = rng.uniform()
                full = x < hard[i] + gain
                half = not binary and not full and x < hard[i] + gain + 0.3
                reward = 1.0 if full else 0.5 if half else 0.0
                rows.append((step, "math", f"p{i:02d}", j, full, 100 + i, reward))
    path = tmp_path / f"{name}.parquet"
    schema = ["step", "benchmark", "problem_id", "sample_id", "correct", "response_tokens"]
    pl.DataFrame(rows, schema=[*schema, "reward"], orient="row").write_parquet(path)
    return path, pl.DataFrame(rows, schema=[*schema, "reward"], orient="row")


def test_partial_credit_is_compared_by_mean_reward_with_the_t(tmp_path, capsys):
    """Two runs of partial credit (0, 0.5, 1) on the same 30 problems, 4 answers each: the CSV
    says `mean reward`, the difference is that of the mean rewards over problems, the interval
    and p are the paired t's over the per-problem means (`stats.paired_difference`), never
    disagreeing, and a second run of the command writes the same bytes."""
    base, a = _rewards(tmp_path, "base", seed=1)
    new, b = _rewards(tmp_path, "new", gain=0.12, seed=2)
    out = tmp_path / "d.csv"
    assert main(["compare", f"base={base}", f"new={new}", "-o", str(out)]) == 0
    printed = capsys.readouterr().out
    first = out.read_bytes()
    row = pl.read_csv(out).row(0, named=True)
    assert row["unit"] == "mean reward" and row["interval"].startswith("paired: t")
    per_problem = [
        f.group_by("problem_id").agg(pl.col("reward").mean()).sort("problem_id")["reward"]
        for f in (a, b)
    ]
    expected = stats.paired_difference(per_problem[0], per_problem[1])
    assert row["difference"] == pytest.approx(expected.difference, abs=1e-12)
    assert (row["lo"], row["hi"]) == pytest.approx((expected.lo, expected.hi), abs=1e-11)
    assert row["p_value"] == pytest.approx(expected.p_value, abs=1e-12)
    assert row["lo"] > 0 and row["p_value"] < 0.05 and row["separable"]
    assert row["accuracy_a"] == pytest.approx(float(per_problem[0].mean()))
    assert "mean reward, 95% [" in printed and "not accuracy" in printed
    assert main(["compare", f"base={base}", f"new={new}", "-o", str(out)]) == 0
    assert out.read_bytes() == first
    # the chart says mean reward on every axis, never accuracy or percentage points
    from helpers import charts
    from helpers.runs import drawable
    from helpers.runs.compare import compare

    c = compare({"base": base, "new": new})
    d = drawable.comparison(c)
    spec = json.dumps(
        charts.comparison(d.curves, d.differences, d.problems, c.runs, title="t").to_dict()
    )
    assert "Mean reward of each run" in spec and "Difference in mean reward" in spec
    assert "percentage points" not in spec and '"title": "Accuracy"' not in spec


def test_rewards_of_0_and_1_stay_on_the_accuracy_path(tmp_path):
    """A `reward` column holding only 0 and 1 changes nothing: the CSV is byte for byte that of
    the same table without it (Tango's interval, McNemar's test, unit `fraction`)."""
    base, a = _rewards(tmp_path, "base", seed=1, samples=1, binary=True)
    new, b = _rewards(tmp_path, "new", gain=0.2, seed=2, samples=1, binary=True)
    plain = [tmp_path / "plain_base.parquet", tmp_path / "plain_new.parquet"]
    a.drop("reward").write_parquet(plain[0])
    b.drop("reward").write_parquet(plain[1])
    outs = [tmp_path / "with.csv", tmp_path / "without.csv"]
    assert main(["compare", f"base={base}", f"new={new}", "-o", str(outs[0])]) == 0
    assert main(["compare", f"base={plain[0]}", f"new={plain[1]}", "-o", str(outs[1])]) == 0
    assert outs[0].read_bytes() == outs[1].read_bytes()
    assert pl.read_csv(outs[0])["unit"].to_list() == ["fraction"]


def _verl_dump(folder, step, rewards):
    """verl's `validation_data_dir` file for one step: each problem's prompt once, its score
    the reward (here partial credit)."""
    folder.mkdir(parents=True, exist_ok=True)
    lines = [
        {"input": f"user\nWhat is {i} + 1?", "output": f"\\boxed{{{i + 1}}}", "gts": str(i + 1),
         "score": r, "step": step}
        for i, r in enumerate(rewards)
    ]  # fmt: skip
    (folder / f"{step}.jsonl").write_text("".join(json.dumps(x) + "\n" for x in lines))


def test_verl_scores_of_one_half_are_compared_as_rewards(tmp_path, capsys):
    """A verl dump whose score is 0.5 for partial credit is refused as a correctness, and
    naming it a reward (--map reward=score) compares it by mean reward: 12 problems, the
    method +0.25 on 6 of them."""
    base = [0.5, 0.0, 1.0, 0.5] * 3
    new = [1.0, 0.5, 1.0, 0.5] * 3
    _verl_dump(tmp_path / "base", 40, base)
    _verl_dump(tmp_path / "new", 40, new)
    runs = [f"base={tmp_path / 'base'}", f"new={tmp_path / 'new'}"]
    out = tmp_path / "d.csv"
    assert main(["compare", *runs, "-o", str(out)]) == 2
    assert "--map reward=KEY" in capsys.readouterr().err
    assert main(["compare", *runs, "--map", "reward=score", "-o", str(out)]) == 0
    row = pl.read_csv(out).row(0, named=True)
    assert row["unit"] == "mean reward" and row["step"] == 40
    assert row["difference"] == pytest.approx(0.25)
    assert row["accuracy_a"] == pytest.approx(np.mean(base))
    assert (row["won"], row["lost"], row["tied"]) == (6, 0, 6)


@pytest.mark.parametrize("seeds", [1, 3])
def test_every_pair_of_steps_at_once_gives_each_pairs_own_numbers(seeds):
    """`paired.paired_rows` (all pairs of steps in one join) against `paired.paired_row` (one
    pair at a time) on a table with what the join could get wrong: a step one run lacks, a
    pair whose runs share no problem, problems one run lacks, several answers per problem and
    one, pairs of different steps, a log without steps (null); with seeds, a step where run a
    has one seed only (no seed interval there) and seeds that lack a problem."""
    from helpers.runs import paired

    rng = np.random.default_rng(5)
    rows = []
    for run, steps in (("a", [None, 0, 10, 20, 30]), ("b", [None, 0, 10, 30, 40])):
        for seed in range(seeds):
            for step in steps:
                if seed and (run, step) == ("a", 0):  # one seed only here
                    continue
                ids = range(40) if (run, step) != ("b", 30) else range(100, 140)  # disjoint
                for p in ids:
                    if (run == "b" and p % 7 == 0) or (seed == 2 and p % 5 == 0):
                        continue  # problems one run lacks; a seed that lacks some
                    n = 4 if step != 10 else 1
                    rows.append((run, seed, "math", step, str(p), n, int(rng.integers(0, n + 1))))
    share = paired.shares(
        pl.DataFrame(
            rows,
            schema=["run", "seed", "benchmark", "step", "problem_id", "n", "c"],
            orient="row",
        )
    )
    pairs = [(None, None), (0, 0), (10, 10), (20, 40), (30, 30), (20, 20), (0, 40)]
    fast = paired.paired_rows(share, "a", "b", "math", pairs)
    every = paired.by_step(share)
    none = share.clear()
    for i, (sa, sb) in enumerate(pairs):
        a_rows, b_rows = every.get(("a", "math", sa), none), every.get(("b", "math", sb), none)
        if b_rows.height == 0:  # a step one run lacks: compare never pairs it
            assert fast[i] is None
            continue
        row, view = paired.paired_row(a_rows, b_rows)
        if row["problems"] == 0:  # no problem shared: compared unpaired, and said
            assert fast[i] is None
            continue
        bounds = fast[i][0].pop("_at_level"), row.pop("_at_level")
        assert fast[i][0] == row, (sa, sb)
        assert bounds[0](0.99) == bounds[1](0.99)
        if i == len(pairs) - 1:
            assert fast[i][1].equals(view)
    assert sum(f is None for f in fast) == 2  # (20, 20): b has no step 20; (30, 30): disjoint
    if seeds > 1:  # the seed interval where both runs have seeds, not where one has one
        assert "seed_lo" in fast[2][0] and "seed_variance" in fast[2][0]
        assert fast[1][0]["seeds_a"] == 1 and "seed_lo" not in fast[1][0]


def test_every_pair_at_once_takes_rewards_and_seeds():
    """Rewards that are not 0/1 are compared at once too (of mean reward), and so are seeds."""
    from helpers.runs import paired

    base = pl.DataFrame(
        {"run": ["a", "b"], "seed": [0, 0], "benchmark": ["m", "m"], "step": [1, 1]}
    ).with_columns(problem_id=pl.lit("p"), n=pl.lit(2), c=pl.lit(1))
    seeded = pl.concat([base, base.with_columns(seed=pl.lit(1, pl.Int64))])
    assert paired.paired_rows(paired.shares(seeded), "a", "b", "m", [(1, 1)]) is not None
    rewarded = base.with_columns(reward=pl.lit(0.7), partial=pl.lit(1))
    ((row, _),) = paired.paired_rows(paired.shares(rewarded), "a", "b", "m", [(1, 1)])
    assert row["unit"] == "mean reward" and row["accuracy_a"] == pytest.approx(0.35)
    assert paired.paired_rows(paired.shares(base), "a", "b", "m", [(1, 1)]) is not None


def test_the_chart_says_p_adjusted_only_where_it_was():
    """Issue 46: one comparison has nothing to adjust for; its chart said "p adjusted". The
    verdict lines say "p" where the p-value stands as tested, "p adjusted" where Holm moved it."""
    from helpers.charts.compare_runs import verdict_lines

    row = {
        "comparison": "b vs a", "benchmark": "math", "at": "step 10", "difference": 0.05,
        "lo": 0.01, "hi": 0.09, "level": 0.95, "separable": True, "won": 9, "lost": 2,
        "tied": 39,
    }  # fmt: skip
    alone = verdict_lines(pl.DataFrame([row | {"p_value": 0.01, "p_adjusted": 0.01}]))
    assert "p = 0.01: separable" in alone[1] and "adjusted" not in alone[1]
    moved = verdict_lines(pl.DataFrame([row | {"p_value": 0.01, "p_adjusted": 0.04}]))
    assert "p adjusted = 0.04: separable" in moved[1]
