"""004 (MEL): validation score against training step, GRPO against MEL."""

from __future__ import annotations

import altair as alt
import polars as pl

from .. import data, stats
from ..theme import COLOURS
from ._common import domain, reading

METHOD_SHAPES = {"GRPO": "circle", "MEL": "triangle-up"}


def grpo_vs_mel(
    df: pl.DataFrame,
    *,
    n_problems: int | None = None,
    smoothed: pl.DataFrame | None = None,
) -> alt.LayerChart:
    """004: validation score against training step, GRPO blue circles and MEL red triangles,
    each curve's peak annotated, and the one stated range (GRPO, steps 60-100) as a shaded box.

    `n_problems` adds Wilson 95% intervals for a benchmark of that size; `smoothed` (columns
    method, step, smoothed) adds smoothed curves as dashed lines.
    """
    fig = data.figure("grpo_vs_mel")
    points = df.filter(pl.col("kind") == "point").with_columns(
        reading=reading("grpo_vs_mel", "score")
    )
    ranges = df.filter(pl.col("kind") != "point").pivot(
        on="kind", index=["method", "step", "step_end"], values="score"
    )
    ydom = domain(fig["y_domain"], points["score"].to_list(), 0.02)
    if n_problems is not None:
        points = stats.with_intervals(points, "score", n_problems, scale=1.0)
        ydom = [0.0, max(ydom[1], points["hi"].max() + 0.02)]
    methods = ["GRPO", "MEL"]
    colour = (
        alt.Color("method:N")
        .scale(domain=methods, range=[COLOURS[m] for m in methods])
        .legend(title=None, orient="bottom-right")
    )
    shape = (
        alt.Shape("method:N")
        .scale(domain=methods, range=[METHOD_SHAPES[m] for m in methods])
        .legend(title=None, orient="bottom-right")
    )
    x = alt.X("step:Q").title(fig["x_title"]).scale(domain=fig["x_domain"], nice=False)
    y = alt.Y("score:Q").title(fig["y_title"]).scale(domain=ydom, nice=False, zero=False)
    base = alt.Chart(points)
    lines = base.mark_line(strokeWidth=2).encode(x=x, y=y, color=colour)
    marks = base.mark_point(filled=True, size=80, opacity=1).encode(
        x=x,
        y=y,
        color=colour,
        shape=shape,
        tooltip=["method:N", "step:Q", alt.Tooltip("score:Q", format=".2f"), "reading:N"],
    )
    peaks = points.sort("score", descending=True).unique("method", keep="first").sort("method")
    peaks = peaks.with_columns(
        note=pl.format("peak {} (step {})", pl.col("score").round(2), pl.col("step"))
    )
    peak_labels = (
        alt.Chart(peaks)
        .mark_text(dy=-12, fontWeight="bold")
        .encode(x=x, y=y, text="note:N", color=colour)
    )
    stated = (
        alt.Chart(ranges)
        .mark_rect(opacity=0.18)
        .encode(
            x=alt.X("step:Q").scale(domain=fig["x_domain"]),
            x2="step_end:Q",
            y=alt.Y("range low:Q").scale(domain=ydom),
            y2="range high:Q",
            color=alt.Color("method:N")
            .scale(domain=methods, range=[COLOURS[m] for m in methods])
            .legend(None),
            tooltip=["method:N", "step:Q", "step_end:Q", "range low:Q", "range high:Q"],
        )
    )
    layers: list[alt.Chart] = [stated]
    if n_problems is not None:
        # the two methods share steps: nudge their bars apart so both stay visible
        layers.append(
            base.transform_calculate(shifted="datum.step + (datum.method == 'MEL' ? 1.2 : -1.2)")
            .mark_errorbar(ticks=True, thickness=1.5)
            .encode(
                x=alt.X("shifted:Q").scale(domain=fig["x_domain"]).title(fig["x_title"]),
                y=alt.Y("lo:Q").scale(domain=ydom).title(fig["y_title"]),
                y2="hi:Q",
                color=colour,
            )
        )
    if smoothed is not None:
        layers.append(
            alt.Chart(smoothed)
            .mark_line(strokeDash=[5, 3], strokeWidth=1.5)
            .encode(
                x=x,
                y=alt.Y("smoothed:Q").scale(domain=ydom),
                color=colour,
                tooltip=["method:N", "step:Q", alt.Tooltip("smoothed:Q", format=".3f")],
            )
        )
    return alt.layer(*layers, lines, marks, peak_labels).properties(
        title=fig["title"], width=520, height=320
    )
