"""006: every value reported for one benchmark across the documents."""

from __future__ import annotations

import altair as alt
import polars as pl

from helpers.charts._common import tip, with_interval
from helpers.render.theme import COLOURS, DESCRIBED

DOCUMENT_COLOURS = {
    "000": DESCRIBED["orange"],
    "001": DESCRIBED["green"],
    "003": DESCRIBED["purple"],
    "004": DESCRIBED["red"],
    "published 000": COLOURS["published"],
    "published 003": DESCRIBED["grey"],
    "published 004": DESCRIBED["dark red"],
}


def across_papers(rows: pl.DataFrame, group: str) -> alt.LayerChart:
    """Every value reported for one benchmark across the documents: one row per value, sorted
    by value, with its Wilson 95% interval for the benchmark's size, coloured by document."""
    sub = rows.filter(pl.col("group") == group).sort("value", descending=True)
    docs = [d for d in DOCUMENT_COLOURS if d in set(sub["document"])]
    names = dict(sub.select("document", "source_name").unique().iter_rows())
    # labels are short enough to show whole (a label limit makes Vega measure each label again
    # and again to truncate it, which costs vl-convert most of a second on this chart)
    y = alt.Y("label:N").sort(sub["label"].to_list()).title(None).axis(labelLimit=0)
    colour = (
        alt.Color("source_name:N")
        .scale(domain=[names[d] for d in docs], range=[DOCUMENT_COLOURS[d] for d in docs])
        .legend(title="source", orient="bottom", columns=2, labelLimit=320, symbolOpacity=1)
    )
    base = alt.Chart(sub)
    bars = base.mark_rule(strokeWidth=2, opacity=0.45).encode(
        y=y,
        x=alt.X("lo:Q").title(f"{group} accuracy (%)").scale(domain=[0, 100]),
        x2="hi:Q",
        color=colour,
    )
    points = base.mark_point(filled=True, size=60, opacity=1).encode(
        y=y,
        x="value:Q",
        color=colour,
        shape=alt.Shape("origin:N")
        .scale(domain=["description", "published"], range=["circle", "cross"])
        .legend(title=None),
        tooltip=[
            tip("label:N", "Result"),
            tip("source_name:N", "From"),
            *with_interval("value", ".1f", "Accuracy (%)"),
            tip("protocol:N", "Protocol"),
            tip("source:N", "Source"),
        ],
    )
    n = int(sub["n"].max())
    return alt.layer(bars, points).properties(
        width=420,
        height=14 * sub.height,
        title=alt.Title(
            f"{group}: every reported value",
            subtitle=f"bars: Wilson 95% intervals for {n} problems",
        ),
    )
