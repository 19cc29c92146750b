"""From what the readers return to the numbers the charts show: accuracy with intervals that
count problems, unbiased pass@k, response-length percentiles, curves over steps.

Large per-sample logs stay lazy (polars scan + streaming engine) and are aggregated before
anything reaches a chart.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence

import polars as pl

from . import analysis, stats
from .errors import DataError
from .readers import Loaded

TOKEN_BIN = 16  # response-length percentiles are exact to this many tokens (histogram based)


def progress(total: int, what: str):
    """A progress bar (rows read and rate) on a terminal or in a notebook, shown once the work
    has taken a second; nothing on a log no one watches (CI, a redirected stderr)."""
    from tqdm import tqdm

    watched = sys.stderr.isatty() or "ipykernel" in sys.modules
    return tqdm(
        total=total,
        desc=what,
        unit=" rows",
        unit_scale=True,
        delay=1.0,
        leave=False,
        disable=not watched,
        file=sys.stderr,
    )


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
        passk = per_problem.with_columns(pass_k=pass_at_k_expr(pl.col("n"), pl.col("c"), k))
        pk = (
            passk.group_by(list(by), maintain_order=True).agg(pl.col("pass_k").mean())
            if by
            else passk.select(pl.col("pass_k").mean())
        )
        table = table.join(pk, on=list(by)) if by else table.with_columns(pk["pass_k"])
        table = table.rename({"pass_k": f"pass@{k}"})
    return table.sort(list(by)) if by else table


def pass_at_k_expr(n: pl.Expr, c: pl.Expr, k: int) -> pl.Expr:
    """Unbiased pass@k, 1 - C(n-c, k) / C(n, k), as a product (no large binomials)."""
    # prod_{i=0}^{k-1} (n - c - i) / (n - i); zero once n - c < k
    term = pl.lit(1.0)
    for i in range(k):
        term = term * ((n - c - i).clip(lower_bound=0) / (n - i))
    return 1 - term


# ---- per-sample logs at any size ----


def aggregate_samples(
    samples: pl.LazyFrame,
    *,
    percentiles: Sequence[float] = (0.5, 0.9),
    bin_tokens: int = TOKEN_BIN,
    rows_per_pass: int = 1_000_000,
) -> pl.DataFrame:
    """Per step and benchmark: problems, samples, accuracy (mean over problems of the share of
    correct samples) with a Wilson 95% interval counting problems, unbiased pass@k in `pass_k`
    (k in column `k`: the fewest samples any problem has in that step and benchmark; null where
    k is 1), and mean and percentile response length.

    Built for logs larger than memory. Steps are taken in consecutive ranges of about
    `rows_per_pass` rows (groups never span steps), so memory is bounded by one range's
    per-problem table, whatever the log's size; logs written in step order (as trainers write
    them) let each pass read only its own Parquet row groups. Each pass streams the per-problem
    group-by into the per-benchmark one, and a histogram of response lengths in
    `bin_tokens`-token bins from which percentiles are read (each reported as its bin's upper
    edge, so exact to `bin_tokens`); an exact per-group quantile would hold every length.
    """
    keys = ["step", "benchmark"]
    counts = samples.group_by("step").agg(rows=pl.len()).collect(engine="streaming").sort("step")
    ranges, start, filled = [], None, 0
    for step, rows in counts.iter_rows():
        if start is None:
            start = step
        filled += rows
        if filled >= rows_per_pass:
            ranges.append((start, step))
            start, filled = None, 0
    if start is not None:
        ranges.append((start, counts["step"][-1]))
    passes = []
    with progress(int(counts["rows"].sum()), "aggregating") as bar:
        for lo, hi in ranges:
            part = samples.filter(pl.col("step").is_between(lo, hi))
            passes.append(_aggregate_pass(part, keys, bin_tokens, percentiles))
            bar.update(int(counts.filter(pl.col("step").is_between(lo, hi))["rows"].sum()))
    summary = pl.concat(passes)
    summary = summary.with_columns(
        pass_k=pl.when(pl.col("k") > 1).then(pl.col("any_correct")).otherwise(None)
    )
    uneven = summary.filter(pl.col("k") > 1, pl.col("k") != pl.col("k_max"))
    if uneven.height:
        per_problem = samples.group_by([*keys, "problem_id"]).agg(
            n=pl.len(), c=pl.col("correct").sum().cast(pl.Int64)
        )
        summary = _pass_at_k_uneven(per_problem, summary, uneven, keys)
    return (
        with_wilson(summary.with_columns(pl.col("benchmark").cast(pl.String)))
        .drop("k_max", "any_correct")
        .sort(keys)
    )


def _aggregate_pass(
    samples: pl.LazyFrame, keys: list[str], bin_tokens: int, percentiles: Sequence[float]
) -> pl.DataFrame:
    """One streaming pass over a range of steps: the per-benchmark summary, with response-length
    percentiles read from a histogram."""
    per_problem = samples.group_by([*keys, "problem_id"]).agg(
        n=pl.len(), c=pl.col("correct").sum().cast(pl.Int64), tokens=pl.col("response_tokens").sum()
    )
    summary_lf = per_problem.group_by(keys).agg(
        problems=pl.len(),
        samples=pl.col("n").sum(),
        k=pl.col("n").min(),
        k_max=pl.col("n").max(),
        accuracy=(pl.col("c") / pl.col("n")).mean(),
        # with k = n samples for every problem, unbiased pass@k is the share with any correct
        any_correct=(pl.col("c") > 0).mean(),
        mean_tokens=pl.col("tokens").sum() / pl.col("n").sum(),
    )
    hist_lf = samples.group_by([*keys, (pl.col("response_tokens") // bin_tokens).alias("bin")]).agg(
        count=pl.len()
    )
    summary, hist = pl.collect_all([summary_lf, hist_lf], engine="streaming")
    hist = hist.sort([*keys, "bin"]).with_columns(
        cum=pl.col("count").cum_sum().over(keys), total=pl.col("count").sum().over(keys)
    )
    for q in percentiles:
        name = f"p{round(q * 100)}_tokens"
        first = (
            hist.filter(pl.col("cum") >= q * pl.col("total"))
            .group_by(keys)
            .agg(pl.col("bin").min())
            .select(*keys, ((pl.col("bin") + 1) * bin_tokens).alias(name))
        )
        summary = summary.join(first, on=keys, how="left")
    return summary


def _pass_at_k_uneven(
    per_problem: pl.LazyFrame, summary: pl.DataFrame, uneven: pl.DataFrame, keys: list[str]
) -> pl.DataFrame:
    """pass@k for groups whose problems have different sample counts (k = the fewest)."""
    ks = sorted(set(uneven["k"].to_list()))
    rows = per_problem.join(uneven.lazy().select(*keys, "k"), on=keys, how="semi").join(
        uneven.lazy().select(*keys, "k"), on=keys
    )
    value = pl.lit(None, pl.Float64)
    for kv in ks:
        value = (
            pl.when(pl.col("k") == kv)
            .then(pass_at_k_expr(pl.col("n"), pl.col("c"), kv))
            .otherwise(value)
        )
    fixed = rows.group_by(keys).agg(value.mean().alias("fixed")).collect(engine="streaming")
    return (
        summary.join(fixed, on=keys, how="left")
        .with_columns(pass_k=pl.coalesce("fixed", "pass_k"))
        .drop("fixed")
    )


def sample_curves(summary: pl.DataFrame) -> pl.DataFrame:
    """Curves for `charts.training_grid` from `aggregate_samples`."""
    return analysis.curves(
        summary, iteration="step", accuracy="accuracy", tokens="mean_tokens", lo="lo", hi="hi"
    )


# ---- per-step scores ---------------------------------------------------------------------------


def join_nearest_earlier(
    left: pl.DataFrame, right: pl.DataFrame, on: str = "step", value: str = "value", by=None
) -> pl.DataFrame:
    """Attach to each row of `left` the `right` value logged at the nearest step at or before it
    (validation and training metrics are logged at different steps); `by` matches within
    groups (e.g. per benchmark)."""
    cols = [on, value, *([by] if by else [])]
    # sorted by step within each group; polars cannot check that itself when `by` is given
    return left.sort(on).join_asof(
        right.select(cols).sort(on), on=on, strategy="backward", by=by, check_sortedness=False
    )


def score_curves(
    runs: Sequence[Loaded], benchmarks: Sequence[str] | None = None
) -> tuple[pl.DataFrame, list[str], pl.DataFrame]:
    """Curves for `charts.training_grid` from per-step score logs, the benchmarks in the log's
    order (or in `benchmarks` order, keeping only those), and the table behind the curves.

    Accuracy comes from the one log with validation scores (or, failing that, training
    scores); its Wilson 95% band counts the benchmark's problems where the size is known.
    Response length comes from the same log or another one given with it (a training
    export), per benchmark where logged under the same names, else the overall mean, matched
    to each score by the nearest earlier step."""
    scored = [r for r in runs if r.scores is not None]
    if not scored:
        raise DataError(runs[0].path, "accuracy or score columns in at least one log")
    validation = [r for r in scored if r.kind == "validation"] or scored
    if len(validation) > 1:
        raise DataError(
            validation[1].path,
            "one log with validation scores (to set several runs side by side, use "
            "'python -m helpers compare')",
        )
    main = validation[0]
    scores = main.scores.drop_nulls("score")
    order = main.order or scores["benchmark"].unique(maintain_order=True).to_list()
    if benchmarks:
        unknown = [b for b in benchmarks if b not in set(scores["benchmark"])]
        if unknown:
            raise DataError(main.path, f"benchmarks among {order}", column=unknown[0])
        scores, order = scores.filter(pl.col("benchmark").is_in(list(benchmarks))), list(benchmarks)
    lengths = [
        r.tokens for r in ([main] + [r for r in runs if r is not main]) if r.tokens is not None
    ]
    if lengths:
        tokens = lengths[0]
        own = tokens.filter(pl.col("benchmark").is_in(scores["benchmark"].unique().to_list()))
        if own.height:
            scores = join_nearest_earlier(scores, own, value="tokens", by="benchmark")
        else:
            overall = tokens.filter(pl.col("benchmark").is_null())
            if overall.height:
                scores = join_nearest_earlier(
                    scores, overall.select("step", "tokens"), value="tokens"
                )
    lo, hi = stats.wilson_exprs(pl.col("score"), pl.col("problems").cast(pl.Float64))
    scores = scores.with_columns(lo=lo, hi=hi)
    curves = analysis.curves(
        scores,
        iteration="step",
        accuracy="score",
        tokens="tokens" if "tokens" in scores.columns else None,
        lo="lo",
        hi="hi",
    )
    return curves, order, scores.sort("benchmark", "step")
