"""A leaderboard: per benchmark, models ranked by accuracy with their Wilson intervals, shaded
in tiers that change where a gap to the model above is separable (`runs.leaderboard`)."""

from __future__ import annotations

from collections.abc import Sequence

import altair as alt
import polars as pl

from helpers.charts import _compose as compose
from helpers.charts._tooltips import tip
from helpers.render.theme import COLOURS

ROW_H = 18  # px per model
SHADES = ["#eef2f7", "#ffffff"]  # alternate tiers


def _panel(board: pl.DataFrame, benchmark: str, width: int) -> alt.LayerChart:
    rows = board.filter(pl.col("benchmark") == benchmark).sort("rank")
    order = rows["model"].to_list()
    values = rows.select(
        pl.min_horizontal("accuracy", "lo").min().alias("low"),
        pl.max_horizontal("accuracy", "hi").max().alias("high"),
    ).row(0)
    pad = max(0.02, (values[1] - values[0]) * 0.05)
    domain = [max(0.0, values[0] - pad), min(1.0, values[1] + pad)]
    base = alt.Chart(
        rows.with_columns(
            shade=(pl.col("tier") % 2).cast(pl.String), left=domain[0], right=domain[1]
        )
    )
    y = alt.Y("model:N").sort(order).title(None).axis(labelLimit=220)

    def x(field: str) -> alt.X:
        scale = alt.Scale(domain=domain, nice=False)
        return alt.X(f"{field}:Q").title("Accuracy").scale(scale).axis(format=".0%")

    tooltip = [
        tip("model:N", "Model"),
        tip("rank:Q", "Rank"),
        tip("accuracy:Q", "Accuracy", ".1%"),
        tip("lo:Q", "95% interval, low", ".1%"),
        tip("hi:Q", "95% interval, high", ".1%"),
        tip("problems:Q", "Problems"),
        tip("gap:Q", "Behind the model above", ".1%"),
        tip("separable:N", "Separable from the model above"),
        tip("tier:Q", "Tier"),
    ]
    shading = (
        base.mark_rect()
        .encode(
            y=y,
            x=x("left"),
            x2="right:Q",
            color=alt.Color("shade:N").scale(domain=["1", "0"], range=SHADES).legend(None),
        )
        .properties(name="tiers")
    )
    intervals = (
        base.mark_rule(strokeWidth=2, color=COLOURS["accuracy"], opacity=0.5)
        .encode(y=y, x=x("lo"), x2="hi:Q")
        .properties(name="intervals")
    )
    points = (
        base.mark_point(filled=True, size=50, opacity=1, color=COLOURS["accuracy"])
        .encode(y=y, x=x("accuracy"), tooltip=tooltip)
        .properties(name="models")
    )
    return compose.layer(shading, intervals, points).properties(
        title=benchmark, width=width, height=ROW_H * len(order)
    )


def leaderboard(
    board: pl.DataFrame,
    *,
    title: str,
    notes: Sequence[str] = (),
    columns: int = 3,
    width: int = 220,
) -> alt.ConcatChart:
    """One panel per benchmark (in the table's order), models ranked from the top, from
    `runs.leaderboard.leaderboard`: a point per model, its Wilson 95% interval as a line, and
    the rows shaded by tier. `notes` (how gaps were judged, what was left out) make the
    subtitle after the line naming the intervals."""
    names = board["benchmark"].unique(maintain_order=True).to_list()
    lines = ["lines: Wilson 95% over each benchmark's problems", *notes]
    return compose.concat(*(_panel(board, b, width) for b in names), columns=columns).properties(
        title=alt.Title(title, subtitle=lines)
    )
