"""Per-step score logs (a validation export, a training export beside it, several result files
of one evaluation) as the curves the training grid draws: accuracy with Wilson bands where a
benchmark's size is known, response length by the nearest earlier step, the benchmarks' mean a
paper reports, and a training export's scores in panels of their own."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

import polars as pl

from helpers.errors import DataError
from helpers.runs.readers import Loaded
from helpers.runs.summarise import with_wilson
from helpers.tidy_curves import curves


def join_nearest_earlier(
    left: pl.DataFrame, right: pl.DataFrame, on: str = "step", value: str = "value", by=None
) -> pl.DataFrame:
    """Attach to each row of `left` the `right` value logged at the nearest step at or before it
    (validation and training metrics are logged at different steps); `by` matches within
    groups (e.g. per benchmark). The rows come out sorted by `on`."""
    cols = [on, value, *([by] if by else [])]
    # sorted by step within each group; polars cannot check that itself when `by` is given
    return left.sort(on).join_asof(
        right.select(cols).sort(on), on=on, strategy="backward", by=by, check_sortedness=False
    )


def _aligned(left: pl.DataFrame, right: pl.DataFrame, on: str, by: str) -> bool:
    """Whether `right` holds, row for row, the same (`by`, `on`) pairs as `left`, none missing
    and none twice (each group's rows together, its steps rising), as one log's scores and
    lengths do: the nearest earlier step of each row is then its own row (the join of a
    million rows searched for them in a fifth of a second, and sorted them by step)."""
    if left.height != right.height or not left.height:
        return False
    if any(
        left[c].null_count() or not left[c].equals(right[c], check_dtypes=True) for c in (by, on)
    ):
        return False
    return _in_blocks(left, by, on) is not None


def _in_blocks(frame: pl.DataFrame, by: str, on: str) -> tuple[list[int], list] | None:
    """Where each `by` value's rows begin, and those values, where each value's rows lie
    together (one block) with `on` rising through them, as a log's long table holds them;
    None where the rows do not lie so."""
    new = (pl.col(by) != pl.col(by).shift()).fill_null(True)
    found = frame.select(new.alias("new"), rising=(new | (pl.col(on).diff() > 0)).all())
    if not found["rising"][0]:
        return None
    starts = found["new"].arg_true()
    heads = frame[by].gather(starts).to_list()
    if len(set(heads)) < len(heads):  # a value's rows in two places
        return None
    return starts.to_list(), heads


def with_lengths(scores: pl.DataFrame, tokens: pl.DataFrame) -> pl.DataFrame:
    """Scores with the response length logged at the nearest earlier step: per benchmark where
    the log has the scores' benchmarks, else its length over every benchmark. The rows come
    in no set order (`by_benchmark` sorts them)."""
    if "tokens" not in scores.columns and _aligned(scores, tokens, "step", "benchmark"):
        return scores.with_columns(tokens["tokens"])  # each row's own step: nothing to search
    own = tokens.filter(pl.col("benchmark").is_in(scores["benchmark"].unique().to_list()))
    if own.height:
        return join_nearest_earlier(scores, own, value="tokens", by="benchmark")
    overall = tokens.filter(pl.col("benchmark").is_null())
    if overall.height:
        return join_nearest_earlier(scores, overall.select("step", "tokens"), value="tokens")
    return scores


def score_curves(
    runs: Sequence[Loaded], benchmarks: Sequence[str] | None = None
) -> tuple[pl.DataFrame, list[str], pl.DataFrame]:
    """Curves for `charts.training_dynamics` from per-step score logs, the benchmarks in the log's
    order (or in `benchmarks` order, keeping only those), and the table behind the curves
    (`score_table`, sorted by benchmark and step)."""
    scores, order = score_table(runs, benchmarks)
    return drawn_curves(scores), order, by_benchmark(scores)


def by_benchmark(scores: pl.DataFrame) -> pl.DataFrame:
    """`scores` sorted by benchmark, then step. A long log's million rows sorted on the text
    column took half a second: here, where each benchmark's rows lie together with their
    steps rising (as a log's long table holds them), its block of rows is moved whole; else
    the benchmarks' few names are ranked once and the rows sorted on one integer; where a
    name or step is missing, or a benchmark holds a step twice (an order the sort leaves
    open), polars sorts them as it did."""
    import numpy as np

    name, step = scores["benchmark"], scores["step"]
    if not scores.height or name.null_count() or step.null_count():
        return scores.sort("benchmark", "step")
    blocks = _blocks(scores)
    if blocks is not None:
        return blocks
    names = sorted(name.unique().to_list())
    rank = name.replace_strict(names, range(len(names)), return_dtype=pl.Int64).to_numpy()
    steps = step.to_numpy().astype(np.int64)
    low, span = int(steps.min()), int(steps.max()) - int(steps.min()) + 1
    if span * len(names) >= 2**62:
        return scores.sort("benchmark", "step")
    key = rank * span + (steps - low)
    order = np.argsort(key, kind="stable")
    if (np.diff(key[order]) == 0).any():
        return scores.sort("benchmark", "step")
    return scores.select(pl.all().gather(pl.Series(order, dtype=pl.UInt32)))


def _blocks(scores: pl.DataFrame) -> pl.DataFrame | None:
    """`by_benchmark`'s table from its blocks of rows (one per benchmark, each benchmark's
    steps rising: `_in_blocks`), put in name order; None where the rows do not lie so."""
    blocks = _in_blocks(scores, "benchmark", "step")
    if blocks is None:
        return None
    starts, heads = blocks
    bounds = [*starts, scores.height]
    # Python orders text by code point, as polars by UTF-8 bytes: the same order
    named = sorted(range(len(heads)), key=heads.__getitem__)
    parts = [scores.slice(bounds[i], bounds[i + 1] - bounds[i]) for i in named]
    return parts[0] if len(parts) == 1 else pl.concat(parts, rechunk=False)


def drawn_curves(scores: pl.DataFrame) -> pl.DataFrame:
    """The curves the training grid draws from `score_table`'s scores (a chart's only: a
    `.csv` output writes the table and never pays for these)."""
    return curves(
        scores,
        iteration="step",
        accuracy="score",
        tokens="tokens" if "tokens" in scores.columns else None,
        lo="lo",
        hi="hi",
    )


def score_table(
    runs: Sequence[Loaded], benchmarks: Sequence[str] | None = None
) -> tuple[pl.DataFrame, list[str]]:
    """The scores behind a score log's curves (unsorted) and the benchmarks in the log's
    order (or in `benchmarks` order, keeping only those).

    Accuracy comes from the one log with validation scores (or, failing that, training
    scores); its Wilson 95% band counts the benchmark's problems where the size is known.
    Response length comes from the same log or another one given with it (a training
    export), per benchmark where logged under the same names, else the overall mean, matched
    to each score by the nearest earlier step."""
    scored = [r for r in runs if r.scores is not None]
    if not scored:
        raise DataError(runs[0].path, "accuracy or score columns in at least one log")
    validation = [r for r in scored if r.kind == "validation"] or scored
    main = validation[0]
    if len(validation) > 1:  # files of one evaluation (lighteval writes one per task) are one
        merged = pl.concat(
            [r.scores.with_columns(file=pl.lit(i)) for i, r in enumerate(validation)],
            how="diagonal_relaxed",
        )
        twice = merged.filter(pl.struct("benchmark", "step").is_duplicated())
        if twice.height:  # a benchmark at one step in two logs: two runs, not one
            raise DataError(
                validation[twice["file"].max()].path,
                "one log with validation scores, or several covering different benchmarks (to "
                "set several runs side by side, use 'python -m helpers compare')",
                got=f"{twice['benchmark'][0]} again",
            )
        order = [
            b
            for r in validation
            for b in r.order or r.scores["benchmark"].unique(maintain_order=True)
        ]
        main = replace(main, scores=merged.drop("file"), order=list(dict.fromkeys(order)))
    scores = main.scores.drop_nulls("score")
    order = main.order or scores["benchmark"].unique(maintain_order=True).to_list()
    picked = [b for b in benchmarks or () if not b.endswith(TRAINING)]
    if benchmarks:
        unknown = [b for b in picked if b not in set(scores["benchmark"])]
        if unknown:
            raise DataError(main.path, f"benchmarks among {order}", column=unknown[0])
        scores, order = scores.filter(pl.col("benchmark").is_in(picked)), picked
    lengths = [
        r.tokens for r in ([main] + [r for r in runs if r is not main]) if r.tokens is not None
    ]
    if lengths:
        scores = with_lengths(scores, lengths[0])
    scores = with_wilson(scores, "score")
    if main.kind == "validation" and not main.mapped:  # mapped: reward parts, perhaps
        # an aggregate the log holds (its `total`) is drawn as logged, never averaged again
        average = mean_of_benchmarks(scores, [b for b in order if not is_aggregate(b)])
        if average.height:
            scores = pl.concat([scores, average], how="diagonal_relaxed")
            order = [*order, average["benchmark"][0]]
    if main.kind == "validation":  # a training export beside: its scores in panels of their own
        for run in (r for r in scored if r.kind == "training score"):
            own = training_panels(run, benchmarks)
            scores = pl.concat([scores, own], how="diagonal_relaxed")
            order += own["benchmark"].unique(maintain_order=True).to_list()
    return scores, order


MEAN_OF = "mean of "  # the name of the benchmarks' mean panel: this, then "N benchmarks"
# names a log gives the aggregate of its benchmarks (verl's `val-core/total@...`, lighteval's
# `all`, harnesses' `overall`/`avg`): averaged with its parts it would count them twice
AGGREGATES = {"total", "all", "overall", "avg", "average", "mean", "macro", "micro", "aggregate"}


def is_aggregate(benchmark: str) -> bool:
    """Whether a benchmark's name is one a log gives the aggregate of the others ('total',
    'all', 'overall', 'avg' and the like, whatever follows an '@' or '_' of settings)."""
    name = benchmark.lower().split("@")[0].strip()
    return name in AGGREGATES or name.split("_")[0] in AGGREGATES


TRAINING = " (training)"  # the panel of a training score: its data source's name, then this


def training_panels(run: Loaded, benchmarks: Sequence[str] | None = None) -> pl.DataFrame:
    """A training export's scores (on training batches, per data source) as rows of their own
    panels, "<source> (training)", with its own response length (per source where logged,
    else overall) by the nearest earlier step; no interval (a batch's size is not logged).
    `benchmarks` keeps only the panels it names ("<source> (training)")."""
    scores = run.scores.drop_nulls("score")
    if benchmarks:
        wanted = [b.removesuffix(TRAINING) for b in benchmarks if b.endswith(TRAINING)]
        logged = scores["benchmark"].unique(maintain_order=True).to_list()
        unknown = [b for b in wanted if b not in logged]
        if unknown:
            raise DataError(
                run.path,
                f"training panels among {[b + TRAINING for b in logged][:6]}",
                column=unknown[0] + TRAINING,
            )
        scores = scores.filter(pl.col("benchmark").is_in(wanted))
    if run.tokens is not None:
        scores = with_lengths(scores, run.tokens)
    order = run.order or scores["benchmark"].unique(maintain_order=True).to_list()
    rank = {b: i for i, b in enumerate(order)}
    return (
        scores.with_columns(
            _rank=pl.col("benchmark").replace_strict(
                rank, default=len(rank), return_dtype=pl.Int64
            ),
            benchmark=pl.col("benchmark") + TRAINING,
            problems=pl.lit(None, pl.Int64),
            lo=pl.lit(None, pl.Float64),
            hi=pl.lit(None, pl.Float64),
        )
        .sort("_rank", "step", maintain_order=True)
        .drop("_rank")
    )


def mean_of_benchmarks(scores: pl.DataFrame, order: Sequence[str]) -> pl.DataFrame:
    """The average a paper reports beside its benchmarks: the unweighted mean score over every
    benchmark in `order`, at each step where all of them were logged, as rows named "mean of
    N benchmarks" whose `averages` column names them. Its 95% interval is the normal one from
    each benchmark's binomial variance (independent benchmarks), where every size is known,
    that variance taken as Agresti and Coull's (two successes and two failures added, at
    95%), so a benchmark at 0% or 100% still has one. Fewer than two benchmarks: no rows."""
    if len(order) < 2:
        return scores.clear()
    b, z = len(order), 1.959963984540054
    n = pl.col("problems") + z * z
    p = (pl.col("score") * pl.col("problems") + z * z / 2) / n
    half = z * (p * (1 - p) / n).sum().sqrt() / b
    known = pl.col("problems").is_not_null().all()
    aggs = [
        pl.col("benchmark").n_unique().alias("_logged"),
        pl.col("score").mean(),
        pl.when(known).then(pl.col("score").mean() - half).alias("lo"),
        pl.when(known).then(pl.col("score").mean() + half).alias("hi"),
    ]
    if "tokens" in scores.columns:
        aggs.append(pl.col("tokens").mean())
    used = [c for c in ("step", "benchmark", "score", "problems", "tokens") if c in scores.columns]
    return (
        scores.filter(pl.col("benchmark").is_in(list(order)))
        .select(used)
        # each step's rows together, in their own order: polars sums a group's rows in another
        # order where the steps are not sorted (the last bit of the mean would hang on the
        # table's layout)
        .sort("step", maintain_order=True)
        .group_by("step", maintain_order=True)
        .agg(aggs)
        .filter(pl.col("_logged") == b)
        .drop("_logged")
        .with_columns(
            pl.col("lo").clip(0, 1),
            pl.col("hi").clip(0, 1),
            benchmark=pl.lit(f"{MEAN_OF}{b} benchmarks"),
            averages=pl.lit(", ".join(order)),
        )
        .sort("step")
    )


def mean_note(table: pl.DataFrame, mark: str) -> list[str]:
    """How the benchmarks' mean (`mean_of_benchmarks`) was made, for a subtitle, where the
    table holds one; `mark` names its interval ("band", "line")."""
    if "averages" not in table.columns or table["averages"].is_null().all():
        return []
    mean = table.drop_nulls("averages")
    how = f"; {mark}: normal, from each benchmark's binomial variance (Agresti-Coull)"
    steps = ", at steps where all were logged" if table["step"].n_unique() > 1 else ""
    return [
        f"{mean['benchmark'][0]}: their unweighted mean{steps}"
        + (how if mean["lo"].is_not_null().any() else "")
    ]
