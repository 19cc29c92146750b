"""Rewards that are not 0/1 (partial credit, a -1/1, a reward model's score): a per-sample log
with a `reward` column holding such values is charted by mean reward over steps, with a problem
bootstrap band (`stats.bootstrap_interval`); `compare` compares it by the paired bootstrap
(`stats.paired_bootstrap`, in `helpers.runs.paired`). Logs of 0/1 answers never come here."""

from __future__ import annotations

import narwhals as nw
import polars as pl

from helpers import stats
from helpers.runs import query, summarise

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
    summarise.each_sample_once(query.collect(query.problem_counts(nw.from_native(samples))), where)
    keys = ["step", "benchmark"]
    problems = (
        samples.group_by(*keys, "problem_id")
        .agg(n=pl.len(), reward=pl.col("reward").mean())
        .collect(engine="streaming")
        .sort(*keys, "problem_id", nulls_last=True)
    )
    lengths = samples.group_by(keys).agg(mean_tokens=pl.col("response_tokens").mean())
    rows = []
    for (step, benchmark), group in problems.group_by(keys, maintain_order=True):
        values = group["reward"].to_numpy()
        bounds = stats.bootstrap_interval(values) or (None, None)
        rows.append(
            {
                "step": step,
                "benchmark": benchmark,
                "problems": group.height,
                "samples": int(group["n"].sum()),
                "k": int(group["n"].min()),
                "mean_reward": float(values.mean()),
                "lo": bounds[0],
                "hi": bounds[1],
            }
        )
    schema = {"step": pl.Int64, "benchmark": pl.String, "problems": pl.Int64}
    schema |= {"samples": pl.Int64, "k": pl.Int64, "mean_reward": pl.Float64}
    schema |= {"lo": pl.Float64, "hi": pl.Float64}
    table = pl.DataFrame(rows, schema=schema)
    return table.join(
        lengths.collect(engine="streaming"), on=keys, how="left", nulls_equal=True
    ).sort(keys, nulls_last=True)


def reward_curves(summary: pl.DataFrame) -> pl.DataFrame:
    """Curves for the run grid from `reward_summary`: the mean reward (in the curves' accuracy
    rows, the series the grid draws with its band; the chart names it by its `y_title`) and
    response length."""
    return summarise.curves(
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
    rows = []
    for key, group in picked.sort(*keys, "problem_id", nulls_last=True).group_by(
        keys, maintain_order=True
    ):
        x = group["reward_share"].to_numpy()
        bounds = stats.bootstrap_interval(x) or (None, None)
        rows.append(dict(zip(keys, key, strict=True), mean_reward=float(x.mean()), bounds=bounds))
    if not rows:
        return seeds
    found = pl.DataFrame(
        [{**{k: r[k] for k in keys}, "mean_reward": r["mean_reward"]} for r in rows],
        schema={**seeds.select(keys).schema, "mean_reward": pl.Float64},
    ).with_columns(
        reward_lo=pl.Series([r["bounds"][0] for r in rows], dtype=pl.Float64),
        reward_hi=pl.Series([r["bounds"][1] for r in rows], dtype=pl.Float64),
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
