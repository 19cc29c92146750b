"""Figure 001, training dynamics: the described start/end readings as curves, gain against
growth, the readings against the paper's axes and slopes, and a seeded simulated run at
each benchmark's size (labelled simulated wherever it is drawn)."""

from __future__ import annotations

from collections.abc import Sequence

import polars as pl

from helpers import benchmark_sizes, data, stats
from helpers.tidy_curves import curves


def described_curves(td: pl.DataFrame, first: float = 0, last: float = 150) -> pl.DataFrame:
    """What a 001 description states, as curves for `charts.training_dynamics`: a start-to-end
    segment where it gives a start and an end, a band over the whole run where it gives only a
    range, and token length from its start to its end value. Nothing in between is invented.

    Parameters
    ----------
    td : polars.DataFrame
        The `training_dynamics` resource: position, benchmark, accuracy_start, accuracy_end,
        accuracy_min, accuracy_max, token_length_start, token_length_end.
    first, last : float
        The iterations the start and end values are placed at.

    Returns
    -------
    polars.DataFrame
        benchmark, iteration, metric ("accuracy" or "token length"), value, lo, hi: two rows per
        benchmark and metric, in the order of `position`; a band has lo and hi and no value.

    Examples
    --------
    >>> import helpers, polars as pl
    >>> drawn = described_curves(helpers.load("training_dynamics"))
    >>> drawn.height, drawn.filter(pl.col("benchmark") == "OMNI-MATH500").row(0)
    (52, ('OMNI-MATH500', 0, 'accuracy', None, 0.45, 0.65))
    """
    rows = []
    for r in td.sort("position").iter_rows(named=True):
        b = r["benchmark"]
        if r["accuracy_start"] is not None:
            rows += [
                (b, first, "accuracy", r["accuracy_start"], None, None),
                (b, last, "accuracy", r["accuracy_end"], None, None),
            ]
        else:
            rows += [
                (b, it, "accuracy", None, r["accuracy_min"], r["accuracy_max"])
                for it in (first, last)
            ]
        rows += [
            (b, first, "token length", float(r["token_length_start"]), None, None),
            (b, last, "token length", float(r["token_length_end"]), None, None),
        ]
    return pl.DataFrame(
        rows, schema=["benchmark", "iteration", "metric", "value", "lo", "hi"], orient="row"
    )


def gain_and_growth(td: pl.DataFrame) -> pl.DataFrame:
    """Per 001 benchmark: accuracy gain (end - start, where stated), the stated range's width
    (where only a range is given), token-length growth, and the ranks of gain and growth.

    Parameters
    ----------
    td : polars.DataFrame
        The `training_dynamics` resource: position, benchmark, accuracy_shape, accuracy_start,
        accuracy_end, accuracy_min, accuracy_max, token_length_start, token_length_end.

    Returns
    -------
    polars.DataFrame
        position, benchmark, accuracy_shape, gain, range_width, token_length_start,
        token_growth, gain_rank (1 the
        largest; null where there is no gain) and growth_rank (1 the largest, every benchmark),
        sorted by position.

    Examples
    --------
    >>> import helpers
    >>> gg = gain_and_growth(helpers.load("training_dynamics"))
    >>> gg.select("benchmark", "gain", "token_growth", "gain_rank", "growth_rank").row(0)
    ('Total@temp_1.0', 0.13, 20000, 3, 3)
    """
    return (
        td.select(
            "position",
            "benchmark",
            "accuracy_shape",
            gain=(pl.col("accuracy_end") - pl.col("accuracy_start")).round(3),
            range_width=(pl.col("accuracy_max") - pl.col("accuracy_min")).round(3),
            token_length_start="token_length_start",
            token_growth=pl.col("token_length_end") - pl.col("token_length_start"),
        )
        .with_columns(
            gain_rank=pl.col("gain").rank("min", descending=True).cast(pl.Int64),
            growth_rank=pl.col("token_growth").rank("min", descending=True).cast(pl.Int64),
        )
        .sort("position")
    )


# the description's spellings -> the panel titles printed in the paper's figure, where they differ
PAPER_NAMES = {"Total@temp_1.0": "total@temp_1.0", "KACYAN": "KAOYAN"}


def against_published_axes(td: pl.DataFrame, aliases: dict[str, str] = PAPER_NAMES) -> pl.DataFrame:
    """Each 001 reading against the tick range of the same panel in the paper's figure;
    `beyond_axis` marks readings that lie more than one tick step past the printed labels.

    Parameters
    ----------
    td : polars.DataFrame
        The `training_dynamics` resource: position, benchmark, accuracy_start, accuracy_end,
        accuracy_min, accuracy_max.
    aliases : dict of str to str, default PAPER_NAMES
        A description's benchmark label -> the paper's panel title, where they differ.

    Returns
    -------
    polars.DataFrame
        position, benchmark, panel, low and high (start and end, or the range), the panel's
        tick_min, tick_max and tick_step (null where the paper has no such panel), in_paper and
        beyond_axis, sorted by position.

    Examples
    --------
    >>> import helpers
    >>> axes = against_published_axes(helpers.load("training_dynamics"))
    >>> axes.filter("beyond_axis")["benchmark"].to_list()
    ['Total@temp_1.0', 'AIME2024', 'Chemistry', 'Physics']
    """
    axes = data.load("published_axes").filter(
        pl.col("document") == "001", pl.col("axis") == "accuracy"
    )
    readings = td.select(
        "position",
        "benchmark",
        panel=pl.col("benchmark").replace(aliases),
        low=pl.coalesce("accuracy_start", "accuracy_min"),
        high=pl.coalesce("accuracy_end", "accuracy_max"),
    )
    return (
        readings.join(
            axes.select("panel", "tick_min", "tick_max", "tick_step"),
            on="panel",
            how="left",
            maintain_order="left",
        )
        .with_columns(
            in_paper=pl.col("tick_min").is_not_null(),
            # beyond where the axis can reach: more than one tick step past the printed labels
            beyond_axis=(pl.col("low") < pl.col("tick_min") - pl.col("tick_step"))
            | (pl.col("high") > pl.col("tick_max") + pl.col("tick_step")),
        )
        .sort("position")
    )


# the marks `flagged_names` adds to a panel's title, and the subtitle line that says what they mean
BEYOND, ABSENT = "†", "‡"
FLAGS_SAID = (
    f"{BEYOND} read beyond the paper's own axis, so it cannot be right as read; "
    f"{ABSENT} no such panel in the paper's figure"
)


def flagged_names(axes: pl.DataFrame) -> dict[str, str]:
    """Each benchmark's panel title, in panel order, marked where its reading cannot be taken
    as read (from `against_published_axes`): BEYOND past the paper's own axis, ABSENT where
    the paper has no such panel. FLAGS_SAID says so in words.

    >>> import helpers
    >>> axes = against_published_axes(helpers.load("training_dynamics"))
    >>> [t for t in flagged_names(axes).values() if t[-1] in (BEYOND, ABSENT)]
    ['Total@temp_1.0 †', 'AIME2024 †', 'BZ2024 ‡', 'Chemistry †', 'Physics †']
    """
    return {
        r["benchmark"]: r["benchmark"]
        + (f" {ABSENT}" if not r["in_paper"] else f" {BEYOND}" if r["beyond_axis"] else "")
        for r in axes.sort("position").iter_rows(named=True)
    }


def implied_slopes(td: pl.DataFrame) -> pl.DataFrame:
    """Accuracy gained per token from a description's start and end readings, beside the
    trend slope the paper prints for the same benchmark (Figure 6 legend).

    Parameters
    ----------
    td : polars.DataFrame
        The `training_dynamics` resource: benchmark, accuracy_start, accuracy_end,
        token_length_start, token_length_end.

    Returns
    -------
    polars.DataFrame
        benchmark, described (accuracy per token), published (null where the paper prints
        none) and ratio (published / described, to 2 places): one row per benchmark with a
        start and an end reading.

    Examples
    --------
    >>> import helpers
    >>> implied_slopes(helpers.load("training_dynamics")).select("benchmark", "ratio").row(0)
    ('Total@temp_1.0', 3.78)
    """
    pub = data.load("published_values").filter(
        pl.col("document") == "001", pl.col("metric") == "trend slope"
    )
    return (
        td.filter(pl.col("accuracy_start").is_not_null())
        .select(
            "benchmark",
            described=(pl.col("accuracy_end") - pl.col("accuracy_start"))
            / (pl.col("token_length_end") - pl.col("token_length_start")),
        )
        .join(
            pub.select(pl.col("matches").alias("benchmark"), pl.col("value").alias("published")),
            on="benchmark",
            how="left",
            maintain_order="left",
        )
        .with_columns(ratio=(pl.col("published") / pl.col("described")).round(2))
    )


TOKEN_CV = 0.6  # spread of single-answer lengths (coefficient of variation), an assumption


def training_run(benchmarks: pl.DataFrame, iterations: Sequence[int], *, seed: int) -> pl.DataFrame:
    """Per benchmark and iteration: problems solved out of n, and mean answer length.

    `benchmarks` has columns benchmark, n_problems, acc_start, acc_end, tokens_start,
    tokens_end. The true accuracy and mean length move linearly from start to end; each
    evaluation draws Binomial(n, p) solved problems and the mean of n answer lengths (normal
    approximation with TOKEN_CV).

    Parameters
    ----------
    benchmarks : polars.DataFrame
        One row per benchmark with the columns above (`described_truth` gives them).
    iterations : sequence of int
        The evaluated iterations, in order; the first is the start and the last the end.
    seed : int
        Seed of numpy's random generator.

    Returns
    -------
    polars.DataFrame
        benchmark, iteration, n, correct, true_accuracy, token_length: one row per benchmark
        and iteration.

    Examples
    --------
    >>> import helpers
    >>> truth = described_truth(helpers.load("training_dynamics"))
    >>> run = training_run(truth, list(range(0, 151, 10)), seed=2025)
    >>> run.height, run.columns
    (208, ['benchmark', 'iteration', 'n', 'correct', 'true_accuracy', 'token_length'])
    """
    import numpy as np  # loaded to simulate, not by every chart that imports this module

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
# them. Known, from `helpers.benchmark_sizes` with their sources: MATH500, AIME 2024 and GPQA
# Diamond; OMNI-MATH500 is a 500-problem subset by its name. The other nine are ASSUMED: round
# numbers of the order such evaluation sets have, so that the simulation's noise is of a
# plausible size.
SIZES = {
    "Total@temp_1.0": 2000,
    "OMNI-MATH500": 500,
    "MATH500": benchmark_sizes.size("MATH500"),
    "AIMO2024": 50,
    "AIME2024": benchmark_sizes.size("AIME2024"),
    "ChatGLMMath": 300,
    "GAOKAO": 300,
    "GPQA": benchmark_sizes.size(
        "GPQA-Diamond"
    ),  # the Diamond set is the one reasoning papers report
    "BZ2024": 100,
    "Biology": 200,
    "Chemistry": 200,
    "Physics": 200,
    "KACYAN": 200,
}


KNOWN_SIZES = ("OMNI-MATH500", "MATH500", "AIME2024", "GPQA")


def sized_names(benchmarks) -> dict[str, str]:
    """Each benchmark's panel name with the problems the simulation gives it, and whether
    that size is known or assumed: 'MATH500 (n = 500)', 'BZ2024 (n = 100, assumed)'.

    >>> sized_names(["MATH500", "BZ2024"])
    {'MATH500': 'MATH500 (n = 500)', 'BZ2024': 'BZ2024 (n = 100, assumed)'}
    """
    return {
        b: f"{b} (n = {SIZES[b]:,}{'' if b in KNOWN_SIZES else ', assumed'})" for b in benchmarks
    }


def described_truth(td: pl.DataFrame) -> pl.DataFrame:
    """The truth `training_run` simulates from 001's description: accuracy and token length
    moving from each benchmark's start to its end (a stated range counts as its middle), at the
    sizes in `SIZES`.

    Parameters
    ----------
    td : polars.DataFrame
        The `training_dynamics` resource: benchmark, accuracy_start, accuracy_end,
        accuracy_min, accuracy_max, token_length_start, token_length_end.

    Returns
    -------
    polars.DataFrame
        benchmark, n_problems, acc_start, acc_end, tokens_start, tokens_end: the input
        `training_run` takes.

    Examples
    --------
    >>> import helpers
    >>> described_truth(helpers.load("training_dynamics")).row(1)  # a range: its middle
    ('OMNI-MATH500', 500, 0.55, 0.55, 0, 25000)
    """
    middle = (pl.col("accuracy_min") + pl.col("accuracy_max")) / 2
    return td.select(
        "benchmark",
        n_problems=pl.col("benchmark").replace_strict(SIZES),
        acc_start=pl.coalesce("accuracy_start", middle),
        acc_end=pl.coalesce("accuracy_end", middle),
        tokens_start=pl.col("token_length_start"),
        tokens_end=pl.col("token_length_end"),
    )


def curves_from_counts(df: pl.DataFrame) -> pl.DataFrame:
    """Per-iteration counts (benchmark, iteration, n, correct, token_length) as curves for
    `charts.training_dynamics`: accuracy with its Wilson 95% interval, and token length.

    Parameters
    ----------
    df : polars.DataFrame
        One row per benchmark and iteration with the columns above (`training_run` gives them).

    Returns
    -------
    polars.DataFrame
        benchmark, iteration, metric ("accuracy" or "token length"), value, lo, hi; accuracy
        and its bounds to 4 places.

    Examples
    --------
    >>> import polars as pl
    >>> counts = pl.DataFrame(
    ...     {"benchmark": "AIME2024", "iteration": [0, 10], "n": 30, "correct": [13, 19],
    ...      "token_length": [1000, 1500]}
    ... )
    >>> curves_from_counts(counts).row(0)
    ('AIME2024', 0.0, 'accuracy', 0.4333, 0.2738, 0.608)
    """
    lo, hi = stats.wilson_exprs(pl.col("correct") / pl.col("n"), pl.col("n").cast(pl.Float64))
    with_bounds = df.with_columns(
        accuracy=(pl.col("correct") / pl.col("n")).round(4), lo=lo.round(4), hi=hi.round(4)
    )
    return curves(
        with_bounds,
        iteration="iteration",
        accuracy="accuracy",
        tokens="token_length",
        lo="lo",
        hi="hi",
    )
