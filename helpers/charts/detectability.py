"""Notebook 008: power to separate two runs against their difference, one panel per benchmark,
with the differences the five figures show marked on their curves."""

from __future__ import annotations

import math

import altair as alt
import polars as pl

from helpers.charts import _compose as compose
from helpers.charts import labels as place
from helpers.charts._common import plot_size, redrawable, stated_ticks
from helpers.charts._tooltips import tip
from helpers.charts.labels import HALO, LEADER, Axis, with_label_positions
from helpers.charts.text_metrics import FONT_SIZE, text_width, wrapped
from helpers.render.theme import FIGURE_COLOURS, RUN_COLOURS, RUN_DASHES, RUN_SHAPES

SUBTITLE = [
    "line: chance that two runs this far apart on this many problems come out separable at 5%",
    "(unpaired, at the comparison's accuracy), in its figure's colour and dash;",
    "point: the difference the figure shows, labelled with what it compares and its signed size;",
    "grey dashed rule: 80% power, where a difference becomes detectable; lines that lie on one",
    "another are comparisons on as many problems at about the same accuracy: the same chance;",
    "a figure with two comparisons on one benchmark draws two lines in its colour",
]
DOUBTFUL = (
    "hollow: a reading past the paper's own axis, which cannot be right as read (notebook 001)"
)
POINTS = "format(datum.value * 100, '.0f')"  # differences in percentage points, unsigned
PANEL = (300, 200)  # px: a panel's plot
# the power axis runs a little past 100%: room above the curves' plateau for the labels of
# points on it (000's and 003's MATH500 points sat boxed in by curves on every side)
HEADROOM = 1.1


@redrawable
def detectability(curves: pl.DataFrame, gaps: pl.DataFrame, *, columns: int = 2) -> alt.FacetChart:
    """Power curves from `figures.detectability.power_curves` with the `gaps()` they belong to:
    one panel per benchmark (one benchmark spelled two ways is one panel), each figure's
    difference in its own colour, dash and shape (told apart without colour too).

    Parameters
    ----------
    curves : polars.DataFrame
        Power against difference per comparison, from `figures.detectability.power_curves`.
    gaps : polars.DataFrame
        The differences the figures show, from `figures.detectability.gaps`: each drawn as a
        point on its curve at its size (the signed difference in the tooltip).
    columns : int
        Panels per row.

    Returns
    -------
    altair.FacetChart
        A panel per benchmark and size, fewest problems first, with a dashed rule at 80% power.

    Examples
    --------
    >>> from helpers.figures import detectability as figures
    >>> gaps = figures.gaps()
    >>> chart = detectability(figures.power_curves(gaps), gaps)
    >>> chart.facet.to_dict()["sort"]  # the panels in order
    ['AIME2024 / AIME24 (30 problems)', 'MATH500 (500 problems)', 'MATH (5,000 problems)']
    """
    figures = gaps.sort("document")["figure"].unique(maintain_order=True).to_list()  # as numbered
    size = plot_size(*PANEL)  # as given, or as print lays it out (labels placed for it)
    fill, stroke, dash, shape = _figure_channels(figures, gaps["panel"].n_unique(), columns, size)
    x = (
        alt.X("difference:Q")
        .title("Size of the difference (percentage points)")
        .scale(nice=False)  # spanning the panel's curves exactly, as its labels were placed
        .axis(labelExpr=POINTS)
    )
    y = (
        alt.Y("power:Q")
        .title("Power")
        .scale(domain=[0, HEADROOM], nice=False)
        .axis(format=".0%", **stated_ticks([0, 0.2, 0.4, 0.6, 0.8, 1.0]))
    )
    tooltip = [
        tip("figure:N", "Figure"),
        tip("comparison:N", "Comparison"),
        tip("shown_points:Q", "Difference shown (points)", "+.1f"),
        tip("smallest_points:Q", "Smallest detectable, 80% power (points)", ".1f"),
        tip("power:Q", "Power at the difference shown", ".0%"),
    ]
    lines = (
        alt.Chart()
        .mark_line(strokeWidth=1.5)
        .encode(x=x, y=y, stroke=stroke, strokeDash=dash, detail="comparison:N")
        .transform_filter("datum.layer == 'curve'")
        .transform_calculate(figure_line="'line: ' + datum.figure")
    )
    points = (  # a white rim: two figures' points a few pixels apart stay two
        alt.Chart()
        .mark_point(filled=True, size=70, opacity=1, stroke="white", strokeWidth=1)
        .encode(x=x, y=y, fill=fill, shape=shape, tooltip=tooltip)
        .transform_filter("datum.layer == 'gap'")
    )
    hollow = (  # a reading that cannot be right as read: its point emptied, a ring in its colour
        alt.Chart()  # (drawn for every point, seen only on those: an empty layer warned)
        .mark_point(filled=True, size=22, color="white")
        .encode(
            x=x,
            y=y,
            shape=shape,
            opacity=alt.condition(alt.datum.doubtful, alt.value(1), alt.value(0)),
        )
        .transform_filter("datum.layer == 'gap'")
    )
    threshold = alt.Chart().mark_rule(strokeDash=[5, 3], color="#79706e").encode(y=alt.datum(0.8))
    rows = _labelled(size, _rows(curves, gaps))
    order = list(dict.fromkeys(rows.sort("problems", maintain_order=True)["panel"]))
    return (
        compose.layer(
            lines, threshold, points, hollow, *_label_layers(rows), data=_without_nulls(rows)
        )
        .properties(width=size[0], height=size[1])
        .facet(alt.Facet("panel:N").title(None).sort(order), columns=columns)
        .resolve_scale(x="independent")  # each panel its own x axis, spanning its own curves
        .properties(
            title=alt.Title(
                "Could the benchmark see it? Power against difference",
                subtitle=SUBTITLE + [DOUBTFUL] * bool(gaps["doubtful"].any()),
            )
        )
    )


def _rows(curves: pl.DataFrame, gaps: pl.DataFrame) -> pl.DataFrame:
    """`detectability`'s data: the curves' rows (`layer` "curve") and the figures' differences
    (`layer` "gap"), drawn at their size, their signed value kept for the tooltip."""
    return pl.concat(
        [
            curves.select("figure", "comparison", "difference", "power", "panel", "problems")
            .with_columns(layer=pl.lit("curve")),
            gaps.with_columns(
                shown_points=pl.col("difference") * 100,
                smallest_points=pl.col("minimum_detectable_difference") * 100,
                difference=pl.col("difference").abs(),
            )
            .select(
                "figure", "comparison", "difference", "power", "panel", "problems",
                "shown_points", "smallest_points", "label", "doubtful",
            )
            .with_columns(layer=pl.lit("gap")),
        ],
        how="diagonal_relaxed",
    )  # fmt: skip


def _labelled(size: tuple[float, float], rows: pl.DataFrame) -> pl.DataFrame:
    """`rows` with each point (a `gap` row) given its label's place in its panel, clear of the
    curves, the 80% rule and the other points and labels. A panel's x axis spans its curves
    (drawn unrounded, so the places are in the pixels Vega-Lite draws)."""
    placed = []
    for sub in rows.partition_by("panel", maintain_order=True):
        curves, gaps = sub.filter(layer="curve"), sub.filter(layer="gap")
        xdom = [0.0, float(curves["difference"].max())]
        # the 80% rule, and the axes (their lines and labels, 20 px below and 45 px left of the
        # plot: a label set on the x axis read as struck through)
        axis = place.Marks(
            boxes=(
                (xdom[0], 0.0, xdom[1], 0.0, 0, 0, 0, 20),
                (xdom[0], 0.0, xdom[0], 1.0, 45, 0, 0, 0),
            )
        )
        avoid = place.hrules([0.8], xdom) + axis + place.points(gaps["difference"], gaps["power"])
        xaxis, yaxis = Axis(xdom, size[0]), Axis([0.0, HEADROOM], size[1], flip=True)
        for curve in curves.partition_by("comparison", maintain_order=True):
            pixels = [
                (xaxis.to_px(x), yaxis.to_px(y))
                for x, y in zip(curve["difference"], curve["power"], strict=True)
            ]
            kept = curve[_simplified(pixels, 0, len(pixels) - 1)]
            avoid += place.line(kept["difference"], kept["power"], 1.5)
        placed += [
            curves,
            _leaders_everywhere(
                with_label_positions(
                    gaps, "difference", "power", "label", xaxis, yaxis, avoid=avoid, centred=True
                )
            ),
        ]
    return pl.concat(placed, how="diagonal_relaxed")


def _without_nulls(rows: pl.DataFrame) -> alt.InlineData:
    """The rows, each without its empty fields (a curve's point has none of a label's): a
    notebook stores every field of every row."""
    return alt.InlineData(
        values=[{k: v for k, v in r.items() if v is not None} for r in rows.iter_rows(named=True)]
    )


def _simplified(pixels: list[tuple[float, float]], first: int, last: int) -> list[int]:
    """The points of a curve (in pixels) that keep it within half a pixel of itself
    (Douglas-Peucker): a leader is tested against every segment of every curve, and the
    curves' flat stretches held most of them."""
    (x0, y0), (x1, y1) = pixels[first], pixels[last]
    length = math.hypot(x1 - x0, y1 - y0) or 1.0
    far, at = 0.0, None
    for i in range(first + 1, last):
        px, py = pixels[i]
        off = abs((x1 - x0) * (y0 - py) - (x0 - px) * (y1 - y0)) / length
        if off > far:
            far, at = off, i
    if at is None or far <= 0.5:
        return [first, last]
    return _simplified(pixels, first, at)[:-1] + _simplified(pixels, at, last)


def _leaders_everywhere(placed: pl.DataFrame) -> pl.DataFrame:
    """Every label given a leader, of no length at its point where it has none: in a facet, a
    layer with no rows in a panel gives its fields an empty extent, which Vega warns of."""
    if "leader_x" not in placed.columns:
        placed = placed.with_columns(
            leader_x=None, leader_y=None, leader_x2=None, leader_y2=None
        ).cast({f"leader_{k}": pl.Float64 for k in ("x", "y", "x2", "y2")})
    return placed.with_columns(
        leader_x=pl.col("leader_x").fill_null(pl.col("difference")),
        leader_x2=pl.col("leader_x2").fill_null(pl.col("difference")),
        leader_y=pl.col("leader_y").fill_null(pl.col("power")),
        leader_y2=pl.col("leader_y2").fill_null(pl.col("power")),
    )


def _label_layers(rows: pl.DataFrame) -> list[alt.Chart]:
    """The points' labels, centred (one layer, every panel with rows in it), over white halos
    shown where a label crosses a line, and the leaders of labels set further out. In a facet
    every layer has rows in every panel: one without gave Vega an empty extent to warn of."""
    base = alt.Chart().transform_filter("datum.layer == 'gap'")
    x, y = alt.X("label_x:Q"), alt.Y("label_y:Q")
    text = {"align": "center", "baseline": "middle", "fontSize": FONT_SIZE}
    halo = alt.condition(alt.datum.label_halo, alt.value(1), alt.value(0))
    return [
        base.mark_rule(**LEADER).encode(
            x=alt.X("leader_x:Q"), y=alt.Y("leader_y:Q"), x2="leader_x2:Q", y2="leader_y2:Q"
        ),
        base.mark_text(**text, **HALO).encode(x=x, y=y, text="label:N", opacity=halo),
        base.mark_text(**text).encode(x=x, y=y, text="label:N"),
    ]


def _figure_channels(
    figures: list[str], panels: int, columns: int, size: tuple[float, float]
) -> tuple:
    """`detectability`'s fill, stroke, dash and shape by figure."""
    # one legend, each figure's colour and shape, set in the grid's empty cell where it has one:
    # the points' fill and shape. The lines' stroke and dash (for greyscale) have none: a
    # legend of the lines' channels strokes its shapes with their dash, and they frayed. The
    # lines draw the figures under other names ("line: ..."): Vega-Lite merges legends of one
    # domain, and a merged legend with one channel's left out is left out whole
    lined = [f"line: {f}" for f in figures]
    fill, stroke, dash, shape = (
        channel(field).title("Figure").scale(domain=names, range=values[: len(figures)])
        for channel, field, names, values in (
            (alt.Fill, "figure:N", figures, FIGURE_COLOURS),
            (alt.Stroke, "figure_line:N", lined, FIGURE_COLOURS),
            (alt.StrokeDash, "figure_line:N", lined, RUN_DASHES),
            (alt.Shape, "figure:N", figures, RUN_SHAPES),
        )
    )
    stroke, dash = stroke.legend(None), dash.legend(None)
    place = {}
    if panels % columns:  # the empty cell at the grid's end: the legend there
        place |= {"orient": "none", "legendX": (panels % columns) * (size[0] + 60) + 40}
        place["legendY"] = (panels // columns) * (size[1] + 90) + 40
    fill, shape = fill.legend(**place), shape.legend(**place)
    return fill, stroke, dash, shape


def power_against_difference(
    curves: pl.DataFrame, marks: pl.DataFrame, *, power: float, title: str, subtitle: list[str],
    unit: str = "percentage points", by_panel: bool = False, columns: int = 2,
) -> alt.FacetChart:  # fmt: skip
    """`power`'s chart: the chance of telling two runs apart against how far apart they are,
    a line per design (or a panel per benchmark of two runs), a dashed rule at the power asked
    for, on each line the smallest detectable difference (circle) and the difference asked
    for (diamond), and the one observed as a dotted vertical rule (not a point on the curve:
    the power at the difference observed says nothing the p-value does not).

    Parameters
    ----------
    curves : polars.DataFrame
        Columns series, difference (in `unit`) and power (`runs.power_curves`).
    marks : polars.DataFrame
        Columns series, point ("smallest detectable", "asked" or "observed"), difference and
        power.
    power : float
        The power asked for (the rule).
    title, subtitle : str, list of str
        What the chart is of, and how.
    unit : str
        The differences' unit, for the x axis.
    by_panel : bool
        A panel per series (two runs' benchmarks), named by its title, all in one colour;
        else every series in one panel, told apart by colour and dash.
    columns : int
        Panels per row where there are several (two runs' benchmarks).

    Returns
    -------
    altair.FacetChart
        One panel per series with `by_panel`, else one panel.

    Examples
    --------
    >>> import polars as pl
    >>> curves = pl.DataFrame({"series": ["unpaired"] * 2, "difference": [0.0, 10.0],
    ...                        "power": [0.05, 0.9]})
    >>> marks = pl.DataFrame({"series": ["unpaired"], "point": ["smallest detectable"],
    ...                       "difference": [8.9], "power": [0.8]})
    >>> chart = power_against_difference(curves, marks, power=0.8, title="t", subtitle=[])
    >>> chart.facet.to_dict()["field"]
    'panel'
    """
    series = curves["series"].unique(maintain_order=True).to_list()
    rows = _power_rows(curves, marks, by_panel)
    by_series = _series_channels(series, by_panel)
    shapes = {"smallest detectable": "circle", "asked": "diamond"}
    kinds = [k for k in shapes if k in set(marks["point"])]
    shape = (
        alt.Shape("point:N").title("point").scale(domain=kinds, range=[shapes[k] for k in kinds])
    )
    x = alt.X("difference:Q").title(f"Difference ({unit})").scale(nice=False)
    y = alt.Y("power:Q").title("Power").scale(domain=[0, 1]).axis(format=".0%")
    lines = (
        alt.Chart()
        .transform_filter("datum.layer == 'curve'")
        .mark_line(strokeWidth=1.8)
        .encode(x=x, y=y, **by_series)
        .properties(name="curves")
    )
    points = _design_points(x, y, shape, by_series["color"], unit)
    observed = (
        alt.Chart()
        .transform_filter("datum.point == 'observed'")
        .mark_rule(strokeDash=[2, 2], color="#444444", strokeWidth=1.5)
        .encode(x=x, tooltip=[tip("difference:Q", f"Difference observed ({unit})", ".1f")])
        .properties(name="observed")
    )
    threshold = (
        alt.Chart()
        .mark_rule(strokeDash=[5, 3], color="#79706e")
        .encode(y=alt.datum(power))
        .properties(name="power asked")
    )
    width, height = (260, 170) if by_panel else (360, 220)
    if by_panel:  # as wide as its panel's name: a wider name moved the plot off its y axis
        width = max(width, math.ceil(max(text_width(s, 12) for s in series)) + 8)
    facet = alt.Facet("panel:N").title(None).header(labels=by_panel)
    across = min(columns, len(series)) if by_panel else 1
    subtitle = wrapped(subtitle, max(440, across * (width + 60) + 180))  # the legend beside
    said = _said_values(rows, x, y, unit)
    return (
        compose.layer(
            lines,
            threshold,
            *[observed] * ("observed" in set(marks["point"])),
            points,
            *said,
            data=rows,
        )
        .properties(width=width, height=height)
        .facet(facet, columns=columns)
        .resolve_scale(x="independent")
        .properties(title=alt.Title(title, subtitle=subtitle))
    )


def _power_rows(curves: pl.DataFrame, marks: pl.DataFrame, by_panel: bool) -> pl.DataFrame:
    """The curves and points as one frame, each row's panel, and `said_left`: whether a
    point's value is written left of it (a smallest detectable point the leftmost of several
    in its panel, the most powerful design's; an observed difference in the plot's right
    half, left of its rule)."""
    rows = pl.concat(
        [curves.with_columns(layer=pl.lit("curve")), marks.with_columns(layer=pl.lit("point"))],
        how="diagonal_relaxed",
    ).with_columns(panel=pl.col("series") if by_panel else pl.lit(""))
    smallest = pl.col("point") == "smallest detectable"
    ranked = pl.when(smallest).then(pl.col("difference"))
    reach = pl.when(pl.col("layer") == "curve").then(pl.col("difference")).max().over("panel")
    return rows.with_columns(
        said_left=smallest
        & (smallest.sum().over("panel") > 1)
        & (pl.col("difference") == ranked.min().over("panel"))
        # an observed difference in the plot's right half: its value said left of its rule
        | ((pl.col("point") == "observed") & (pl.col("difference") > reach / 2))
    )


def _series_channels(series: list[str], by_panel: bool) -> dict:
    """`power_against_difference`'s colour and dash by series: one each, or (a panel a
    series, named by its panel's title) one colour and no legend."""
    by_series = {
        name: channel("series:N")
        .title("design")
        .scale(
            domain=series,
            range=[values[0]] * len(series) if by_panel else values[: len(series)],
        )
        for name, channel, values in (
            ("color", alt.Color, RUN_COLOURS),
            ("strokeDash", alt.StrokeDash, RUN_DASHES),
        )
    }
    if by_panel:
        return {k: v.legend(None) for k, v in by_series.items()}
    # a line's key is a stretch of line in its dash (as a disc, a dash frayed it)
    return {k: v.legend(symbolType="stroke", symbolStrokeWidth=2) for k, v in by_series.items()}


def _said_values(rows: pl.DataFrame, x: alt.X, y: alt.Y, unit: str) -> list[alt.Chart]:
    """The values a power chart answers with, written where they are drawn (a PNG read alone
    must give them): each smallest detectable difference beside its circle, under its own
    rising curve on the right, or, the leftmost of several in a panel (the most powerful
    design, whose curve has none left of it), on the left above the power asked for; and
    the observed difference at the foot of its rule, under every curve (which start at the
    test's 5%). A layer only where it has rows."""
    digits, short = (".1f", " points") if unit.endswith("points") else (".3f", "")
    said = f"format(datum.difference, '{digits}') + '{short}'"
    smallest = rows.filter(pl.col("point") == "smallest detectable")
    leftmost = smallest.filter("said_left")
    sides = {  # side: (which rows, the text's alignment and offsets)
        "right": ("!datum.said_left", {"align": "left", "baseline": "top", "dx": 7, "dy": 5}),
        "left": ("datum.said_left", {"align": "right", "baseline": "bottom", "dx": -7, "dy": -5}),
    }
    layers = [
        alt.Chart()
        .transform_filter("datum.point == 'smallest detectable'")
        .transform_calculate(said=said)
        .transform_filter(which)
        .mark_text(color="#222222", fontSize=11, **where)
        .encode(x=x, y=y, text="said:N")
        .properties(name=f"point_values_{side}")
        for side, (which, where) in sides.items()
        if (leftmost.height if side == "left" else smallest.height - leftmost.height)
    ]
    observed = rows.filter(pl.col("point") == "observed")
    for left in sorted(set(observed["said_left"])):  # right of its rule, or left of it
        layers.append(
            alt.Chart()
            .transform_filter(f"datum.point == 'observed' && {'' if left else '!'}datum.said_left")
            .transform_calculate(said=f"'observed ' + {said}")
            .mark_text(
                align="right" if left else "left",
                baseline="bottom",
                dx=-4 if left else 4,
                dy=-2,
                color="#222222",
                fontSize=11,
            )  # fmt: skip
            .encode(x=x, y=alt.datum(0), text="said:N")
            .properties(name=f"observed_value{'_left' if left else ''}")
        )
    return layers


def _design_points(x: alt.X, y: alt.Y, shape: alt.Shape, colour: alt.Color, unit: str):
    """`power_against_difference`'s points: smallest detectable, asked for, observed."""
    digits = ".1f" if unit.endswith("points") else ".3f"
    return (
        alt.Chart()
        .transform_filter("datum.layer == 'point' && datum.point != 'observed'")
        .mark_point(filled=True, size=70, opacity=1)
        .encode(
            x=x,
            y=y,
            shape=shape,
            color=colour,
            tooltip=[
                tip("series:N", "Design"),
                tip("point:N", "Point"),
                tip("difference:Q", f"Difference ({unit})", digits),
                tip("power:Q", "Power", ".0%"),
            ],
        )
        .properties(name="points")
    )
