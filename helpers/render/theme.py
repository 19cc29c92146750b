# ruff: noqa: E402 - altair is imported after the IRI grammar is deferred
"""One Altair theme, one colour mapping, and a notebook renderer that works offline.

The renderer returns the chart as `application/vnd.vegalite.v5+json` (which JupyterLab 4 draws
natively, with no internet and in untrusted notebooks), a PNG made by vl-convert (the static
picture GitHub and nbviewer show), and a short deterministic `text/plain`.
"""

from __future__ import annotations

from typing import Any

from helpers.render.lazy import defer_iri_grammar

defer_iri_grammar()  # before altair is imported: start-up only, no behaviour changes

import altair as alt
import polars as pl
import polars.selectors as cs

from helpers.render import export

THEME = "reasoning_figures"
RENDERER = "reasoning_figures"
VEGALITE_MIME = export.VEGALITE_MIME

# The colours the descriptions name, as one palette (Tableau 10 where it has the hue).
DESCRIBED = {
    "blue": "#4c78a8",
    "orange": "#f58518",
    "red": "#e45756",
    "cyan": "#17becf",
    "olive": "#a7a03b",
    "green": "#54a24b",
    "dark red": "#8c1c13",
    "purple": "#9467bd",
    "grey": "#79706e",
}

# Colours that carry meaning: the same thing is the same colour in every notebook.
COLOURS = {
    "k1.5": DESCRIBED["orange"],
    "other": DESCRIBED["blue"],
    "GRPO": DESCRIBED["blue"],
    "MEL": DESCRIBED["red"],
    "Step-DPO": DESCRIBED["red"],
    "accuracy": DESCRIBED["blue"],
    "token length": DESCRIBED["orange"],
    "published": "#222222",
    "described": DESCRIBED["grey"],
    "simulated": DESCRIBED["purple"],
}

# Okabe and Ito's colour-blind-safe categorical palette (Color Universal Design, 2008), for
# charts whose colours name things no description coloured.
OKABE_ITO = {
    "orange": "#e69f00",
    "sky blue": "#56b4e9",
    "bluish green": "#009e73",
    "yellow": "#f0e442",
    "blue": "#0072b2",
    "vermillion": "#d55e00",
    "reddish purple": "#cc79a7",
}
# One colour per paper where values of several papers share a chart (006). Kimi k1.5 keeps an
# orange, as in 000; the three stay apart for deuteranopes and protanopes (no orange against
# green, no red against dark red).
PAPER_COLOURS = {
    "Kimi k1.5": OKABE_ITO["orange"],
    "ReasonFlux-PRM": OKABE_ITO["blue"],
    "MEL": OKABE_ITO["reddish purple"],
}

# The five figures where their differences share a chart (008): Okabe and Ito's, so the two
# that share the MATH500 panel (001's and 003's) stay apart for deuteranopes too
FIGURE_COLOURS = [
    OKABE_ITO[c] for c in ("blue", "vermillion", "orange", "bluish green", "reddish purple")
]

# Runs in a comparison, in the order named: the baseline blue and the first method red, as GRPO
# and MEL in figure 004, then the rest of the palette.
RUN_COLOURS = [DESCRIBED[c] for c in ("blue", "red", "orange", "green", "purple", "cyan", "olive")]
# and a dash and a point shape each, in the same order, so runs are told apart in greyscale
# print too (blue and red are 49 and 56 in lightness, one grey)
RUN_DASHES = [[1, 0], [6, 3], [2, 2], [8, 2, 2, 2], [1, 4], [4, 4], [10, 4]]
RUN_SHAPES = ["circle", "triangle-up", "square", "diamond", "cross", "triangle-down", "wedge"]

FONT = "Liberation Sans, Helvetica, Arial, sans-serif"


def theme() -> alt.theme.ThemeConfig:
    """The project's look: quiet axes, readable type, no chart border."""
    return {
        "config": {
            "font": FONT,
            "view": {"continuousWidth": 360, "continuousHeight": 260, "stroke": None},
            "title": {
                "fontSize": 15,
                "anchor": "start",
                "subtitleFontSize": 12,
                "subtitleColor": "#555555",
            },
            "axis": {
                "labelFontSize": 11,
                "titleFontSize": 12,
                "gridColor": "#e6e6e6",
                "domainColor": "#888888",
                "tickColor": "#888888",
            },
            "legend": {"labelFontSize": 11, "titleFontSize": 12, "labelLimit": 260},
            "header": {"labelFontSize": 12, "titleFontSize": 13},
            "point": {"size": 60, "filled": True},
            "line": {"strokeWidth": 2},
            "text": {"fontSize": 10},
            "range": {"category": list(DESCRIBED.values())},
        }
    }


def _renderer(spec: dict[str, Any], **metadata: Any) -> dict[str, Any]:
    return export.mimebundle(spec)


# Charts keep 8 significant digits of every float. Fits and special functions come out of
# OpenBLAS and NumPy kernels chosen for the CPU at run time (AVX-512 here, AVX2 there), which
# can disagree in the last bit; unrounded, such a bit changes the stored spec, and the notebook
# is no longer byte-identical on another machine. 8 digits is far below a pixel.
SIGNIFICANT_DIGITS = 8


def _round_floats(data: Any, max_rows: int = 5000) -> Any:
    """Altair's default data transformer (row limit, inline values), floats rounded first."""
    if isinstance(data, pl.DataFrame):
        data = data.with_columns(cs.float().round_sig_figs(SIGNIFICANT_DIGITS))
    return alt.to_values(alt.limit_rows(data, max_rows=max_rows))


def enable() -> None:
    """Make the project's theme, offline renderer and rounding data transformer altair's
    current ones (idempotent). `helpers.setup()` calls it; so does the command line before it
    draws."""
    alt.theme.enable(THEME)
    alt.renderers.enable(RENDERER)
    alt.data_transformers.enable(THEME)


alt.theme.register(THEME, enable=False)(theme)
alt.renderers.register(RENDERER, _renderer)
alt.data_transformers.register(THEME, _round_floats)
