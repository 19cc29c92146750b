"""Tidy curves: one row per benchmark, metric and iteration, the shape the training-dynamics
chart draws, made from a paper's readings (`figures.training_dynamics`) and from a run's logs
(`runs.summarise`, `runs.score_logs`, `runs.rewards`) alike. It sits below both, so neither
imports the other."""

from __future__ import annotations

import polars as pl


def curves(
    frame: pl.DataFrame,
    *,
    iteration: str,
    accuracy: str,
    tokens: str | None = None,
    lo: str | None = None,
    hi: str | None = None,
) -> pl.DataFrame:
    """Tidy curves for `charts.training_dynamics` from a frame with one row per benchmark and
    iteration: accuracy (with its interval, where given) and token length (where given)."""
    none = pl.lit(None, pl.Float64)
    parts = [
        frame.select(
            "benchmark",
            iteration=pl.col(iteration).cast(pl.Float64),
            metric=pl.lit("accuracy"),
            value=pl.col(accuracy).cast(pl.Float64),
            lo=pl.col(lo).cast(pl.Float64) if lo else none,
            hi=pl.col(hi).cast(pl.Float64) if hi else none,
        )
    ]
    if tokens:
        parts.append(
            frame.select(
                "benchmark",
                iteration=pl.col(iteration).cast(pl.Float64),
                metric=pl.lit("token length"),
                value=pl.col(tokens).cast(pl.Float64),
                lo=none,
                hi=none,
            )
        )
    return (
        pl.concat(parts)
        .drop_nulls("value")
        .sort("benchmark", "metric", "iteration", maintain_order=True)
    )
