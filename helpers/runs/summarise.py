"""From what the readers return to the numbers the charts show: accuracy with intervals that
count problems, unbiased pass@k, response-length percentiles, curves over steps.

Large per-sample logs stay lazy (polars scan + streaming engine) and are aggregated before
anything reaches a chart.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from pathlib import Path

import polars as pl

from helpers import stats
from helpers.errors import DataError
from helpers.runs import engines, inputs, query, spark
from helpers.runs.query import TOKEN_BIN
from helpers.runs.readers import Loaded, load
from helpers.runs.readers._common import reading
from helpers.tidy_curves import curves


def progress(total: int, what: str):
    """A progress bar (rows read and rate) on a terminal or in a notebook, shown once the work
    has taken a second; nothing on a log no one watches (CI, a redirected stderr)."""
    if not (sys.stderr.isatty() or "ipykernel" in sys.modules):
        return _Unwatched()  # no tqdm to import (a tenth of a small log's whole run)
    from tqdm import tqdm

    return tqdm(
        total=total,
        desc=what,
        unit=" rows",
        unit_scale=True,
        delay=1.0,
        leave=False,
        file=sys.stderr,
    )


class _Unwatched:
    """The progress bar no one watches: counts nothing, shows nothing."""

    disable = True  # as tqdm says of a bar it does not show

    def __enter__(self) -> _Unwatched:
        return self

    def __exit__(self, *_) -> None:
        pass

    def update(self, n: int = 1) -> None:
        pass


def with_wilson(
    table: pl.DataFrame, accuracy: str = "accuracy", n: str = "problems"
) -> pl.DataFrame:
    """Add Wilson 95% bounds `lo`, `hi` for an accuracy (fraction) measured on `n` problems."""
    lo, hi = stats.wilson_exprs(pl.col(accuracy), pl.col(n).cast(pl.Float64))
    return table.with_columns(lo=lo, hi=hi)


# ---- per-sample tables in memory ----


def accuracy_table(samples: pl.DataFrame, by: Sequence[str] = ()) -> pl.DataFrame:
    """Accuracy per group (and overall): problems, samples per problem, mean accuracy over
    problems, a Wilson 95% interval counting problems (samples of one problem are not
    independent), and unbiased pass@k for k = samples per problem where several exist."""
    per_problem = samples.group_by([*by, "problem_id"], maintain_order=True).agg(
        n=pl.len(), c=pl.col("correct").sum()
    )
    grouped = per_problem.group_by(list(by), maintain_order=True) if by else None
    aggs = [
        pl.len().alias("problems"),
        pl.col("n").min().alias("samples_per_problem"),
        (pl.col("c") / pl.col("n")).mean().alias("accuracy"),
    ]
    table = grouped.agg(aggs) if grouped is not None else per_problem.select(aggs)
    table = with_wilson(table)
    k = per_problem["n"].min()
    if k and k > 1:
        passk = per_problem.with_columns(pass_k=stats.pass_at_k_expr(pl.col("n"), pl.col("c"), k))
        pk = (
            passk.group_by(list(by), maintain_order=True).agg(pl.col("pass_k").mean())
            if by
            else passk.select(pl.col("pass_k").mean())
        )
        keep = {"how": "left", "nulls_equal": True, "maintain_order": "left"}  # a null level too
        table = table.join(pk, on=list(by), **keep) if by else table.with_columns(pk["pass_k"])
        table = table.rename({"pass_k": f"pass@{k}"})
        if "answer" in samples.columns and samples["answer"].is_not_null().any():
            votes = majority_votes(samples, by)
            table = table.join(votes, on=list(by), **keep) if by else table.with_columns(votes)
            table = table.rename(
                {"maj": f"maj@{k}", "maj_lo": f"maj@{k}_lo", "maj_hi": f"maj@{k}_hi"}
            )
    return table.sort(list(by)) if by else table


def majority_votes(samples: pl.DataFrame, by: Sequence[str] = ()) -> pl.DataFrame:
    """maj@k per group: the share of problems whose most frequent extracted answer is correct
    (a tie goes to the answer given first; a sample with no answer does not vote, and a
    problem with none is not answered right), with a Wilson 95% interval over the group's
    problems (`maj_lo`, `maj_hi`)."""
    keys = [*by, "problem_id"]
    voted = (
        samples.drop_nulls("answer")
        .group_by([*keys, "answer"], maintain_order=True)
        .agg(votes=pl.len(), first=pl.col("sample_id").min(), right=pl.col("correct").first())
        .sort([*keys, "votes", "first"], descending=[False] * len(keys) + [True, False])
        .group_by(keys, maintain_order=True)
        .first()
        .select(*keys, "right")
    )
    problems = samples.select(keys).unique(maintain_order=True)
    every = problems.join(voted, on=keys, how="left", nulls_equal=True).with_columns(
        pl.col("right").fill_null(False)
    )
    per = every.group_by(list(by), maintain_order=True) if by else None
    aggs = [pl.col("right").mean().alias("maj"), pl.len().alias("_n")]
    table = per.agg(aggs) if per is not None else every.select(aggs)
    lo, hi = stats.wilson_exprs(pl.col("maj"), pl.col("_n").cast(pl.Float64))
    return table.with_columns(maj_lo=lo, maj_hi=hi).drop("_n")


# ---- per-sample logs at any size ----


def aggregate_samples(
    samples,
    *,
    engine: str = "polars",
    percentiles: Sequence[float] = (0.5, 0.9),
    bin_tokens: int = TOKEN_BIN,
    rows_per_pass: int = query.ROWS_PER_PASS,
    where: object = "the per-sample log",
) -> pl.DataFrame:
    """Per step and benchmark: problems, samples, accuracy (mean over problems of the share of
    correct samples) with a Wilson 95% interval counting problems, unbiased pass@k in `pass_k`
    (k in column `k`: the fewest samples any problem has in that step and benchmark; null where
    k is 1), and mean and percentile response length (each percentile reported as the upper
    edge of its `bin_tokens`-token histogram bin, so exact to `bin_tokens`; an exact per-group
    quantile would hold every length in memory).

    `samples` is a polars LazyFrame (engine "polars": streamed in step ranges of at most
    `rows_per_pass` rows, so memory stays bounded whatever the log's size) or a Spark DataFrame
    (engine "spark"); the aggregation itself is written once, in `helpers.runs.query`. A sample
    id repeated within a problem is a DataError naming `where`.
    """
    summary = engines.aggregate(
        samples,
        engine=engine,
        percentiles=percentiles,
        bin_tokens=bin_tokens,
        rows_per_pass=rows_per_pass,
        progress=progress,
    )
    _each_sample_once(samples, summary, engine, where)
    pass_k = pl.when(pl.col("k") > 1).then(pl.coalesce("fixed", "any_correct"))
    columns = ["step", "benchmark", "problems", "samples", "k", "accuracy", "mean_tokens"]
    columns += [f"p{round(q * 100)}_tokens" for q in percentiles]
    return with_wilson(
        summary.with_columns(pass_k=pass_k.otherwise(None)).select(*columns, "pass_k")
    ).sort("step", "benchmark")


def _each_sample_once(samples, summary: pl.DataFrame, engine: str, where: object) -> None:
    """Refuse a sample id repeated within a problem (a row or a file given twice). The
    aggregation's own pass counts each problem's distinct ids; only where it found a repeat
    does a pass of its own find the first such problem, to name it."""
    if summary.filter(pl.col("repeated") > 0).height == 0:
        return
    if engine == "polars":
        frame = samples.with_columns(pl.col("benchmark").cast(pl.String))
    else:
        import narwhals as nw

        frame = nw.from_native(samples)
    each_sample_once(engines.collect(query.problem_counts(frame), where), where)


def each_sample_once(counts: pl.DataFrame, where: object) -> None:
    """Refuse a problem with fewer distinct sample ids than rows, in `engine.problem_counts`
    (the first by benchmark, step and problem)."""
    twice = counts.filter(pl.col("distinct") < pl.col("n"))
    if twice.height:
        row = twice.sort("benchmark", "step", "problem_id").row(0, named=True)
        raise given_twice(
            where,
            row["problem_id"],
            f"has {row['n']} rows for {row['distinct']} sample ids",
            row["benchmark"],
            row["step"],
        )


def given_twice(where, problem, detail: str, benchmark=None, step=None) -> DataError:
    """The one error for a sample counted twice (a row, or a file, given twice). It names no
    column: the log may call its problems doc_id, idx or id."""
    of = f" of {benchmark}" if benchmark is not None else ""
    at = f" at step {step}" if step is not None else ""
    return DataError(
        where,
        "each sample of a problem once per benchmark and step (the same rows, or two files "
        f"of one evaluation, given twice?); problem {problem!r}{of}{at} {detail}",
    )


def sample_curves(summary: pl.DataFrame) -> pl.DataFrame:
    """Curves for `charts.training_dynamics` from `aggregate_samples`."""
    return curves(
        summary, iteration="step", accuracy="accuracy", tokens="mean_tokens", lo="lo", hi="hi"
    )


def size_medians(scores: pl.DataFrame) -> pl.DataFrame:
    """Median accuracy per half-decade of model size (bins holding 3 or more models), placed at
    the bin's centre, per benchmark: the trend line of `charts.accuracy_vs_size`."""
    return (
        scores.filter(pl.col("size_b") > 0)
        .with_columns(bin=(pl.col("size_b").log10() * 2).floor())
        .group_by("benchmark", "bin")
        .agg(pl.col("accuracy").median(), models=pl.len())
        .filter(pl.col("models") >= 3)
        .select("benchmark", "accuracy", "models", size_b=10 ** ((pl.col("bin") + 0.5) / 2))
        .sort("benchmark", "size_b")
    )


def size_table(scores: pl.DataFrame) -> pl.DataFrame:
    """What `charts.accuracy_vs_size` draws: each model's accuracy (kind "model") and the median
    trend from `size_medians` (kind "median")."""
    return pl.concat(
        [
            scores.with_columns(kind=pl.lit("model")),
            size_medians(scores).with_columns(kind=pl.lit("median")),
        ],
        how="diagonal_relaxed",
    )


def problem_counts(
    paths: Sequence[Path | str],
    benchmarks,
    options: dict,
    *,
    engine: str = "polars",
    loaded: Sequence[Loaded | None] | None = None,
) -> list[tuple[pl.DataFrame | None, Loaded | None]]:
    """Per (benchmark, step, problem_id) of each run's log: `n` samples and `c` correct ones,
    counted by the engine (`query.problem_counts`; with Spark only the counts leave the
    cluster), each sample counted once, in the order of benchmark, step and problem id (as
    text, nulls last). With polars the logs are counted side by side, in one `collect_all`.
    For a log of scores only: no counts and the run as read (with Spark there is no such
    log). `loaded` holds the runs already read, by position (None: read the path)."""
    if engine == "spark":
        import narwhals as nw

        out = []
        for path in paths:
            frame = nw.from_native(spark.samples([str(path)]))
            if benchmarks:
                frame = frame.filter(nw.col("benchmark").is_in(list(benchmarks)))
            counts = engines.collect(query.problem_counts(frame), path)
            each_sample_once(counts, path)
            out.append((counts.sort(*_IN_ORDER, nulls_last=True), None))
        return out
    loaded = [
        given or load(inputs.local(path), **options)
        for path, given in zip(paths, loaded or [None] * len(paths), strict=True)
    ]
    asked = [(i, r.samples) for i, r in enumerate(loaded) if r.samples is not None]
    queries = []
    for _, lf in asked:
        if benchmarks:
            lf = lf.filter(pl.col("benchmark").cast(pl.String).is_in(list(benchmarks)))
        # grouped by the log's own benchmark type (a categorical groups faster than text)
        counts = query.problem_counts(lf).with_columns(pl.col("benchmark").cast(pl.String))
        queries.append(counts.sort(*_IN_ORDER, nulls_last=True))
    try:
        found = pl.collect_all(queries, engine="streaming")
    except (pl.exceptions.PolarsError, OSError):  # one at a time, to name the log that failed
        found = []
        for (i, _), q in zip(asked, queries, strict=True):
            with reading(paths[i]):
                found.append(q.collect(engine="streaming"))
    counted = {i: counts for (i, _), counts in zip(asked, found, strict=True)}
    for i, counts in counted.items():
        each_sample_once(counts, paths[i])
    return [(counted.get(i), run) for i, run in enumerate(loaded)]


# the order of `problem_counts`: problem ids as text, as `compare` pairs them
_IN_ORDER = ("benchmark", "step", pl.col("problem_id").cast(pl.String))


def interval_lines(table: pl.DataFrame) -> list[str]:
    """How wide a 95% interval is on each benchmark (or level, or file) of a summary table that
    `choose.chart_for` returned, at its median accuracy and size, one line each; or why there
    is none (no per-problem counts, or no benchmark size known).

    Parameters
    ----------
    table : polars.DataFrame
        A summary with problems and accuracy (or score) per benchmark (or level, or file),
        rows named "all" left out; or with mean_reward, problems, lo and hi per benchmark.

    Returns
    -------
    list of str
        One line per benchmark, in name order (bootstrap widths in the table's order); or one
        line saying why there is no interval.

    Examples
    --------
    >>> import polars as pl
    >>> table = pl.DataFrame(
    ...     {"benchmark": "MATH500", "step": [0, 10], "accuracy": [0.5, 0.6], "problems": 500}
    ... )
    >>> interval_lines(table)
    ['MATH500: 500 problems, accuracy ~55%, 95% interval +/-4.3 points']
    """
    if "mean_reward" in table.columns:  # rewards that are not 0/1: the bootstrap's widths
        widths = table.group_by("benchmark", maintain_order=True).agg(
            pl.col("problems").median(), ((pl.col("hi") - pl.col("lo")) / 2).median()
        )
        return [
            f"{b}: {int(n)} problems, 95% bootstrap interval of the mean reward +/-{w:.3f}"
            if w is not None
            else f"{b}: {int(n)} problems, too few for a bootstrap interval"
            for b, n, w in widths.iter_rows()
        ]
    value = "accuracy" if "accuracy" in table.columns else "score"
    group = next((c for c in ("benchmark", "level", "file") if c in table.columns), None)
    if "problems" not in table.columns or group is None:
        return ["this input has no per-problem counts, so no interval"]
    widths = (
        table.filter(pl.col(group).cast(pl.String) != "all", pl.col("problems").is_not_null())
        .group_by(group)
        .agg(pl.col("problems").median(), pl.col(value).median())
        .sort(group)
    )
    if widths.height == 0:
        return ["no benchmark size known for this input: give PROBLEMS for an interval"]
    lines = []
    for row in widths.iter_rows(named=True):
        n, p = int(row["problems"]), row[value]
        lo, hi = stats.wilson_interval(p * n, n)
        lines.append(
            f"{row[group]}: {n} problems, accuracy ~{p:.0%}, 95% interval +/-"
            f"{(hi - lo) / 2 * 100:.1f} points"
        )
    return lines
