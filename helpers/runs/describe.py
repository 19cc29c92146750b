"""`python -m helpers inspect`: what a file or folder was read as, in words."""

from __future__ import annotations

from pathlib import Path

import polars as pl

from helpers.errors import printable
from helpers.runs import readers, score_logs


def describe(path: Path, label: str | None = None, **options) -> list[str]:
    """What a file or folder was read as, in words: format, steps, benchmarks (with sizes and
    samples per problem), metrics, and what was left out and why. `label` names the input in
    the first line (default: the path as given). Text from the log (a benchmark's or a
    metric's name) is printed with its control characters escaped, never sent to the terminal
    as they are."""
    return [printable(line) for line in _lines(path, label, **options)]


def _lines(path: Path, label: str | None = None, **options) -> list[str]:
    """One run's lines; a tracker's store of several: a line naming them, then each run's
    lines under its `PATH#RUN`."""
    runs = readers.load_runs(path, **options)
    if len(runs) == 1:
        return _run_lines(runs[0], label or path)
    names = ", ".join(r.run or "?" for r in runs)
    lines = [f"{label or path}: {len(runs)} runs ({runs[0].format}): {names}"]
    for run in runs:
        lines += _run_lines(run, f"{label or path}#{run.run}")
    return lines


def _run_lines(run: readers.Loaded, label: object) -> list[str]:
    lines = [f"{label}: {run.format}", *[f"  {n}" for n in run.notes]]
    if run.unread is not None:
        return [*lines, f"  not read: {run.unread}"]
    if run.models is not None:
        m = run.models
        names = ", ".join(m["benchmark"].unique(maintain_order=True))
        lines.append(f"  {m['model'].n_unique()} models; benchmarks: {names}")
        return lines
    if run.samples is not None:
        per = (
            run.samples.group_by("benchmark", "step", "problem_id")
            .agg(n=pl.len())
            .group_by("benchmark")
            .agg(
                steps=pl.col("step").drop_nulls().unique().sort(),
                problems=pl.col("problem_id").n_unique(),
                k_min=pl.col("n").min(),
                k_max=pl.col("n").max(),
            )
            .sort("benchmark")
            .collect()
        )
        for r in per.iter_rows(named=True):
            k = f"{r['k_min']}" if r["k_min"] == r["k_max"] else f"{r['k_min']}-{r['k_max']}"
            lines.append(
                f"  {r['benchmark']}: {r['problems']} problems, {k} sample(s) per problem, "
                + _steps(r["steps"])
            )
        return lines
    table = run.scores
    if table is None:  # response length alone (a training log with no accuracy named)
        lines.append("  no accuracy or score column recognised (--map accuracy=TEMPLATE)")
    for b in [] if table is None else run.order or table["benchmark"].unique(maintain_order=True):
        rows = table.filter(pl.col("benchmark") == b)
        n = rows["problems"][0]
        size = (
            "scored on training batches"
            if run.kind == "training score"
            else f"{n} problems"
            if n is not None
            else "size unknown (--problems NAME=N)"
        )
        k = f", mean@{rows['k'][0]}" if rows["k"][0] is not None else ""
        steps = _steps(rows["step"].drop_nulls().to_list())
        aggregate = (
            " (an aggregate of the others, as its name says: left out of their mean)"
            if score_logs.is_aggregate(b)
            else ""
        )
        lines.append(f"  {b}: {run.kind}, {size}{k}, {steps}{aggregate}")
    if run.tokens is not None:
        t = run.tokens["benchmark"].drop_nulls().n_unique()
        lines.append(
            "  response length: "
            + (f"per benchmark ({t})" if t else "overall mean")
            + f", {run.tokens['step'].n_unique()} steps"
        )
    return lines


def _steps(steps: list) -> str:
    if not steps:
        return "one evaluation (no step)"
    return f"{len(steps)} steps ({steps[0]}-{steps[-1]})" if len(steps) > 1 else f"step {steps[0]}"
