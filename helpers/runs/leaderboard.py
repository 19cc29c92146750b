"""A leaderboard read honestly: per benchmark, models ranked by accuracy with Wilson intervals
from the benchmark's size, and which neighbouring gaps the benchmark can tell apart.

A gap between two neighbours is separable when the Newcombe interval of their difference
excludes 0 at the Bonferroni level for every comparison made (so the verdict and the interval
cannot disagree, and reading down many columns of a table does not find differences by
chance). Tiers: a model starts a new tier where it is separable from the first model of the
current one, so a run of small gaps cannot chain 90% and 24% into one tier; those
comparisons count in the Bonferroni level too. The interval treats the two scores as
independent samples: the models answered the same problems, which a paired comparison would
use (it needs per-problem answers), so this errs towards "not separable".
"""

from __future__ import annotations

from collections.abc import Mapping

import polars as pl

from helpers import benchmark_sizes
from helpers.errors import DataError
from helpers.runs.drawable import MAX_GROUPS
from helpers.stats.differences import newcombe_unpaired
from helpers.stats.intervals import _normal_quantile, wilson_interval

COLUMNS = (
    "benchmark",
    "rank",
    "model",
    "size_b",
    "accuracy",
    "problems",
    "lo",
    "hi",
    "gap",
    "gap_lo",
    "gap_hi",
    "separable",
    "tier",
)


def _size(benchmark: str, problems: Mapping[str, int]) -> int | None:
    return benchmark_sizes.override(benchmark, problems) or benchmark_sizes.size(benchmark)


def leaderboard(
    models: pl.DataFrame, problems: Mapping[str, int] | None = None
) -> tuple[pl.DataFrame, list[str]]:
    """Models per benchmark, ranked (COLUMNS; `gap` is the accuracy of the model ranked just
    above minus this one's), and notes for the chart: how the gaps were judged, what has no
    interval, which models were left out of a long board.

    >>> table, _ = leaderboard(pl.DataFrame({"model": ["a", "b"], "benchmark": ["AIME24"] * 2,
    ...     "accuracy": [0.5, 0.1], "size_b": [None, None]}))
    >>> table.select("rank", "model", "separable", "tier").rows()
    [(1, 'a', None, 1), (2, 'b', True, 2)]
    """
    problems = dict(problems or {})
    dup = models.filter(pl.struct("benchmark", "model").is_duplicated())
    if dup.height:
        raise DataError(
            "the table of models",
            "each model once per benchmark",
            column="model",
            got=f"{dup['model'][0]} on {dup['benchmark'][0]} twice",
        )
    names = models["benchmark"].unique(maintain_order=True).to_list()  # the table's order
    ranked = (
        models.with_columns(
            rank=pl.col("accuracy")
            .rank("ordinal", descending=True)
            .over("benchmark")
            .cast(pl.Int64),
            _order=pl.col("benchmark").replace_strict(names, list(range(len(names)))),
        )
        .sort("_order", "rank", maintain_order=True)
        .drop("_order")
    )
    notes: list[str] = []
    long = ranked.filter(pl.col("rank") > MAX_GROUPS)
    if long.height:
        notes.append(
            f"top {MAX_GROUPS} models per benchmark drawn; {long.height} more in the table"
        )
    sizes = {b: _size(b, problems) for b in names}
    counts = dict(ranked.group_by("benchmark").len().iter_rows())
    # every model below the top is judged twice: against the model above it, and against the
    # first model of its tier; Bonferroni over every judgement made
    judged = sum(2 * (counts[b] - 1) for b in names if sizes[b])
    z = _normal_quantile(1 - 0.05 / (2 * max(judged, 1)))

    def apart(top: float, low: float, n: int) -> tuple[float, float]:
        return newcombe_unpaired(top * n, n, low * n, n, z=z)

    rows = []
    above: dict = {}
    leader: dict = {}
    for r in ranked.iter_rows(named=True):
        b, n = r["benchmark"], sizes[r["benchmark"]]
        lo, hi = wilson_interval(r["accuracy"] * n, n) if n else (None, None)
        prev = above.get(b)
        gap = gap_lo = gap_hi = separable = None
        tier = 1
        if prev is not None:
            gap = prev["accuracy"] - r["accuracy"]
            tier = prev["tier"]
            if n:
                gap_lo, gap_hi = apart(prev["accuracy"], r["accuracy"], n)
                separable = gap_lo > 0
                if apart(leader[b]["accuracy"], r["accuracy"], n)[0] > 0:
                    tier += 1  # apart from its tier's first model: a tier of its own
        row = {**r, "problems": n, "lo": lo, "hi": hi, "gap": gap}
        row |= {"gap_lo": gap_lo, "gap_hi": gap_hi, "separable": separable, "tier": tier}
        rows.append(row)
        above[b] = row
        if prev is None or tier != prev["tier"]:
            leader[b] = row
    table = pl.DataFrame(
        rows,
        schema_overrides={
            "problems": pl.Int64,
            "lo": pl.Float64,
            "hi": pl.Float64,
            "gap": pl.Float64,
            "gap_lo": pl.Float64,
            "gap_hi": pl.Float64,
            "separable": pl.Boolean,
            "size_b": pl.Float64,
        },
        infer_schema_length=None,
    )
    table = table.select(*COLUMNS, *[c for c in table.columns if c not in COLUMNS])
    unknown = [b for b, n in sizes.items() if not n]
    if unknown:
        notes.append(f"no interval and no gap judged for {', '.join(unknown[:4])}: size unknown")
    notes[:0] = [
        "shading: a new shade where a model is separable from the first model of the shade",
        f"(Newcombe 95%, Bonferroni over {judged} comparisons; unpaired, so cautious: the "
        "models answered the same problems)",
    ]
    return table, notes
