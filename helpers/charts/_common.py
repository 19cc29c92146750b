"""What the figure charts share: panel size, titles, described domains, index axes (their
tooltip lines are in `_tooltips`)."""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar

import altair as alt

PANEL_W, PANEL_H = 380, 300
# a panel's title, smaller than the figure's (the theme's titles are 15 px): the two never
# read as one heading
PANEL_TITLE = 13


def panel_title(text: str, **options) -> alt.Title:
    """The title of one panel of a figure (a plot in a concatenation), set below the figure's
    own title in size; `options` as `alt.Title`'s (a subtitle, an anchor)."""
    return alt.Title(text, fontSize=PANEL_TITLE, fontWeight="normal", **options)


# how much wider and taller every plot is drawn than its function says (1, 1 on a screen; set
# while a chart is drawn again for print, see `redrawable`)
_PLOT_SCALE: ContextVar[tuple[float, float]] = ContextVar("plot_scale", default=(1.0, 1.0))


def plot_size(width: float, height: float) -> tuple[float, float]:
    """A plot's size in px as it is drawn now: as given, or scaled for print."""
    across, down = _PLOT_SCALE.get()
    if (across, down) == (1.0, 1.0):
        return width, height  # as given: a spec's 360 stays 360, not 360.0
    return round(width * across, 1), round(height * down, 1)


@contextmanager
def _scaled(across: float, down: float) -> Iterator[None]:
    token = _PLOT_SCALE.set((across, down))
    try:
        yield
    finally:
        _PLOT_SCALE.reset(token)


def redrawable(build: Callable[..., alt.TopLevelMixin]) -> Callable[..., alt.TopLevelMixin]:
    """A chart function whose labels are placed for its plots' size in px (`labels`): the chart
    it returns carries `redraw(across, down)`, the same chart built again with every plot that
    much wider and taller (sizes taken through `plot_size`) and its labels placed for that
    size, which `render.print_layout` uses where it narrows the plots for print."""

    @functools.wraps(build)
    def drawn(*args, **kwargs):
        chart = build(*args, **kwargs)

        def redraw(across: float, down: float) -> alt.TopLevelMixin:
            with _scaled(across, down):
                return build(*args, **kwargs)

        object.__setattr__(chart, "redraw", redraw)  # an attribute, not a part of the spec
        return chart

    return drawn


def domain(described: Sequence[float], values: Sequence[float], pad: float) -> list[float]:
    """The described axis range, widened where a described point falls outside it (rounded to
    nine decimals: a fitted value's last bits differ between CPUs' BLAS kernels, and a spec
    must be the same bytes on every machine)."""
    lo, hi = min(min(values) - pad, described[0]), max(max(values) + pad, described[1])
    return [round(lo, 9), round(hi, 9)]


def stated_ticks(values: Sequence[float]) -> dict:
    """An axis's ticks at `values`, every one of them: Vega thins stated values to the axis's
    tick count (Vega-Lite's default, one per 40 px), so the count is theirs.

    >>> stated_ticks([0, 20, 40])
    {'values': [0, 20, 40], 'tickCount': 3}
    """
    return {"values": list(values), "tickCount": len(values)}


def index_axis(
    categories: Sequence[str], title: str, pad: float, right: float | None = None
) -> tuple[alt.X, list[float]]:
    """A quantitative `pos` axis at 0..n-1 labelled with the categories, so that point labels
    can be placed between categories; `pad` categories' room left of the first (and right of
    the last, unless `right` says); returns the encoding and its domain."""
    domain = [-pad, len(categories) - 1 + (pad if right is None else right)]
    expr = " : ".join(f"datum.value == {i} ? '{c}'" for i, c in enumerate(categories)) + " : ''"
    x = (
        alt.X("pos:Q")
        .title(title)
        .scale(domain=domain, nice=False, zero=False)
        .axis(**stated_ticks(range(len(categories))), labelExpr=expr, grid=False)
    )
    return x, domain


def heading(
    fig: dict,
    added: Sequence[tuple[str, str]] = (),
    *,
    centred: bool = False,
    notes: Sequence[str] = (),
) -> str | alt.Title:
    """The described figure's title; a variant that adds marks to it gets a title of its own
    naming them (so no two charts share a title) and a subtitle line saying what each mark is.
    `added` holds (name for the title, the subtitle's line or lines) per addition; `centred`
    where the description puts the title at the top centre (the theme's titles start at the
    left); `notes`, subtitle lines every variant carries (what the drawn marks are)."""
    anchor = {"anchor": "middle"} if centred else {}
    if not added:
        if notes:
            return alt.Title(fig["title"], subtitle=list(notes), **anchor)
        return alt.Title(fig["title"], **anchor) if centred else fig["title"]
    names = [name for name, _ in added]
    what = names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]
    lines = [line for _, said in added for line in ([said] if isinstance(said, str) else said)]
    return alt.Title(f"{fig['title']}, with {what}", subtitle=[*notes, *lines], **anchor)
