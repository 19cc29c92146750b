"""Which checkpoints a comparison sets side by side: every step both runs logged, a run pinned
to one step (PATH@STEP, so two checkpoints of one run compare), or each run's best checkpoint
with the most its selection can overstate."""

from __future__ import annotations

import polars as pl

from helpers import stats
from helpers.errors import DataError


def at_pins(frame: pl.DataFrame | None, pins: dict[str, int], where: dict) -> pl.DataFrame | None:
    """A run given as PATH@STEP keeps that step alone; a step it did not log is an error."""
    if frame is None or not pins:
        return frame
    for name, step in pins.items():
        logged = frame.filter(pl.col("run") == name)["step"]
        if logged.len() and step not in logged:
            steps = sorted(set(logged.drop_nulls()))
            raise DataError(where[name], f"step {step} among the run's steps", got=steps[:8])
    pinned = pl.col("run").replace_strict(pins, default=None, return_dtype=pl.Int64)
    return frame.filter(pinned.is_null() | (pl.col("step") == pinned))


def same_steps(a: set, b: set, pin_a: int | None = None, pin_b: int | None = None) -> list:
    """(step in a, step in b) pairs to compare: every step both have; a run evaluated once
    (no step: a fixed model, say the starting point), or pinned to one step (PATH@STEP),
    against every step of the other; two pinned runs at their steps."""
    if pin_a is not None or pin_b is not None:
        if (pin_a is not None and pin_a not in a) or (pin_b is not None and pin_b not in b):
            return []  # this benchmark was not evaluated at the pinned step
        if pin_a is not None and pin_b is not None:
            return [(pin_a, pin_b)]
        if pin_a is not None:  # against each step of the other, or its one evaluation
            return [(pin_a, s) for s in sorted(b - {None})] or [(pin_a, None)]
        return [(s, pin_b) for s in sorted(a - {None})] or [(None, pin_b)]
    if a == {None} and b != {None}:
        return [(None, s) for s in sorted(b - {None})]
    if b == {None} and a != {None}:
        return [(s, None) for s in sorted(a - {None})]
    return [(s, s) for s in sorted(a & b, key=lambda s: (s is None, s))]


def best_steps(means: pl.DataFrame) -> pl.DataFrame:
    """Each run's best checkpoint per benchmark (highest mean accuracy, earliest on ties), the
    number of checkpoints it was picked from, and up to how much picking the best of that many
    overstates the score if all were equally good."""
    ranked = means.sort(
        "run", "benchmark", "accuracy", "step", descending=[False, False, True, False]
    )
    best = ranked.group_by("run", "benchmark", maintain_order=True).agg(
        step=pl.col("step").first(),
        accuracy=pl.col("accuracy").first(),
        problems=pl.col("problems").first(),
        answers=pl.col("answers").first(),
        checkpoints=pl.len(),
    )
    # The picked score's noise is at most that of Binomial(problems x samples x seeds), p)
    # over the total (problems of differing difficulty vary less than that), so this is the
    # most the pick is expected to overstate: "up to".
    bias = [
        stats.best_checkpoint_bias([acc] * k, n, runs=4000, seed=0)["overstatement"]
        if n and k > 1
        else (0.0 if k == 1 else None)
        for acc, n, k in best.select("accuracy", "answers", "checkpoints").iter_rows()
    ]
    return best.with_columns(selection_bias=pl.Series(bias, dtype=pl.Float64))


def best_verdict(
    share: pl.DataFrame, run_a: str, run_b: str, benchmark: str, picks: tuple, value: str
) -> dict | None:
    """The verdict on two runs' best checkpoints with the picking counted
    (`stats.best_of_checkpoints`: a max-statistic bootstrap over problems) from each run's
    per-problem `value` (averaged over seeds) at every checkpoint, on the problems every
    checkpoint of both runs answered; None where fewer than two are, or each run has one
    checkpoint (nothing was picked)."""
    tables, steps = [], []
    for run in (run_a, run_b):
        mine = share.filter(pl.col("run") == run, pl.col("benchmark") == benchmark)
        per = mine.group_by("step", "problem_id").agg(pl.col(value).mean())
        tables.append(per)
        steps.append(sorted(set(per["step"]), key=lambda s: (s is None, s)))
    if len(steps[0]) < 2 and len(steps[1]) < 2:
        return None
    common = None
    for per, mine in zip(tables, steps, strict=True):
        full = per.group_by("problem_id").agg(pl.len()).filter(pl.col("len") == len(mine))
        ids = set(full["problem_id"])
        common = ids if common is None else common & ids
    if len(common) < 2:
        return None
    kept = pl.Series(sorted(common))
    matrices = [
        per.filter(pl.col("problem_id").is_in(kept))
        .sort("step", "problem_id", nulls_last=True)[value]
        .to_numpy()
        .reshape(len(mine), len(kept))
        for per, mine in zip(tables, steps, strict=True)
    ]
    index = [mine.index(pick) for mine, pick in zip(steps, picks, strict=True)]
    d = stats.best_of_checkpoints(*matrices, *index)
    lo, hi = d.bounds()
    return {
        "difference": d.difference,
        "lo": lo,
        "hi": hi,
        "paired_lo": lo,
        "paired_hi": hi,
        "p_value": d.p_value(),
        "interval": d.method,
        "_at_level": d.bounds,
        "selection_problems": len(kept),
    }
