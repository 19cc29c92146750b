"""001 (Kimi k1.5): the training-dynamics grid, and gain against growth; also drawn from your
own runs."""

from __future__ import annotations

from collections.abc import Sequence

import altair as alt
import polars as pl

from helpers.charts._common import with_interval
from helpers.charts.labels import Axis, text_layers, with_label_positions
from helpers.render.theme import COLOURS

CURVE_COLUMNS = {
    "benchmark": pl.String,
    "iteration": pl.Float64,
    "metric": pl.String,
    "value": pl.Float64,
    "lo": pl.Float64,
    "hi": pl.Float64,
}


def training_dynamics(
    curves: pl.DataFrame,
    *,
    title: str,
    subtitle: str | list[str] = "",
    columns: int = 4,
    order: Sequence[str] | None = None,
    x_title: str = "Iterations",
    accuracy_domain: Sequence[float] | None = None,
    token_domain: Sequence[float] | None = None,
    y_title: str = "Accuracy",
    points: bool = True,
) -> alt.FacetChart:
    """001: one panel per benchmark, accuracy (left axis, blue circles) and token length (right
    axis, orange squares) against iteration, each panel with its own scales.

    `curves` is tidy (see CURVE_COLUMNS): metric is "accuracy" or "token length"; where `lo` and
    `hi` are set on accuracy rows, a band is drawn (an interval, or a stated range). Domains,
    if given, are shared by every panel (otherwise each panel fits its own data). With
    `points` false the lines carry no point marks (long runs, where they merge into a band).
    """
    missing = set(CURVE_COLUMNS) - set(curves.columns)
    if missing:
        raise ValueError(f"curves lacks columns {sorted(missing)}")
    curves = curves.select(pl.col(c).cast(t) for c, t in CURVE_COLUMNS.items())
    blue, orange = COLOURS["accuracy"], COLOURS["token length"]
    # the legend names the series as the description does; the data keep the short names
    named = "datum.label == 'accuracy' ? 'Performance' : 'Token Length'"
    colour = (
        alt.Color("metric:N")
        .scale(domain=["accuracy", "token length"], range=[blue, orange])
        .legend(title=None, orient="top", labelExpr=named)
    )
    shape = (
        alt.Shape("metric:N")
        .scale(domain=["accuracy", "token length"], range=["circle", "square"])
        .legend(title=None, orient="top", labelExpr=named)
    )
    x = alt.X("iteration:Q").title(x_title)
    acc_scale = (
        alt.Scale(zero=False, domain=list(accuracy_domain))
        if accuracy_domain
        else alt.Scale(zero=False)
    )
    tok_scale = alt.Scale(domain=list(token_domain)) if token_domain else alt.Scale()
    marker = alt.OverlayMarkDef(filled=True, size=28) if points else False
    base = alt.Chart().encode(x=x)
    is_acc = alt.datum.metric == "accuracy"
    band = (
        base.transform_filter(is_acc & alt.expr.isValid(alt.datum.lo))
        .mark_area(opacity=0.22, color=blue)
        .encode(
            y=alt.Y("lo:Q").title(y_title).scale(acc_scale).axis(titleColor=blue),
            y2="hi:Q",
        )
    )
    accuracy = (
        base.transform_filter(is_acc & alt.expr.isValid(alt.datum.value))
        .mark_line(point=marker, strokeWidth=1.6)
        .encode(
            y=alt.Y("value:Q").title(y_title).scale(acc_scale).axis(titleColor=blue),
            color=colour,
            shape=shape,
            tooltip=[
                "benchmark:N",
                "iteration:Q",
                *with_interval("value", ".3f"),
            ],
        )
    )
    tokens = (
        base.transform_filter(alt.datum.metric == "token length")
        .mark_line(point=marker, strokeWidth=1.6, strokeDash=[1, 0])
        .encode(
            y=alt.Y("value:Q")
            .title("Token Length")
            .scale(tok_scale)
            .axis(orient="right", titleColor=orange),
            color=colour,
            shape=shape,
            tooltip=["benchmark:N", "iteration:Q", alt.Tooltip("value:Q", format=",.0f")],
        )
    )
    panel = alt.layer(band, accuracy)
    if (curves["metric"] == "token length").any():  # no empty right axis for logs without it
        panel = alt.layer(panel, tokens).resolve_scale(y="independent")
    names = list(order) if order is not None else curves["benchmark"].unique(maintain_order=True)
    # panels ordered by a number, never by a list of names: Vega-Lite writes a sort list into an
    # expression, and a name from someone's log (a quote, a line separator) would break it
    curves = curves.with_columns(
        panel=pl.col("benchmark").replace_strict(names, list(range(len(names))), default=len(names))
    )
    return (
        alt.layer(panel, data=curves)
        .properties(width=190, height=120)
        .facet(
            facet=alt.Facet("benchmark:N", title=None).sort(field="panel", op="min"),
            columns=columns,
        )
        .resolve_scale(y="independent", x="independent")
        .properties(title=alt.Title(title, subtitle=subtitle))
    )


def gain_vs_growth(gg: pl.DataFrame) -> alt.LayerChart:
    """001 analysis: accuracy gain against token-length growth, one labelled point per benchmark
    whose description gives a start and an end (ranges give no gain)."""
    pts = gg.filter(pl.col("gain").is_not_null())
    xdom = [0, max(32000, pts["token_growth"].max() * 1.1)]
    ydom = [0, max(0.25, pts["gain"].max() * 1.2)]
    pts = with_label_positions(
        pts, "token_growth", "gain", "benchmark", Axis(xdom, 360), Axis(ydom, 240, flip=True)
    )
    x = alt.X("token_growth:Q").title("Token length growth over the run").scale(domain=xdom)
    y = alt.Y("gain:Q").title("Accuracy gain (end - start)").scale(domain=ydom)
    base = alt.Chart(pts)
    points = base.mark_point(filled=True, size=70, color=COLOURS["accuracy"], opacity=1).encode(
        x=x, y=y, tooltip=["benchmark:N", "gain:Q", "token_growth:Q"]
    )
    labels = text_layers(pts, "benchmark", xdom, ydom)
    return alt.layer(points, *labels).properties(
        width=360, height=240, title="Accuracy gain against token-length growth (as described)"
    )
