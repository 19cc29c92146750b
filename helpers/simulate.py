"""Seeded simulations, for showing what real per-iteration curves look like at a given
benchmark size. Everything they produce is labelled simulated by the caller."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import polars as pl

TOKEN_CV = 0.6  # spread of single-answer lengths (coefficient of variation), an assumption


def training_run(benchmarks: pl.DataFrame, iterations: Sequence[int], *, seed: int) -> pl.DataFrame:
    """Per benchmark and iteration: problems solved out of n, and mean answer length.

    `benchmarks` has columns benchmark, n_problems, acc_start, acc_end, tokens_start,
    tokens_end. The true accuracy and mean length move linearly from start to end; each
    evaluation draws Binomial(n, p) solved problems and the mean of n answer lengths (normal
    approximation with TOKEN_CV).
    """
    rng = np.random.default_rng(seed)
    its = np.asarray(iterations, dtype=float)
    frac = (its - its[0]) / (its[-1] - its[0])
    parts = []
    for r in benchmarks.iter_rows(named=True):
        n = int(r["n_problems"])
        p = r["acc_start"] + (r["acc_end"] - r["acc_start"]) * frac
        mean_tokens = r["tokens_start"] + (r["tokens_end"] - r["tokens_start"]) * frac
        correct = rng.binomial(n, p)
        noise = rng.normal(0.0, TOKEN_CV / np.sqrt(n), size=its.size)
        tokens = np.maximum(mean_tokens * (1 + noise), 0.0)
        parts.append(
            pl.DataFrame(
                {
                    "benchmark": r["benchmark"],
                    "iteration": its,
                    "n": n,
                    "correct": correct,
                    "true_accuracy": p,
                    "token_length": tokens.round(0),
                }
            )
        )
    return pl.concat(parts)
