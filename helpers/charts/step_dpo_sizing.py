"""002 (Step-DPO): MATH accuracy against model size, with baselines and legend-only entries."""

from __future__ import annotations

import textwrap

import altair as alt
import polars as pl

from helpers import data
from helpers.charts import _compose as compose
from helpers.charts import labels as place
from helpers.charts._common import (
    domain,
    heading,
    index_axis,
    plot_size,
    redrawable,
    stated_ticks,
)
from helpers.charts._tooltips import HOW_READ, PERCENT_ACCURACY, reading, tip
from helpers.charts.labels import Axis, text_layers, with_label_positions
from helpers.render.theme import COLOURS, DESCRIBED

MARKER_SHAPES = {"triangle": "triangle-up", "circle": "circle", "square": "square"}


# what the variant with `gains` adds, and how its marks are drawn (the subtitle's line)
GAINS = (
    "the gaps to the plotted models",
    (
        "red bars and labels: each Step-DPO point minus the plotted model of its name and size "
        "(percentage points)",
        "only the 32B bar is a Step-DPO gain (from its SFT model); the others set Step-DPO models "
        "beside differently trained Instruct models",
    ),
)


@redrawable
def step_dpo_sizing(df: pl.DataFrame, *, gains: pl.DataFrame | None = None) -> alt.HConcatChart:
    """002: MATH accuracy on a categorical model-size axis; Step-DPO red triangles, the others
    circles in their described colours; baselines as dashed rules labelled on the left; the
    legend as described (four entries that have no plotted point) beside the plot.

    Parameters
    ----------
    df : polars.DataFrame
        The 002 readings (`helpers.load("step_dpo_sizing")`): model, kind ("point", "baseline"
        or "legend only"), model_size, accuracy, marker, colour and annotation.
    gains : polars.DataFrame, optional
        Columns model_size, base_model, base, step_dpo, mid, gain
        (`figures.step_dpo_sizing.step_dpo_gains`): draws each Step-DPO gain as a bar from the
        matching model up or down to its Step-DPO point, labelled in points.

    Returns
    -------
    altair.HConcatChart
        The legend, then the plot; titled as described, or naming the gains when drawn.

    Examples
    --------
    >>> import helpers
    >>> chart = step_dpo_sizing(helpers.load("step_dpo_sizing"))
    >>> chart.title.text
    'Accuracy on the MATH test set'
    """
    fig = data.figure("step_dpo_sizing")
    sizes = fig["x_categories"]
    points = df.filter(pl.col("kind") == "point").with_columns(
        pos=_position(sizes),
        hex=pl.col("colour").replace_strict(DESCRIBED),
        shape=pl.col("marker").replace_strict(MARKER_SHAPES),
        reading=reading("step_dpo_sizing", "accuracy"),
    )
    # a gain's label right of a bar set apart at the last size needs room inside the plot
    x, xdom = index_axis(sizes, fig["x_title"], pad=0.6, right=0.6 if gains is None else 0.9)
    rules = df.filter(pl.col("kind") == "baseline").with_columns(left=pl.lit(xdom[0] + 0.05))
    ydom = domain(fig["y_domain"], points["accuracy"].to_list(), 1)
    if gains is not None:
        # two gains at one size (a model above the Step-DPO point, one below) would join
        # into one bar through it: the first at the size, each next a little to its right
        # (the names are set left of their points)
        gains = gains.with_columns(pos=_position(sizes)).with_columns(
            pos=pl.col("pos") + APART * pl.int_range(pl.len()).over("pos")
        )
    points = _named_points(points, rules, gains, xdom, ydom)
    layers = _baselines(rules, xdom, ydom)
    if gains is not None:
        layers += _gain_layers(gains, points, rules["accuracy"].to_list(), xdom, ydom)
    width, height = plot_size(*PLOT)
    plot = compose.layer(
        *layers,
        _markers(points, x, _accuracy_axis(fig, ydom)),
        *text_layers(points, "model", xdom, ydom),
    ).properties(width=width, height=height)
    added = [GAINS] if gains is not None else []
    # what the drawn marks are, which the figure's own legend (beside) does not key
    notes = [
        "red triangles: Step-DPO models; circles: the other models, in their described "
        "colours; sizes in order along the axis, not to scale"
    ]
    return compose.hconcat(_legend(df), plot).properties(
        title=heading(fig, added, centred=True, notes=notes)
    )


def _position(sizes: list[str]) -> pl.Expr:
    """A model size's place on the categorical axis: 0, 1, ... in the described order."""
    return pl.col("model_size").replace_strict(sizes, list(range(len(sizes)))).cast(pl.Float64)


def _named_points(
    points: pl.DataFrame, rules: pl.DataFrame, gains: pl.DataFrame | None, xdom, ydom
) -> pl.DataFrame:
    """The points with their names' positions: off the baselines, their names and the gain
    bars."""
    drawn = place.hrules(rules["accuracy"], xdom) + place.text_boxes(
        rules["left"], rules["accuracy"], rules["model"], align="left", dy=-7
    )
    if gains is not None:  # the bars, and the caps of one set apart
        drawn += place.rules(gains["pos"], gains["base"], gains["step_dpo"])
        caps = _caps(gains).select("near", "pos", "level").iter_rows()
        drawn += place.Marks(segments=tuple((x0, y, x1, y, 2.0) for x0, x1, y in caps))
    width, height = plot_size(*PLOT)
    return with_label_positions(
        points,
        "pos",
        "accuracy",
        "model",
        Axis(xdom, width),
        Axis(ydom, height, flip=True),
        avoid=drawn,
    )


def _accuracy_axis(fig: dict, ydom) -> alt.Y:
    """Accuracy, ticked every 2.5 points from the described domain's foot (each of them:
    Vega's default count here, 10, drew every other one)."""
    ticks = [fig["y_domain"][0] + 2.5 * i for i in range(13)]
    return (
        alt.Y("accuracy:Q")
        .title(fig["y_title"])
        .scale(domain=ydom, nice=False, zero=False)
        .axis(**stated_ticks(ticks), format=".1f", labelOverlap=False)
    )


def _markers(points: pl.DataFrame, x: alt.X, y: alt.Y) -> alt.Chart:
    """The models' points, in their described shapes and colours."""
    return (
        alt.Chart(points)
        .mark_point(size=110, filled=True, opacity=1)
        .encode(
            x=x,
            y=y,
            color=alt.Color("hex:N").scale(None),
            shape=alt.Shape("shape:N").scale(None),
            tooltip=[
                tip("model:N", "Model"),
                tip("model_size:N", "Model size"),
                PERCENT_ACCURACY,
                HOW_READ,
                tip("colour:N", "Colour (as described)"),
                tip("marker:N", "Marker (as described)"),
                tip("annotation:N", "Marked with (as described)"),
            ],
        )
    )


def _baselines(rules: pl.DataFrame, xdom, ydom) -> list[alt.Chart]:
    """The baselines as dashed rules, each named on the left."""
    rule_base = alt.Chart(rules)
    baselines = rule_base.mark_rule(strokeDash=[6, 4], color="#666666").encode(
        y=alt.Y("accuracy:Q").scale(domain=ydom),
        tooltip=[tip("model:N", "Baseline"), PERCENT_ACCURACY],
    )
    baseline_labels = rule_base.mark_text(align="left", dy=-7, color="#444444").encode(
        x=alt.X("left:Q").scale(domain=xdom), y=alt.Y("accuracy:Q"), text="model:N"
    )
    return [baselines, baseline_labels]


APART = 0.25  # of the space between two sizes: gains at one size set apart by this much
SET_APART = pl.col("pos") != pl.col("pos").round(0)  # a gain's bar moved off its markers' size
GAIN_TEXT = "#b8363f"  # the gains' red, darkened for text: 5.9:1 on white (the bars' is 3.6:1)


def _gain_layers(
    gains: pl.DataFrame, points: pl.DataFrame, rules: list[float], xdom, ydom
) -> list[alt.Chart]:
    """Each Step-DPO gain as a bar joining a model to its Step-DPO point at their own size,
    under the markers and clear of the names beside them; its label goes right of it, else
    left, else above it, whichever side has no name within a line's height of the label,
    at the bar's middle or, where a baseline's dashed rule runs there, along the bar off it."""
    names = points.select("pos", "label_y", "label_align")
    gains = gains.with_columns(
        mid=pl.Series(
            [_off_rules(lo, hi, rules) for lo, hi in gains.select("base", "step_dpo").rows()]
        )
    )
    arrows = gains.with_columns(
        side=pl.Series(
            [_gain_side(names, pos, mid) for pos, mid in gains.select("pos", "mid").rows()],
            dtype=pl.String,
        ),
        top=pl.max_horizontal("base", "step_dpo"),
    )
    return [_gain_bars(arrows, xdom, ydom), *_gain_caps(arrows, xdom, ydom)] + _gain_labels(
        arrows, xdom
    )


CLEAR = 0.6  # accuracy points (about 8 px) left between a gain's bar and each of its markers


def _gain_bars(arrows: pl.DataFrame, xdom, ydom) -> alt.Chart:
    """The gain bars, red, from the matching model up or down to its Step-DPO point, stopping
    short of both markers: a bar that ran into the Step-DPO triangle read as an arrow pointing
    where the triangle points (up), a falling gap as a rise."""
    towards = (pl.col("step_dpo") - pl.col("base")).sign()
    towards = pl.when(SET_APART).then(0).otherwise(towards)
    arrows = arrows.with_columns(
        base=pl.col("base") + CLEAR * towards, step_dpo=pl.col("step_dpo") - CLEAR * towards
    )
    return (
        alt.Chart(arrows)
        .mark_rule(color=COLOURS["Step-DPO"], strokeWidth=2)
        .encode(
            x=alt.X("pos:Q").scale(domain=xdom),
            y=alt.Y("base:Q").scale(domain=ydom),
            y2="step_dpo:Q",
            tooltip=[
                tip("model_size:N", "Model size"),
                tip("base_model:N", "Base model"),
                tip("gain:Q", "Gain (pts)", "+.1f"),
            ],
        )
    )


MARKER_CLEAR = 0.1  # sizes (about 8 px): a cap stops this far short of its marker


def _gain_caps(arrows: pl.DataFrame, xdom, ydom) -> list[alt.Chart]:
    """A bar set apart from its markers (a second gain at one size) as a bracket: a short cap
    at each end, back towards the marker it starts or ends at, so it reads as the gap between
    them (alone, its ends met the baselines' rules and read as the gap between those)."""
    caps = _caps(arrows)
    if not caps.height:
        return []  # no empty layers (a browser warns of their infinite extents)
    return [
        alt.Chart(caps)
        .mark_rule(color=COLOURS["Step-DPO"], strokeWidth=2)
        .encode(
            x=alt.X("near:Q").scale(domain=xdom),
            x2="pos:Q",
            y=alt.Y("level:Q").scale(domain=ydom),
        )
    ]


def _caps(gains: pl.DataFrame) -> pl.DataFrame:
    """The caps of the bars set apart (`_gain_caps`), drawn and kept off by the names alike:
    pos (the bar), at (its markers' size), level (base or step_dpo) and near (where the cap
    stops short of the marker)."""
    apart = gains.filter(SET_APART).with_columns(at=pl.col("pos").round(0))
    caps = apart.unpivot(["base", "step_dpo"], index=["pos", "at"], value_name="level")
    return caps.with_columns(near=pl.col("at") + MARKER_CLEAR)


def _gain_labels(arrows: pl.DataFrame, xdom) -> list[alt.Chart]:
    """The gains in points, a text layer per side of the bars that has any."""
    placed = {"right": ("left", 7, 0, "mid"), "left": ("right", -7, 0, "mid")}
    placed["above"] = ("center", 0, -10, "top")
    layers = []
    for side, (align, dx, dy, at) in placed.items():
        if side not in set(arrows["side"]):
            continue  # no empty layers (a browser warns of their infinite extents)
        layers.append(
            alt.Chart(arrows.filter(pl.col("side") == side))
            .mark_text(align=align, dx=dx, dy=dy, color=GAIN_TEXT)
            .transform_calculate(said="format(datum.gain, '+.1f') + ' pts'")  # points, not %
            .encode(x=alt.X("pos:Q").scale(domain=xdom), y=alt.Y(f"{at}:Q"), text="said:N")
        )
    return layers


def _legend(df: pl.DataFrame) -> alt.LayerChart:
    """The legend as described: the four entries that have no plotted point, their swatches
    hollow (rings in the described colours) so that none reads as the key of a filled point
    of the same colour, and a ring whose colour points also have says so; and what the figure
    leaves unexplained, its dagger. The notes are rows under the entries, not the legend's
    subtitle: a title as tall as they are pushed the plot beside it down by as much."""
    entries = (
        df.filter(pl.col("kind") == "legend only")
        .select("model", hex=pl.col("colour").replace_strict(DESCRIBED))
        .with_columns(note=pl.lit(False))
    )
    said = ["entries with no point", "in the figure (rings)", *_colours_shared(df)]
    said += ["†: a mark the figure", "does not explain"]
    notes = pl.DataFrame({"model": said, "hex": None, "note": True}, schema=entries.schema)
    rows = pl.concat([notes.head(2), entries, notes.slice(2)]).with_row_index("row")
    base = alt.Chart(rows).encode(y=alt.Y("row:O").axis(None))
    rings = base.transform_filter(~alt.datum.note).mark_point(
        filled=False, size=70, opacity=1, strokeWidth=2
    )
    return (
        rings.encode(x=alt.value(8), color=alt.Color("hex:N").scale(None))
        + base.transform_filter(~alt.datum.note)
        .mark_text(align="left", dx=4, color="#222222")  # dark: coloured text is faint
        .encode(x=alt.value(14), text="model:N")
        + base.transform_filter(alt.datum.note)
        .mark_text(align="left", color="#555555")
        .encode(x=alt.value(0), text="model:N")
    ).properties(
        width=150,
        height=18 * rows.height,
        title=alt.Title("The figure's legend", fontSize=12, anchor="start"),
        view=alt.ViewConfig(stroke=None),  # a legend, not a plot: no frame
    )


def _colours_shared(df: pl.DataFrame) -> list[str]:
    """The legend's lines naming a ring whose colour the figure also gives plotted points (a
    reader would take the ring to name them), wrapped to the legend's width."""
    drawn = df.filter(pl.col("kind") == "point")
    lines = []
    for colour in df.filter(pl.col("kind") == "legend only")["colour"]:
        n = drawn.filter(pl.col("colour") == colour).height
        if n:
            said = f"({colour} is also the colour of {n} points, each named by its label)"
            lines += textwrap.wrap(said, 24)
    return lines


PLOT = (560, 380)  # px: the plot's width and height on a screen
LINE = 1.3  # accuracy points: a label's height on this plot (380 px for about 30 points)


def _off_rules(low: float, high: float, rules: list[float]) -> float:
    """Where along a bar from `low` to `high` its label sits: the middle, else the nearest
    point of the bar (in steps of half a line) that no baseline rule crosses the label at."""
    low, high = sorted((low, high))
    middle = (low + high) / 2
    for shift in (0, -0.5, 0.5, -1, 1, -1.5, 1.5, -2, 2):
        at = middle + shift * LINE
        if low <= at <= high and all(abs(at - r) >= 0.6 * LINE for r in rules):
            return at
    return middle


def _gain_side(names: pl.DataFrame, pos: float, mid: float) -> str:
    """Where a gain's label goes: right of its bar unless a model's name starts there within a
    line of it; else left unless a name of this size, or one reaching over from the size
    before, sits there; else above the bar."""
    near = names.filter((pl.col("label_y") - mid).abs() < LINE)
    if near.filter(pl.col("pos") == pos, pl.col("label_align") == "left").height == 0:
        return "right"
    left = ((pl.col("pos") == pos) & (pl.col("label_align") == "right")) | (
        (pl.col("pos") == pos - 1) & (pl.col("label_align") == "left")
    )
    return "left" if near.filter(left).height == 0 else "above"
