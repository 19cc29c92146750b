"""What a chart can show: at most a few dozen panels, and in each series no more points than a
panel is wide. Logs have thousands of steps and sometimes thousands of benchmarks; a chart
drawn from them is fitted here, before it is built, and says in its subtitle how.

A series is thinned to every n-th logged value of x (always keeping its first and last), so
each drawn point is a value the log holds, with its own interval; the `.csv` output keeps every
row. Panels past the limit are left out by name. Each chart's data then stays under altair's
row limit (`MAX_ROWS`), which is kept as a guard rather than switched off: a spec carries no
data it does not draw.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import polars as pl

MAX_ROWS = 5000  # altair's default limit for one chart's data
MAX_PANELS = 24  # six rows of four: past that a grid is not read panel by panel
MAX_GROUPS = 40  # categories along one axis
POINTS_PER_SERIES = 200  # a 190-260 px panel shows no more
MARKED_POINTS = 60  # past this many values a line's point marks merge into a band
MAX_FLIPS_DRAWN = 40  # flipped problems in a panel past which they are counted, not drawn


def ordinal(n: int) -> str:
    """1st, 2nd, 3rd, 4th, ..., 11th, 12th, 13th, 21st."""
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def subtitle(lines: str | list[str], notes: Sequence[str]) -> str | list[str]:
    """A chart's subtitle with the notes of what was left out after it (unchanged without).

    Parameters
    ----------
    lines : str or list of str
        The subtitle: one line, or several.
    notes : sequence of str
        One note per reduction (`DrawnComparison.notes`, `Fitted.notes`).

    Returns
    -------
    str or list of str
        `lines` itself without notes; else its non-empty lines followed by the notes.

    Examples
    --------
    >>> subtitle("simulated", ["24 of 30 benchmarks drawn (the first 24)"])
    ['simulated', '24 of 30 benchmarks drawn (the first 24)']
    """
    if not notes:
        return lines
    return [line for line in ([lines] if isinstance(lines, str) else lines) if line] + list(notes)


@dataclass
class Fitted:
    """A chart's frame fitted to what it can show, the names it keeps in order, and one note
    per reduction for the subtitle (none when nothing was left out)."""

    frame: pl.DataFrame
    order: list[str] | None = None
    notes: list[str] = field(default_factory=list)


NAMED_LEFT = 10  # the panels left out that a subtitle names (a log may have hundreds)


def panels(
    frame: pl.DataFrame,
    column: str,
    *,
    order: Sequence[str] | None = None,
    limit: int = MAX_PANELS,
    what: str = "benchmarks",
    summary: str | None = None,
) -> Fitted:
    """Keep the first `limit` values of `column` (in `order`, else as first seen); a
    `summary` panel (the benchmarks' mean) is kept, last, and not counted among them."""
    names = list(order) if order is not None else frame[column].unique(maintain_order=True)
    names = [str(n) for n in names]
    if len(names) <= limit:
        return Fitted(frame, names)
    rest = [n for n in names if n != summary]
    room = limit - (summary in names)
    kept = rest[:room] + ([summary] if summary in names else [])
    note = f"{room} of {len(rest):,} {what} drawn (the first {room} in the log)"
    if summary in names:
        note += f", and {summary}"
    left = rest[room:]
    note += "; not drawn: " + ", ".join(left[:NAMED_LEFT])
    if len(left) > NAMED_LEFT:
        note += f" and {len(left) - NAMED_LEFT:,} more"
    return Fitted(frame.filter(pl.col(column).cast(pl.String).is_in(kept)), kept, [note])


def thin(
    frame: pl.DataFrame,
    x: str,
    series: Sequence[str],
    *,
    budget: int = MAX_ROWS - 200,
    most: int = POINTS_PER_SERIES,
    what: str = "steps",
    per: str = "line",
) -> Fitted:
    """Keep in each series (rows sharing the `series` columns) every n-th distinct value of `x`
    and its last, so the frame holds at most `budget` rows and a series at most `most` values
    of x; rows whose x is null (a run evaluated once) are always kept."""
    if frame.height <= budget and not longest(frame, x, series) > most:
        return Fitted(frame)
    n_series = max(1, frame.select(pl.struct(list(series)).n_unique()).item())
    limit = max(2, min(most, budget // n_series))
    while True:
        kept, stride, most_values = _every_nth(frame, x, series, limit)
        if kept.height <= budget or limit == 2:
            break
        limit = max(2, limit // 2)
    if stride <= 1:
        return Fitted(frame)
    note = f"up to {most_values:,} {what} per {per}: every {ordinal(stride)} drawn, and the last"
    return Fitted(kept, notes=[note])


def longest(frame: pl.DataFrame, x: str, series: Sequence[str]) -> int:
    """The most distinct values of `x` any series holds."""
    if frame.height == 0:
        return 0
    counts = frame.filter(pl.col(x).is_not_null()).group_by(list(series)).agg(pl.col(x).n_unique())
    return int(counts[x].max() or 0)


def _every_nth(
    frame: pl.DataFrame, x: str, series: Sequence[str], limit: int
) -> tuple[pl.DataFrame, int, int]:
    """Rows at every stride-th value of x within each series (stride = ceil((m - 1) /
    (limit - 1)) for a series of m values, so at most `limit` are kept), the largest stride,
    and the longest series."""
    over = list(series)
    rank = (pl.col(x).rank("dense").over(over) - 1).cast(pl.Int64)
    m = pl.col(x).drop_nulls().n_unique().over(over).cast(pl.Int64)
    stride = pl.max_horizontal(pl.lit(1, pl.Int64), (m - 2) // (limit - 1) + 1)
    marked = frame.with_columns(_rank=rank, _m=m, _stride=stride)
    keep = pl.col(x).is_null() | (pl.col("_rank") % pl.col("_stride") == 0)
    keep = keep | (pl.col("_rank") == pl.col("_m") - 1)
    valued = marked.filter(pl.col(x).is_not_null())
    largest = int(valued["_stride"].max() or 1)
    longest = int(valued["_m"].max() or 0)
    return marked.filter(keep).drop("_rank", "_m", "_stride"), largest, longest


@dataclass
class DrawnComparison:
    """The three frames `charts.comparison` draws, fitted, and the notes for its subtitle."""

    curves: pl.DataFrame
    differences: pl.DataFrame
    problems: pl.DataFrame
    notes: list[str]
    # flipped problems counted by how much they moved, where a panel has too many to draw
    counts: pl.DataFrame | None = None
    # what the flips' own section says of what was left out of it (beside it, not in the title)
    flip_notes: list[str] = field(default_factory=list)


TEXT_SHOWN = {"question": 240, "reference": 80, "answer_a": 80, "answer_b": 80}  # characters


def _shortened(problems: pl.DataFrame) -> pl.DataFrame:
    """Problem texts cut for a tooltip (`compare --problems-out` writes them whole), on one
    line: a question of 2,000 characters would cover the chart."""
    return problems.with_columns(
        pl.when(pl.col(c).str.len_chars() > n)
        .then(pl.col(c).str.slice(0, n - 1) + "…")
        .otherwise(pl.col(c))
        .str.replace_all(r"\s+", " ")
        .alias(c)
        for c, n in TEXT_SHOWN.items()
        if c in problems.columns
    )


def comparison(c) -> DrawnComparison:
    """A `compare.Comparison`'s frames fitted to what its chart can show: the same benchmarks
    in every part (at most `MAX_PANELS`), curves and differences thinned by step, the flipped
    problems by rank (ranked by difference, so every n-th keeps the distribution's shape).

    Parameters
    ----------
    c : compare.Comparison
        Its `differences` need comparison, benchmark and step; its `curves` run, seed,
        benchmark, kind and step; its `problems` (which may be empty) comparison, benchmark
        and rank, and at and difference where a panel has too many to draw.

    Returns
    -------
    DrawnComparison
        The fitted curves, differences and problems, the notes for the subtitle, and the
        flipped problems counted per amount (`flip_counts`) where a panel has more than
        `MAX_FLIPS_DRAWN` (then `problems` is empty).

    Examples
    --------
    >>> import polars as pl
    >>> from helpers.runs.compare import Comparison
    >>> steps = pl.DataFrame({"step": range(0, 1000, 2)})  # 500 logged steps
    >>> curves = steps.with_columns(run=pl.lit("a"), seed=0, benchmark=pl.lit("math"),
    ...                             kind=pl.lit("mean"))
    >>> diffs = steps.with_columns(comparison=pl.lit("b vs a"), benchmark=pl.lit("math"))
    >>> drawn = comparison(Comparison(["a", "b"], "same", curves, diffs, pl.DataFrame()))
    >>> drawn.curves.height, drawn.notes
    (168, ['up to 500 steps per line: every 3rd drawn, and the last'])
    """
    shown = panels(c.differences, "benchmark")
    keep = pl.col("benchmark").is_in(shown.order)
    curves = thin(c.curves.filter(keep), "step", ("run", "seed", "benchmark", "kind"))
    differences = thin(shown.frame, "step", ("comparison", "benchmark"))
    problems = _shortened(c.problems)
    flips, counts = Fitted(problems), None
    if problems.height:
        problems = problems.filter(keep)
        most = problems.group_by("comparison", "benchmark").len()["len"].max() or 0
        if most > MAX_FLIPS_DRAWN:
            counts = flip_counts(problems)
            flips = Fitted(
                problems.clear(),
                notes=[
                    f"up to {most} problems flipped in a panel: counted by how much each moved, "
                    "too many to draw one by one"
                ],
            )
        else:
            flips = thin(
                problems, "rank", ("comparison", "benchmark"), what="problems that flipped",
                per="panel",
            )  # fmt: skip
    notes = shown.notes + curves.notes + [n for n in differences.notes if n not in curves.notes]
    return DrawnComparison(curves.frame, differences.frame, flips.frame, notes, counts, flips.notes)


def flip_counts(problems: pl.DataFrame) -> pl.DataFrame:
    """How many problems moved by each amount (a difference in a problem's accuracy), per
    comparison and benchmark, with which run did better."""
    return (
        problems.group_by("comparison", "benchmark", "at", "difference")
        .agg(problems=pl.len())
        .sort("comparison", "benchmark", "difference", descending=[False, False, True])
    )
