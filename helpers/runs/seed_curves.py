"""The curves a comparison draws: each run's accuracy per seed, and across its seeds with the
band that says how far it could move (the range across seeds, or an interval over problems)."""

from __future__ import annotations

import polars as pl

from helpers.runs import paired, rewards
from helpers.runs.summarise import with_wilson

KEYS = ["run", "seed", "benchmark", "step"]


def seed_curves(per_problem, scores) -> pl.DataFrame:
    """Each run's accuracy per seed, benchmark and step, with its Wilson interval over
    problems (a mean reward's bootstrap interval where rewards are not 0/1)."""
    parts = []
    if per_problem is not None:
        acc = per_problem.group_by(KEYS).agg(
            problems=pl.len(), k=pl.col("n").min(), accuracy=(pl.col("c") / pl.col("n")).mean()
        )
        part = with_wilson(acc).with_columns(per_sample=pl.lit(True))
        parts.append(
            rewards.seed_curves(part, paired.shares(per_problem), KEYS)
            if "partial" in per_problem.columns
            else part
        )
    if scores is not None:
        s = scores.rename({"score": "accuracy", "n": "problems"}).with_columns(
            k=pl.lit(None, pl.Int64)
        )
        parts.append(with_wilson(s).with_columns(per_sample=pl.lit(False)))
    return (
        pl.concat(parts, how="diagonal_relaxed")
        .with_columns(kind=pl.lit("seed"))
        .sort(*KEYS, nulls_last=True)
    )


def mean_curves(seeds: pl.DataFrame) -> pl.DataFrame:
    """Each run across its seeds: the mean, and as band the range across seeds (two seeds or
    more) or the Wilson interval over problems (one seed)."""
    runs = seeds.group_by("run", "benchmark", "step").agg(
        *([pl.col("measure").first()] if "measure" in seeds.columns else []),
        seeds=pl.len(),
        problems=pl.col("problems").min(),
        # answers behind the mean: problems x samples per problem x seeds (scores: problems)
        answers=(pl.col("problems") * pl.col("k").fill_null(1)).sum(),
        accuracy=pl.col("accuracy").mean(),
        seed_lo=pl.col("accuracy").min(),
        seed_hi=pl.col("accuracy").max(),
        lo=pl.col("lo").first(),
        hi=pl.col("hi").first(),
    )
    several = pl.col("seeds") > 1
    over_problems = pl.lit("Wilson 95% over problems")
    if "measure" in seeds.columns:  # a mean reward's band is the problem bootstrap's
        bootstrap = pl.lit("problem bootstrap 95% (mean reward)")
        over_problems = pl.when(pl.col("measure") == "mean reward").then(bootstrap)
        over_problems = over_problems.otherwise(pl.lit("Wilson 95% over problems"))
    return (
        runs.sort("run", "benchmark", "step", nulls_last=True)
        .with_columns(
            kind=pl.lit("mean"),
            lo=pl.when(several).then("seed_lo").otherwise("lo"),
            hi=pl.when(several).then("seed_hi").otherwise("hi"),
            band=pl.when(several)
            .then(pl.format("range across {} seeds", "seeds"))
            .when(pl.col("lo").is_not_null())
            .then(over_problems)
            .otherwise(pl.lit("no interval: benchmark size unknown")),
        )
        .drop("seed_lo", "seed_hi")
    )
