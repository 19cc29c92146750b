"""004 (MEL): validation score against training step, GRPO against MEL."""

from __future__ import annotations

import altair as alt
import polars as pl

from helpers import data
from helpers.charts._common import domain, heading
from helpers.charts._tooltips import HOW_READ, reading, tip
from helpers.figures.grpo_vs_mel import MethodCurves
from helpers.render.theme import COLOURS

METHODS = ["GRPO", "MEL"]
METHOD_SHAPES = {"GRPO": "circle", "MEL": "triangle-up"}


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


def _stated_labels(stated: pl.DataFrame, colour: alt.Color, xdom, ydom) -> alt.Chart:
    """Each stated range named where it is drawn (a PNG read alone must say what it is)."""
    named = stated.with_columns(note=pl.format("{} range, as described", "method"))
    base = alt.Chart(named).encode(
        x=alt.X("step:Q").scale(domain=xdom),
        y=alt.Y("range high:Q").scale(domain=ydom),
        text="note:N",
    )
    where = {"align": "left", "baseline": "bottom", "dx": 3, "dy": -3, "fontSize": 10}
    # a white halo under the text: the curves cross the box the label names
    halo = base.mark_text(**where, stroke="white", strokeWidth=3, strokeJoin="round")
    text = base.mark_text(**where).encode(color=colour)
    return alt.layer(halo, text).properties(name="stated_range_labels")


def _intervals(base: alt.Chart, colour: alt.Color, fig: dict, ydom) -> alt.Chart:
    """95% intervals; the two methods share steps, so their bars are nudged apart."""
    return (
        base.transform_calculate(shifted="datum.step + (datum.method == 'MEL' ? 1.2 : -1.2)")
        .mark_errorbar(ticks=True, thickness=1.5)
        .encode(
            x=alt.X("shifted:Q").scale(domain=fig["x_domain"]).title(fig["x_title"]),
            y=alt.Y("lo:Q").scale(domain=ydom).title(fig["y_title"]),
            y2="hi:Q",
            color=colour,
        )
        .properties(name="intervals")
    )


def _smoothed(smoothed: pl.DataFrame, x: alt.X, colour: alt.Color, ydom) -> alt.Chart:
    """Smoothed curves as dashed lines."""
    return (
        alt.Chart(smoothed)
        .mark_line(strokeDash=[5, 3], strokeWidth=1.5)
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
        .properties(name="smoothed")
    )


def grpo_vs_mel(curves: MethodCurves, *, smoothed: pl.DataFrame | None = None) -> alt.LayerChart:
    """004: validation score against training step, GRPO blue circles and MEL red triangles (a
    legend names them), each curve's peak annotated, and the one stated range (GRPO, steps
    60-100) as a shaded box.

    `curves` comes from `grpo_vs_mel.method_curves`; where its points have `lo`, `hi` they are drawn
    as 95% intervals. `smoothed` (columns method, step, smoothed; `grpo_vs_mel.smooth`) adds
    dashed smoothed curves.
    """
    fig = data.figure("grpo_vs_mel")
    points = curves.points.with_columns(reading=reading("grpo_vs_mel", "score"))
    ydom = domain(fig["y_domain"], points["score"].to_list(), 0.02)
    intervals = "hi" in points.columns
    if intervals:
        ydom = [0.0, max(ydom[1], points["hi"].max() + 0.02)]
    colour = (
        alt.Color("method:N")
        .scale(domain=METHODS, range=[COLOURS[m] for m in METHODS])
        .legend(title=None, orient="bottom-right", symbolOpacity=1)
    )
    shape = (
        alt.Shape("method:N")
        .scale(domain=METHODS, range=[METHOD_SHAPES[m] for m in METHODS])
        .legend(title=None, orient="bottom-right", symbolOpacity=1)
    )
    x = (
        alt.X("step:Q")
        .title(fig["x_title"])
        .scale(domain=fig["x_domain"], nice=False)
        .axis(values=list(range(fig["x_domain"][0], fig["x_domain"][1] + 1, 20)))  # as described
    )
    y = alt.Y("score:Q").title(fig["y_title"]).scale(domain=ydom, nice=False, zero=False)
    base = alt.Chart(points)
    lines = base.mark_line(strokeWidth=2).encode(x=x, y=y, color=colour).properties(name="lines")
    marks = (
        base.mark_point(filled=True, size=80, opacity=1)
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
    peaks = (
        alt.Chart(curves.peaks)
        .mark_text(dy=-12, fontWeight="bold")
        .encode(x=x, y=y, text="note:N", color=colour)
        .properties(name="peaks")
    )
    layers: list[alt.Chart] = [_stated(curves.stated, colour, fig["x_domain"], ydom)]
    if intervals:
        layers.append(_intervals(base, colour, fig, ydom))
    if smoothed is not None:
        layers.append(_smoothed(smoothed, x, colour, ydom))
    added = []
    if intervals:
        added.append(
            ("95% intervals", "error bars: Wilson 95% intervals, counting the benchmark's problems")
        )
    if smoothed is not None:
        added.append(
            ("smoothed curves", "dashed: bias-corrected exponential moving average of each curve")
        )
    labels = _stated_labels(curves.stated, colour, fig["x_domain"], ydom)
    return alt.layer(*layers, lines, marks, peaks, labels).properties(
        title=heading(fig, added, centred=True), width=520, height=320
    )
