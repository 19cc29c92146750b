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


# benchmark name -> (problems, samples per problem, ability offset): the example run's design
EXAMPLE_BENCHMARKS = {
    "aime-like (simulated)": (30, 8, -1.6),
    "math500-like (simulated)": (500, 1, 0.6),
    "gpqa-like (simulated)": (198, 2, -0.4),
}


def example_samples(
    *, seed: int = 7, steps: Sequence[int] = tuple(range(0, 151, 10))
) -> pl.DataFrame:
    """A small simulated RL run as a tidy per-sample table (step, benchmark, problem_id,
    sample_id, correct, response_tokens), for the bring-your-own-run notebook's default.

    Each problem has a fixed difficulty, so samples of one problem are correlated; the policy's
    ability rises with step; a sample is correct with probability sigmoid(ability - difficulty);
    response length is log-normal with a median growing from 600 to 3,000 tokens.
    """
    rng = np.random.default_rng(seed)
    steps_arr = np.asarray(steps, dtype=float)
    progress = (steps_arr - steps_arr[0]) / (steps_arr[-1] - steps_arr[0])
    parts = []
    for name, (problems, samples, offset) in EXAMPLE_BENCHMARKS.items():
        difficulty = rng.normal(0.0, 1.5, problems)
        for step, frac in zip(steps, progress, strict=True):
            ability = offset + 1.5 * frac
            p = 1 / (1 + np.exp(-(ability - difficulty)))
            correct = rng.random((problems, samples)) < p[:, None]
            median = 600 + 2400 * frac
            tokens = np.exp(rng.normal(np.log(median), 0.5, (problems, samples))).round()
            parts.append(
                pl.DataFrame(
                    {
                        "step": np.full(problems * samples, step, dtype=np.int64),
                        "benchmark": name,
                        "problem_id": np.repeat([f"p{j:03d}" for j in range(problems)], samples),
                        "sample_id": np.tile(np.arange(samples, dtype=np.int64), problems),
                        "correct": correct.ravel(),
                        "response_tokens": tokens.ravel().astype(np.int64),
                    }
                )
            )
    return pl.concat(parts)
