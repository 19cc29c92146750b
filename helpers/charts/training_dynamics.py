"""001 (Kimi k1.5): the training-dynamics grid, and gain against growth; also drawn from your
own runs."""

from __future__ import annotations

import json
from collections.abc import Sequence

import altair as alt
import polars as pl

from helpers.charts import _compose as compose
from helpers.charts._common import plot_size, redrawable
from helpers.charts._tooltips import tip, with_interval
from helpers.charts.labels import Axis, text_layers, with_label_positions
from helpers.charts.text_metrics import wrapped
from helpers.render.theme import COLOURS

CURVE_COLUMNS = {
    "benchmark": pl.String,
    "iteration": pl.Float64,
    "metric": pl.String,
    "value": pl.Float64,
    "lo": pl.Float64,
    "hi": pl.Float64,
}


# A chart fits a notebook's output area: JupyterLab's is about 920 px wide in a 1,366 px window
# with the file browser open (its default). What a panel's axes take beside its plot, measured
# on the rendered charts: labels, ticks and padding (the right axis's labels with two axes).
FIT_WIDTH = 880
# 30k rather than 30,000 (narrower); 0 rather than d3's 0k
K_LABELS = "datum.value == 0 ? '0' : datum.label"
PANEL_SPACING = 14
AXES_WIDTH = {False: 46, True: 110}


def panel_width(columns: int, *, two_axes: bool = False) -> int:
    """The widest panel that lets `columns` of them, with their axes, fit FIT_WIDTH (190 px at
    most: wider panels only stretch the curves; one panel alone, 400 px, a chart's width)."""
    room = FIT_WIDTH - PANEL_SPACING * (columns - 1)
    most = 400 if columns == 1 else 190
    return max(60, min(most, room // max(columns, 1) - AXES_WIDTH[two_axes]))


def tidy_curves(curves: pl.DataFrame) -> pl.DataFrame:
    """`curves` as the grids draw them: the CURVE_COLUMNS, cast to their types (a ValueError
    names the columns missing)."""
    missing = set(CURVE_COLUMNS) - set(curves.columns)
    if missing:
        raise ValueError(f"curves lacks columns {sorted(missing)}")
    return curves.select(pl.col(c).cast(t) for c, t in CURVE_COLUMNS.items())


def curve_tips(x_title: str) -> list[alt.Tooltip]:
    """The first tooltip lines of a point on a curve: its benchmark and its step."""
    return [tip("benchmark:N", "Benchmark"), tip("iteration:Q", x_title)]


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
    width: int | None = None,
    series: tuple[str, str] = ("Performance", "Token Length"),
) -> alt.FacetChart:
    """001: one panel per benchmark, accuracy (left axis, blue circles) and token length (right
    axis, orange squares) against iteration, each panel with its own scales. The x axis spans
    the data's steps in every panel, so panels line up.

    Parameters
    ----------
    curves : polars.DataFrame
        Tidy (see CURVE_COLUMNS), e.g. from `figures.training_dynamics.described_curves`:
        metric is "accuracy" or "token length"; where `lo` and `hi` are set on accuracy rows, a
        band is drawn (an interval, or a stated range).
    title, subtitle : str; str or list of str
        The chart's title and subtitle.
    columns : int
        Panels per row.
    order : sequence of str, optional
        Benchmarks in panel order (by default as they first appear); any not named come last.
    x_title, y_title : str
        Titles of the iteration axis and of accuracy (its axis, when there is no token length,
        and its tooltip line).
    accuracy_domain, token_domain : sequence of float, optional
        Domains shared by every panel (otherwise each panel fits its own data).
    points : bool
        Point marks on the lines; false for long runs, where they merge into a band.
    width : int, optional
        Panel width in px; by default as wide as lets `columns` of them fit a notebook's output
        area (FIT_WIDTH).
    series : tuple of str
        The two lines' names in the legend (the description's names by default).

    Returns
    -------
    altair.FacetChart
        A panel per benchmark, `columns` to a row, each with its own y scales.

    Examples
    --------
    >>> import helpers
    >>> from helpers.figures import training_dynamics as figures
    >>> curves = figures.described_curves(helpers.load("training_dynamics"))
    >>> chart = training_dynamics(curves, title=helpers.figure("training_dynamics")["title"])
    >>> chart.data["benchmark"].n_unique(), chart.columns  # 13 panels, 4 to a row
    (13, 4)
    """
    curves = tidy_curves(curves)
    has_tokens = bool((curves["metric"] == "token length").any())
    colour, shape = _series_legend(series, has_tokens)
    acc_scale, tok_scale = _scale(accuracy_domain, zero=False), _scale(token_domain)
    marker = alt.OverlayMarkDef(filled=True, size=28) if points else False
    base = alt.Chart().encode(x=_iteration_axis(curves, x_title))
    accuracy = _accuracy_line(
        base,
        _accuracy_y("value:Q", acc_scale, y_title, has_tokens),
        marker,
        colour,
        shape,
        x_title,
        y_title,
    )
    if curves["lo"].is_not_null().any():
        band = _band(base, _accuracy_y("band_lo:Q", acc_scale, y_title, has_tokens))
        panel = compose.layer(band, accuracy)
    else:
        panel = compose.layer(accuracy)
    if has_tokens:  # no empty right axis for logs without it
        tokens = _token_line(base, tok_scale, marker, colour, shape, x_title, series[1])
        panel = compose.layer(panel, tokens).resolve_scale(y="independent")
    return (
        compose.layer(panel, data=_numbered(curves, order))
        .properties(width=width or panel_width(columns, two_axes=has_tokens), height=120)
        .facet(
            facet=alt.Facet("benchmark:N", title=None).sort(field="panel", op="min"),
            columns=columns,
            spacing=PANEL_SPACING,
        )
        .resolve_scale(y="independent", x="independent")
        .properties(title=alt.Title(title, subtitle=subtitle))
    )


def _series_legend(series: tuple[str, str], has_tokens: bool) -> tuple[alt.Color, alt.Shape]:
    """Colour and shape by metric, blue circles for accuracy and orange squares for token
    length, in one legend on top. The legend names the series as the description does, and
    with two y-axes which is which (the panels then carry no axis titles: thirteen pairs of
    them took a third of the width); the data keep the short names."""
    left, right = series
    if has_tokens:
        left, right = f"{left} (left axis)", f"{right} (right axis)"
    named = f"datum.label == 'accuracy' ? {json.dumps(left)} : {json.dumps(right)}"
    colour = (
        alt.Color("metric:N")
        .scale(
            domain=["accuracy", "token length"],
            range=[COLOURS["accuracy"], COLOURS["token length"]],
        )
        .legend(title=None, orient="top", labelExpr=named)
    )
    shape = (
        alt.Shape("metric:N")
        .scale(domain=["accuracy", "token length"], range=["circle", "square"])
        .legend(title=None, orient="top", labelExpr=named)
    )
    return colour, shape


def _iteration_axis(curves: pl.DataFrame, x_title: str) -> alt.X:
    """The iteration axis: every panel spans the same steps, so panels line up; stated, so that
    a panel where a layer has no rows (a benchmark without a band) computes no empty extent."""
    steps = curves["iteration"].drop_nulls()
    x = alt.X("iteration:Q").title(x_title)
    if steps.len():
        x = x.scale(domain=[float(steps.min()), float(steps.max())], nice=False)
    return x


def _scale(domain: Sequence[float] | None, **options) -> alt.Scale:
    """A y scale, on `domain` where one is given (shared by every panel), else fitted to each
    panel's data."""
    return alt.Scale(**options, domain=list(domain)) if domain else alt.Scale(**options)


def _accuracy_y(field: str, scale: alt.Scale, y_title: str, has_tokens: bool) -> alt.Y:
    """Accuracy on the left axis, titled; beside a token-length axis its labels and title are
    blue, as its line is (which axis is which is read by colour)."""
    blue = COLOURS["accuracy"]
    axis = {"labelColor": blue, "titleColor": blue} if has_tokens else {"titleColor": blue}
    return alt.Y(field).title(y_title).scale(scale).axis(titlePadding=2, **axis)


def _band(base: alt.Chart, y: alt.Y) -> alt.Chart:
    """The accuracy's band. It spans every accuracy row, of no height where a row has no
    interval: a panel without one then still gives Vega an extent (a filtered-out layer warns
    of an empty one)."""
    return (
        base.transform_filter(alt.datum.metric == "accuracy")
        .transform_calculate(
            band_lo="isValid(datum.lo) ? datum.lo : datum.value",
            band_hi="isValid(datum.hi) ? datum.hi : datum.value",
        )
        .mark_area(opacity=0.22, color=COLOURS["accuracy"])
        .encode(y=y, y2="band_hi:Q")
    )


def _accuracy_line(
    base: alt.Chart,
    y: alt.Y,
    marker: alt.OverlayMarkDef | bool,
    colour: alt.Color,
    shape: alt.Shape,
    x_title: str,
    y_title: str,
) -> alt.Chart:
    """The accuracy curve, on the left axis."""
    return (
        base.transform_filter((alt.datum.metric == "accuracy") & alt.expr.isValid(alt.datum.value))
        .mark_line(point=marker, strokeWidth=1.6)
        .encode(
            y=y,
            color=colour,
            shape=shape,
            tooltip=[*curve_tips(x_title), *with_interval("value", ".3f", y_title)],
        )
    )


def _token_line(
    base: alt.Chart,
    scale: alt.Scale,
    marker: alt.OverlayMarkDef | bool,
    colour: alt.Color,
    shape: alt.Shape,
    x_title: str,
    name: str,
) -> alt.Chart:
    """The token-length curve, on the right axis (30k, not 30,000)."""
    return (
        base.transform_filter(alt.datum.metric == "token length")
        .mark_line(point=marker, strokeWidth=1.6, strokeDash=[1, 0])
        .encode(
            y=alt.Y("value:Q")
            .title(name)
            .scale(scale)
            .axis(
                orient="right",
                labelColor=COLOURS["token length"],
                titleColor=COLOURS["token length"],
                titlePadding=2,
                format="~s",
                labelExpr=K_LABELS,
            ),
            color=colour,
            shape=shape,
            tooltip=[*curve_tips(x_title), tip("value:Q", name, ",.0f")],
        )
    )


def _numbered(curves: pl.DataFrame, order: Sequence[str] | None) -> pl.DataFrame:
    """`curves` with each benchmark's panel number: `order` first (by default as the
    benchmarks first appear), any not named last. Panels are ordered by a number, never by a
    list of names: Vega-Lite writes a sort list into an expression, and a name from someone's
    log (a quote, a line separator) would break it."""
    names = list(order) if order is not None else curves["benchmark"].unique(maintain_order=True)
    return curves.with_columns(
        panel=pl.col("benchmark").replace_strict(names, list(range(len(names))), default=len(names))
    )


def _left_out(ranged: list[str]) -> list[str]:
    """The subtitle naming the benchmarks a gain chart leaves out: described by a range only,
    they have no start and end to take a gain from."""
    if not ranged:
        return []
    n = len(ranged)
    return [
        f"{n} benchmark{'s' * (n > 1)} left out, described by a range only (no start and end): "
        + ", ".join(ranged)
    ]


def _zero_starts(pts: pl.DataFrame) -> str:
    """What the subtitle adds where every token length starts at 0 (as read at 001's axis
    floor): its growth is then its end value, not a measured change."""
    if "token_length_start" in pts.columns and (pts["token_length_start"] == 0).all():
        return " (every start is read as 0 tokens, the axis's floor: growth is the end value)"
    return ""


@redrawable
def gain_vs_growth(gg: pl.DataFrame) -> alt.LayerChart:
    """001 analysis: accuracy gain against token-length growth, one labelled point per benchmark
    whose description gives a start and an end (ranges give no gain).

    Parameters
    ----------
    gg : polars.DataFrame
        Columns benchmark, gain (null where only a range is stated) and token_growth, as
        `figures.training_dynamics.gain_and_growth` gives.

    Returns
    -------
    altair.LayerChart
        The points and their labels, on axes from 0 to a little past the largest growth and
        to a gain of at least 25 points (its axis in percentage points).

    Examples
    --------
    >>> import helpers
    >>> from helpers.figures import training_dynamics as figures
    >>> chart = gain_vs_growth(figures.gain_and_growth(helpers.load("training_dynamics")))
    >>> chart.data["benchmark"].to_list()  # the benchmarks with a gain
    ['Total@temp_1.0', 'MATH500', 'AIME2024', 'GAOKAO', 'KACYAN']
    """
    pts = gg.filter(pl.col("gain").is_not_null())
    xdom = [0, pts["token_growth"].max() * 1.15]
    ydom = [0, max(0.25, pts["gain"].max() * 1.2)]
    width, height = plot_size(360, 240)
    pts = with_label_positions(
        pts, "token_growth", "gain", "benchmark", Axis(xdom, width), Axis(ydom, height, flip=True)
    )
    # every start read as 0: the growth drawn is the length at the end, and titled so
    zero_starts = _zero_starts(pts)
    x = alt.X("token_growth:Q").title(
        "Token length at the end of the run (tokens)"
        if zero_starts
        else "Token length growth over the run (tokens)"
    )
    x = x.scale(domain=xdom, nice=False)
    # a gain of accuracies in percentage points (the data keep fractions, as described)
    y = (
        alt.Y("gain:Q")
        .title("Accuracy gain (points)")
        .scale(domain=ydom)
        .axis(labelExpr="format(datum.value * 100, '.0f')")
    )
    base = alt.Chart(pts)
    # a reading past the paper's own axis (`beyond_axis`, where given) cannot be right as read:
    # hollow, as notebook 006 draws it
    hollow = "beyond_axis" in pts.columns and bool(pts["beyond_axis"].any())
    fill = (
        alt.condition("datum.beyond_axis", alt.value("white"), alt.value(COLOURS["accuracy"]))
        if hollow
        else alt.value(COLOURS["accuracy"])
    )
    points = base.mark_point(
        filled=True,
        size=70,
        color=COLOURS["accuracy"],
        stroke=COLOURS["accuracy"],
        opacity=1,
        strokeWidth=1.5,
    ).encode(
        x=x,
        y=y,
        fill=fill,
        tooltip=[
            tip("benchmark:N", "Benchmark"),
            tip("gain:Q", "Accuracy gain (fraction: 0.10 is 10 points)", "+.2f"),
            tip("token_growth:Q", "Token length growth (tokens)", ",.0f"),
        ],
    )
    labels = text_layers(pts, "benchmark", xdom, ydom)
    return compose.layer(points, *labels).properties(
        width=width,
        height=height,
        title=alt.Title(
            "Accuracy gain against token growth, start to end",
            subtitle=wrapped(
                [
                    "gain: end − start, in percentage points; growth: end − start, in tokens"
                    + zero_starts,
                    *_left_out(gg.filter(pl.col("gain").is_null())["benchmark"].to_list()),
                    *(
                        [
                            "hollow: a reading past the paper's own axis for that panel, which "
                            "cannot be right as read: "
                            + ", ".join(pts.filter("beyond_axis")["benchmark"].to_list())
                        ]
                        if hollow
                        else []
                    ),
                ],
                width + 60,
            ),
        ),
    )
