"""000 (Kimi k1.5): accuracy against token length, MATH500 and AIME2024."""

from __future__ import annotations

import altair as alt
import polars as pl

from .. import data, stats
from ..labels import Axis, text_layers, with_label_positions
from ..theme import COLOURS
from ._common import PANEL_H, PANEL_W, domain, reading


def length_scaling_panel(
    df: pl.DataFrame,
    panel: str,
    *,
    frontier: bool = False,
    intervals: bool = False,
    published: pl.DataFrame | None = None,
) -> alt.LayerChart:
    """One benchmark: labelled points, k1.5 orange and the other models blue.

    Options add the Pareto frontier (a step line), binomial 95% intervals for the benchmark's
    size, and published values (black crosses) from a frame with `model`, `token_length`,
    `accuracy`, `source`.
    """
    fig = data.figure("rl_length_scaling")
    described = fig["panels"][panel]
    sub = df.filter(pl.col("panel") == panel)
    xdom = domain(described["x_domain"], sub["token_length"].to_list(), 100)
    ydom = domain(described["y_domain"], sub["accuracy"].to_list(), 1.5)
    if intervals:
        sub = stats.with_intervals(sub, "accuracy", stats.BENCHMARK_SIZES[panel])
        ydom = [min(ydom[0], sub["lo"].min() - 1), max(ydom[1], min(100, sub["hi"].max() + 1))]
    sub = with_label_positions(
        sub,
        "token_length",
        "accuracy",
        "model",
        Axis(xdom, PANEL_W),
        Axis(ydom, PANEL_H, flip=True),
    ).with_columns(reading=reading("rl_length_scaling", "accuracy", "token_length"))

    x = alt.X("token_length:Q").title(fig["x_title"]).scale(domain=xdom, nice=False)
    y = alt.Y("accuracy:Q").title(f"{fig['y_title']} (%)").scale(domain=ydom, nice=False)
    colour = (
        alt.Color("group:N")
        .scale(domain=["k1.5", "other"], range=[COLOURS["k1.5"], COLOURS["other"]])
        .legend(title=None, orient="bottom-right")
    )
    base = alt.Chart(sub)
    points = base.mark_point(size=70, filled=True, opacity=1).encode(
        x=x,
        y=y,
        color=colour,
        tooltip=["model:N", "token_length:Q", "accuracy:Q", "reading:N"],
    )
    labels = text_layers(sub, "model", xdom, ydom)
    layers: list[alt.Chart] = []
    if intervals:
        layers.append(
            base.mark_rule(opacity=0.5, strokeWidth=2).encode(
                x=x,
                y=alt.Y("lo:Q").scale(domain=ydom, nice=False),
                y2="hi:Q",
                color=alt.Color("group:N")
                .scale(domain=["k1.5", "other"], range=[COLOURS["k1.5"], COLOURS["other"]])
                .legend(None),
            )
        )
    if frontier:
        front = stats.pareto_frontier(
            sub.select("model", "token_length", "accuracy"), "token_length", "accuracy"
        )
        layers.append(
            alt.Chart(front)
            .mark_line(
                interpolate="step-after", color="#555555", strokeDash=[4, 3], strokeWidth=1.5
            )
            .encode(x=x, y=y)
        )
    if published is not None:
        pub = published.filter(pl.col("panel") == panel)
        layers.append(
            alt.Chart(pub)
            .mark_point(shape="cross", size=90, color=COLOURS["published"], filled=True)
            .encode(x=x, y=y, tooltip=["model:N", "token_length:Q", "accuracy:Q", "source:N"])
        )
    return alt.layer(*layers, points, *labels).properties(
        title=panel, width=PANEL_W, height=PANEL_H
    )


def length_scaling(df: pl.DataFrame, **options) -> alt.HConcatChart:
    """000: MATH500 and AIME2024 side by side, accuracy against token length."""
    fig = data.figure("rl_length_scaling")
    panels = [length_scaling_panel(df, p, **options) for p in fig["panels"]]
    return alt.hconcat(*panels).properties(title=fig["title"])
