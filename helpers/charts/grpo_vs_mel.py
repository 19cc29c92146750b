"""004 (MEL): validation score against training step, GRPO against MEL."""

from __future__ import annotations

import altair as alt
import polars as pl

from helpers import data
from helpers.charts import _compose as compose
from helpers.charts import labels as place
from helpers.charts._common import domain, heading, plot_size, redrawable, stated_ticks
from helpers.charts._tooltips import HOW_READ, reading, tip
from helpers.figures.grpo_vs_mel import MethodCurves
from helpers.render.theme import COLOURS

METHODS = ["GRPO", "MEL"]
# what every variant's points and lines are (a reader may take each vertex for a logged
# evaluation and each segment for the curve between)
READINGS = "points: the description's approximate readings; straight segments join them"
SMOOTHED_DASHES = [[6, 3], [2, 2]]  # GRPO's smoothed curve dashed, MEL's dotted
METHOD_SHAPES = {"GRPO": "circle", "MEL": "triangle-up"}
WIDTH, HEIGHT = 520, 320
NUDGE = 1.2  # steps: the two methods' error bars side by side, GRPO left of MEL
SHIFTED = f"datum.step + (datum.method == 'MEL' ? {NUDGE} : {-NUDGE})"


def _stated(stated: pl.DataFrame, colour: alt.Color, xdom, ydom) -> alt.Chart:
    """The ranges the description states, as shaded boxes."""
    return (
        alt.Chart(stated)
        .mark_rect(opacity=0.18)
        .encode(
            x=alt.X("step:Q").scale(domain=xdom),
            x2="step_end:Q",
            y=alt.Y("range low:Q").scale(domain=ydom),
            y2="range high:Q",
            color=colour,
            tooltip=[
                tip("method:N", "Method"),
                tip("step:Q", "Range from step"),
                tip("step_end:Q", "Range to step"),
                tip("range low:Q", "Range, low"),
                tip("range high:Q", "Range, high"),
            ],
        )
        .properties(name="stated_ranges")
    )


def _stated_labels(named: pl.DataFrame, colour: alt.Color, xdom, ydom) -> alt.Chart:
    """Each stated range named where it is drawn (a PNG read alone must say what it is), at the
    spot `labels` found beside a point on the box's lower edge."""
    base = alt.Chart(named).encode(
        x=alt.X("label_x:Q").scale(domain=xdom),
        y=alt.Y("label_y:Q").scale(domain=ydom),
        text="note:N",
    )
    where = {"align": "center", "baseline": "middle", "fontSize": place.FONT_SIZE}
    text = base.mark_text(**where).encode(color=colour)
    layers = place.leader_layer(named, xdom, ydom)
    if named["label_halo"].any():  # a white halo where the label crosses a line
        layers.append(base.transform_filter(alt.datum.label_halo).mark_text(**where, **place.HALO))
    return compose.layer(*layers, text).properties(name="stated_range_labels")


def _peak_labels(peaks: pl.DataFrame, colour: alt.Color, xdom, ydom) -> list[alt.Chart]:
    """Each curve's peak named beside it (or further out, joined to it by a leader), over a
    white halo where it crosses a line."""
    base = alt.Chart(peaks).encode(
        x=alt.X("label_x:Q").scale(domain=xdom),
        y=alt.Y("label_y:Q").scale(domain=ydom),
        text="note:N",
    )
    where = {"baseline": "middle", "fontWeight": "bold"}
    text = base.mark_text(**where).encode(color=colour).properties(name="peaks")
    leaders = place.leader_layer(peaks, xdom, ydom)
    if not peaks["label_halo"].any():
        return [*leaders, text]
    halo = (
        base.transform_filter(alt.datum.label_halo)
        .mark_text(**where, **place.HALO)
        .properties(name="peak_halos")
    )
    return [*leaders, halo, text]


def _drawn(points: pl.DataFrame, smoothed: pl.DataFrame | None) -> place.Marks:
    """The marks the annotations keep off: points, curves, error bars (as wide as their ticks),
    smoothed curves."""
    marks = place.points(points["step"], points["score"], radius=6)
    for m, nudge in zip(METHODS, (-NUDGE, NUDGE), strict=True):
        own = points.filter(pl.col("method") == m).sort("step")
        marks += place.line(own["step"], own["score"])
        if "hi" in own.columns:
            marks += place.rules(own["step"] + nudge, own["lo"], own["hi"], width=5)
        if smoothed is not None:
            curve = smoothed.filter(pl.col("method") == m).sort("step")
            marks += place.line(curve["step"], curve["smoothed"], 1.5)
    return marks


def _intervals(base: alt.Chart, colour: alt.Color, fig: dict, xdom, ydom) -> alt.Chart:
    """95% intervals; the two methods share steps, so their bars are nudged apart."""
    return (
        base.transform_calculate(shifted=SHIFTED)
        .mark_errorbar(ticks={"size": 5}, thickness=1.5)  # as wide in Vega-Lite 5 as in 6
        .encode(
            x=alt.X("shifted:Q").scale(domain=xdom).title(fig["x_title"]),
            y=alt.Y("lo:Q").scale(domain=ydom).title(fig["y_title"]),
            y2="hi:Q",
            color=colour,
        )
        .properties(name="intervals")
    )


def _smoothed(smoothed: pl.DataFrame, x: alt.X, colour: alt.Color, ydom) -> list[alt.Chart]:
    """Smoothed curves as broken lines, GRPO's dashed and MEL's dotted, drawn bold over the
    readings (which fade): apart in greyscale too (no marker on them carries the method). A
    layer each, the dash a property of its mark, so the legend's symbols stay solid."""
    return [
        alt.Chart(smoothed.filter(pl.col("method") == method))
        .mark_line(strokeWidth=2.5, strokeDash=dash)
        .encode(
            x=x,
            y=alt.Y("smoothed:Q").scale(domain=ydom),
            color=colour,
            tooltip=[
                tip("method:N", "Method"),
                tip("step:Q", "Step"),
                tip("smoothed:Q", "Smoothed score", ".3f"),
            ],
        )
        .properties(name=f"smoothed {method}")
        for method, dash in zip(METHODS, SMOOTHED_DASHES, strict=True)
        if (smoothed["method"] == method).any()
    ]


def _domains(fig: dict, points: pl.DataFrame, intervals: bool) -> tuple[list, list]:
    """The x and y domains: as described, y widened to the points; with intervals, y from 0 to
    the highest bar, and x wide enough that the nudged bars at the first and last steps stay
    inside the plot, ticks and all."""
    ydom = domain(fig["y_domain"], points["score"].to_list(), 0.02)
    xdom = fig["x_domain"]
    if intervals:
        ydom = [0.0, max(ydom[1], points["hi"].max() + 0.02)]
        xdom = [xdom[0] - 2 * NUDGE, xdom[1] + 2 * NUDGE]
    return xdom, ydom


def _placed(
    curves: MethodCurves, points: pl.DataFrame, smoothed: pl.DataFrame | None, xdom, ydom
) -> tuple[pl.DataFrame, pl.DataFrame]:
    """The peaks and the stated ranges with their labels' positions: off the points, curves and
    bars, and off each other."""
    drawn = _drawn(points, smoothed)
    width, height = plot_size(WIDTH, HEIGHT)
    xaxis, yaxis = place.Axis(xdom, width), place.Axis(ydom, height, flip=True)
    peaks = curves.peaks.with_columns(at_x=pl.col("step"), at_y=pl.col("score"))
    if "hi" in peaks.columns:  # named at the top of its interval, which rises from the point
        nudge = pl.when(pl.col("method") == METHODS[0]).then(-NUDGE).otherwise(NUDGE)
        peaks = peaks.with_columns(at_x=pl.col("step") + nudge, at_y=pl.col("hi"))
    peaks = place.with_label_positions(
        peaks, "at_x", "at_y", "note", xaxis, yaxis, avoid=drawn, bold=True, centred=True
    )
    drawn += place.text_boxes(peaks["label_x"], peaks["label_y"], peaks["note"], bold=True)
    drawn += place.leaders(peaks)
    # a range is named at a point a quarter along its box's lower edge: its corner lies on a
    # gridline (a leader to it ran along one), and a curve may cross there
    stated = place.with_label_positions(
        curves.stated.with_columns(
            note=pl.format("{} range, as described", "method"),
            anchor=pl.col("step") + (pl.col("step_end") - pl.col("step")) / 4,
        ),
        "anchor",
        "range low",
        "note",
        xaxis,
        yaxis,
        avoid=drawn,
        centred=True,
    )
    return peaks, stated


def _by_method(channel, values: list[str]):
    """A colour or shape channel per method (GRPO, MEL), in the one legend at the bottom
    right."""
    return channel.scale(domain=METHODS, range=values).legend(
        title=None, orient="bottom-right", symbolOpacity=1
    )


def _axes(fig: dict, xdom, ydom, step: str = "step") -> tuple[alt.X, alt.Y]:
    """Step and score, the step ticks every 20 steps as described; `step` the field placed
    along x (`shifted`: nudged with the error bars)."""
    ticks = list(range(fig["x_domain"][0], fig["x_domain"][1] + 1, 20))
    x = (
        alt.X(f"{step}:Q")
        .title(fig["x_title"])
        .scale(domain=xdom, nice=False)
        .axis(**stated_ticks(ticks))  # as described
    )
    y = alt.Y("score:Q").title(fig["y_title"]).scale(domain=ydom, nice=False, zero=False)
    return x, y


def _lines(base: alt.Chart, x: alt.X, y: alt.Y, colour: alt.Color, faint: bool) -> alt.Chart:
    """Each method's curve (`faint` under smoothed curves)."""
    line = base.mark_line(strokeWidth=1, opacity=0.45) if faint else base.mark_line(strokeWidth=2)
    return line.encode(x=x, y=y, color=colour).properties(name="lines")


def _points(
    base: alt.Chart, x: alt.X, y: alt.Y, colour: alt.Color, shape: alt.Shape, faint: bool
) -> alt.Chart:
    """Each method's readings: GRPO circles, MEL triangles (`faint` under smoothed curves)."""
    return (
        base.mark_point(filled=True, size=50 if faint else 80, opacity=0.55 if faint else 1)
        .encode(
            x=x,
            y=y,
            color=colour,
            shape=shape,
            tooltip=[
                tip("method:N", "Method"),
                tip("step:Q", "Step"),
                tip("score:Q", "Score", ".2f"),
                HOW_READ,
            ],
        )
        .properties(name="points")
    )


def _added(intervals: bool, smoothed: pl.DataFrame | None) -> list[tuple[str, str]]:
    """What the title names as added to the chart as described, with the subtitle's line."""
    added = []
    if intervals:
        added.append(
            (
                "95% intervals",
                "error bars: Wilson 95% intervals, counting the benchmark's problems; the two "
                f"methods set {NUDGE:g} steps either side of their step so both show",
            )
        )
    if smoothed is not None:
        weight = smoothed["weight"][0] if "weight" in smoothed.columns else None
        said = f", weight {weight:g}" if weight is not None else ""
        added.append(
            (
                "smoothed curves",
                f"GRPO dashed, MEL dotted: moving average (EMA{said}) of the readings in step "
                "order, their spacing ignored",
            )
        )
    return added


@redrawable
def grpo_vs_mel(curves: MethodCurves, *, smoothed: pl.DataFrame | None = None) -> alt.LayerChart:
    """004: validation score against training step, GRPO blue circles and MEL red triangles (a
    legend names them), each curve's peak annotated, and the one stated range (GRPO, steps
    60-100) as a shaded box.

    Parameters
    ----------
    curves : MethodCurves
        Points, stated ranges and peaks, from `figures.grpo_vs_mel.method_curves`; where the
        points have `lo`, `hi` they are drawn as 95% intervals.
    smoothed : polars.DataFrame, optional
        Columns method, step, smoothed (`figures.grpo_vs_mel.smooth`): adds dashed smoothed
        curves.

    Returns
    -------
    altair.LayerChart
        One plot, its layers named; titled as described, or naming the intervals or smoothed
        curves added.

    Examples
    --------
    >>> import helpers
    >>> from helpers.figures import grpo_vs_mel as figures
    >>> chart = grpo_vs_mel(figures.method_curves(helpers.load("grpo_vs_mel")))
    >>> [layer.name for layer in chart.layer]
    ['stated_ranges', 'lines', 'points', 'peaks', 'stated_range_labels']
    """
    fig = data.figure("grpo_vs_mel")
    points = curves.points.with_columns(reading=reading("grpo_vs_mel", "score"))
    intervals = "hi" in points.columns
    xdom, ydom = _domains(fig, points, intervals)
    # the annotations keep off the points, curves and bars, and off each other
    peaks, stated = _placed(curves, points, smoothed, xdom, ydom)
    colour = _by_method(alt.Color("method:N"), [COLOURS[m] for m in METHODS])
    shape = _by_method(alt.Shape("method:N"), [METHOD_SHAPES[m] for m in METHODS])
    x, y = _axes(fig, xdom, ydom)
    base = alt.Chart(points)
    placed = x  # where the readings sit: nudged beside each other with their error bars
    if intervals:
        placed = _axes(fig, xdom, ydom, step="shifted")[0]
        base = base.transform_calculate(shifted=SHIFTED)
    layers: list[alt.Chart] = [_stated(curves.stated, colour, xdom, ydom)]
    if intervals:
        layers.append(_intervals(base, colour, fig, xdom, ydom))
    faint = smoothed is not None
    width, height = plot_size(WIDTH, HEIGHT)
    return compose.layer(
        *layers,
        _lines(base, placed, y, colour, faint),
        _points(base, placed, y, colour, shape, faint),
        *(_smoothed(smoothed, x, colour, ydom) if smoothed is not None else []),
        *_peak_labels(peaks, colour, xdom, ydom),
        _stated_labels(stated, colour, xdom, ydom),
    ).properties(
        title=heading(fig, _added(intervals, smoothed), centred=True, notes=[READINGS]),
        width=width,
        height=height,
    )
