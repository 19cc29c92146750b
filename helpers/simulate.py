"""Seeded simulations, for showing what real per-iteration curves look like at a given
benchmark size. Everything they produce is labelled simulated by the caller."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import polars as pl

from .benchmarks import size as known_size

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


# Benchmark sizes for simulating figure 001's grid; neither the description nor the paper gives
# them. Known, from `helpers.benchmarks` with their sources: MATH500, AIME 2024 and GPQA
# Diamond; OMNI-MATH500 is a 500-problem subset by its name. The other nine are ASSUMED: round
# numbers of the order such evaluation sets have, so that the simulation's noise is of a
# plausible size.
TRAINING_DYNAMICS_SIZES = {
    "Total@temp_1.0": 2000,
    "OMNI-MATH500": 500,
    "MATH500": known_size("MATH500"),
    "AIMO2024": 50,
    "AIME2024": known_size("AIME2024"),
    "ChatGLMMath": 300,
    "GAOKAO": 300,
    "GPQA": known_size("GPQA-Diamond"),  # the Diamond set is the one reasoning papers report
    "BZ2024": 100,
    "Biology": 200,
    "Chemistry": 200,
    "Physics": 200,
    "KACYAN": 200,
}
KNOWN_SIZES = ("OMNI-MATH500", "MATH500", "AIME2024", "GPQA")


def described_truth(td: pl.DataFrame) -> pl.DataFrame:
    """The truth `training_run` simulates from 001's description: accuracy and token length
    moving from each benchmark's start to its end (a stated range counts as its middle), at the
    sizes in `TRAINING_DYNAMICS_SIZES`."""
    middle = (pl.col("accuracy_min") + pl.col("accuracy_max")) / 2
    return td.select(
        "benchmark",
        n_problems=pl.col("benchmark").replace_strict(TRAINING_DYNAMICS_SIZES),
        acc_start=pl.coalesce("accuracy_start", middle),
        acc_end=pl.coalesce("accuracy_end", middle),
        tokens_start=pl.col("token_length_start"),
        tokens_end=pl.col("token_length_end"),
    )


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
