"""A leaderboard read honestly: per benchmark, models ranked by accuracy with Wilson intervals
from the benchmark's size, and which neighbouring gaps the benchmark can tell apart.

A gap between two neighbours is separable when the Newcombe interval of their difference
excludes 0 at the Bonferroni level for every neighbouring gap the chart shows (so the verdict
and the interval cannot disagree, and reading down many columns of a table does not find
differences by chance). The interval treats the two scores as independent samples: the models
answered the same problems, which a paired comparison would use (it needs per-problem
answers), so this errs towards "not separable". Tiers count the separable gaps from the top.
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
    ranked = models.with_columns(
        rank=pl.col("accuracy").rank("ordinal", descending=True).over("benchmark").cast(pl.Int64)
    ).sort("benchmark", "rank", maintain_order=True)
    notes: list[str] = []
    long = ranked.filter(pl.col("rank") > MAX_GROUPS)
    if long.height:
        notes.append(
            f"top {MAX_GROUPS} models per benchmark drawn; {long.height} more in the table"
        )
    sizes = {b: _size(b, problems) for b in ranked["benchmark"].unique(maintain_order=True)}
    gaps = sum(min(n, MAX_GROUPS) - 1 for n in ranked.group_by("benchmark").len()["len"])
    z = _normal_quantile(1 - 0.05 / (2 * max(gaps, 1)))
    rows = []
    above: dict = {}
    for r in ranked.iter_rows(named=True):
        n = sizes[r["benchmark"]]
        lo, hi = wilson_interval(r["accuracy"] * n, n) if n else (None, None)
        prev = above.get(r["benchmark"])
        gap = gap_lo = gap_hi = separable = None
        if prev is not None:
            gap = prev["accuracy"] - r["accuracy"]
            if n:
                gap_lo, gap_hi = newcombe_unpaired(
                    prev["accuracy"] * n, n, r["accuracy"] * n, n, z=z
                )
                separable = gap_lo > 0
        tier = 1 if prev is None else prev["tier"] + bool(separable)
        row = {**r, "problems": n, "lo": lo, "hi": hi, "gap": gap}
        row |= {"gap_lo": gap_lo, "gap_hi": gap_hi, "separable": separable, "tier": tier}
        rows.append(row)
        above[r["benchmark"]] = row
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
        notes.append(
            f"no interval and no gap judged for {', '.join(unknown[:4])}: size unknown "
            "(--problems NAME=N)"
        )
    notes[:0] = [
        "shading: a new shade where a model is separable from the one above it",
        f"(Newcombe 95%, Bonferroni over {gaps} gaps; unpaired, so cautious: the models "
        "answered the same problems)",
    ]
    return table, notes
