"""Results files given beside the per-sample files they summarise (a harness's
`*_metrics.json`, lm-eval's or lighteval's `results_*.json`): not read as a second run, but
checked against the samples, and the chart says whether they agree."""

from __future__ import annotations

from collections.abc import Sequence

import polars as pl

from helpers.runs.readers.loaded import Loaded

RESULTS = ("qwen-math-metrics", "lm-eval-results", "lighteval-results")
# a stated score printed to one decimal of a percent is within 0.05 points of the samples'
AGREE = 0.0006


def checked(samples: pl.LazyFrame, stated: Sequence[Loaded]) -> list[str]:
    """Notes comparing each stated score with the samples' own accuracy (mean over problems)
    for the same benchmark and step: one line for those that agree, one per disagreement or
    benchmark the samples do not hold."""
    own = (
        samples.group_by("step", "benchmark", "problem_id")
        .agg(pl.col("correct").cast(pl.Float64).mean())
        .group_by("step", "benchmark")
        .agg(pl.col("correct").mean().alias("own"))
        .collect()
    )
    agree, notes = [], []
    for result in stated:
        for row in result.scores.iter_rows(named=True):
            same = own.filter(
                pl.col("benchmark") == row["benchmark"],
                pl.col("step").eq_missing(pl.lit(row["step"], pl.Int64)),
            )
            at = "" if row["step"] is None else f" at step {row['step']}"
            said = f"{result.path.name}, {row['score']:.1%} on {row['benchmark']}{at}"
            if not same.height:
                notes.append(f"not checked: {said} (the samples hold no such benchmark and step)")
            elif abs(same["own"][0] - row["score"]) <= AGREE:
                agree.append(said)
            else:
                notes.append(f"they disagree: {said}, but its samples give {same['own'][0]:.1%}")
    if agree:
        n = len(agree)
        what = "stated result agrees" if n == 1 else f"{n} stated results agree"
        notes.insert(0, f"checked against the samples, {what}: {agree[0]}")
    return notes
