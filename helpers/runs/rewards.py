"""Rewards that are not 0/1 (partial credit, a -1/1, a reward model's score): a per-sample log
with a `reward` column holding such values is charted by mean reward over steps, with a problem
bootstrap band (`stats.bootstrap_interval`); `compare` compares it by the paired t over
per-problem differences (in `helpers.runs.paired`). Logs of 0/1 answers never come here."""

from __future__ import annotations

import polars as pl

from helpers import stats
from helpers.runs import engines, query, summarise
from helpers.tidy_curves import curves

REWARD_BAND = (
    f"bands: 95% problem bootstrap of the mean reward ({stats.BOOTSTRAP_RESAMPLES:,} "
    "resamples, percentile; problems resampled with their samples)"
)


def has_rewards(samples) -> bool:
    """Whether a per-sample log's `reward` column holds a value other than 0 and 1 (partial
    credit, a -1/1 or a reward model's score): such a log is charted and compared by mean
    reward. A log without the column costs nothing; one with it, one pass."""
    if "reward" not in samples.collect_schema().names():
        return False
    partial = ~pl.col("reward").is_in([0.0, 1.0])
    return bool(samples.select(partial.any()).collect(engine="streaming").item())


def reward_summary(samples: pl.LazyFrame, *, where: object = "the per-sample log") -> pl.DataFrame:
    """Per step and benchmark: problems, samples, k (the fewest samples any problem has), the
    mean reward (over problems, of each problem's mean over its samples, as accuracy is) with
    a problem bootstrap 95% interval (`lo`, `hi`: `stats.bootstrap_interval`, seeded, so the
    same log gives the same bytes; none below 10 problems), and mean response length. A sample
    id repeated within a problem is a DataError naming `where`."""
    samples = samples.with_columns(pl.col("benchmark").cast(pl.String))
    summarise.each_sample_once(engines.collect(query.problem_counts(samples)), where)
    keys = ["step", "benchmark"]
    problems = (
        samples.group_by(*keys, "problem_id")
        .agg(n=pl.len(), reward=pl.col("reward").mean())
        .collect(engine="streaming")
    )
    lengths = samples.group_by(keys).agg(mean_tokens=pl.col("response_tokens").mean())
    counts = problems.group_by(keys).agg(
        problems=pl.len().cast(pl.Int64),
        samples=pl.col("n").sum().cast(pl.Int64),
        k=pl.col("n").min().cast(pl.Int64),
    )
    table = counts.join(_bootstrapped(problems, keys, "reward"), on=keys, nulls_equal=True)
    return (
        table.rename({"mean": "mean_reward"})
        .join(lengths.collect(engine="streaming"), on=keys, how="left", nulls_equal=True)
        .sort(keys, nulls_last=True)
    )


def _bootstrapped(per_problem: pl.DataFrame, keys: list[str], value: str) -> pl.DataFrame:
    """Per group of `keys`: the mean over problems of `value` and its problem bootstrap 95%
    bounds (`lo`, `hi`; null below 10 problems), the problems taken in id order so that the
    seeded resamples give the same bytes for the same log."""
    rows = []
    ordered = per_problem.sort(*keys, "problem_id", nulls_last=True)
    for key, group in ordered.group_by(keys, maintain_order=True):
        x = group[value].to_numpy()
        lo, hi = stats.bootstrap_interval(x) or (None, None)
        rows.append((*key, float(x.mean()), lo, hi))
    schema = {**per_problem.select(keys).schema, "mean": pl.Float64}
    return pl.DataFrame(rows, schema=schema | {"lo": pl.Float64, "hi": pl.Float64}, orient="row")


def reward_curves(summary: pl.DataFrame) -> pl.DataFrame:
    """Curves for the run grid from `reward_summary`: the mean reward (in the curves' accuracy
    rows, the series the grid draws with its band; the chart names it by its `y_title`) and
    response length."""
    return curves(
        summary,
        iteration="step",
        accuracy="mean_reward",
        tokens="mean_tokens",
        lo="lo",
        hi="hi",
    )


def seed_curves(seeds: pl.DataFrame, shares: pl.DataFrame, keys: list[str]) -> pl.DataFrame:
    """`compare`'s curves (one row per `keys`: run, seed, benchmark, step) where a run's
    rewards at a step are not all 0/1: its mean reward (over problems, of `reward_share` in
    `shares`, `paired.shares`), with the problem bootstrap's interval, in place of accuracy
    and Wilson's, and `measure` saying which (no such group: the curves as they were, with no
    `measure`)."""
    partial = shares.group_by(keys).agg(pl.col("partial").fill_null(0).sum())
    picked = shares.join(
        partial.filter(pl.col("partial") > 0).select(keys), on=keys, nulls_equal=True
    )
    if picked.height == 0:
        return seeds
    found = _bootstrapped(picked, keys, "reward_share").rename(
        {"mean": "mean_reward", "lo": "reward_lo", "hi": "reward_hi"}
    )
    rewarded = pl.col("mean_reward").is_not_null()
    return (
        seeds.join(found, on=keys, how="left", nulls_equal=True)
        .with_columns(
            accuracy=pl.when(rewarded).then("mean_reward").otherwise("accuracy"),
            lo=pl.when(rewarded).then("reward_lo").otherwise("lo"),
            hi=pl.when(rewarded).then("reward_hi").otherwise("hi"),
            measure=pl.when(rewarded).then(pl.lit("mean reward")).otherwise(pl.lit("accuracy")),
        )
        .drop("mean_reward", "reward_lo", "reward_hi")
    )
