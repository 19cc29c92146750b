"""000 (Kimi k1.5): accuracy against token length, MATH500 and AIME2024."""

from __future__ import annotations

import altair as alt
import polars as pl

from helpers import data
from helpers.charts import _compose as compose
from helpers.charts import labels as place
from helpers.charts._common import (
    PANEL_H,
    PANEL_W,
    domain,
    heading,
    panel_title,
    plot_size,
    redrawable,
)
from helpers.charts._tooltips import HOW_READ, PERCENT_ACCURACY, reading, tip
from helpers.charts.labels import Axis, text_layers, with_label_positions
from helpers.charts.text_metrics import text_width
from helpers.render.theme import COLOURS

GROUPS = ["k1.5", "other"]
DODGE = 6  # px between the intervals of models read at the same length


def _shared(df: pl.DataFrame) -> pl.Expr:
    """Rows whose intervals would be drawn as one: the same length in the panel, and
    intervals that overlap."""
    same = ["panel", "token_length"]
    return (pl.len().over(same) > 1) & (
        pl.col("lo").max().over(same) <= pl.col("hi").min().over(same)
    )


def _dodged(sub: pl.DataFrame, xaxis: Axis) -> pl.DataFrame:
    """`drawn_x`: where each point and interval is drawn; models read at the same length whose
    intervals overlap are set DODGE px apart, the others drawn where they were read. The least
    accurate stays where it was read and the more accurate go left of it: the one beaten,
    right of (longer than) the one beating it, stays off a frontier through that one, which
    runs up and to the left from there; and a model read at a slightly longer length, right
    of the pair, keeps its distance."""
    per_px = (xaxis.hi - xaxis.lo) / xaxis.pixels
    rank = pl.col("accuracy").rank("ordinal", descending=True).over("token_length").cast(pl.Int64)
    shift = (rank - pl.len().over("token_length").cast(pl.Int64)) * DODGE * per_px
    return sub.with_columns(
        drawn_x=pl.col("token_length") + pl.when(_shared(sub)).then(shift).otherwise(0.0)
    )


def dodged_note(df: pl.DataFrame) -> list[str]:
    """What the subtitle says where intervals were set apart."""
    shared = df.filter(_shared(df)).unique(["panel", "token_length"], maintain_order=True)
    if not shared.height:
        return []
    where = " and ".join(
        f"{panel} {length:,.0f}"
        for panel, length in shared.select("panel", "token_length").iter_rows()
    )
    said = "two models read at one length, their intervals overlapping: the more accurate drawn"
    return [f"{said} slightly left so that both show: {where} tokens"]


# the lines the intervals and the frontier are drawn with, keyed in a legend of their own
# (the legend's swatch is grey; each interval is drawn in its point's colour, as the subtitle
# says: said in the legend, the line made the chart wider than a column)
INTERVAL = "Wilson 95% interval"
LINES = {INTERVAL: [1, 0], "Pareto frontier": [4, 3]}


def _line_key(name: str, names: list[str]) -> alt.StrokeDash:
    """A layer's line in the legend of lines (only the lines the chart draws)."""
    return (
        alt.StrokeDash("line:N")
        .scale(domain=names, range=[LINES[n] for n in names])
        .legend(title=None, orient="top", symbolType="stroke", symbolStrokeColor="#555555")
    )


def _intervals(
    base: alt.Chart, x: alt.X, ydom: list[float], colour: alt.Color, lines: list[str]
) -> alt.Chart:
    """Binomial 95% intervals as vertical rules, coloured as their points."""
    return (
        base.mark_rule(opacity=0.5, strokeWidth=2)
        .transform_calculate(line=alt.expr.toString(INTERVAL))
        .encode(
            x=x,
            y=alt.Y("lo:Q").scale(domain=ydom, nice=False),
            y2="hi:Q",
            color=colour,
            strokeDash=_line_key(INTERVAL, lines),
        )
        .properties(name="intervals")
    )


RING = 170  # a frontier model's ring (area in px², about 7.4 px in radius)


def _frontier(front: pl.DataFrame, x: alt.X, y: alt.Y, lines: list[str]) -> list[alt.Chart]:
    """The Pareto frontier as a dashed line joining its models in order of length (straight,
    not in steps: a step rises at a model's length, along that model's interval bar), and a
    ring round each of its models: a line passing over a model off the frontier (two read at
    one length, set apart) read as running through it."""
    line = (
        alt.Chart(front)
        .mark_line(color="#555555", strokeWidth=1.5)
        .transform_calculate(line=alt.expr.toString("Pareto frontier"))
        .encode(x=x, y=y, strokeDash=_line_key("Pareto frontier", lines))
        .properties(name="frontier")
    )
    rings = (
        alt.Chart(front)
        .mark_point(size=RING, filled=False, color="#333333", strokeWidth=1.2, opacity=1)
        .encode(x=x, y=y)
        .properties(name="frontier_rings")
    )
    return [line, rings]


def _published(pub: pl.DataFrame, x: alt.X, y: alt.Y) -> alt.Chart:
    """Published values as black crosses of two thin strokes (a "+"), drawn over the points
    they sit on: a filled cross hid a point read at the same value; this one lets it show."""
    return (
        alt.Chart(pub)
        .mark_point(
            shape="M-1,0L1,0M0,-1L0,1",
            size=160,
            color=COLOURS["published"],
            filled=False,
            strokeWidth=1.6,
            opacity=1,
        )
        .encode(
            x=x,
            y=y,
            tooltip=[*_point_tips(), tip("source:N", "Source")],
        )
        .properties(name="published")
    )


def _drawn(
    intervals: pl.DataFrame | None, frontier: pl.DataFrame | None, published: pl.DataFrame | None
) -> place.Marks:
    """The marks beside the points that labels keep off: intervals, frontier, crosses."""
    marks = place.NONE
    if intervals is not None:
        marks += place.rules(intervals["drawn_x"], intervals["lo"], intervals["hi"])
    if frontier is not None:
        marks += place.line(frontier["drawn_x"], frontier["accuracy"], 1.5)
        marks += place.points(frontier["drawn_x"], frontier["accuracy"], radius=8.0)
    if published is not None:  # a cross's arms reach past a point's radius (size 160: 6.3 px)
        marks += place.points(published["drawn_x"], published["accuracy"], radius=8.0)
    return marks


def _room_left(xdom: list[float], sub: pl.DataFrame, width: float) -> list[float]:
    """The x domain widened to the left, where needed, so that the leftmost point's name fits
    beside it: with an interval drawn a few pixels right of it (AIME's 900 and 1,000 tokens),
    no spot near the point was free, and its name hung at the end of a long leader. Not on a
    narrow plot (a column's), where the room would squeeze the other points together."""
    first = sub.sort("token_length").row(0, named=True)
    need = text_width(first["model"]) + 12  # px: the name, its gap to the point, a margin
    span = xdom[1] - xdom[0]
    have = (first["token_length"] - xdom[0]) / span * width
    if have >= need or need > width / 5:
        return xdom
    # the point lands `need` px from the axis: (x - lo) / (hi - lo) * width = need
    lo = (first["token_length"] * width - need * xdom[1]) / (width - need)
    return [round(lo, 9), xdom[1]]


def _point_tips() -> list[alt.Tooltip]:
    return [
        tip("model:N", "Model"),
        tip("token_length:Q", "Response length (tokens)", ",.0f"),
        PERCENT_ACCURACY,
    ]


@redrawable
def rl_length_scaling_panel(
    df: pl.DataFrame,
    panel: str,
    *,
    frontier: pl.DataFrame | None = None,
    published: pl.DataFrame | None = None,
) -> alt.LayerChart:
    """One benchmark: labelled points, k1.5 orange and the other models blue.

    Where `df` has `lo`, `hi` (from `figures.rl_length_scaling.with_benchmark_intervals`) they
    are drawn as 95% intervals. `frontier` (from `figures.rl_length_scaling.frontiers`) adds the
    Pareto frontier as a dashed line;
    `published` (columns panel, model, token_length, accuracy, source) adds black crosses.
    """
    fig = data.figure("rl_length_scaling")
    width, height = plot_size(PANEL_W, PANEL_H)
    described = fig["panels"][panel]
    sub = df.filter(pl.col("panel") == panel)
    xdom = _room_left(domain(described["x_domain"], sub["token_length"].to_list(), 100), sub, width)
    ydom = domain(described["y_domain"], sub["accuracy"].to_list(), 1.5)
    intervals = "lo" in sub.columns
    if intervals:
        ydom = [min(ydom[0], sub["lo"].min() - 1), max(ydom[1], min(100, sub["hi"].max() + 1))]
    if frontier is not None:
        frontier = frontier.filter(pl.col("panel") == panel).sort("token_length")
    if published is not None:
        published = published.filter(pl.col("panel") == panel)
    sub = (
        _dodged(sub, Axis(xdom, width))
        if intervals
        else sub.with_columns(drawn_x=pl.col("token_length"))
    )
    if frontier is not None:  # through the points as they are drawn
        frontier = frontier.join(sub.select("model", "drawn_x"), on="model", how="left")
        frontier = frontier.with_columns(pl.col("drawn_x").fill_null(pl.col("token_length")))
    if published is not None:
        published = published.with_columns(drawn_x=pl.col("token_length"))
    sub = with_label_positions(
        sub,
        "drawn_x",
        "accuracy",
        "model",
        Axis(xdom, width),
        Axis(ydom, height, flip=True),
        avoid=_drawn(sub if intervals else None, frontier, published),
    ).with_columns(reading=reading("rl_length_scaling", "accuracy", "token_length"))

    # the described title, with what it measures (the paper's mean response length)
    x_title = f"{fig['x_title']} (mean response length, tokens)"
    x = alt.X("drawn_x:Q").title(x_title).scale(domain=xdom, nice=False)
    y = alt.Y("accuracy:Q").title(f"{fig['y_title']} (%)").scale(domain=ydom, nice=False)
    colour = (
        alt.Color("group:N")
        .scale(domain=GROUPS, range=[COLOURS[g] for g in GROUPS])
        # above the panels, clear of both panels' ticks; the described group names kept
        .legend(
            title="Model",
            orient="top",
            symbolOpacity=1,
            labelExpr="datum.label == 'other' ? 'other models' : 'Kimi k1.5'",
        )
    )
    base = alt.Chart(sub)
    points = (
        base.mark_point(size=70, filled=True, opacity=1)
        .encode(
            x=x,
            y=y,
            color=colour,
            tooltip=[*_point_tips(), HOW_READ],
        )
        .properties(name="points")
    )
    labels = text_layers(sub, "model", xdom, ydom)
    layers: list[alt.Chart] = []
    lines = [n for n, drawn in zip(LINES, (intervals, frontier is not None), strict=True) if drawn]
    if intervals:
        layers.append(_intervals(base, x, ydom, colour, lines))
    if frontier is not None:
        layers += _frontier(frontier, x, y, lines)
    layers.append(points)
    if published is not None:  # on top of the points they sit on, or they are hidden
        layers.append(_published(published, x, y))
    return compose.layer(*layers, *labels).properties(
        title=panel_title(panel, anchor="middle"),
        width=width,
        height=height,  # as described
    )


@redrawable
def rl_length_scaling(df: pl.DataFrame, **options) -> alt.HConcatChart:
    """000: MATH500 and AIME2024 side by side, accuracy against token length (options as in
    `rl_length_scaling_panel`).

    Parameters
    ----------
    df : polars.DataFrame
        The 000 readings (`helpers.load("rl_length_scaling")`): panel, model, group,
        token_length and accuracy; `lo`, `hi` (from
        `figures.rl_length_scaling.with_benchmark_intervals`) are drawn as 95% intervals.
    **options
        `frontier` and `published`, passed to `rl_length_scaling_panel` for each panel.

    Returns
    -------
    altair.HConcatChart
        The two panels, titled as described, or naming what the intervals and options add.

    Examples
    --------
    >>> import helpers
    >>> chart = rl_length_scaling(helpers.load("rl_length_scaling"))
    >>> [panel.title.text for panel in chart.hconcat]
    ['MATH500', 'AIME2024']
    """
    fig = data.figure("rl_length_scaling")
    panels = [rl_length_scaling_panel(df, p, **options) for p in fig["panels"]]
    added = []
    if "lo" in df.columns:
        added.append(
            (
                "95% intervals",
                [
                    "vertical bars: Wilson 95% intervals, counting each benchmark's problems, "
                    "each in its point's colour",
                    *dodged_note(df),
                ],
            )
        )
    if options.get("frontier") is not None:
        added.append(
            (
                "the Pareto frontier",
                "dashed line: the Pareto frontier, through the ringed models: those no other model "
                "matches on both length and accuracy and beats on one",
            )
        )
    if options.get("published") is not None:
        added.append(
            (
                "the published values",
                [
                    "black crosses: the values the paper prints for the same models "
                    "(Kimi k1.5 report, Table 3 and Section 3.4),",
                    "set at the lengths the description reads (the paper prints one length: "
                    "3,272 tokens, k1.5-short w/ rl on AIME)",
                ],
            )
        )
    return compose.hconcat(*panels).properties(title=heading(fig, added))
