"""003 (ReasonFlux-PRM): accuracy against training samples and against PRM size."""

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
    index_axis,
    plot_size,
    redrawable,
    stated_ticks,
)
from helpers.charts._tooltips import HOW_READ, PERCENT_ACCURACY, reading, tip
from helpers.charts.labels import Axis, text_layers, with_label_positions
from helpers.charts.step_dpo_sizing import MARKER_SHAPES
from helpers.render.theme import COLOURS, DESCRIBED

# what the variant with `fit` adds, and how its marks are drawn (the subtitle's line)
FIT = (
    "a log-linear fit",
    [
        "left, dotted line and grey band: log-linear fit on the logit scale (under 100% by "
        "construction), weighted by binomial errors, with its 95% band",
        "two stated readings, so the fit passes through both: it draws the trend they imply, "
        "it does not test it",
    ],
)


CEILING = "100%: the most an accuracy can be; the fit's band passes it"


@redrawable
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
        The two panels, named by their x axes (as described; no panel title repeats them).

    Examples
    --------
    >>> import helpers
    >>> chart = prm_data_scaling(helpers.load("prm_data_scaling"))
    >>> [panel["layer"][0]["encoding"]["x"]["title"] for panel in chart.to_dict()["hconcat"]]
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
    left = _samples_panel(
        df.filter(pl.col("panel") == "training samples"),
        fig["panels"]["training samples"],
        fit,
        y,
        ydom,
    )
    right = _size_panel(
        df.filter(pl.col("panel") == "PRM size"), fig["panels"]["PRM size"], y, ydom
    )
    added = [FIT] if fit is not None else []
    notes = [
        "left: training samples on a log axis; hollow: the 59k value the description "
        "extrapolates (not read off the figure); right: PRM sizes in order, not to scale"
    ]
    return compose.hconcat(left, right).properties(title=heading(fig, added, notes=notes))


def _tooltip() -> list[alt.Tooltip]:
    """A reading's tooltip lines."""
    return [
        tip("series:N", "Series"),
        tip("x_label:N", "Training data"),
        PERCENT_ACCURACY,
        tip("status:N", "Status"),
        HOW_READ,
    ]


def _samples_panel(
    left: pl.DataFrame, left_fig: dict, fit: pl.DataFrame | None, y: alt.Y, ydom
) -> alt.LayerChart:
    """The left panel: accuracy against training samples (log axis), the extrapolated reading
    hollow and dashed, each series named once; the fit and its band under them where given."""
    xdom = [700, 85000]
    line = left.filter(pl.col("marker") == "line").sort("training_samples")
    names = _series_names(left, line, fit, xdom, ydom)
    x = _samples_axis(left_fig, xdom)
    layers = [] if fit is None else _fit_layers(fit, xdom, ydom)
    return compose.layer(
        *layers,
        *_readings(left, line, x, y),
        *text_layers(names, "label", xdom, ydom, xscale="log"),
    ).properties(**_panel())


def _series_names(
    left: pl.DataFrame, line: pl.DataFrame, fit: pl.DataFrame | None, xdom, ydom
) -> pl.DataFrame:
    """Each series named once, at its last stated point, and the extrapolated reading as such;
    placed off the points, the line, and the fit and the ceiling where drawn."""
    names = left.with_columns(
        label=pl.when(pl.col("status") == "extrapolated")
        .then(pl.lit("extrapolated"))
        .otherwise(pl.col("series"))
    ).unique("label", keep="last", maintain_order=True)
    drawn = place.points(left["training_samples"], left["accuracy"]) + place.line(
        line["training_samples"], line["accuracy"]
    )
    if fit is not None:
        drawn += place.line(fit["samples"], fit["mean"]) + place.band(
            fit["samples"], fit["lo"], fit["hi"]
        )
        if ydom[1] > 100:
            drawn += place.hrules([100.0], xdom) + place.text_boxes(
                [xdom[0]], [100.0], [CEILING], align="left", baseline="bottom", dx=4, dy=-2
            )
    panel = _panel()
    return with_label_positions(
        names,
        "training_samples",
        "accuracy",
        "label",
        Axis(xdom, panel["width"], kind="log"),
        Axis(ydom, panel["height"], flip=True),
        avoid=drawn,
    )


def _samples_axis(left_fig: dict, xdom) -> alt.X:
    """Training samples on a log axis, ticked and labelled as described (1k, 59k)."""
    expr = " : ".join(
        f"datum.value == {v} ? '{lab}'"
        for v, lab in zip(left_fig["x_ticks"], left_fig["x_labels"], strict=True)
    )
    return (
        alt.X("training_samples:Q")
        .title(left_fig["x_title"])
        .scale(type="log", domain=xdom, nice=False)
        .axis(**stated_ticks(left_fig["x_ticks"]), labelExpr=expr + " : ''", grid=True)
    )


def _readings(left: pl.DataFrame, line: pl.DataFrame, x: alt.X, y: alt.Y) -> list[alt.Chart]:
    """The line through the stated readings, dashed on to the extrapolated one; the stated
    readings filled, the extrapolated one hollow."""
    shape = alt.Shape("shape:N").scale(None)
    colour = alt.Color("hex:N").scale(None)
    base = alt.Chart(left)
    stated_line = (
        alt.Chart(line.filter(pl.col("status") == "stated"))
        .mark_line(color=DESCRIBED["blue"])
        .encode(x=x, y=y)
    )
    extrapolated_line = (
        alt.Chart(line.tail(2))
        .mark_line(color=DESCRIBED["blue"], strokeDash=[5, 4])
        .encode(x=x, y=y)
    )
    stated = (
        base.transform_filter(alt.datum.status == "stated")
        .mark_point(filled=True, size=90, opacity=1)
        .encode(x=x, y=y, color=colour, shape=shape, tooltip=_tooltip())
    )
    extrapolated = (
        base.transform_filter(alt.datum.status == "extrapolated")
        .mark_point(filled=False, size=90, strokeWidth=2, opacity=1)
        .encode(x=x, y=y, color=colour, shape=shape, tooltip=_tooltip())
    )
    return [stated_line, extrapolated_line, stated, extrapolated]


def _fit_layers(fit: pl.DataFrame, xdom, ydom) -> list[alt.Chart]:
    """The fit's 95% band and its dotted line; where the band passes what an accuracy can
    reach, a rule at 100% that says so."""
    band = alt.Chart(fit).encode(x=alt.X("samples:Q").scale(type="log", domain=xdom))
    layers = [
        band.mark_area(opacity=0.15, color=COLOURS["described"], clip=True).encode(
            y=alt.Y("lo:Q").scale(domain=ydom), y2="hi:Q"
        ),
        band.mark_line(color=COLOURS["described"], strokeDash=[2, 2], clip=True).encode(
            y=alt.Y("mean:Q").scale(domain=ydom)
        ),
    ]
    if ydom[1] > 100:  # where the band passes what an accuracy can reach, say so
        ceiling = alt.Chart(pl.DataFrame({"y": [100.0], "x": [xdom[0]], "note": [CEILING]}))
        layers += [
            ceiling.mark_rule(color="#888888", strokeWidth=1).encode(
                y=alt.Y("y:Q").scale(domain=ydom)
            ),
            ceiling.mark_text(align="left", baseline="bottom", dx=4, dy=-2, color="#555555").encode(
                x=alt.X("x:Q").scale(type="log", domain=xdom), y="y:Q", text="note:N"
            ),
        ]
    return layers


def _size_panel(right: pl.DataFrame, right_fig: dict, y: alt.Y, ydom) -> alt.LayerChart:
    """The right panel: accuracy against PRM parameter size (categories as described), each
    point named."""
    cats = right_fig["x_categories"]
    right = right.with_columns(
        pos=pl.col("x_label").replace_strict(cats, list(range(len(cats)))).cast(pl.Float64)
    )
    # room right of the last size for its points' names beside them (squeezed to its left,
    # a name sat above and between the names of the size before)
    rx, rdom = index_axis(cats, right_fig["x_title"], pad=0.5, right=1.5)
    panel = _panel()
    right = with_label_positions(
        right,
        "pos",
        "accuracy",
        "series",
        Axis(rdom, panel["width"]),
        Axis(ydom, panel["height"], flip=True),
    )
    points = (
        alt.Chart(right)
        .mark_point(filled=True, size=90, opacity=1)
        .encode(
            x=rx,
            y=y,
            color=alt.Color("hex:N").scale(None),
            shape=alt.Shape("shape:N").scale(None),
            tooltip=_tooltip(),
        )
    )
    return compose.layer(points, *text_layers(right, "series", rdom, ydom)).properties(**panel)


def _panel() -> dict[str, float]:
    """Each panel's width and height as drawn now (`plot_size`): its properties, and the
    pixels its labels are placed in."""
    width, height = plot_size(PANEL_W, PANEL_H)
    return {"width": width, "height": height}
