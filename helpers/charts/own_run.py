"""Your own run: its curves over steps (accuracy above length, per benchmark), accuracy by group
(difficulty level, file) and accuracy against model size."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import NamedTuple

import altair as alt
import polars as pl

from helpers.charts import _compose as compose
from helpers.charts._common import panel_title, stated_ticks
from helpers.charts._tooltips import tip, with_interval
from helpers.charts.text_metrics import text_width, wrapped
from helpers.charts.training_dynamics import PANEL_SPACING, curve_tips, panel_width, tidy_curves
from helpers.render.theme import COLOURS

WIDTH = 360  # px: accuracy by group's plot
AVERAGE = "#222222"  # the mean of the benchmarks, drawn apart from them


GROUP_TITLES = {"level": "Difficulty level, as the log gives it"}


def accuracy_by_group(
    table: pl.DataFrame,
    group: str,
    *,
    title: str,
    overall: pl.DataFrame | None = None,
    notes: Sequence[str] = (),
    value: str = "accuracy",
    value_title: str = "Accuracy",
) -> alt.LayerChart:
    """Accuracy with Wilson 95% intervals per group (e.g. MATH difficulty level), from
    `summarise.accuracy_table`; `overall` (one row) adds a dashed rule at the overall
    accuracy, named in the subtitle;
    `notes` (what was left out) make the subtitle, wrapped to the chart's width. Rows with
    `average` true (the mean of the benchmarks) are drawn apart, in a panel of their own after
    the benchmarks' on the same accuracy axis: a dark diamond, not a blue point. Another score
    per group (`value`, e.g. "mean_reward" from
    `rewards.reward_summary`, titled `value_title`) is drawn as logged, not as a percentage
    from 0 to 1. Labels too wide for their place along the axis are set at an angle."""
    averaged = "average" in table.columns and table["average"].any()
    if averaged:  # the mean apart: its own panel after the benchmarks', on the same axis
        parts = [table.filter(~pl.col("average")), table.filter(pl.col("average"))]
    else:
        parts = [table]
    widths = [WIDTH]
    if averaged:  # the mean's panel as wide as its label needs
        label = max(text_width(str(v), 11) for v in parts[1][group].to_list())
        widths = [WIDTH - 110, max(90, int(label) + 16)]
    layers = [
        _by_group_marks(
            part,
            group,
            value,
            value_title,
            x_title=GROUP_TITLES.get(group, group.replace("_", " ").capitalize())
            if i == 0
            else "Average",
            y_axis=i == 0,
            width=width,
        )
        for i, (part, width) in enumerate(zip(parts, widths, strict=True))
    ]
    if overall is not None:  # named in the subtitle: a label on the line would cross a bar
        rule = alt.Chart(overall).mark_rule(strokeDash=[5, 3], color=COLOURS["described"])
        layers[0].append(rule.encode(y="accuracy:Q").properties(name="overall"))
        accuracy, problems = overall.select("accuracy", "problems").row(0)
        notes = [
            f"dashed line: overall {accuracy * 100:.1f}% ({problems} problems)",
            *notes,
        ]
    across = sum(widths) + 24 * (len(widths) - 1) + 40
    heading = alt.Title(title, subtitle=wrapped(notes, across)) if notes else title
    panels = [
        compose.layer(*marks).properties(width=width, height=260)
        for marks, width in zip(layers, widths, strict=True)
    ]
    if len(panels) == 1:
        return panels[0].properties(title=heading)
    return compose.hconcat(*panels, spacing=24).resolve_scale(y="shared").properties(title=heading)


def _by_group_marks(
    table: pl.DataFrame,
    group: str,
    value: str,
    value_title: str,
    *,
    x_title: str,
    y_axis: bool,
    width: int,
) -> list[alt.Chart]:
    """One panel's marks of `accuracy_by_group`: a point and its interval per group."""
    percent = value == "accuracy"
    names = [str(v) for v in table[group].to_list()]
    band = width / max(len(names), 1)
    angle = 0 if max((text_width(n, 11) for n in names), default=0) < band - 6 else -30
    x = alt.X(f"{group}:O", sort=None).title(x_title)
    slant = {"labelAlign": "right", "labelBaseline": "middle"} if angle else {}
    x = x.axis(labelAngle=angle, labelLimit=200, **slant)
    y = alt.Y(f"{value}:Q").title(value_title)
    y = y.scale(domain=[0, 1]).axis(format=".0%") if percent else y.scale(zero=False)
    lo = alt.Y("lo:Q")
    if not y_axis:  # the panel beside labels the axis; its gridlines go on
        bare = {"labels": False, "ticks": False, "domain": False, "title": None}
        y, lo = y.axis(**bare), lo.axis(**bare)
    average = "average" in table.columns and table["average"].all()
    colour = alt.value(AVERAGE if average else COLOURS["accuracy"])
    base = alt.Chart(table)
    bars = (
        base.mark_rule(strokeWidth=2)
        .encode(x=x, y=lo, y2="hi:Q", color=colour)
        .properties(name="intervals")
    )
    points = base.mark_point(filled=True, size=80, opacity=1).encode(
        x=x,
        y=y,
        color=colour,
        shape=alt.value("diamond" if average else "circle"),
        tooltip=[
            tip(f"{group}:O", group.replace("_", " ").capitalize()),
            tip("problems:Q", "Problems"),
            *with_interval(value, ".3f", value_title),
        ],
    )
    return [bars, points]


def _dots(rows: pl.DataFrame) -> str:
    """What a dot is, and how many models there are."""
    models = rows.filter(pl.col("kind") == "model")
    n = models["model"].n_unique() if "model" in models.columns else models.height
    return f"dots: one per model and benchmark ({n:,} models)"


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
    sizes = rows["size_b"].drop_nulls().filter(rows["size_b"].drop_nulls() > 0)
    # the axis spans the models (not the decades around them: an empty decade is room lost),
    # a gridline and a label a decade: a log axis's minor lines crowd a small panel
    scale = alt.Scale(type="log")
    decades = None
    if sizes.len():
        lowest, highest = sizes.min() / 1.25, sizes.max() * 1.25
        low, high = math.ceil(math.log10(lowest)), math.floor(math.log10(highest))
        decades = [10.0**e for e in range(low, high + 1)]
        scale = alt.Scale(type="log", domain=[lowest, highest], nice=False)
    x = (
        alt.X("size_b:Q")
        .title("Model size (B parameters)")
        .scale(scale)
        .axis(**stated_ticks(decades), format="~g")
    )
    points = (
        alt.Chart()
        .transform_filter(alt.datum.kind == "model")
        .mark_point(filled=True, size=30, opacity=0.7, color=COLOURS["accuracy"])
        .encode(
            x=x,
            y=alt.Y("accuracy:Q").title("Accuracy").scale(domain=[0, 1]).axis(format=".0%"),
            tooltip=tooltip,
        )
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
        compose.layer(points, trend, data=rows)
        .properties(width=200, height=150)
        .facet(facet=alt.Facet("benchmark:N", title=None), columns=columns)
        .properties(title=alt.Title(title, subtitle=[_dots(rows), TREND, *notes]))
    )


def run_grid(
    curves: pl.DataFrame,
    *,
    title: str,
    subtitle: str | list[str] = "",
    x_title: str = "Step",
    y_title: str = "Accuracy",
    columns: int = 4,
    order: Sequence[str] | None = None,
    points: bool = True,
    averages: Sequence[str] = (),
    tokens_title: str = "Mean tokens",
    one_length: bool = False,
    own_lengths: Sequence[str] = (),
) -> alt.ConcatChart:
    """A run's curves as aligned small multiples: per benchmark, accuracy above (its 95% band
    where the curves carry one) and mean response length below, on one x axis; benchmarks
    wrap into `columns`. Axis titles once: y on the first column, x on the lowest panels.

    `curves` is tidy (`training_dynamics.CURVE_COLUMNS`: metric "accuracy" or "token length").
    Accuracy is stored as a fraction and shown in percent (`y_title` "Accuracy"); another
    score (a training reward) is shown as logged. Only layers with rows are drawn. Where the
    curves carry a `smoothed` column (a moving average, computed before), it is drawn solid
    over the logged points, which fade. Panels named in `averages` (the mean of the
    benchmarks) are drawn apart from the benchmarks they average: dark, with diamonds.
    `tokens_title` titles the length axis; `one_length`: the length is the run's, the same
    for every benchmark, and is drawn once, under the first panel (drawn under each, it read as
    each benchmark's own), titled RUN_TOKENS, and under the panels in `own_lengths`, which
    have lengths of their own (a training source's).
    """
    curves = _tidy_keeping_smoothed(curves)
    names = list(order) if order is not None else curves["benchmark"].unique(maintain_order=True)
    names = [n for n in names if n in set(curves["benchmark"])]
    # one row per panel and step, accuracy and length side by side (half the rows of the tidy
    # table, and no metric name in each); panels picked by number, never by name: a name from
    # someone's log (a quote, a line separator) must not end up inside a Vega expression
    data = _panel_rows(curves, names)
    # with one run-wide length: drawn under the first panel that has no length of its own
    first_length = next((i for i, n in enumerate(names) if n not in own_lengths), 0)
    shown = min(columns, len(names))  # a grid of one panel is one panel wide
    banded = "lo" in curves.columns and curves["lo"].is_not_null().any()
    look = _grid_look(
        data,
        banded=banded,
        x_title=x_title,
        y_title=y_title,
        tokens_title=tokens_title,
        columns=shown,
        points=points,
        height=180 if len(names) == 1 else 110,  # one panel: room for its band to be read
    )
    rows = [data.filter(pl.col("panel") == i) for i in range(len(names))]
    lengths = [  # the panels drawn with a length below them
        r["tokens"].is_not_null().any()
        and (not one_length or i == first_length or name in own_lengths)
        for i, (name, r) in enumerate(zip(names, rows, strict=True))
    ]
    units = [
        _unit(
            look,
            rows[i],
            i,
            name,
            first=i % columns == 0,
            lowest=i + columns >= len(names),
            has_length=lengths[i],
            # a length's axis is titled where no length left of it in its row is
            length_titled=not any(lengths[i - i % columns : i]),
            average=name in averages,
            run_length=one_length and i == first_length,
        )
        for i, name in enumerate(names)
    ]
    # the subtitle wrapped to the grid's width (at least a wide panel's: a one-panel grid
    # would wrap every word)
    wide = shown * (look.width + PANEL_SPACING) + 40
    lines = [subtitle] if isinstance(subtitle, str) else list(subtitle)
    if len(names) > 1:  # a band's width is read against its own panel's axis
        lines.append(
            f"each panel its own {y_title.lower()} axis"
            + (": read a band against its panel" if banded else "")
        )
    heading = alt.Title(title, subtitle=wrapped([s for s in lines if s], max(wide, WIDTH + 40)))
    return compose.concat(*units, columns=columns, data=data, spacing=PANEL_SPACING, title=heading)


def _tidy_keeping_smoothed(curves: pl.DataFrame) -> pl.DataFrame:
    """`tidy_curves`, keeping a `smoothed` column where the curves carry one."""
    extra = curves.select("smoothed") if "smoothed" in curves.columns else None
    curves = tidy_curves(curves)
    if extra is not None:
        curves = curves.with_columns(extra.cast(pl.Float64))
    return curves


class _Look(NamedTuple):
    """What every panel of `run_grid` draws with: each encoding in its two forms, titled (on
    the first column or lowest row) or not, the markers, tooltips and the panel width."""

    x_by: dict[bool, alt.X]
    y_by: dict[bool, alt.Y]
    band_by: dict[bool, alt.Y]
    tokens_by: dict[bool, alt.Y]
    run_tokens: alt.Y  # the run-wide length's axis, titled so wherever it is drawn
    y_title: str
    marker: alt.OverlayMarkDef | bool
    length_marker: alt.OverlayMarkDef
    tips: list[alt.Tooltip]
    accuracy_tips: list[alt.Tooltip]
    length_tips: list[alt.Tooltip]
    width: int
    height: int  # an accuracy panel's; one panel alone is drawn taller
    colour: str = COLOURS["accuracy"]  # the accuracy's line, points and band


# px every panel's y axis takes beside its plot, whatever its labels ("80%" or "5%"), so the
# plots of a column, and of the accuracy and length rows, start at one x
Y_AXIS = 42


DIGIT, LABEL_GAP = 6.2, 6  # px: a digit of an 11 px axis label, and the least gap between two


def _labelled(steps: list[float], columns: int) -> dict:
    """Where a panel is too narrow to label each of its ticked steps, the labels that fit, taken
    from the last back (Vega's own thinning keeps the first and may drop the last step): each
    one clear of the last kept, so the first step, narrower, is often kept too. Labels are
    centred on their ticks (not flush: a first label flush right of its tick ran into the
    next)."""
    px = panel_width(columns) / (steps[-1] - steps[0])
    half = [len(f"{s:.0f}") * DIGIT / 2 for s in steps]
    kept = [len(steps) - 1]
    for i in range(len(steps) - 2, -1, -1):
        if (steps[kept[-1]] - steps[i]) * px >= half[kept[-1]] + half[i] + LABEL_GAP:
            kept.append(i)
    if len(kept) == len(steps):
        return {"labelFlush": False}
    shown = " || ".join(f"datum.value == {steps[i]:.0f}" for i in kept)
    return {
        "labelExpr": f"({shown}) ? datum.label : ''",
        "labelOverlap": False,
        "labelFlush": False,
    }


def _grid_look(
    data: pl.DataFrame,
    *,
    banded: bool,
    x_title: str,
    y_title: str,
    tokens_title: str,
    columns: int,
    points: bool,
    height: int,
) -> _Look:
    """The encodings, markers and tooltips of `run_grid`'s panels, each built once in its two
    forms: altair's method syntax costs a millisecond a call, and 13 panels made hundreds;
    `height`, an accuracy panel's. Curves with no band start their axis at 0: with nothing
    to read a wiggle against, an axis fitted to it made a dip of a few points look like a
    collapse."""
    steps = data["iteration"].drop_nulls()
    x = alt.X("iteration:Q").scale(
        domain=[float(steps.min()), float(steps.max())] if steps.len() else None, nice=False
    )
    few = steps.unique().sort().to_list()
    # steps are whole: a few are each ticked (three tick 1, 2, 3, not 1.0, 1.5, ...)
    x = (
        x.axis(**stated_ticks(few), format="d", **_labelled(few, columns))
        if 1 < len(few) <= 8
        else x.axis(tickMinStep=1)
    )
    acc_format = ".0%" if y_title.lower().endswith("accuracy") else "~g"
    blue, orange = COLOURS["accuracy"], COLOURS["token length"]
    tips = curve_tips(x_title)
    return _Look(
        x_by={shown: x.title(x_title if shown else None) for shown in (True, False)},
        y_by={
            shown: alt.Y("value:Q")
            .title(y_title if shown else None)
            # rounded to the ticks (as many as the axis asks for): every panel's end labels
            # then sit on its edges alike, so no panel's title is lifted above another's, and
            # every label is on its tick (a label pulled in, or one left out, misled)
            .scale(zero=not banded, nice=4)
            .axis(format=acc_format, tickCount=4, minExtent=Y_AXIS, labelFlush=False)
            for shown in (True, False)
        },
        band_by={shown: alt.Y("lo:Q").title(y_title if shown else None) for shown in (True, False)},
        tokens_by={shown: _length_y(tokens_title if shown else None) for shown in (True, False)},
        run_tokens=_length_y(RUN_TOKENS),
        y_title=y_title,
        marker=alt.OverlayMarkDef(filled=True, size=24, color=blue) if points else False,
        length_marker=alt.OverlayMarkDef(filled=True, size=24, color=orange),
        tips=tips,
        accuracy_tips=[*tips, *with_interval("value", ".3f", y_title)],
        length_tips=[*tips, tip("tokens:Q", "Mean response length (tokens)", ",.0f")],
        width=panel_width(columns),
        height=height,
    )


RUN_TOKENS = "Run's mean tokens"  # the title of a length that is the run's, not a benchmark's


def _length_y(title: str | None) -> alt.Y:
    """A length panel's y axis, titled `title` (broken in two where long) or untitled."""
    return (
        alt.Y("tokens:Q")
        .title(title and _two_lines(title))
        .scale(zero=False, nice=2)
        # "0", not the "0k" a shared SI prefix gives the axis's origin
        .axis(
            format="~s",
            tickCount=2,
            minExtent=Y_AXIS,
            labelFlush=False,
            labelExpr="datum.value == 0 ? '0' : datum.label",
        )
    )


def _two_lines(title: str) -> str | list[str]:
    """A length panel's axis title, broken at its middle space when longer than the panel is
    high: a title overhanging its short panel pushed that panel down against its neighbours'.

    >>> _two_lines("Tokens"), _two_lines("Run's mean tokens")
    ('Tokens', ["Run's mean", 'tokens'])
    """
    if len(title) <= 8 or " " not in title:
        return title
    spaces = [i for i, c in enumerate(title) if c == " "]
    cut = min(spaces, key=lambda i: abs(i - len(title) / 2))
    return [title[:cut], title[cut + 1 :]]


def _unit(
    look: _Look,
    rows: pl.DataFrame,
    i: int,
    name: str,
    *,
    first: bool,
    lowest: bool,
    has_length: bool,
    length_titled: bool = True,
    average: bool = False,
    run_length: bool = False,
) -> alt.LayerChart | alt.VConcatChart:
    """Panel `i` (its `rows`): accuracy, above its mean length where it `has_length`; y titled
    on the first column (a length where `length_titled`), x on the lowest panel of its column;
    `average`: the benchmarks' mean, drawn dark."""
    panel = alt.datum.panel == i
    if average:
        marker = look.marker and alt.OverlayMarkDef(
            filled=True, size=30, color=AVERAGE, shape="diamond"
        )
        look = look._replace(colour=AVERAGE, marker=marker)
    accuracy = _accuracy(look, rows, i, name, panel, lowest and not has_length, first)
    if not has_length:
        return accuracy
    y = look.run_tokens if run_length else look.tokens_by[length_titled]
    return compose.vconcat(accuracy, _length(look, i, panel, lowest, y), spacing=6)


def _accuracy(
    look: _Look, rows: pl.DataFrame, i: int, name: str, panel, x_shown: bool, first: bool
) -> alt.LayerChart:
    """Panel `i`'s accuracy: its band where it has one, the curve as logged, and its moving
    average over it where the curves carry one (the logged points then fade)."""
    base = alt.Chart().transform_filter(panel).encode(x=look.x_by[x_shown])
    layers = []
    if rows["lo"].is_not_null().any():
        layers.append(_band(look, base, i, first))
    smooth = "smoothed" in rows.columns and rows["smoothed"].is_not_null().any()
    layers.append(_logged(look, base, i, first, faint=smooth))
    if smooth:
        layers.append(_average(look, base, i, first))
    return compose.layer(
        *layers,
        title=panel_title(shown_name(name), frame="group"),
        width=look.width,
        height=look.height,
    )


def shown_name(name: str) -> str:
    """A benchmark's name as a panel shows it: as logged, less a trailing `/unknown` (verl's
    data sources name a source they do not know so, and it says nothing); the table keeps
    the logged name.

    >>> shown_name("math__math/unknown"), shown_name("codegen__mbpp/mbpp")
    ('math__math', 'codegen__mbpp/mbpp')
    """
    return name.removesuffix("/unknown") if name != "/unknown" else name


def _band(look: _Look, base: alt.Chart, i: int, first: bool) -> alt.Chart:
    """The accuracy's 95% band, where a step has one."""
    return (
        base.transform_filter(alt.expr.isValid(alt.datum.lo))
        .mark_area(opacity=0.22, color=look.colour)
        .encode(y=look.band_by[first], y2=alt.Y2("hi:Q"))
        .properties(name=f"band {i}")
    )


def _logged(look: _Look, base: alt.Chart, i: int, first: bool, *, faint: bool) -> alt.Chart:
    """The accuracy as logged; faint under its moving average."""
    opacity = {"opacity": 0.3} if faint else {}  # the logged points under their average
    return (
        base.transform_filter(alt.expr.isValid(alt.datum.value))
        # round joins: a mitred spike of a noisy curve ran past the value it reached
        .mark_line(
            point=look.marker, strokeWidth=1.6, color=look.colour, strokeJoin="round", **opacity
        )
        .encode(y=look.y_by[first], tooltip=look.accuracy_tips)
        .properties(name=f"accuracy {i}")
    )


def _average(look: _Look, base: alt.Chart, i: int, first: bool) -> alt.Chart:
    """The accuracy's moving average, solid."""
    return (
        base.transform_filter(alt.expr.isValid(alt.datum.smoothed))
        .mark_line(strokeWidth=2.2, color=look.colour, strokeJoin="round")
        .encode(
            y=alt.Y("smoothed:Q").title(look.y_title if first else None),
            tooltip=[*look.tips, tip("smoothed:Q", "Moving average", ".3f")],
        )
        .properties(name=f"smoothed {i}")
    )


def _length(look: _Look, i: int, panel, x_shown: bool, y: alt.Y) -> alt.Chart:
    """Panel `i`'s mean response length, below its accuracy, on the axis `y`."""
    return (
        alt.Chart()
        .transform_filter(panel & alt.expr.isValid(alt.datum.tokens))
        .mark_line(
            point=look.marker and look.length_marker,
            strokeWidth=1.6,
            color=COLOURS["token length"],
            strokeJoin="round",
        )
        .encode(x=look.x_by[x_shown], y=y, tooltip=look.length_tips)
        .properties(name=f"length {i}", width=look.width, height=65)
    )


def _panel_rows(curves: pl.DataFrame, names: list[str]) -> pl.DataFrame:
    """The tidy curves of the drawn benchmarks as one row per panel and step: `value`, `lo`
    and `hi` of the accuracy curve and `tokens`, the mean length (null where a step has
    none). Benchmarks not drawn carry no rows."""
    drawn = curves.filter(pl.col("benchmark").is_in(names)).with_columns(
        panel=pl.col("benchmark").replace_strict(names, list(range(len(names))))
    )
    keys = ["panel", "benchmark", "iteration"]
    smoothed = ["smoothed"] if "smoothed" in drawn.columns else []  # only where asked for
    accuracy = drawn.filter(pl.col("metric") == "accuracy").select(
        *keys, "value", "lo", "hi", *smoothed
    )
    tokens = drawn.filter(pl.col("metric") == "token length").select(*keys, tokens=pl.col("value"))
    return (
        accuracy.join(tokens, on=keys, how="full", coalesce=True, nulls_equal=True)
        .sort("panel", "iteration", nulls_last=True)
        .select("panel", "benchmark", "iteration", "value", "lo", "hi", *smoothed, "tokens")
    )
