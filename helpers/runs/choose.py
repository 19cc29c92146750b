"""The choice of chart for your own logs, shared by the command line and notebook 005: read the
inputs, recognise what they hold, and return the table behind the chart with a function that
draws it (so a `.csv` output never loads altair or the chart code)."""

from __future__ import annotations

import contextvars
from collections.abc import Sequence
from pathlib import Path

import polars as pl

from helpers import stats
from helpers.errors import DataError
from helpers.runs import drawable, inputs, readers, rewards, score_logs, spark, summarise
from helpers.runs.readers._common import reading
from helpers.runs.readers.loaded import shared
from helpers.runs.readers.registry import RESULTS
from helpers.runs.readers.stated import checked


def _samples(runs: list, benchmarks) -> pl.LazyFrame:
    frames = [r.samples for r in runs]
    if len(frames) > 1:  # one type for the keys across files (a categorical stays cheap alone)
        frames = [
            f.with_columns(
                pl.col("benchmark").cast(pl.String), pl.col("problem_id").cast(pl.String)
            )
            for f in frames
        ]
    lf = pl.concat(frames, how="diagonal_relaxed")  # a level column where a log has one
    return lf.filter(pl.col("benchmark").is_in(list(benchmarks))) if benchmarks else lf


def _sizes(table: pl.DataFrame) -> pl.DataFrame:
    """Each benchmark of a score log and its number of problems (null: not in the log), the
    benchmarks' mean and training scores left out (their own notes say theirs)."""
    if "averages" in table.columns:
        table = table.filter(pl.col("averages").is_null())
    table = table.filter(~pl.col("benchmark").str.ends_with(score_logs.TRAINING))
    return table.group_by("benchmark", maintain_order=True).agg(pl.col("problems").first())


def _counted(sizes: pl.DataFrame, most: int | None = None) -> str:
    """'AIME24: 30, AMC23: 40' from (benchmark, problems) rows, the first `most` of them; each
    name and count joined by a no-break space, which a wrapped subtitle keeps together."""
    kept = sizes if most is None else sizes.head(most)
    shown = ", ".join(f"{b}:\u00a0{n:,}" for b, n in kept.iter_rows())
    return shown + (" ..." if kept.height < sizes.height else "")


def unsized(table: pl.DataFrame) -> list[str]:
    """The benchmarks a score log's chart draws with no band, their number of problems not in
    the log (what `fitting` returned as the table; none for other tables)."""
    if not {"benchmark", "problems", "k"} <= set(table.columns) or "samples" in table.columns:
        return []
    return [b for b, n in _sizes(table).iter_rows() if n is None]


def _band_note(table: pl.DataFrame) -> str:
    """What the bands of a score log are, and where there is none (the benchmarks' mean has
    its own note: `score_logs.mean_note`)."""
    sizes = _sizes(table)
    known = sizes.filter(pl.col("problems").is_not_null())
    unknown = [b for b, n in sizes.iter_rows() if n is None]
    note = (
        (
            f"bands: Wilson 95% over each benchmark's problems: {_counted(known)}"
            if sizes.height > 1
            else f"band: Wilson 95% over {known['benchmark'][0]}'s {known['problems'][0]:,} "
            "problems"
        )
        if known.height
        else ""
    )
    if unknown and not known.height:
        note = "no bands: the benchmarks' numbers of problems are not in the log"
    elif unknown:
        note += "; " + (
            f"no band for {', '.join(unknown[:4])}{' ...' if len(unknown) > 4 else ''}: "
            "its number of problems is not in the log"
        )
    if table["k"].is_not_null().any():
        note += "; mean@k scores: intervals count problems, not samples"
    return note


# `fitting`'s smoothing weight, for every training grid it builds (`--smooth`)
_SMOOTH: contextvars.ContextVar[float | None] = contextvars.ContextVar("smooth", default=None)
# where no weight is given, a curve of this many logged values or more is smoothed: a long
# per-step curve (a training reward over batches of a few prompts) swings too much from step
# to step to be read as logged. The weight averages over about a twentieth of the curve (at
# 50 values TensorBoard's default, 0.6; at 300, 0.88); --smooth 0 turns it off
AUTO_SMOOTH_FROM = 50
# a band wider than this (a share of the axis) at the median step says nothing a reader can
# use (a step of one or two problems): left out, and said
WIDEST_BAND = 0.5


def auto_weight(values: int) -> float:
    """The EMA weight of a curve of `values` points: a window of a twentieth of them, at
    least TensorBoard's default weight and at most 0.99 (from about 8,000 values the rounding
    reached 1, a weight that never moves and that `stats.ema` refuses).

    >>> auto_weight(50), auto_weight(300), auto_weight(10_000)
    (0.6, 0.88, 0.99)
    """
    return min(0.99, round(max(0.6, 1 - 2 / (values / 20 + 1)), 2))


def smoothed(curves: pl.DataFrame, weight: float) -> pl.DataFrame:
    """`curves` with each accuracy curve's exponential moving average beside it (`smoothed`,
    bias-corrected as TensorBoard smooths: `stats.ema`), over every logged step in order."""
    from helpers import stats

    parts = []
    for (_, metric), part in curves.group_by("benchmark", "metric", maintain_order=True):
        part = part.sort("iteration", nulls_last=True)
        values = part["value"]
        if metric != "accuracy" or values.null_count() == values.len():
            parts.append(part.with_columns(smoothed=pl.lit(None, pl.Float64)))
            continue
        kept = part.filter(pl.col("value").is_not_null())
        ema = pl.Series("smoothed", stats.ema(kept["value"].to_list(), weight), pl.Float64)
        parts.append(
            part.join(kept.select("iteration").with_columns(ema), on="iteration", how="left")
        )
    return pl.concat(parts, how="vertical_relaxed") if parts else curves


def _longest_curve(curves: pl.DataFrame) -> int:
    """The most values logged in one accuracy curve of `curves`."""
    values = curves.filter((pl.col("metric") == "accuracy") & pl.col("value").is_not_null())
    return values.group_by("benchmark").len()["len"].max() or 0 if values.height else 0


def _without_wide_bands(curves: pl.DataFrame) -> tuple[pl.DataFrame, list[str]]:
    """The curves without the bands of those whose median band spans more than `WIDEST_BAND`
    of the axis, and their names."""
    if "lo" not in curves.columns:
        return curves, []
    widths = (
        curves.filter(pl.col("metric") == "accuracy")
        .group_by("benchmark", maintain_order=True)
        .agg((pl.col("hi") - pl.col("lo")).median().alias("width"))
    )
    wide = widths.filter(pl.col("width") > WIDEST_BAND)["benchmark"].to_list()
    if not wide:
        return curves, []
    bare = pl.col("benchmark").is_in(wide) & (pl.col("metric") == "accuracy")
    cleared = [pl.when(bare).then(None).otherwise(pl.col(c)).alias(c) for c in ("lo", "hi")]
    return curves.with_columns(cleared), wide


def _grid(curves, order, subtitle: str | list[str], **options):
    """The training grid of `curves` (a frame, or what makes it), fitted when the chart is
    drawn (`_fitted_grid`): a `.csv` output never makes, smooths, thins or lays out curves
    (a million-row log spent seconds there). The smoothing asked of `fitting` is read now,
    while it is set."""
    weight = _SMOOTH.get()

    def make():
        drawn = curves() if callable(curves) else curves
        return _fitted_grid(drawn, order, subtitle, weight, **options)()

    return make


def _fitted_grid(curves: pl.DataFrame, order, subtitle: str | list[str], weight, **options):
    """The training grid of `curves`, fitted to what it can show (panels, points per line),
    with the subtitle saying what was left out; the drawn panels' curves smoothed with
    `weight` (None: by the curves' length; every logged point counts in the average, before
    any is thinned out)."""
    longest = _longest_curve(curves)
    if weight is None and longest >= AUTO_SMOOTH_FROM:
        weight = auto_weight(longest)
    curves, wide = _without_wide_bands(curves)
    if wide:
        said = f"no band for {', '.join(wide)}: a step's interval spans most of the axis"
        lines = [subtitle] if isinstance(subtitle, str) else list(subtitle)
        if curves["lo"].is_null().all():  # no band is left to say what bands are
            lines = [line for line in lines if not line.startswith(("bands:", "band:"))]
        subtitle = [*lines, said]
    means = [b for b in order or () if b.startswith(score_logs.MEAN_OF)]
    shown = drawable.panels(curves, "benchmark", order=order, summary=next(iter(means), None))
    drawn = shown.frame
    if weight:  # each curve on its own: only the panels drawn (24 of a run's 100 benchmarks)
        drawn = smoothed(drawn, weight)
        said = (
            f"solid: the score's moving average (EMA, weight {weight:g}, bias-corrected as "
            "TensorBoard smooths); faint: the score as logged"
            # the lengths are not smoothed, and a solid length line read as if it were
            + ("; response length as logged" if (curves["metric"] == "token length").any() else "")
        )
        subtitle = [*([subtitle] if isinstance(subtitle, str) else subtitle), said]
    # one panel is drawn 400 px wide: twice the points a grid's narrow panel shows
    most = drawable.POINTS_PER_SERIES * (2 if len(shown.order or ()) == 1 else 1)
    thinned = drawable.thin(drawn, "iteration", ("benchmark", "metric"), most=most)
    return later(
        "run_grid",
        thinned.frame,
        subtitle=drawable.subtitle(subtitle, shown.notes + thinned.notes),
        order=shown.order,
        averages=means,
        points=drawable.longest(thinned.frame, "iteration", ("benchmark", "metric"))
        <= drawable.MARKED_POINTS,
        **options,
    )


def _by_group(table: pl.DataFrame, group: str, title: str, notes=(), **options):
    """Accuracy (or `value`) by group, at most `drawable.MAX_GROUPS` of them along the axis;
    `notes` lead the subtitle."""
    shown = drawable.panels(
        table, group, limit=drawable.MAX_GROUPS, what=f"{group}s" if group != "file" else "files"
    )
    notes = [*notes, *shown.notes]
    return later("accuracy_by_group", shown.frame, group, title=title, notes=notes, **options)


def _voted_note(overall: pl.DataFrame) -> list[str]:
    """pass@k and maj@k over all problems, where problems have k samples (the `.csv` has them
    per group too)."""
    said = []
    for c in overall.columns:
        if c.startswith(("pass@", "maj@")) and not c.endswith(("_lo", "_hi")):
            interval = ""
            if f"{c}_lo" in overall.columns:
                lo, hi = overall[f"{c}_lo"][0], overall[f"{c}_hi"][0]
                interval = f" (Wilson 95% {lo:.1%}-{hi:.1%})"
            said.append(f"{c} {overall[c][0]:.1%}{interval}")
    if not said:
        return []
    return [
        "over all problems: "
        + ", ".join(said)
        + "; pass@k: solved by any of a problem's k answers"
        * any(s.startswith("pass@") for s in said)
        + "; maj@k: the most frequent answer" * any(s.startswith("maj@") for s in said)
    ]


def _answers_note(samples: pl.DataFrame) -> list[str]:
    """What an accuracy over several answers a problem is: the share of the answers judged
    correct, each problem counted once in its interval."""
    problems = samples.select(pl.struct("benchmark", "problem_id").n_unique()).item()
    if problems == 0 or samples.height == problems:
        return []
    each = samples.group_by("benchmark", "problem_id").len()["len"]
    k = f"{each[0]} answers each" if each.n_unique() == 1 else "several answers each"
    return [
        f"accuracy: the share of {samples.height:,} answers judged correct ({problems:,} "
        f"problems, {k})"
    ]


def later(name: str, *args, **kwargs):
    """A chart to draw only when it is wanted: the chart code (and altair) load then, so a
    `.csv` output never pays for them."""

    def make():
        from helpers import charts

        return getattr(charts, name)(*args, **kwargs)

    return make


def chart_for(
    files: Sequence[str | Path],
    *,
    draw: bool = True,
    **options,
) -> tuple[object, pl.DataFrame]:
    """Read the inputs and build the chart that fits them, with the table behind it (see
    `fitting`); with `draw=False` only the table (the chart is None)."""
    make, table = fitting(files, **options)
    return (make() if draw else None), table


def _unfinished(make, table: pl.DataFrame, runs: Sequence) -> tuple[object, pl.DataFrame]:
    """A chart and table of logs of which some did not finish (an Inspect run cancelled,
    stopped by an error, or still going): each said in the chart's subtitle and in the
    table's `status` column, so a partial score is never shown as a whole one."""
    partial = [r for r in runs if getattr(r, "status", None)]
    if not partial:
        return make, table
    said = [
        f"{r.path.name + ': ' if len(runs) > 1 else ''}the run did not finish ({r.status}): a "
        "partial score"
        for r in partial
    ]

    def flagged():
        import altair as alt

        chart = make()
        title = chart.title
        if isinstance(title, str):
            chart.title = alt.Title(title, subtitle=said)
        elif title is not alt.Undefined:
            lines = title.subtitle
            lines = [] if lines is alt.Undefined else [lines] if isinstance(lines, str) else lines
            title.subtitle = [*lines, *said]
        return chart

    status = "; ".join(
        r.status if len(partial) == 1 else f"{r.path.name}: {r.status}" for r in partial
    )
    return flagged, table.with_columns(status=pl.lit(status))


def fitting(
    files: Sequence[str | Path],
    *,
    benchmarks: Sequence[str] | None = None,
    columns: int = 4,
    title: str | None = None,
    progress=None,
    mapping: dict[str, str] | None = None,
    problems: dict[str, int] | None = None,
    step_pattern: str | None = None,
    engine: str = "polars",
    smooth: float | None = None,
    runs: Sequence[str] | None = None,
    loaded: dict | None = None,
) -> tuple[object, pl.DataFrame]:
    """Read the inputs and build the chart that fits them, with the table behind it: the
    training grid (per-step logs, per-sample logs over steps, per-checkpoint folders),
    accuracy by level or by benchmark (one evaluation), or accuracy against model size
    (a scores table). Panels keep the log's order (or that of `benchmarks`). Returns a function
    that draws the chart, and the table. `smooth` (a weight from 0 to 1) draws each training
    curve's moving average over the points as logged (by default, curves of `AUTO_SMOOTH_FROM`
    values or more with TensorBoard's weight, 0.6; 0 draws none); `runs` names which runs of
    a store of several are drawn (all are in the table); `loaded` holds runs read already, by
    the path as given (a watch's, read as they grew), drawn instead of reading them again."""
    token = _SMOOTH.set(smooth)
    try:
        return _fitting(files, benchmarks, columns, title, progress, mapping, problems,
                        step_pattern, engine, runs, loaded or {})  # fmt: skip
    finally:
        _SMOOTH.reset(token)


def _fitting(
    files,
    benchmarks,
    columns,
    title,
    progress,
    mapping,
    problems,
    step_pattern,
    engine,
    chosen,
    loaded,
) -> tuple[object, pl.DataFrame]:
    """`fitting`, its smoothing set."""
    if engine == "spark":
        return _spark_chart([str(f) for f in files], benchmarks, columns, title)
    files = [inputs.local(f) for f in files]
    readers.distinct_inputs(files)
    progress = progress or (lambda i, n, path: None)
    every = []
    for i, f in enumerate(files, 1):
        progress(i, len(files), f)
        if str(f) in loaded:
            every.append([loaded[str(f)]])
            continue
        every.append(
            readers.load_runs(
                f,
                step_pattern=step_pattern,
                mapping=mapping,
                problems=problems,
                benchmarks=benchmarks,
            )
        )
    if any(len(held) > 1 for held in every):  # a store of several runs: drawn over each other
        from helpers.runs.overlay import overlay

        runs = [r for held in every for r in held]
        return overlay(
            files, runs, benchmarks=benchmarks, columns=columns, title=title, chosen=chosen
        )
    runs = [held[0] for held in every]
    return _unfinished(*_chart_of(runs, files, benchmarks, columns, title, problems), runs)


def _chart_of(runs, files, benchmarks, columns, title, problems) -> tuple[object, pl.DataFrame]:
    """The chart and table of one run per input (`fitting`)."""
    stated = [r for r in runs if r.format in RESULTS]
    if (
        stated
        and len(stated) < len(runs)
        and all(r.holds == "samples" for r in runs if r not in stated)
    ):
        runs = [r for r in runs if r not in stated]  # results beside their samples: checked
    else:
        stated = []
    kinds = {r.holds for r in runs}
    if len(kinds) > 1:
        detail = ", ".join(f"{r.path.name}: {r.format}" for r in runs)
        raise DataError(files[0], f"files of one format; got {detail}")
    kind = kinds.pop()
    if kind == "models":
        return _models_chart(runs, files, benchmarks, columns, title, problems)
    # a chart is titled with the run's name where its log names it (a W&B run folder is
    # `run-20251130_144822-<id>`, an MLflow store `mlruns`), else with the file's or folder's
    run = runs[0].run if len(runs) == 1 else None
    model = shared(r.model for r in runs)  # one model every input names, or none
    named = inputs.display_name(files[0], run, model)  # several inputs: the first names the run
    if kind == "scores":
        return _scores_chart(runs, files, benchmarks, columns, title, named)
    where = files[0] if len(files) == 1 else files[0].parent
    with reading(where):
        return _samples_chart(runs, files, where, benchmarks, columns, title, stated)


def _models_chart(runs, files, benchmarks, columns, title, problems) -> tuple[object, pl.DataFrame]:
    """Tables of models: accuracy against size, or where a size is unknown a leaderboard."""
    models = pl.concat([r.models for r in runs], how="diagonal_relaxed")
    named = inputs.display_name(files[0] if len(files) == 1 else files[0].parent)
    if models["size_b"].null_count():  # no size for some: a leaderboard, ranked
        from helpers.runs.leaderboard import leaderboard

        table, notes = leaderboard(models, problems)
        drawn = table.filter(pl.col("rank") <= drawable.MAX_GROUPS)
        if benchmarks is None:
            shown = drawable.panels(drawn, "benchmark")
            drawn, notes = shown.frame, notes + shown.notes
        chart = later(
            "leaderboard",
            drawn,
            title=title or f"{named}: models ranked per benchmark",
            notes=notes,
            columns=min(columns, 3),
        )
        return chart, table
    table = summarise.size_table(models)
    count = models["model"].n_unique()
    # not every model has every benchmark: "up to" that many in a panel
    every = models.group_by("benchmark").agg(pl.col("model").n_unique())["model"].min() == count
    shown = drawable.panels(table, "benchmark")
    models = drawable.thin(
        shown.frame, "size_b", ("benchmark", "kind"), what="model sizes", per="panel"
    )
    chart = later(
        "accuracy_vs_size",
        models.frame,
        title=title
        or f"{named}: accuracy of {'' if every else 'up to '}{count:,} models against their size",
        columns=columns,
        notes=shown.notes + models.notes,
    )
    return chart, table


def _one_length(table: pl.DataFrame) -> bool:
    """Whether every benchmark of a score log (its training panels and mean apart) carries
    one response length a step (the run's, from its training log), rather than its own."""
    name = pl.col("benchmark")
    own = name.str.ends_with(score_logs.TRAINING) | name.str.starts_with(score_logs.MEAN_OF)
    rows = table.filter(pl.col("tokens").is_not_null() & ~own)
    if rows["benchmark"].n_unique() < 2:
        return False
    return rows.group_by("step").agg(pl.col("tokens").n_unique())["tokens"].max() == 1


def _scores_chart(runs, files, benchmarks, columns, title, named) -> tuple[object, pl.DataFrame]:
    """Score logs: a point per benchmark for one evaluation, else the grid over steps."""
    scores, order = score_logs.score_table(runs, benchmarks)
    table = score_logs.by_benchmark(scores)
    training = all(r.kind == "training score" for r in runs if r.scores is not None)
    one = table["step"].is_null().all() or (table["step"].n_unique() == 1 and not training)
    if one:  # one evaluation: a point per benchmark, their mean (if drawn) last and apart
        table = table.rename({"score": "accuracy"})
        drawn = table.with_columns(
            average=pl.col("benchmark").str.starts_with(score_logs.MEAN_OF)
        ).sort("average", maintain_order=True)
        step = table["step"][0]
        named = named or (files[0].stem if len(files) == 1 else files[0].parent.name)
        at = "" if step is None else f", step {step}"
        chart = _by_group(
            drawn,
            "benchmark",
            title or f"Accuracy by benchmark ({named}{at})",
            notes=[
                _band_note(table)
                .replace("bands:", "lines:")
                .replace("band:", "line:")
                .replace("no band", "no line"),
                *(f"dark diamond, {n}" for n in score_logs.mean_note(table, "line")),
            ],
        )
        return chart, table
    # a column mapped as the score (--map accuracy=...) may be any 0-1 measure: it is named
    # by its panel, drawn as logged (not in percent) and not called accuracy
    mapped = all(r.mapped for r in runs if r.scores is not None)
    what = "training score (on training batches)" if training else "accuracy"
    what = "score" if mapped and not training else what
    has_tokens = "tokens" in table.columns
    band = (
        "training scores: no band (the log does not say how many prompts a batch held)"
        if training
        else "no bands: the log does not say how many answers each value averages"
        if mapped and table["problems"].is_null().all()
        else _band_note(table)
    )
    run_wide = has_tokens and _one_length(table)
    trained = table["benchmark"].str.ends_with(score_logs.TRAINING).any()
    subtitle = [band] + (
        [
            "response length, under the first panel: the run's mean over its training "
            "batches, one for every benchmark (matched to the nearest earlier step)"
            + ("; under each training panel, that source's own" if trained else "")
            if run_wide
            else "response length matched to the nearest earlier step"
        ]
        if has_tokens
        else []
    )
    subtitle += [f"dark, {n}" for n in score_logs.mean_note(table, "band")]
    if not training and trained:
        subtitle.append(
            "panels '(training)': training scores, on training batches (no band: the log "
            "does not say how many prompts a batch held)"
        )
    chart = _grid(
        lambda: score_logs.drawn_curves(scores),
        order,
        subtitle,
        title=title
        or f"{named or files[0].stem}: {what}"
        f"{' and response length' if has_tokens else ''} by step",
        x_title="Step",
        columns=columns,
        y_title="Training score" if training else "Score" if mapped else "Accuracy",
        one_length=run_wide,
        own_lengths=[b for b in order or () if b.endswith(score_logs.TRAINING)] if run_wide else (),
    )
    return chart, table


def _samples_chart(
    runs, files, where, benchmarks, columns, title, stated=()
) -> tuple[object, pl.DataFrame]:
    """The chart for per-sample logs: over steps, or (one evaluation) by level or benchmark;
    `stated` results files beside them are checked against them, in the subtitle."""
    lf = _samples(runs, benchmarks)
    said = checked(lf, stated) if stated else []
    nothing = _nothing(files[0], benchmarks)
    if rewards.has_rewards(lf):  # partial credit, a reward model's score: by mean reward
        return _rewards_chart(lf, nothing, where, benchmarks, columns, title)
    # a tidy table has a step on every row; evaluation outputs may have none (one evaluation)
    steps = 1
    if any(r.format != "samples" for r in runs):
        rows, steps = lf.select(pl.len(), pl.col("step").drop_nulls().n_unique()).collect().row(0)
        if rows == 0:
            raise nothing
    if steps == 0:  # one evaluation: accuracy by difficulty level, or by benchmark or file
        if len(runs) == 1 and "level" in runs[0].samples.collect_schema():
            samples, group = runs[0].samples.collect(), "level"
        else:
            samples = pl.concat(
                [r.samples.collect().with_columns(file=pl.lit(r.path.stem)) for r in runs],
                how="diagonal_relaxed",
            )
            group = "benchmark" if samples["benchmark"].n_unique() > 1 else "file"
        _each_sample_once(samples, where)
        table = summarise.accuracy_table(samples, [group])
        overall = summarise.accuracy_table(samples)
        # one file of one benchmark: its point is named by the benchmark, not by the file
        # (the table keeps its column: `file`)
        drawn, by = table, group
        if group == "file" and len(runs) == 1:
            drawn, by = summarise.accuracy_table(samples, ["benchmark"]), "benchmark"
        one = drawn.height == 1 and by == "benchmark"  # not "by benchmark" of one of them
        what = f"Accuracy on {drawn['benchmark'][0]}" if one else f"Accuracy by {by}"
        chart = _by_group(
            drawn,
            by,
            title or f"{what} ({inputs.display_name(where)})",
            overall=overall if drawn.height > 1 else None,  # one group: its point says it
            notes=[
                "lines: Wilson 95% intervals over problems",
                *_answers_note(samples),
                *_voted_note(overall),
                *said,
            ],
        )
        every = pl.concat(
            [
                table.with_columns(pl.col(group).cast(pl.String)),
                overall.with_columns(pl.lit("all").alias(group)),
            ],
            how="diagonal_relaxed",
        )
        return chart, every
    summary = summarise.aggregate_samples(lf, where=where)
    named = inputs.display_name(where)
    training = all(r.kind == "training score" for r in runs)
    return _steps_chart(
        summary, nothing, benchmarks, columns, title, said, named=named, training=training
    )


def _each_sample_once(samples: pl.DataFrame, where) -> None:
    """Refuse a (benchmark, problem, sample id) given twice: it would be counted twice."""
    key = [c for c in ("benchmark", "problem_id", "sample_id") if c in samples.columns]
    twice = samples.filter(pl.struct(key).is_duplicated())
    if twice.height:
        row = twice.row(0, named=True)
        detail = f"has sample id {row['sample_id']} more than once"
        raise summarise.given_twice(where, row["problem_id"], detail, row.get("benchmark"))


def _nothing(where, benchmarks) -> DataError:
    """The error for per-sample logs with no row left to chart."""
    left = f" for the benchmarks {list(benchmarks)}" if benchmarks else ""
    return DataError(where, f"per-sample rows to chart{left}; there are none")


def _steps_chart(
    summary, nothing, benchmarks, columns, title, notes=(), *, named: str = "", training=False
) -> tuple[object, pl.DataFrame]:
    """The training grid of a per-sample log's per-step summary; `notes` join the subtitle.
    Its title names the run (`named`: its file or folder) and says response length only
    where the log holds it (a harness that stores no token counts draws none); `training`:
    the answers were sampled in training (a trainer's rollouts), not in an evaluation."""
    if summary.height == 0:
        raise nothing
    curves = summarise.sample_curves(summary)
    lengths = curves.filter(pl.col("metric") == "token length")["value"].is_not_null().any()
    what = "training accuracy" if training else "accuracy"
    what += " and response length" if lengths else ""
    if training:
        notes = [
            "training accuracy: the share of the answers the trainer sampled at each step "
            "that its reward judged correct (not an evaluation)",
            *notes,
        ]
    sizes = summary.group_by("benchmark", maintain_order=True).agg(pl.col("problems").max())
    band = (
        f"bands: Wilson 95% intervals over each benchmark's problems: {_counted(sizes, 6)}"
        if sizes.height > 1
        else f"bands: Wilson 95% intervals over {sizes['benchmark'][0]}'s "
        f"{sizes['problems'][0]:,} problems"
    )
    chart = _grid(
        curves,
        list(benchmarks) if benchmarks else None,
        [band, *notes],
        title=title or (f"{named}: {what} by step" if named else f"{what.capitalize()} by step"),
        x_title="Step",
        columns=columns,
        y_title="Training accuracy" if training else "Accuracy",
    )
    return chart, summary


def _rewards_chart(lf, nothing, where, benchmarks, columns, title) -> tuple[object, pl.DataFrame]:
    """Mean reward (never called accuracy) and response length by step, with the problem
    bootstrap's band, from a per-sample log whose rewards are not all 0 or 1."""
    summary = rewards.reward_summary(lf, where=where)
    if summary.height == 0:
        raise nothing
    if summary["step"].is_null().all():  # one evaluation: mean reward by benchmark
        chart = _by_group(
            summary.drop("step"),
            "benchmark",
            title or f"Mean reward by benchmark ({inputs.display_name(where)})",
            notes=[f"lines: 95% problem bootstrap ({stats.BOOTSTRAP_RESAMPLES:,} resamples)"],
            value="mean_reward",
            value_title="Mean reward",
        )
        return chart, summary
    chart = _grid(
        rewards.reward_curves(summary),
        list(benchmarks) if benchmarks else None,
        rewards.REWARD_BAND,
        title=title or "Mean reward and response length by step",
        x_title="Step",
        columns=columns,
        y_title="Mean reward",
    )
    return chart, summary


def _spark_chart(files, benchmarks, columns, title) -> tuple[object, pl.DataFrame]:
    """The same per-sample aggregation on Spark: tidy per-sample Parquet files or folders (the
    inputs a cluster holds), read by Spark; only the per-step summary comes back."""
    frame = spark.samples(files)
    if benchmarks:
        frame = frame.filter(frame["benchmark"].isin(list(benchmarks)))
    summary = summarise.aggregate_samples(frame, engine="spark", where=files[0])
    nothing = _nothing(files[0], benchmarks)
    named = inputs.display_name(Path(files[0]))
    return _steps_chart(summary, nothing, benchmarks, columns, title, named=named)
