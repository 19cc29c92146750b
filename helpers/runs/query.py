"""The per-sample aggregation, written once and run by polars (on this machine) or by Apache
Spark (on a cluster).

`summarize` states the aggregation once, in the expressions polars and narwhals share: polars
runs it on its own frames, and narwhals translates the same text for a Spark frame. Per
problem, samples and correct ones; per step and benchmark, problems, samples, accuracy (the mean
over problems of the share correct), the share of problems with any correct sample (unbiased
pass@k where every problem has k samples), and a histogram of response lengths from which mean
and percentiles are read. Only the small per-step table comes back to the driver.

The drivers differ only in how they key the groups and how they bound memory:
- polars: where problem ids are whole numbers and the benchmark column is categorical (as
  trainers' Parquet logs are), the keys are packed into one integer, which polars groups about
  twice as fast as three columns; steps are taken in ranges of at most `rows_per_pass` rows, so
  memory is bounded by one range's per-problem table whatever the log's size.
- Spark: the natural keys, one pass; Spark distributes and spills as it does for any query.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import polars as pl

from helpers import stats

if TYPE_CHECKING:  # narwhals loads only for a Spark frame: polars' frames take polars' own
    import narwhals as nw

    Frame = pl.LazyFrame | nw.LazyFrame

TOKEN_BIN = 16  # response-length percentiles are exact to this many tokens (histogram based)
ROWS_PER_PASS = 4_000_000  # at most this many rows per pass: ~0.45 GB peak on 20M rows here
SMALL_SUMMARY = 100_000  # per-problem rows below which the summary runs on the in-memory engine


def _ns(frame):
    """The expressions a frame takes: polars' own for a polars frame (nothing to translate,
    and narwhals not even imported), narwhals' for a Spark frame wrapped in narwhals. The
    query below is the same text for both."""
    if isinstance(frame, (pl.LazyFrame, pl.DataFrame)):
        return pl
    import narwhals

    return narwhals


# ---- the aggregation, once ----------------------------------------------------------------------


@dataclass(frozen=True)
class Keys:
    """How a log's rows are grouped. `problem` keys name a problem, `cell` keys a histogram cell
    (a group and a length bin); `from_problem` and `from_cell` derive the group keys (and
    `bin`) from them where they are not among them (packed keys)."""

    group: tuple[str, ...] = ("step", "benchmark")
    problem: tuple[str, ...] = ("step", "benchmark", "problem_id")
    cell: tuple[str, ...] = ("step", "benchmark", "bin")
    from_problem: tuple = ()
    from_cell: tuple = ()


def summarize(
    frame: Frame,
    keys: Keys = Keys(),
    *,
    bin_tokens: int = TOKEN_BIN,
    percentiles: Sequence[float] = (0.5, 0.9),
) -> Frame:
    """Per group (a step and benchmark) the summary described in the module text. `frame` has
    the columns the keys name, `correct`, `response_tokens` and `bin` (its length bin)."""
    problems, cells = counts(frame, keys)
    return summary_of(problems, cells, keys, bin_tokens=bin_tokens, percentiles=percentiles)


def counts(frame: Frame, keys: Keys) -> tuple[Frame, Frame]:
    """The two group-bys that read every row, and all the aggregation needs of them: per
    problem, samples (n), correct ones (c) and distinct sample ids (fewer than n: a sample
    given twice); per histogram cell (a group and a length bin), samples and their summed
    length. The rest (`summary_of`) works on these tables, a fraction of the log's size."""
    F = _ns(frame)
    problems = frame.group_by(list(keys.problem)).agg(
        F.len().alias("n"),
        F.col("correct").cast(F.Int64).sum().alias("c"),
        F.col("sample_id").n_unique().alias("distinct"),
    )
    cells = frame.group_by(list(keys.cell)).agg(
        F.len().alias("count"), F.col("response_tokens").sum().alias("token_sum")
    )
    return problems, cells


def summary_of(
    problems: Frame,
    cells: Frame,
    keys: Keys,
    *,
    bin_tokens: int = TOKEN_BIN,
    percentiles: Sequence[float] = (0.5, 0.9),
) -> Frame:
    """The summary from the tables `counts` makes: per group, problems, samples, k (the fewest
    samples of a problem) and k_max, accuracy, the share of problems with a correct sample,
    the problems with a sample given twice, mean tokens and the percentiles."""
    F = _ns(problems)
    group = list(keys.group)
    summary = (
        _derive(problems, keys.from_problem)
        .with_columns(
            (F.col("c") / F.col("n")).alias("share"),
            (F.col("c") > 0).cast(F.Float64).alias("hit"),
        )
        .group_by(group)
        .agg(
            F.len().alias("problems"),
            F.col("n").sum().alias("samples"),
            F.col("n").min().alias("k"),
            F.col("n").max().alias("k_max"),
            F.col("share").mean().alias("accuracy"),
            F.col("hit").mean().alias("any_correct"),
            # problems with fewer distinct sample ids than rows: a sample given twice
            (F.col("distinct") < F.col("n")).cast(F.Int64).sum().alias("repeated"),
        )
    )
    # one histogram of response lengths per group: its sums give the mean, and the first bin
    # whose cumulative count reaches q of the total gives each percentile
    hist = (
        _derive(cells, keys.from_cell)
        .filter(~F.col("bin").is_null())  # a missing length counts in neither mean nor rank
        .with_columns(
            F.col("count").cum_sum().over(*group, order_by="bin").alias("cum"),
            F.col("count").sum().over(*group).alias("total"),
        )
    )
    names = [f"p{round(q * 100)}_tokens" for q in percentiles]
    lengths = hist.group_by(group).agg(
        F.col("token_sum").sum().alias("token_sum"),
        F.col("count").sum().alias("counted"),
        *[
            F.when(F.col("cum") >= q * F.col("total")).then(F.col("bin")).min().alias(name)
            for q, name in zip(percentiles, names, strict=True)
        ],
    )
    summary = summary.join(lengths, on=group, how="left").with_columns(
        (F.col("token_sum") / F.col("counted")).alias("mean_tokens"),
        *[((F.col(name) + 1) * bin_tokens).alias(name) for name in names],
    )
    return summary.drop("token_sum", "counted")


def per_problem(frame: Frame, keys: Keys) -> Frame:
    """Samples (n), correct ones (c) and distinct sample ids per problem, with the problem's
    group keys."""
    return _derive(counts(frame, keys)[0], keys.from_problem)


def problem_counts(frame: Frame) -> Frame:
    """Per benchmark, step and problem: samples (n), distinct sample ids and correct ones (c),
    the table that paired comparisons of runs are computed from (see `helpers.runs.compare`);
    where the log has a `reward` column, also the rewards' sum (`reward`) and how many of
    them are neither 0 nor 1 (`partial`)."""
    F = _ns(frame)
    rewards = []
    if "reward" in frame.collect_schema().names():
        r = F.col("reward")
        rewards = [
            r.sum().alias("reward"),
            (~((r == 0) | (r == 1))).cast(F.Int64).sum().alias("partial"),
        ]
    return frame.group_by("benchmark", "step", "problem_id").agg(
        F.len().alias("n"),
        F.col("sample_id").n_unique().alias("distinct"),
        F.col("correct").cast(F.Int64).sum().alias("c"),
        *rewards,
    )


def _derive(frame: Frame, exprs: tuple) -> Frame:
    return frame.with_columns(*exprs) if exprs else frame


def uneven_pass_at_k(frame: Frame, summary: Frame, keys: Keys, ks) -> Frame:
    """pass@k for groups whose problems have different sample counts (k = the fewest): the
    unbiased estimate per problem (`stats.pass_at_k_expr`), averaged."""
    return pass_at_k_of(per_problem(frame, keys), summary, keys, ks)


def pass_at_k_of(problems: Frame, summary: Frame, keys: Keys, ks) -> Frame:
    """`uneven_pass_at_k` from the per-problem table (with its group keys) instead of the log."""
    F = _ns(problems)
    group = list(keys.group)
    rows = problems.join(
        summary.filter(F.col("k") > 1, F.col("k") != F.col("k_max")).select(*group, "k"),
        on=group,
        how="inner",
    )
    n, c = F.col("n"), F.col("c")
    value = F.lit(None, F.Float64)
    for k in sorted(ks):
        value = F.when(F.col("k") == k).then(stats.pass_at_k_expr(n, c, k)).otherwise(value)
    return rows.with_columns(value.alias("fixed")).group_by(group).agg(F.col("fixed").mean())


# ---- polars: packed keys, step ranges -----------------------------------------------------------


def _packing(samples: pl.LazyFrame, bin_tokens: int) -> dict | None:
    """Ranges for packing step, benchmark code and problem id (and length bin) into single
    integers, or None where the columns do not allow it (text problem ids, text benchmarks,
    negative lengths, a key space past 2^62)."""
    schema = samples.collect_schema()
    if not (schema["problem_id"].is_integer() and schema["benchmark"] == pl.Categorical):
        return None
    stats = samples.select(
        s0=pl.col("step").min(),
        s1=pl.col("step").max(),
        p0=pl.col("problem_id").min(),
        p1=pl.col("problem_id").max(),
        b1=pl.col("benchmark").to_physical().max(),
        t0=pl.col("response_tokens").min(),
        t1=pl.col("response_tokens").max(),
        rows=pl.len(),
    ).collect(engine="streaming")  # a third of the in-memory engine's time on a first call
    row = stats.row(0, named=True)
    if row["rows"] == 0 or (row["t0"] is not None and row["t0"] < 0):
        return None
    # bins 0 .. t1 // bin_tokens, and one more for a missing length
    bins = (row["t1"] or 0) // bin_tokens + 2
    sizes = {"S": row["s1"] - row["s0"] + 1, "B": row["b1"] + 1, "P": row["p1"] - row["p0"] + 1}
    if sizes["S"] * sizes["B"] * max(sizes["P"], bins) >= 2**62:
        return None
    return {**row, **sizes, "NB": bins}


def _packed(samples: pl.LazyFrame, pack: dict, bin_tokens: int) -> tuple[pl.LazyFrame, Keys]:
    """The log with `g` (step and benchmark), `key` (g and problem) and `cell` (g and length
    bin) as single integers, and the keys that say how to unpack them."""
    g = (pl.col("step") - pack["s0"]).cast(pl.Int64) * pack["B"] + pl.col(
        "benchmark"
    ).to_physical().cast(pl.Int64)
    missing = pack["NB"] - 1
    length_bin = (pl.col("response_tokens") // bin_tokens).fill_null(missing).cast(pl.Int64)
    frame = samples.with_columns(
        key=g * pack["P"] + (pl.col("problem_id") - pack["p0"]).cast(pl.Int64),
        cell=g * pack["NB"] + length_bin,
    )
    keys = Keys(
        group=("g",),
        problem=("key",),
        cell=("cell",),
        from_problem=((pl.col("key") // pack["P"]).alias("g"),),
        from_cell=(
            (pl.col("cell") // pack["NB"]).alias("g"),
            pl.when(pl.col("cell") % pack["NB"] != missing)
            .then(pl.col("cell") % pack["NB"])
            .alias("bin"),
        ),
    )
    return frame, keys


def _unpack(summary: pl.DataFrame, names: pl.DataFrame, pack: dict) -> pl.DataFrame:
    return (
        summary.with_columns(
            step=(pl.col("g") // pack["B"] + pack["s0"]).cast(pl.Int64),
            code=(pl.col("g") % pack["B"]).cast(pl.UInt32),
        )
        .join(names, on="code", how="left")
        .drop("g", "code")
    )


def _step_ranges(samples: pl.LazyFrame, rows_per_pass: int) -> list[tuple[int, int]]:
    """Consecutive step ranges of about `rows_per_pass` rows each (never splitting a step)."""
    counts = samples.group_by("step").agg(rows=pl.len()).collect(engine="streaming").sort("step")
    ranges, start, filled = [], None, 0
    for step, rows in counts.iter_rows():
        start = step if start is None else start
        filled += rows
        if filled >= rows_per_pass:
            ranges.append((start, step))
            start, filled = None, 0
    if start is not None:
        ranges.append((start, counts["step"][-1]))
    return ranges


def polars_summary(
    samples: pl.LazyFrame, rows_per_pass: int, bin_tokens, percentiles, progress
) -> pl.DataFrame:
    """The per-step summary of a per-sample LazyFrame, run by polars here: streamed in step
    ranges of at most `rows_per_pass` rows (see the module's docstring)."""
    total = samples.select(pl.len()).collect().item()
    pack = _packing(samples, bin_tokens)
    if pack is not None:
        frame, keys = _packed(samples, pack, bin_tokens)
    else:
        keys = Keys()
        frame = samples.with_columns(
            pl.col("benchmark").cast(pl.String), bin=pl.col("response_tokens") // bin_tokens
        )
    ranges = [(None, None)] if total <= rows_per_pass else _step_ranges(samples, rows_per_pass)
    parts, names = [], []
    with progress(total, "aggregating") as bar:
        for lo, hi in ranges:
            part = frame if lo is None else frame.filter(pl.col("step").is_between(lo, hi))
            # the group-bys that read the rows, streamed; the rest on their (smaller) results
            queries = list(counts(part, keys))
            if pack is not None:  # the benchmark names behind the codes, in the same pass
                queries.append(
                    part.group_by(code=pl.col("benchmark").to_physical()).agg(
                        pl.col("benchmark").first().cast(pl.String)
                    )
                )
            done = pl.collect_all(queries, engine="streaming")
            problems = _derive(done[0].lazy(), keys.from_problem)
            summary = summary_of(
                problems,
                done[1].lazy(),
                keys,
                bin_tokens=bin_tokens,
                percentiles=percentiles,
            )
            # on the group-bys' results, in memory already: polars' in-memory engine runs it in
            # two thirds of the streaming engine's time while they are small (18 -> 11 ms at 94k
            # rows); from about 100k problems the streaming engine's lower peak matters more
            engine = "in-memory" if done[0].height < SMALL_SUMMARY else "streaming"
            summary = summary.collect(engine=engine)
            uneven = summary.filter(pl.col("k") > 1, pl.col("k") != pl.col("k_max"))
            if uneven.height:  # from the per-problem table in memory: no second pass
                fixed = pass_at_k_of(problems, uneven.lazy(), keys, set(uneven["k"]))
                fixed = fixed.collect(engine=engine)
                summary = summary.join(fixed, on=list(keys.group), how="left")
            parts.append(summary)
            if pack is not None:
                names.append(done[2])
            bar.update(int(summary["samples"].sum()))
    summary = pl.concat(parts, how="diagonal_relaxed")
    if pack is not None:
        summary = _unpack(summary, pl.concat(names).unique("code"), pack)
    return summary
