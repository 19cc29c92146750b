"""Results files given beside the per-sample files they summarise (a harness's
`*_metrics.json`, lm-eval's or lighteval's `results_*.json`): not read as a second run, but
checked against the samples, and the chart says whether they agree."""

from __future__ import annotations

from collections.abc import Sequence

import polars as pl

from helpers.runs.readers.loaded import Loaded

# a stated score printed to one decimal of a percent is within 0.05 points of the samples'
AGREE = 0.0006


def checked(samples: pl.LazyFrame, stated: Sequence[Loaded]) -> list[str]:
    """Notes comparing each stated score with the samples' own accuracy for the same benchmark
    and step: the mean over problems of each problem's share of right samples, or, for the
    Qwen2.5-Math harness (whose `acc` is its first sample column's accuracy), of each
    problem's first sample. One line for those that agree, one per disagreement or benchmark
    the samples do not hold."""
    first = pl.col("correct").sort_by("sample_id").first().cast(pl.Float64)
    own = (
        samples.group_by("step", "benchmark", "problem_id")
        .agg(pl.col("correct").cast(pl.Float64).mean(), first=first)
        .group_by("step", "benchmark")
        .agg(own=pl.col("correct").mean(), first=pl.col("first").mean())
        .collect()
    )
    agree, notes = [], []
    for result in stated:
        column = "first" if result.format == "qwen-math-metrics" else "own"
        for row in result.scores.iter_rows(named=True):
            same = own.filter(
                pl.col("benchmark") == row["benchmark"],
                pl.col("step").eq_missing(pl.lit(row["step"], pl.Int64)),
            )
            at = "" if row["step"] is None else f" at step {row['step']}"
            said = f"{result.path.name}, {row['score']:.1%} on {row['benchmark']}{at}"
            if not same.height:
                notes.append(f"not checked: {said} (the samples hold no such benchmark and step)")
            elif abs(same[column][0] - row["score"]) <= AGREE:
                agree.append(said)
            else:
                notes.append(f"they disagree: {said}, but its samples give {same[column][0]:.1%}")
    if agree:
        n = len(agree)
        what = "stated result agrees" if n == 1 else f"{n} stated results agree"
        notes.insert(0, f"checked against the samples, {what}: {agree[0]}")
    return notes
