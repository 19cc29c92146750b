"""006: every value reported for one benchmark, grouped by the paper it comes from."""

from __future__ import annotations

import altair as alt
import polars as pl

from helpers.charts import _compose as compose
from helpers.charts._tooltips import tip, with_interval
from helpers.charts.text_metrics import text_width, wrapped
from helpers.figures.across_papers import KINDS, ByPaper
from helpers.render.theme import PAPER_COLOURS

WIDTH = 690  # px: the chart's width, model names and plot (its subtitle wraps to it)

LEGEND = {"orient": "bottom", "direction": "horizontal", "titleOrient": "left"}
ROW_STEP = 15  # pixels per value


def across_papers(view: ByPaper) -> alt.VConcatChart:
    """One benchmark's values, one panel per paper (rows sorted within it): colour names the
    paper, shape whether a description read the value off a figure or the paper printed it,
    hollow marks values that are extrapolated or off the paper's axis; lines are Wilson 95%
    intervals.

    Parameters
    ----------
    view : ByPaper
        One benchmark's rows, papers, x domain, size and notes, from
        `figures.across_papers.by_paper`.

    Returns
    -------
    altair.VConcatChart
        A panel per paper, in the order of `view.papers`, all on the x domain `view.domain`;
        the notes in the subtitle.

    Examples
    --------
    >>> from helpers.figures import across_papers as figures
    >>> view = figures.by_paper(figures.across_papers(), "MATH500")
    >>> [panel.title.text for panel in across_papers(view).vconcat]
    ['Kimi k1.5', 'ReasonFlux-PRM', 'MEL']
    """
    # every panel's names take the widest one's room: the plots, and the panels' titles set
    # at the names' left edge, line up
    names = max(text_width(str(label), 11) for label in view.rows["label"].to_list()) + 12
    y = (
        alt.Y("label:N")
        .sort(view.rows["label"].to_list())
        .title(None)
        .axis(labelLimit=0, minExtent=round(names))
    )
    x = (
        alt.X("value:Q")
        .title(f"{view.group} accuracy (%)")
        .scale(domain=view.domain, nice=False, zero=False)
    )
    palette = alt.Scale(domain=view.papers, range=[PAPER_COLOURS[p] for p in view.papers])
    # colour, fill and stroke share one scale, so one legend, said the same way on each
    paper = {"title": "paper", "symbolOpacity": 1, **LEGEND}
    colour = alt.Color("paper:N").scale(palette).legend(**paper)
    kinds = list(KINDS.values())
    shape = (
        alt.Shape("kind:N")
        .scale(domain=kinds, range=["circle", "diamond"])
        .legend(title="value", symbolFillColor="#555555", symbolStrokeColor="#555555", **LEGEND)
    )
    tooltip = _tooltip()
    drawn = ["paper", "label", "kind", "hollow", "value", "lo", "hi"]
    rows_drawn = view.rows.select(*drawn, "source_name", "note", "protocol", "source")
    base = alt.Chart()  # the data once, on the layer: one source for every layer's fields
    intervals = (
        base.transform_filter("isValid(datum.lo)")  # none for an extrapolated value
        .mark_rule(strokeWidth=1.5, opacity=0.8)
        .encode(y=y, x=alt.X("lo:Q").scale(domain=view.domain), x2="hi:Q", color=colour)
        .properties(name="intervals")
    )
    points = (
        base.mark_point(filled=True, size=70, opacity=1)
        .encode(y=y, x=x, color=colour, shape=shape, tooltip=tooltip)
        .properties(name="points")
    )
    # drawn over their filled point: white inside, the paper's colour around (the subtitle
    # says which and why); the stroke shares the colour's scale and so its legend
    hollow = (
        base.transform_filter("datum.hollow")
        .mark_point(filled=True, fill="white", size=70, strokeWidth=1.5, opacity=1)
        .encode(
            y=y,
            x=x,
            stroke=alt.Stroke("paper:N").scale(palette).legend(**paper),
            shape=shape,
            tooltip=tooltip,
        )
        .properties(name="hollow")
    )
    title = _title(view)
    # a panel per paper, each with its own rows (a facet with a y scale per panel would fork
    # the data per layer, which Vega-Lite warns about); one x scale for all
    panels = [
        compose.layer(
            intervals, points, hollow, data=rows_drawn.filter(pl.col("paper") == p)
        ).properties(
            title=alt.Title(p, anchor="start", fontSize=12),
            width=400,
            height=alt.Step(ROW_STEP),
        )
        for p in view.papers
    ]
    return compose.vconcat(*panels, spacing=10).properties(title=title)


def _tooltip() -> list:
    """What hovering over a value of `across_papers` tells."""
    return [
        tip("label:N", "Result"),
        tip("paper:N", "Paper"),
        tip("source_name:N", "From"),
        *with_interval("value", ".1f", "Accuracy (%)"),
        tip("note:N", "What the value is"),
        tip("protocol:N", "Protocol"),
        tip("source:N", "Data-package row"),
    ]


def _title(view: ByPaper) -> alt.Title:
    """`across_papers`' title, and a subtitle saying how to read it and what it leaves out."""
    return alt.Title(
        f"{view.group}, paper by paper: compare values within a paper, not across",
        subtitle=wrapped(
            [
                "One panel per paper: its figure as a description reads it, its tables as printed.",
                "Models, training and protocols differ between papers. "
                f"Lines: Wilson 95% intervals for {view.n} problems.",
                *view.notes,
            ],
            WIDTH,
        ),
    )
