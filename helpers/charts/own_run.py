"""Your own run: accuracy by group (difficulty level, file) and accuracy against model size."""

from __future__ import annotations

from collections.abc import Sequence

import altair as alt
import polars as pl

from helpers.charts._common import tip, with_interval
from helpers.render.theme import COLOURS


def accuracy_by_group(
    table: pl.DataFrame,
    group: str,
    *,
    title: str,
    overall: pl.DataFrame | None = None,
    notes: Sequence[str] = (),
) -> alt.LayerChart:
    """Accuracy with Wilson 95% intervals per group (e.g. MATH difficulty level), from
    `summarise.accuracy_table`; `overall` (one row) adds a rule at the overall accuracy;
    `notes` (what was left out) make the subtitle."""
    x = alt.X(f"{group}:O").title(group.replace("_", " ").capitalize()).axis(labelAngle=0)
    y = alt.Y("accuracy:Q").title("Accuracy").scale(domain=[0, 1]).axis(format=".0%")
    base = alt.Chart(table)
    bars = (
        base.mark_rule(strokeWidth=2, color=COLOURS["accuracy"])
        .encode(x=x, y="lo:Q", y2="hi:Q")
        .properties(name="intervals")
    )
    points = base.mark_point(filled=True, size=80, color=COLOURS["accuracy"], opacity=1).encode(
        x=x,
        y=y,
        tooltip=[
            tip(f"{group}:O", group.replace("_", " ").capitalize()),
            tip("problems:Q", "Problems"),
            *with_interval("accuracy", ".3f", "Accuracy"),
        ],
    )
    layers: list[alt.Chart] = [bars, points]
    if overall is not None:
        o = overall.with_columns(
            note=pl.format(
                "overall {}% ({} problems)", (pl.col("accuracy") * 100).round(1), pl.col("problems")
            )
        )
        rule = alt.Chart(o).mark_rule(strokeDash=[5, 3], color=COLOURS["described"])
        layers += [
            rule.encode(y="accuracy:Q"),
            alt.Chart(o)
            .mark_text(align="left", dy=-7, x=4, color="#444444")
            .encode(y="accuracy:Q", text="note:N"),
        ]
    heading = alt.Title(title, subtitle=list(notes)) if notes else title
    return alt.layer(*layers).properties(title=heading, width=360, height=260)


TREND = "line: median accuracy per half-decade of model size (bins with 3 or more models)"


def accuracy_vs_size(
    table: pl.DataFrame, *, title: str, columns: int = 4, notes: Sequence[str] = ()
) -> alt.FacetChart:
    """Accuracy against model size (log axis), one panel per benchmark, from
    `summarise.size_table`: a point per model (columns model, size_b, benchmark, accuracy,
    optional family) and the median trend; `notes` (what was left out) join the subtitle."""
    tooltip = [
        tip("model:N", "Model"),
        tip("size_b:Q", "Model size (B parameters)"),
        tip("accuracy:Q", "Accuracy", ".3f"),
    ]
    if "family" in table.columns:
        tooltip.insert(1, tip("family:N", "Model family"))
    rows = table.sort("benchmark", "kind", "size_b", "model", nulls_last=True)
    x = alt.X("size_b:Q").title("Model size (B parameters)").scale(type="log")
    points = (
        alt.Chart()
        .transform_filter(alt.datum.kind == "model")
        .mark_point(filled=True, size=30, opacity=0.7, color=COLOURS["accuracy"])
        .encode(x=x, y=alt.Y("accuracy:Q").title("Accuracy").scale(domain=[0, 1]), tooltip=tooltip)
        .properties(name="models")
    )
    trend = (
        alt.Chart()
        .transform_filter(alt.datum.kind == "median")
        .mark_line(
            color=COLOURS["token length"], point=alt.OverlayMarkDef(color=COLOURS["token length"])
        )
        .encode(
            x=x,
            y="accuracy:Q",
            tooltip=[
                tip("size_b:Q", "Model size (B parameters, bin centre)"),
                tip("accuracy:Q", "Median accuracy", ".3f"),
                tip("models:Q", "Models in the bin"),
            ],
        )
        .properties(name="medians")
    )
    return (
        alt.layer(points, trend, data=rows)
        .properties(width=200, height=150)
        .facet(facet=alt.Facet("benchmark:N", title=None), columns=columns)
        .properties(
            title=alt.Title(
                title,
                subtitle=[TREND, *notes] if notes else TREND,
            )
        )
    )
