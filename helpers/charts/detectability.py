"""Notebook 008: power to separate two runs against their difference, one panel per benchmark,
with the differences the five figures show marked on their curves."""

from __future__ import annotations

import altair as alt
import polars as pl

from helpers.charts._tooltips import tip
from helpers.render.theme import RUN_COLOURS

SUBTITLE = [
    "line: chance that two runs this far apart on this many problems come out separable at 5%",
    "(unpaired, at the comparison's accuracy); point: the size of the difference the figure shows;",
    "dashed: 80% power, where a difference becomes detectable",
]


def _panel(frame: pl.DataFrame) -> pl.DataFrame:
    return frame.with_columns(panel=pl.format("{} ({} problems)", "benchmark", "problems"))


def detectability(curves: pl.DataFrame, gaps: pl.DataFrame, *, columns: int = 2) -> alt.FacetChart:
    """Power curves from `figures.detectability.power_curves` with the `gaps()` they belong to:
    one panel per benchmark, colour for the document whose figure shows the difference.

    Parameters
    ----------
    curves : polars.DataFrame
        Power against difference per comparison, from `figures.detectability.power_curves`.
    gaps : polars.DataFrame
        The differences the figures show, from `figures.detectability.gaps`: each drawn as a
        point on its curve at its size (the signed difference in the tooltip).
    columns : int
        Panels per row.

    Returns
    -------
    altair.FacetChart
        A panel per benchmark and size, fewest problems first, with a dashed rule at 80% power.

    Examples
    --------
    >>> from helpers.figures import detectability as figures
    >>> gaps = figures.gaps()
    >>> chart = detectability(figures.power_curves(gaps), gaps)
    >>> chart.facet.to_dict()["sort"]  # the panels in order
    ['AIME2024 (30 problems)', 'AIME24 (30 problems)', 'MATH500 (500 problems)', ...]
    """
    colour = (
        alt.Color("document:N")
        .title("Figure")
        .scale(domain=sorted(set(gaps["document"])), range=RUN_COLOURS)
    )
    x = alt.X("difference:Q").title("Difference in accuracy").axis(format=".0%")
    y = alt.Y("power:Q").title("Power").scale(domain=[0, 1]).axis(format=".0%")
    tooltip = [
        tip("comparison:N", "Comparison"),
        tip("shown:Q", "Difference shown", "+.1%"),
        tip("minimum_detectable_difference:Q", "Smallest detectable (80% power)", ".1%"),
        tip("power:Q", "Power at the difference shown", ".0%"),
    ]
    lines = (
        alt.Chart()
        .mark_line(strokeWidth=1.5)
        .encode(x=x, y=y, color=colour, detail="comparison:N")
        .transform_filter("datum.layer == 'curve'")
    )
    points = (
        alt.Chart()
        .mark_point(filled=True, size=70, opacity=1)
        .encode(x=x, y=y, color=colour, tooltip=tooltip)
        .transform_filter("datum.layer == 'gap'")
    )
    threshold = alt.Chart().mark_rule(strokeDash=[5, 3], color="#79706e").encode(y=alt.datum(0.8))
    rows = pl.concat(
        [
            _panel(curves)
            .select("document", "comparison", "difference", "power", "panel", "problems")
            .with_columns(layer=pl.lit("curve")),
            _panel(gaps)
            .with_columns(shown=pl.col("difference"), difference=pl.col("difference").abs())
            .select(
                "document", "comparison", "difference", "power", "panel", "problems", "shown",
                "minimum_detectable_difference",
            )
            .with_columns(layer=pl.lit("gap")),
        ],
        how="diagonal_relaxed",
    )  # fmt: skip
    order = list(dict.fromkeys(rows.sort("problems", maintain_order=True)["panel"]))
    return (
        alt.layer(lines, threshold, points, data=rows)
        .properties(width=300, height=200)
        .facet(alt.Facet("panel:N").title(None).sort(order), columns=columns)
        .properties(
            title=alt.Title(
                "Could the benchmark see it? Power against difference", subtitle=SUBTITLE
            )
        )
    )
