"""The seeded example runs in `data/examples/` (notebooks 005 and 007 and the tests read them):
per-sample answers made up from a known truth. Everything they produce is labelled simulated."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import numpy as np
import polars as pl

from helpers.paths import DATA


def comparison_logs() -> list[tuple[str, Path]]:
    """The simulated pair in `data/examples/compare/` as (run, log) pairs, two seeds per run:
    what notebook 007 and `compare` are shown on when no run is given.

    Returns
    -------
    list of (str, Path)
        The run's name (the file name up to its first "_") and the Parquet log, sorted by
        file name.

    Examples
    --------
    >>> logs = comparison_logs()
    >>> [run for run, _ in logs], logs[0][1].name
    (['baseline', 'baseline', 'method', 'method'], 'baseline_seed1.parquet')
    """
    logs = sorted((DATA / "examples" / "compare").glob("*.parquet"))
    return [(p.stem.split("_")[0], p) for p in logs]


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


# benchmark name -> (problems, samples per problem, ability offset): the compared runs' design
COMPARE_BENCHMARKS = {
    "math500-like (simulated)": (500, 1, 0.8),
    "aime-like (simulated)": (30, 8, -1.4),
}


def _sigmoid(x):
    return 1 / (1 + np.exp(-x))


def comparison_runs(
    *,
    seed: int = 11,
    seeds: int = 2,
    steps: Sequence[int] = tuple(range(0, 201, 20)),
    gain: float = 0.4,
) -> tuple[dict[tuple[str, int], pl.DataFrame], pl.DataFrame]:
    """Two simulated RL runs on the same problems, "baseline" and "method", each trained with
    `seeds` seeds, as tidy per-sample tables keyed by (run, seed), and the true difference.

    Every problem has a fixed difficulty shared by both runs (that is what pairing exploits);
    a sample is correct with probability sigmoid(ability - difficulty). Both runs' ability
    rises with step; the method's is higher by `gain` (logits) times the share of training
    done, so the two start level. Each trained seed moves its run's ability by a small random
    amount (sd 0.1). The truth is, per benchmark and step, the mean over problems and seeds of
    the method's minus the baseline's probability of a correct answer: what a paired
    comparison of these very runs estimates.
    """
    rng = np.random.default_rng(seed)
    steps_arr = np.asarray(steps, dtype=float)
    progress = (steps_arr - steps_arr[0]) / (steps_arr[-1] - steps_arr[0])
    design = {name: rng.normal(0.0, 2.0, n) for name, (n, _, _) in COMPARE_BENCHMARKS.items()}
    shifts = {
        (run, s): rng.normal(0.0, 0.1) for run in ("baseline", "method") for s in range(seeds)
    }
    logs: dict[tuple[str, int], pl.DataFrame] = {}
    truth = []
    for (run, s), shift in shifts.items():
        parts = []
        for name, (problems, samples, offset) in COMPARE_BENCHMARKS.items():
            for step, frac in zip(steps, progress, strict=True):
                ability = offset + 1.2 * frac + shift + (gain * frac if run == "method" else 0)
                p = _sigmoid(ability - design[name])
                truth.append((run, s, name, int(step), float(p.mean())))
                correct = rng.random((problems, samples)) < p[:, None]
                tokens = np.exp(rng.normal(np.log(800 + 1500 * frac), 0.5, (problems, samples)))
                parts.append(
                    pl.DataFrame(
                        {
                            "step": np.full(problems * samples, step, dtype=np.int64),
                            "benchmark": name,
                            "problem_id": np.repeat(
                                [f"p{j:03d}" for j in range(problems)], samples
                            ),
                            "sample_id": np.tile(np.arange(samples, dtype=np.int64), problems),
                            "correct": correct.ravel(),
                            "response_tokens": tokens.round().ravel().astype(np.int64),
                        }
                    )
                )
        logs[(run, s)] = pl.concat(parts)
    expected = (
        pl.DataFrame(truth, schema=["run", "seed", "benchmark", "step", "p"], orient="row")
        .group_by("run", "benchmark", "step")
        .agg(pl.col("p").mean())
        .pivot(on="run", index=["benchmark", "step"], values="p")
        .select("benchmark", "step", true_difference=pl.col("method") - pl.col("baseline"))
        .sort("benchmark", "step")
    )
    return logs, expected
