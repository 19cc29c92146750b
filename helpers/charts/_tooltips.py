"""The tooltip lines the charts share: one line titled in words, a value with its interval, and
a described figure's point (its accuracy as read, and how finely the description read it)."""

from __future__ import annotations

import altair as alt
import polars as pl

from helpers import data


def tip(shorthand: str, title: str, fmt: str | None = None) -> alt.Tooltip:
    """One tooltip line, titled in words with its unit (a reader hovering sees "Model size (B)",
    never the column name `model_size`)."""
    line = alt.Tooltip(shorthand).title(title)
    return line.format(fmt) if fmt else line


def with_interval(field: str, fmt: str, title: str) -> list[alt.Tooltip]:
    """Tooltip lines for a value and its 95% interval (`lo`, `hi`), in one number format."""
    return [
        tip(f"{field}:Q", title, fmt),
        tip("lo:Q", "95% interval, low", fmt),
        tip("hi:Q", "95% interval, high", fmt),
    ]


def reading(resource: str, *columns: str) -> pl.Expr:
    """A tooltip line saying how finely the description reads each column (its readingStep)."""
    parts = []
    for column in columns:
        f = data.field(resource, column)
        parts.append(f"{column.replace('_', ' ')} to the nearest {f['readingStep']} {f['unit']}")
    return pl.lit("read " + "; ".join(parts))


# a described figure's point: its accuracy as read (in percent), and the `reading` column
PERCENT_ACCURACY = tip("accuracy:Q", "Accuracy (%)", ".1f")
HOW_READ = tip("reading:N", "How it was read")
