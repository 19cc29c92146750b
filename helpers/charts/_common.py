"""What the figure charts share: panel size, titles, described domains, index axes (their
tooltip lines are in `_tooltips`)."""

from __future__ import annotations

from collections.abc import Sequence

import altair as alt

PANEL_W, PANEL_H = 380, 300
# a panel's title, smaller than the figure's (the theme's titles are 15 px): the two never
# read as one heading
PANEL_TITLE = 13


def panel_title(text: str, **options) -> alt.Title:
    """The title of one panel of a figure (a plot in a concatenation), set below the figure's
    own title in size; `options` as `alt.Title`'s (a subtitle, an anchor)."""
    return alt.Title(text, fontSize=PANEL_TITLE, **options)


SUBTITLE_SIZE = 12  # the theme's subtitles, in px


def wrapped(lines: Sequence[str], width: float, size: float = SUBTITLE_SIZE) -> list[str]:
    """Subtitle lines broken between words so that none is drawn wider than `width` px (a
    chart's width) at `size` px; a word longer than that stays whole on its own line.

    >>> wrapped(["lines: Wilson 95% over each benchmark's problems (AIME24 30, AMC23 40)"], 250)
    ["lines: Wilson 95% over each benchmark's", 'problems (AIME24 30, AMC23 40)']
    """
    from helpers.charts.text_metrics import text_width

    out = []
    for line in lines:
        words, current = line.split(" "), ""
        for word in words:
            trial = f"{current} {word}" if current else word
            if current and text_width(trial, size) > width:
                out.append(current)
                current = word
            else:
                current = trial
        out.append(current)
    return out


def domain(described: Sequence[float], values: Sequence[float], pad: float) -> list[float]:
    """The described axis range, widened where a described point falls outside it (rounded to
    nine decimals: a fitted value's last bits differ between CPUs' BLAS kernels, and a spec
    must be the same bytes on every machine)."""
    lo, hi = min(min(values) - pad, described[0]), max(max(values) + pad, described[1])
    return [round(lo, 9), round(hi, 9)]


def index_axis(categories: Sequence[str], title: str, pad: float) -> tuple[alt.X, list[float]]:
    """A quantitative `pos` axis at 0..n-1 labelled with the categories, so that point labels
    can be placed between categories; returns the encoding and its domain."""
    domain = [-pad, len(categories) - 1 + pad]
    expr = " : ".join(f"datum.value == {i} ? '{c}'" for i, c in enumerate(categories)) + " : ''"
    x = (
        alt.X("pos:Q")
        .title(title)
        .scale(domain=domain, nice=False, zero=False)
        .axis(values=list(range(len(categories))), labelExpr=expr, grid=False)
    )
    return x, domain


def heading(
    fig: dict, added: Sequence[tuple[str, str]] = (), *, centred: bool = False
) -> str | alt.Title:
    """The described figure's title; a variant that adds marks to it gets a title of its own
    naming them (so no two charts share a title) and a subtitle line saying what each mark is.
    `added` holds (name for the title, the subtitle's line or lines) per addition; `centred`
    where the description puts the title at the top centre (the theme's titles start at the
    left)."""
    anchor = {"anchor": "middle"} if centred else {}
    if not added:
        return alt.Title(fig["title"], **anchor) if centred else fig["title"]
    names = [name for name, _ in added]
    what = names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]
    lines = [line for _, said in added for line in ([said] if isinstance(said, str) else said)]
    return alt.Title(f"{fig['title']}, with {what}", subtitle=lines, **anchor)
