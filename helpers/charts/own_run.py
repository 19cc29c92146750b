"""Your own run: its curves over steps (accuracy above length, per benchmark), accuracy by group
(difficulty level, file) and accuracy against model size."""

from __future__ import annotations

from collections.abc import Sequence

import altair as alt
import polars as pl

from helpers.charts._tooltips import tip, with_interval
from helpers.charts.training_dynamics import PANEL_SPACING, curve_tips, panel_width, tidy_curves
from helpers.render.theme import COLOURS


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
    `notes` (what was left out) make the subtitle. Another score per group (`value`, e.g.
    "mean_reward" from `rewards.reward_summary`, titled `value_title`) is drawn as logged,
    not as a percentage from 0 to 1."""
    percent = value == "accuracy"
    x = alt.X(f"{group}:O").title(group.replace("_", " ").capitalize()).axis(labelAngle=0)
    y = alt.Y(f"{value}:Q").title(value_title)
    y = y.scale(domain=[0, 1]).axis(format=".0%") if percent else y.scale(zero=False)
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
            *with_interval(value, ".3f", value_title),
        ],
    )
    layers: list[alt.Chart] = [bars, points]
    if overall is not None:  # named in the subtitle: a label on the line would cross a bar
        rule = alt.Chart(overall).mark_rule(strokeDash=[5, 3], color=COLOURS["described"])
        layers.append(rule.encode(y="accuracy:Q").properties(name="overall"))
        accuracy, problems = overall.select("accuracy", "problems").row(0)
        notes = [
            f"dashed line: overall {accuracy * 100:.1f}% ({problems} problems)",
            *notes,
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
) -> alt.ConcatChart:
    """A run's curves as aligned small multiples: per benchmark, accuracy above (its 95% band
    where the curves carry one) and mean response length below, on one x axis; benchmarks
    wrap into `columns`. Axis titles once: y on the first column, x on the lowest panels.

    `curves` is tidy (`training_dynamics.CURVE_COLUMNS`: metric "accuracy" or "token length").
    Accuracy is stored as a fraction and shown in percent (`y_title` "Accuracy"); another
    score (a training reward) is shown as logged. Only layers with rows are drawn. Where the
    curves carry a `smoothed` column (a moving average, computed before), it is drawn solid
    over the logged points, which fade.
    """
    extra = curves.select("smoothed") if "smoothed" in curves.columns else None
    curves = tidy_curves(curves)
    if extra is not None:
        curves = curves.with_columns(extra.cast(pl.Float64))
    names = list(order) if order is not None else curves["benchmark"].unique(maintain_order=True)
    names = [n for n in names if n in set(curves["benchmark"])]
    # one row per panel and step, accuracy and length side by side (half the rows of the tidy
    # table, and no metric name in each); panels picked by number, never by name: a name from
    # someone's log (a quote, a line separator) must not end up inside a Vega expression
    data = _panel_rows(curves, names)
    steps = data["iteration"].drop_nulls()
    x = alt.X("iteration:Q").scale(
        domain=[float(steps.min()), float(steps.max())] if steps.len() else None, nice=False
    )
    percent = y_title == "Accuracy"
    acc_format = ".0%" if percent else "~g"
    has_length = data["tokens"].is_not_null().any()
    width = panel_width(columns)
    blue, orange = COLOURS["accuracy"], COLOURS["token length"]
    marker = alt.OverlayMarkDef(filled=True, size=24, color=blue) if points else False
    length_marker = alt.OverlayMarkDef(filled=True, size=24, color=orange)
    tips = curve_tips(x_title)
    # each encoding built once in its two forms (titled on the first column or lowest row, or
    # not): altair's method syntax costs a millisecond a call, and 13 panels made hundreds
    x_by = {shown: x.title(x_title if shown else None) for shown in (True, False)}
    y_by = {
        shown: alt.Y("value:Q")
        .title(y_title if shown else None)
        .scale(zero=False)
        .axis(format=acc_format, labelFlush=True)
        for shown in (True, False)
    }
    band_by = {shown: alt.Y("lo:Q").title(y_title if shown else None) for shown in (True, False)}
    tokens_by = {
        shown: alt.Y("tokens:Q")
        .title("Mean tokens" if shown else None)
        .scale(zero=False)
        .axis(format="~s", tickCount=3, labelFlush=True)
        for shown in (True, False)
    }
    accuracy_tips = [*tips, *with_interval("value", ".3f", y_title)]
    length_tips = [*tips, tip("tokens:Q", "Mean response length (tokens)", ",.0f")]
    units = []
    for i, name in enumerate(names):
        rows = data.filter(pl.col("panel") == i)
        first, lowest = i % columns == 0, i + columns >= len(names)
        shows_length = has_length and rows["tokens"].is_not_null().any()
        panel = alt.datum.panel == i
        base = alt.Chart().transform_filter(panel).encode(x=x_by[lowest and not shows_length])
        layers = []
        if rows["lo"].is_not_null().any():
            layers.append(
                base.transform_filter(alt.expr.isValid(alt.datum.lo))
                .mark_area(opacity=0.22, color=blue)
                .encode(y=band_by[first], y2=alt.Y2("hi:Q"))
                .properties(name=f"band {i}")
            )
        smooth = "smoothed" in rows.columns and rows["smoothed"].is_not_null().any()
        faint = {"opacity": 0.3} if smooth else {}  # the logged points under their average
        layers.append(
            base.transform_filter(alt.expr.isValid(alt.datum.value))
            .mark_line(point=marker, strokeWidth=1.6, color=blue, **faint)
            .encode(y=y_by[first], tooltip=accuracy_tips)
            .properties(name=f"accuracy {i}")
        )
        if smooth:
            layers.append(
                base.transform_filter(alt.expr.isValid(alt.datum.smoothed))
                .mark_line(strokeWidth=2.2, color=blue)
                .encode(
                    y=alt.Y("smoothed:Q").title(y_title if first else None),
                    tooltip=[*tips, tip("smoothed:Q", "Moving average", ".3f")],
                )
                .properties(name=f"smoothed {i}")
            )
        accuracy = alt.layer(*layers, title=name, width=width, height=110)
        if not shows_length:
            units.append(accuracy)
            continue
        length = (
            alt.Chart()
            .transform_filter(panel & alt.expr.isValid(alt.datum.tokens))
            .mark_line(point=marker and length_marker, strokeWidth=1.6, color=orange)
            .encode(x=x_by[lowest], y=tokens_by[first], tooltip=length_tips)
            .properties(name=f"length {i}", width=width, height=65)
        )
        units.append(alt.vconcat(accuracy, length, spacing=6))
    heading = alt.Title(title, subtitle=subtitle)
    return alt.concat(*units, columns=columns, data=data, spacing=PANEL_SPACING, title=heading)


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
