"""002 (Step-DPO): MATH accuracy against model size, with baselines and legend-only entries."""

from __future__ import annotations

import altair as alt
import polars as pl

from helpers import data
from helpers.charts._common import domain, heading, index_axis
from helpers.charts._tooltips import HOW_READ, PERCENT_ACCURACY, reading, tip
from helpers.charts.labels import Axis, text_layers, with_label_positions
from helpers.render.theme import COLOURS, DESCRIBED

MARKER_SHAPES = {"triangle": "triangle-up", "circle": "circle", "square": "square"}


# what the variant with `gains` adds, and how its marks are drawn (the subtitle's line)
GAINS = (
    "the Step-DPO gains",
    "red bars and labels: each Step-DPO point minus the model of the same name "
    "and size (percentage points)",
)


def step_dpo_sizing(df: pl.DataFrame, *, gains: pl.DataFrame | None = None) -> alt.HConcatChart:
    """002: MATH accuracy on a categorical model-size axis; Step-DPO red triangles, the others
    circles in their described colours; baselines as dashed rules labelled on the left; the
    legend as described (four entries that have no plotted point) beside the plot.

    `gains`, if given (columns model_size, base, step_dpo), draws each Step-DPO gain as an arrow
    from the matching model up or down to its Step-DPO point.
    """
    fig = data.figure("step_dpo_sizing")
    sizes = fig["x_categories"]
    points = df.filter(pl.col("kind") == "point").with_columns(
        pos=pl.col("model_size").replace_strict(sizes, list(range(len(sizes)))).cast(pl.Float64),
        hex=pl.col("colour").replace_strict(DESCRIBED),
        shape=pl.col("marker").replace_strict(MARKER_SHAPES),
        reading=reading("step_dpo_sizing", "accuracy"),
    )
    rules = df.filter(pl.col("kind") == "baseline")
    x, xdom = index_axis(sizes, fig["x_title"], pad=0.6)
    ydom = domain(fig["y_domain"], points["accuracy"].to_list(), 1)
    points = with_label_positions(
        points, "pos", "accuracy", "model", Axis(xdom, 560), Axis(ydom, 380, flip=True)
    )
    ticks = [fig["y_domain"][0] + 2.5 * i for i in range(13)]
    y = (
        alt.Y("accuracy:Q")
        .title(fig["y_title"])
        .scale(domain=ydom, nice=False, zero=False)
        .axis(values=ticks, format=".1f", labelOverlap=False)
    )

    base = alt.Chart(points)
    marks = base.mark_point(size=110, filled=True, opacity=1).encode(
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
    labels = text_layers(points, "model", xdom, ydom)
    rule_base = alt.Chart(rules.with_columns(left=pl.lit(xdom[0] + 0.05)))
    baselines = rule_base.mark_rule(strokeDash=[6, 4], color="#666666").encode(
        y=alt.Y("accuracy:Q").scale(domain=ydom),
        tooltip=[tip("model:N", "Baseline"), PERCENT_ACCURACY],
    )
    baseline_labels = rule_base.mark_text(align="left", dy=-7, color="#444444").encode(
        x=alt.X("left:Q").scale(domain=xdom), y=alt.Y("accuracy:Q"), text="model:N"
    )
    layers = [baselines, baseline_labels]
    if gains is not None:
        arrows = gains.with_columns(
            pos=pl.col("model_size").replace_strict(sizes, list(range(len(sizes)))).cast(pl.Float64)
            + 0.18
            + 0.14 * pl.col("model_size").cum_count().over("model_size").cast(pl.Float64)
            - 0.14
        )
        layers.append(
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
        layers.append(
            alt.Chart(arrows)
            .mark_text(align="left", dx=4, color=COLOURS["Step-DPO"])
            .transform_calculate(said="format(datum.gain, '+.1f') + ' pts'")  # points, not %
            .encode(x=alt.X("pos:Q").scale(domain=xdom), y=alt.Y("mid:Q"), text="said:N")
        )
    plot = alt.layer(*layers, marks, *labels).properties(width=560, height=380)
    legend_rows = (
        df.filter(pl.col("kind") == "legend only")
        .with_row_index("row")
        .with_columns(hex=pl.col("colour").replace_strict(DESCRIBED))
    )
    legend_base = alt.Chart(legend_rows).encode(
        y=alt.Y("row:O").axis(None), color=alt.Color("hex:N").scale(None)
    )
    legend = (
        legend_base.mark_point(filled=True, size=80, opacity=1).encode(x=alt.value(8))
        + legend_base.mark_text(align="left", dx=4, color="#222222").encode(
            x=alt.value(14), text="model:N"
        )
    ).properties(
        width=150,
        height=90,
        title=alt.Title(
            "Legend (as described)", subtitle=["no plotted point for", "these entries"], fontSize=12
        ),
    )
    added = [GAINS] if gains is not None else []
    return alt.hconcat(legend, plot).properties(title=heading(fig, added, centred=True))
