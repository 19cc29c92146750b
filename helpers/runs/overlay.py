"""Several runs of one tracker's store drawn over each other, for `plot` (a `wandb/` folder, a
TensorBoard log dir with a folder per run, an MLflow store, a trackio project): each run's
scores as `score_logs.score_curves` makes them for a run alone, drawn by the comparison's
per-run curves chart (`charts.run_curves`: a panel per benchmark, a colour per run)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

import polars as pl

from helpers.errors import DataError
from helpers.runs import drawable, score_logs
from helpers.runs.inputs import display_name
from helpers.runs.readers import Loaded

MAX_RUNS = 7  # one colour each (render.theme.RUN_COLOURS)


def _names(runs: Sequence[Loaded]) -> list[str]:
    """Each run's name (its file's where the store did not name it), unique."""
    names = [r.run or r.path.stem for r in runs]
    return [n if names.count(n) == 1 else f"{n} ({i + 1})" for i, n in enumerate(names)]


def _runs_table(files, scored, benchmarks) -> tuple[pl.DataFrame, list[str]]:
    """Each run's `score_curves` table under a `run` column (a training score without an
    interval: a batch's size is not logged), and the benchmarks in the order first seen (or
    `benchmarks`, each checked to be there)."""
    tables, order = [], []
    for name, run in scored:
        _, seen, table = score_logs.score_curves([run])
        if run.kind == "training score":
            table = table.with_columns(lo=pl.lit(None, pl.Float64), hi=pl.lit(None, pl.Float64))
        tables.append(table.select(pl.lit(name).alias("run"), pl.all()))
        order += [b for b in seen if b not in order]
    table = pl.concat(tables, how="diagonal_relaxed")
    if benchmarks:
        unknown = [b for b in benchmarks if b not in order]
        if unknown:
            raise DataError(files[0], f"benchmarks among {order}", column=unknown[0])
        table, order = table.filter(pl.col("benchmark").is_in(list(benchmarks))), list(benchmarks)
    return table, order


def overlay(
    files: Sequence[Path],
    runs: Sequence[Loaded],
    *,
    benchmarks: Sequence[str] | None = None,
    columns: int = 4,
    title: str | None = None,
    chosen: Sequence[str] | None = None,
) -> tuple[Callable[[], object], pl.DataFrame]:
    """A function drawing every run's accuracy over steps, a colour per run (at most
    MAX_RUNS, the first ones or those `chosen`, in that order; the subtitle names what was
    left out), and the table behind it: each run's `score_curves` table under a `run` column
    (every run, drawn or not)."""
    names = _names(runs)
    scored = [(n, r) for n, r in zip(names, runs, strict=True) if r.scores is not None]
    left = [
        n + (f" ({r.unread[:80]})" if r.unread else "")
        for n, r in zip(names, runs, strict=True)
        if r.scores is None
    ]
    if not scored:
        raise DataError(
            files[0],
            "accuracy or score columns in at least one of the runs (--map accuracy=TEMPLATE)",
            got=left[:4],
        )
    table, order = _runs_table(files, scored, benchmarks)
    band = pl.col("lo").is_not_null()
    mean = pl.col("benchmark").str.starts_with(score_logs.MEAN_OF)
    curves = table.select(
        "run",
        pl.lit(0, pl.Int64).alias("seed"),
        "benchmark",
        "step",
        pl.lit("mean").alias("kind"),
        pl.col("score").alias("accuracy"),
        "lo",
        "hi",
        pl.when(band & mean)
        .then(pl.lit("normal 95% from each benchmark's variance (Agresti-Coull)"))
        .when(band)
        .then(pl.lit("Wilson 95% over problems"))
        .otherwise(pl.lit("no interval: benchmark size unknown or a training score"))
        .alias("band"),
        "problems",
    )
    means = [b for b in order if b.startswith(score_logs.MEAN_OF)]
    shown = drawable.panels(curves, "benchmark", order=order, summary=next(iter(means), None))
    if chosen:
        known = [n for n, _ in scored]
        unknown = [n for n in chosen if n not in known]
        if unknown:
            raise DataError(files[0], f"runs among {known[:8]} (--runs)", got=unknown[0])
    frame = shown.frame.filter(pl.col("run").is_in(list(chosen))) if chosen else shown.frame
    drawn = drawable.panels(
        frame, "run", order=list(chosen or [n for n, _ in scored]), limit=MAX_RUNS, what="runs"
    )
    if chosen and len(chosen) < len(scored):  # (a figure names no option: the command does)
        drawn.notes.append(f"{len(chosen)} of {len(scored)} runs drawn, as chosen")
    thinned = drawable.thin(drawn.frame, "step", ("run", "seed", "benchmark", "kind"))
    notes = shown.notes + drawn.notes + thinned.notes
    notes += [  # rows a table repeated exactly, read once: said where the run is drawn
        f"{n}: {note}" for n, r in scored for note in r.notes if "repeated exactly" in note
    ]
    if left:
        notes.append(f"not drawn: {', '.join(left[:4])}{' ...' if len(left) > 4 else ''}")
    known = table.filter(band & ~mean)["benchmark"].unique(maintain_order=True).to_list()
    lines = [
        f"bands: Wilson 95% over each benchmark's problems ({', '.join(known)})"
        if known
        else "no band: no benchmark's size is known"
    ]
    lines += score_logs.mean_note(table, "band")
    count = len(drawn.order)
    heading = (
        title or f"{display_name(files[0])}: accuracy of {count} run{'s' * (count != 1)} by step"
    )
    subtitle = drawable.subtitle(lines, notes)

    def make():
        import altair as alt

        from helpers import charts

        chart = charts.run_curves(thinned.frame, drawn.order, columns=columns)
        return chart.properties(title=alt.Title(heading, subtitle=subtitle))

    return make, table
