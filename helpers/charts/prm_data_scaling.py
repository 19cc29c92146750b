"""003 (ReasonFlux-PRM): accuracy against training samples and against PRM size."""

from __future__ import annotations

import altair as alt
import polars as pl

from helpers import data
from helpers.charts import labels as place
from helpers.charts._common import PANEL_H, PANEL_W, domain, heading, index_axis
from helpers.charts._tooltips import HOW_READ, PERCENT_ACCURACY, reading, tip
from helpers.charts.labels import Axis, text_layers, with_label_positions
from helpers.charts.step_dpo_sizing import MARKER_SHAPES
from helpers.render.theme import COLOURS, DESCRIBED

# what the variant with `fit` adds, and how its marks are drawn (the subtitle's line)
FIT = (
    "a log-linear fit",
    "left, dotted line and grey band: log-linear fit weighted by binomial errors, "
    "with its 95% band",
)


CEILING = "100%: the most an accuracy can be; the fit's band passes it"


def prm_data_scaling(df: pl.DataFrame, *, fit: pl.DataFrame | None = None) -> alt.HConcatChart:
    """003: left, accuracy against training samples (log axis), the extrapolated reading hollow
    and dashed; right, accuracy against PRM parameter size. Shapes and colours as described.

    Parameters
    ----------
    df : polars.DataFrame
        The 003 readings (`helpers.load("prm_data_scaling")`): panel ("training samples" or
        "PRM size"), series, x_label, training_samples, accuracy, status ("stated" or
        "extrapolated"), marker and colour.
    fit : polars.DataFrame, optional
        Columns samples, mean, lo, hi (the band `figures.prm_data_scaling.loglinear_band`
        gives): draws a fitted line with its 95% band in the left panel.

    Returns
    -------
    altair.HConcatChart
        The two panels, each titled with its x axis.

    Examples
    --------
    >>> import helpers
    >>> chart = prm_data_scaling(helpers.load("prm_data_scaling"))
    >>> [panel.title for panel in chart.hconcat]
    ['Number of Training Samples', 'Parameter Size of PRMs']
    """
    fig = data.figure("prm_data_scaling")
    # a fit and its band stay inside the plot: the axis reaches as far as they do
    drawn = df["accuracy"].to_list() + ([] if fit is None else [*fit["lo"], *fit["hi"]])
    ydom = domain(fig["y_domain"], drawn, 1)
    df = df.with_columns(
        hex=pl.col("colour").replace_strict(DESCRIBED),
        shape=pl.col("marker").replace_strict({**MARKER_SHAPES, "line": "circle"}),
        reading=reading("prm_data_scaling", "accuracy"),
    )
    y = alt.Y("accuracy:Q").title(fig["y_title"]).scale(domain=ydom, nice=False, zero=False)
    tooltip = [
        tip("series:N", "Series"),
        tip("x_label:N", "Training data"),
        PERCENT_ACCURACY,
        tip("status:N", "Status"),
        HOW_READ,
    ]

    # left panel
    left_fig = fig["panels"]["training samples"]
    left = df.filter(pl.col("panel") == "training samples")
    xdom = [700, 85000]
    line = left.filter(pl.col("marker") == "line").sort("training_samples")
    bridge = line.tail(2)
    ceiling = alt.Chart(pl.DataFrame({"y": [100.0], "x": [xdom[0]], "note": [CEILING]}))
    # each series named once, at its last stated point; the extrapolated reading as such
    names = left.with_columns(
        label=pl.when(pl.col("status") == "extrapolated")
        .then(pl.lit("extrapolated"))
        .otherwise(pl.col("series"))
    ).unique("label", keep="last", maintain_order=True)
    drawn = place.points(left["training_samples"], left["accuracy"]) + place.line(
        line["training_samples"], line["accuracy"]
    )
    if fit is not None:
        drawn += place.line(fit["samples"], fit["mean"])
        if ydom[1] > 100:
            drawn += place.hrules([100.0], xdom) + place.text_boxes(
                [xdom[0]], [100.0], [CEILING], align="left", baseline="bottom", dx=4, dy=-2
            )
    names = with_label_positions(
        names,
        "training_samples",
        "accuracy",
        "label",
        Axis(xdom, PANEL_W, kind="log"),
        Axis(ydom, PANEL_H, flip=True),
        avoid=drawn,
    )
    expr = " : ".join(
        f"datum.value == {v} ? '{lab}'"
        for v, lab in zip(left_fig["x_ticks"], left_fig["x_labels"], strict=True)
    )
    x = (
        alt.X("training_samples:Q")
        .title(left_fig["x_title"])
        .scale(type="log", domain=xdom, nice=False)
        .axis(values=left_fig["x_ticks"], labelExpr=expr + " : ''", grid=True)
    )
    colour = alt.Color("hex:N").scale(None)
    base = alt.Chart(left)
    stated_line = (
        alt.Chart(line.filter(pl.col("status") == "stated"))
        .mark_line(color=DESCRIBED["blue"])
        .encode(x=x, y=y)
    )
    extrapolated_line = (
        alt.Chart(bridge).mark_line(color=DESCRIBED["blue"], strokeDash=[5, 4]).encode(x=x, y=y)
    )
    stated = (
        base.transform_filter(alt.datum.status == "stated")
        .mark_point(filled=True, size=90, opacity=1)
        .encode(x=x, y=y, color=colour, shape=alt.Shape("shape:N").scale(None), tooltip=tooltip)
    )
    extrapolated = (
        base.transform_filter(alt.datum.status == "extrapolated")
        .mark_point(filled=False, size=90, strokeWidth=2, opacity=1)
        .encode(x=x, y=y, color=colour, shape=alt.Shape("shape:N").scale(None), tooltip=tooltip)
    )
    label_layers = text_layers(names, "label", xdom, ydom, xscale="log")
    layers: list[alt.Chart] = []
    if fit is not None:
        band = alt.Chart(fit).encode(x=alt.X("samples:Q").scale(type="log", domain=xdom))
        layers += [
            band.mark_area(opacity=0.15, color=COLOURS["described"], clip=True).encode(
                y=alt.Y("lo:Q").scale(domain=ydom), y2="hi:Q"
            ),
            band.mark_line(color=COLOURS["described"], strokeDash=[2, 2], clip=True).encode(
                y=alt.Y("mean:Q").scale(domain=ydom)
            ),
        ]
        if ydom[1] > 100:  # where the band passes what an accuracy can reach, say so
            layers += [
                ceiling.mark_rule(color="#888888", strokeWidth=1).encode(
                    y=alt.Y("y:Q").scale(domain=ydom)
                ),
                ceiling.mark_text(
                    align="left", baseline="bottom", dx=4, dy=-2, color="#555555"
                ).encode(x=alt.X("x:Q").scale(type="log", domain=xdom), y="y:Q", text="note:N"),
            ]
    left_chart = alt.layer(
        *layers, stated_line, extrapolated_line, stated, extrapolated, *label_layers
    ).properties(width=PANEL_W, height=PANEL_H, title=left_fig["x_title"])

    # right panel
    right_fig = fig["panels"]["PRM size"]
    cats = right_fig["x_categories"]
    right = df.filter(pl.col("panel") == "PRM size").with_columns(
        pos=pl.col("x_label").replace_strict(cats, list(range(len(cats)))).cast(pl.Float64)
    )
    rx, rdom = index_axis(cats, right_fig["x_title"], pad=0.5)
    right = with_label_positions(
        right, "pos", "accuracy", "series", Axis(rdom, PANEL_W), Axis(ydom, PANEL_H, flip=True)
    )
    rbase = alt.Chart(right)
    rpoints = rbase.mark_point(filled=True, size=90, opacity=1).encode(
        x=rx, y=y, color=colour, shape=alt.Shape("shape:N").scale(None), tooltip=tooltip
    )
    rlabels = text_layers(right, "series", rdom, ydom)
    right_chart = alt.layer(rpoints, *rlabels).properties(
        width=PANEL_W, height=PANEL_H, title=right_fig["x_title"]
    )
    added = [FIT] if fit is not None else []
    return alt.hconcat(left_chart, right_chart).properties(title=heading(fig, added))
