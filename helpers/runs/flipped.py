"""The problems that flipped between two runs: ranked by how much their accuracy moved, labelled
with where they were compared, and joined with their text, reference and each run's answer."""

from __future__ import annotations

import polars as pl

from helpers.runs.readers.formats import problem_texts


def at_label(checkpoint: str) -> pl.Expr:
    """Where a row compares, in words: 'step 120', or 'best: step 120 vs step 80'."""

    def step(column: str) -> pl.Expr:
        return (
            pl.when(pl.col(column).is_null())
            .then(pl.lit("single evaluation"))
            .otherwise(pl.format("step {}", pl.col(column)))
        )

    if checkpoint == "best":
        return pl.format("best: {} vs {}", step("step_b"), step("step_a"))
    two = pl.col("step_a").is_not_null() & pl.col("step_b").is_not_null()
    return (
        pl.when(two & (pl.col("step_a") != pl.col("step_b")))
        .then(pl.format("{} vs {}", step("step_b"), step("step_a")))
        .otherwise(step("step"))
    )


def view(flips: list[pl.DataFrame], checkpoint: str) -> pl.DataFrame:
    """Problems whose accuracy differs between the runs, ranked by difference (largest gain
    first); `drawable.comparison` thins them for the chart by rank."""
    if not flips:
        return pl.DataFrame()
    view = pl.concat(flips, how="diagonal_relaxed").filter(pl.col("difference") != 0)
    view = (
        view.with_columns(
            pl.col("step", "step_a", "step_b").cast(pl.Int64),
            outcome=pl.when(pl.col("difference") > 0)
            .then(pl.format("{} better", "run_b"))
            .otherwise(pl.format("{} better", "run_a")),
        )
        .with_columns(at=at_label(checkpoint))
        # ties in their ids' natural order: 2 before 10 where ids are numbers
        .with_columns(_number=pl.col("problem_id").cast(pl.String).str.to_integer(strict=False))
        .sort(
            "comparison",
            "benchmark",
            "difference",
            "_number",
            "problem_id",
            descending=[False, False, True, False, False],
            nulls_last=True,
        )
        .drop("_number")
    )
    return view.with_columns(rank=pl.int_range(pl.len()).over("comparison", "benchmark") + 1)


TEXT_COLUMNS = ("question", "reference", "answer_a", "answer_b")


def with_texts(problems: pl.DataFrame, texts: dict[str, list]) -> pl.DataFrame:
    """The flipped problems with their text, reference answer and each run's first answer,
    read from the runs' files at the steps compared (only those files: a run of a hundred
    checkpoints reads one); null where a log holds no text."""
    if not problems.height:
        return problems
    wanted = {
        (r, b, s)
        for r, b, s in problems.select("run_a", "benchmark", "step_a").unique().iter_rows()
    } | {
        (r, b, s)
        for r, b, s in problems.select("run_b", "benchmark", "step_b").unique().iter_rows()
    }
    frames = [
        problem_texts.read_texts(path, kind).with_columns(
            run=pl.lit(run), benchmark=pl.lit(benchmark), step=pl.lit(step, pl.Int64)
        )
        for run, files in texts.items()
        for path, kind, step, benchmark in files
        if (run, benchmark, step) in wanted
    ]
    if not frames:
        return problems.with_columns(pl.lit(None, pl.String).alias(c) for c in TEXT_COLUMNS)
    every = pl.concat(frames).unique(["run", "benchmark", "step", "problem_id"], keep="first")
    key = ["benchmark", "problem_id"]

    def side(s: str) -> pl.DataFrame:
        return every.rename({"run": f"run_{s}", "step": f"step_{s}", "answer": f"answer_{s}"})

    both = problems.join(
        side("a"), on=["run_a", "step_a", *key], how="left", nulls_equal=True
    ).join(
        side("b").select("run_b", "step_b", *key, "answer_b", q_b="question", r_b="reference"),
        on=["run_b", "step_b", *key],
        how="left",
        nulls_equal=True,
    )
    return both.with_columns(
        question=pl.coalesce("question", "q_b"), reference=pl.coalesce("reference", "r_b")
    ).drop("q_b", "r_b")
