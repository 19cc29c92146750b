"""Chart functions: each builds one figure from a tidy polars frame and returns an Altair chart.

They read like the Altair gallery: named layers, composed on the last line. Colours with meaning
come from `theme.COLOURS` / `theme.DESCRIBED`; fonts and sizes from the registered theme.
"""

from __future__ import annotations

from collections.abc import Sequence

import altair as alt
import polars as pl

from . import data, stats
from .labels import Axis, text_layers, with_label_positions
from .theme import COLOURS, DESCRIBED

PANEL_W, PANEL_H = 380, 300


def _reading(resource: str, *columns: str) -> pl.Expr:
    """A tooltip line saying how finely the description reads each column (its readingStep)."""
    parts = []
    for column in columns:
        f = data.field(resource, column)
        parts.append(f"{column.replace('_', ' ')} to the nearest {f['readingStep']} {f['unit']}")
    return pl.lit("read " + "; ".join(parts))


def _domain(described: Sequence[float], values: Sequence[float], pad: float) -> list[float]:
    """The described axis range, widened where a described point falls outside it."""
    lo, hi = min(min(values) - pad, described[0]), max(max(values) + pad, described[1])
    return [lo, hi]


def _index_axis(categories: Sequence[str], title: str, pad: float) -> tuple[alt.X, list[float]]:
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


# ---- 000: accuracy against token length ---------------------------------------------------------


def length_scaling_panel(
    df: pl.DataFrame,
    panel: str,
    *,
    frontier: bool = False,
    intervals: bool = False,
    published: pl.DataFrame | None = None,
) -> alt.LayerChart:
    """One benchmark: labelled points, k1.5 orange and the other models blue.

    Options add the Pareto frontier (a step line), binomial 95% intervals for the benchmark's
    size, and published values (black crosses) from a frame with `model`, `token_length`,
    `accuracy`, `source`.
    """
    fig = data.figure("rl_length_scaling")
    described = fig["panels"][panel]
    sub = df.filter(pl.col("panel") == panel)
    xdom = _domain(described["x_domain"], sub["token_length"].to_list(), 100)
    ydom = _domain(described["y_domain"], sub["accuracy"].to_list(), 1.5)
    if intervals:
        sub = stats.with_intervals(sub, "accuracy", stats.BENCHMARK_SIZES[panel])
        ydom = [min(ydom[0], sub["lo"].min() - 1), max(ydom[1], min(100, sub["hi"].max() + 1))]
    sub = with_label_positions(
        sub,
        "token_length",
        "accuracy",
        "model",
        Axis(xdom, PANEL_W),
        Axis(ydom, PANEL_H, flip=True),
    ).with_columns(reading=_reading("rl_length_scaling", "accuracy", "token_length"))

    x = alt.X("token_length:Q").title(fig["x_title"]).scale(domain=xdom, nice=False)
    y = alt.Y("accuracy:Q").title(f"{fig['y_title']} (%)").scale(domain=ydom, nice=False)
    colour = (
        alt.Color("group:N")
        .scale(domain=["k1.5", "other"], range=[COLOURS["k1.5"], COLOURS["other"]])
        .legend(title=None, orient="bottom-right")
    )
    base = alt.Chart(sub)
    points = base.mark_point(size=70, filled=True, opacity=1).encode(
        x=x,
        y=y,
        color=colour,
        tooltip=["model:N", "token_length:Q", "accuracy:Q", "reading:N"],
    )
    labels = text_layers(sub, "model", xdom, ydom)
    layers: list[alt.Chart] = []
    if intervals:
        layers.append(
            base.mark_rule(opacity=0.5, strokeWidth=2).encode(
                x=x,
                y=alt.Y("lo:Q").scale(domain=ydom, nice=False),
                y2="hi:Q",
                color=alt.Color("group:N")
                .scale(domain=["k1.5", "other"], range=[COLOURS["k1.5"], COLOURS["other"]])
                .legend(None),
            )
        )
    if frontier:
        front = stats.pareto_frontier(
            sub.select("model", "token_length", "accuracy"), "token_length", "accuracy"
        )
        layers.append(
            alt.Chart(front)
            .mark_line(
                interpolate="step-after", color="#555555", strokeDash=[4, 3], strokeWidth=1.5
            )
            .encode(x=x, y=y)
        )
    if published is not None:
        pub = published.filter(pl.col("panel") == panel)
        layers.append(
            alt.Chart(pub)
            .mark_point(shape="cross", size=90, color=COLOURS["published"], filled=True)
            .encode(x=x, y=y, tooltip=["model:N", "token_length:Q", "accuracy:Q", "source:N"])
        )
    return alt.layer(*layers, points, *labels).properties(
        title=panel, width=PANEL_W, height=PANEL_H
    )


def length_scaling(df: pl.DataFrame, **options) -> alt.HConcatChart:
    """000: MATH500 and AIME2024 side by side, accuracy against token length."""
    fig = data.figure("rl_length_scaling")
    panels = [length_scaling_panel(df, p, **options) for p in fig["panels"]]
    return alt.hconcat(*panels).properties(title=fig["title"])


# ---- 002: accuracy against model size, with baselines ------------------------------------------

MARKER_SHAPES = {"triangle": "triangle-up", "circle": "circle", "square": "square"}


def step_dpo_sizing(df: pl.DataFrame, *, gains: pl.DataFrame | None = None) -> alt.HConcatChart:
    """002: MATH accuracy on a categorical model-size axis; Step-DPO red triangles, the others
    circles in their described colours; baselines as dashed rules labelled on the left; the
    legend as described (four entries that have no plotted point) beside the plot.

    `gains`, if given (columns model_size, base, step_dpo), draws each Step-DPO gain as an arrow
    from the matching model up or down to its Step-DPO point.
    """
    fig = data.figure("step_dpo_sizing")
    sizes = fig["x_categories"]
    points = df.filter(pl.col("kind") == "point").with_columns(
        pos=pl.col("model_size").replace_strict(sizes, list(range(len(sizes)))).cast(pl.Float64),
        hex=pl.col("colour").replace_strict(DESCRIBED),
        shape=pl.col("marker").replace_strict(MARKER_SHAPES),
        reading=_reading("step_dpo_sizing", "accuracy"),
    )
    rules = df.filter(pl.col("kind") == "baseline")
    x, xdom = _index_axis(sizes, fig["x_title"], pad=0.6)
    ydom = _domain(fig["y_domain"], points["accuracy"].to_list(), 1)
    points = with_label_positions(
        points, "pos", "accuracy", "model", Axis(xdom, 560), Axis(ydom, 380, flip=True)
    )
    ticks = [fig["y_domain"][0] + 2.5 * i for i in range(13)]
    y = (
        alt.Y("accuracy:Q")
        .title(fig["y_title"])
        .scale(domain=ydom, nice=False, zero=False)
        .axis(values=ticks, format=".1f", labelOverlap=False)
    )

    base = alt.Chart(points)
    marks = base.mark_point(size=110, filled=True, opacity=1).encode(
        x=x,
        y=y,
        color=alt.Color("hex:N").scale(None),
        shape=alt.Shape("shape:N").scale(None),
        tooltip=["model:N", "model_size:N", "accuracy:Q", "reading:N", "colour:N", "marker:N"],
    )
    labels = text_layers(points, "model", xdom, ydom)
    rule_base = alt.Chart(rules.with_columns(left=pl.lit(xdom[0] + 0.05)))
    baselines = rule_base.mark_rule(strokeDash=[6, 4], color="#666666").encode(
        y=alt.Y("accuracy:Q").scale(domain=ydom), tooltip=["model:N", "accuracy:Q"]
    )
    baseline_labels = rule_base.mark_text(align="left", dy=-7, color="#444444").encode(
        x=alt.X("left:Q").scale(domain=xdom), y=alt.Y("accuracy:Q"), text="model:N"
    )
    layers = [baselines, baseline_labels]
    if gains is not None:
        arrows = gains.with_columns(
            pos=pl.col("model_size").replace_strict(sizes, list(range(len(sizes)))).cast(pl.Float64)
            + 0.18
            + 0.14 * pl.col("model_size").cum_count().over("model_size").cast(pl.Float64)
            - 0.14
        )
        layers.append(
            alt.Chart(arrows)
            .mark_rule(color=COLOURS["Step-DPO"], strokeWidth=2)
            .encode(
                x=alt.X("pos:Q").scale(domain=xdom),
                y=alt.Y("base:Q").scale(domain=ydom),
                y2="step_dpo:Q",
                tooltip=["model_size:N", "base_model:N", "gain:Q"],
            )
        )
        layers.append(
            alt.Chart(arrows)
            .mark_text(align="left", dx=4, color=COLOURS["Step-DPO"])
            .encode(
                x=alt.X("pos:Q").scale(domain=xdom),
                y=alt.Y("mid:Q"),
                text=alt.Text("gain:Q", format="+.1f"),
            )
        )
    plot = alt.layer(*layers, marks, *labels).properties(width=560, height=380)
    legend_rows = (
        df.filter(pl.col("kind") == "legend only")
        .with_row_index("row")
        .with_columns(hex=pl.col("colour").replace_strict(DESCRIBED))
    )
    legend_base = alt.Chart(legend_rows).encode(
        y=alt.Y("row:O").axis(None), color=alt.Color("hex:N").scale(None)
    )
    legend = (
        legend_base.mark_point(filled=True, size=80, opacity=1).encode(x=alt.value(8))
        + legend_base.mark_text(align="left", dx=4, color="#222222").encode(
            x=alt.value(14), text="model:N"
        )
    ).properties(
        width=150,
        height=90,
        title=alt.Title(
            "Legend (as described)", subtitle=["no plotted point for", "these entries"], fontSize=12
        ),
    )
    return alt.hconcat(legend, plot).properties(title=fig["title"])


# ---- 003: PRM data scaling ---------------------------------------------------------------------


def prm_data_scaling(df: pl.DataFrame, *, fit: pl.DataFrame | None = None) -> alt.HConcatChart:
    """003: left, accuracy against training samples (log axis), the extrapolated reading hollow
    and dashed; right, accuracy against PRM parameter size. Shapes and colours as described.

    `fit`, if given (columns samples, mean, lo, hi), draws a fitted line with its 95% band in the
    left panel.
    """
    fig = data.figure("prm_data_scaling")
    ydom = _domain(fig["y_domain"], df["accuracy"].to_list(), 1)
    df = df.with_columns(
        hex=pl.col("colour").replace_strict(DESCRIBED),
        shape=pl.col("marker").replace_strict({**MARKER_SHAPES, "line": "circle"}),
        reading=_reading("prm_data_scaling", "accuracy"),
    )
    y = alt.Y("accuracy:Q").title(fig["y_title"]).scale(domain=ydom, nice=False, zero=False)
    tooltip = ["series:N", "x_label:N", "accuracy:Q", "status:N", "reading:N"]

    # left panel
    left_fig = fig["panels"]["training samples"]
    left = df.filter(pl.col("panel") == "training samples")
    xdom = [700, 85000]
    left = with_label_positions(
        left,
        "training_samples",
        "accuracy",
        "series",
        Axis(xdom, PANEL_W, kind="log"),
        Axis(ydom, PANEL_H, flip=True),
    )
    expr = " : ".join(
        f"datum.value == {v} ? '{lab}'"
        for v, lab in zip(left_fig["x_ticks"], left_fig["x_labels"], strict=True)
    )
    x = (
        alt.X("training_samples:Q")
        .title(left_fig["x_title"])
        .scale(type="log", domain=xdom, nice=False)
        .axis(values=left_fig["x_ticks"], labelExpr=expr + " : ''", grid=True)
    )
    colour = alt.Color("hex:N").scale(None)
    base = alt.Chart(left)
    line = left.filter(pl.col("marker") == "line")
    stated_line = (
        alt.Chart(line.filter(pl.col("status") == "stated"))
        .mark_line(color=DESCRIBED["blue"])
        .encode(x=x, y=y)
    )
    bridge = line.sort("training_samples").tail(2)
    extrapolated_line = (
        alt.Chart(bridge).mark_line(color=DESCRIBED["blue"], strokeDash=[5, 4]).encode(x=x, y=y)
    )
    stated = (
        base.transform_filter(alt.datum.status == "stated")
        .mark_point(filled=True, size=90, opacity=1)
        .encode(x=x, y=y, color=colour, shape=alt.Shape("shape:N").scale(None), tooltip=tooltip)
    )
    extrapolated = (
        base.transform_filter(alt.datum.status == "extrapolated")
        .mark_point(filled=False, size=90, strokeWidth=2, opacity=1)
        .encode(x=x, y=y, color=colour, shape=alt.Shape("shape:N").scale(None), tooltip=tooltip)
    )
    names = left.with_columns(
        label=pl.when(pl.col("status") == "extrapolated")
        .then(pl.lit("extrapolated"))
        .otherwise(pl.col("series"))
    ).unique("label", keep="last", maintain_order=True)
    label_layers = text_layers(names, "label", xdom, ydom, xscale="log")
    layers: list[alt.Chart] = []
    if fit is not None:
        band = alt.Chart(fit).encode(x=alt.X("samples:Q").scale(type="log", domain=xdom))
        layers += [
            band.mark_area(opacity=0.15, color=COLOURS["described"], clip=True).encode(
                y=alt.Y("lo:Q").scale(domain=ydom), y2="hi:Q"
            ),
            band.mark_line(color=COLOURS["described"], strokeDash=[2, 2], clip=True).encode(
                y=alt.Y("mean:Q").scale(domain=ydom)
            ),
        ]
    left_chart = alt.layer(
        *layers, stated_line, extrapolated_line, stated, extrapolated, *label_layers
    ).properties(width=PANEL_W, height=PANEL_H, title=left_fig["x_title"])

    # right panel
    right_fig = fig["panels"]["PRM size"]
    cats = right_fig["x_categories"]
    right = df.filter(pl.col("panel") == "PRM size").with_columns(
        pos=pl.col("x_label").replace_strict(cats, list(range(len(cats)))).cast(pl.Float64)
    )
    rx, rdom = _index_axis(cats, right_fig["x_title"], pad=0.5)
    right = with_label_positions(
        right, "pos", "accuracy", "series", Axis(rdom, PANEL_W), Axis(ydom, PANEL_H, flip=True)
    )
    rbase = alt.Chart(right)
    rpoints = rbase.mark_point(filled=True, size=90, opacity=1).encode(
        x=rx, y=y, color=colour, shape=alt.Shape("shape:N").scale(None), tooltip=tooltip
    )
    rlabels = text_layers(right, "series", rdom, ydom)
    right_chart = alt.layer(rpoints, *rlabels).properties(
        width=PANEL_W, height=PANEL_H, title=right_fig["x_title"]
    )
    return alt.hconcat(left_chart, right_chart).properties(title=fig["title"])


# ---- 001: training-dynamics grid ---------------------------------------------------------------

CURVE_COLUMNS = {
    "benchmark": pl.String,
    "iteration": pl.Float64,
    "metric": pl.String,
    "value": pl.Float64,
    "lo": pl.Float64,
    "hi": pl.Float64,
}


def training_grid(
    curves: pl.DataFrame,
    *,
    title: str,
    subtitle: str | list[str] = "",
    columns: int = 4,
    order: Sequence[str] | None = None,
    x_title: str = "Iterations",
    accuracy_domain: Sequence[float] | None = None,
    token_domain: Sequence[float] | None = None,
) -> alt.FacetChart:
    """001: one panel per benchmark, accuracy (left axis, blue circles) and token length (right
    axis, orange squares) against iteration, each panel with its own scales.

    `curves` is tidy (see CURVE_COLUMNS): metric is "accuracy" or "token length"; where `lo` and
    `hi` are set on accuracy rows, a band is drawn (an interval, or a stated range). Domains,
    if given, are shared by every panel (otherwise each panel fits its own data).
    """
    missing = set(CURVE_COLUMNS) - set(curves.columns)
    if missing:
        raise ValueError(f"curves lacks columns {sorted(missing)}")
    curves = curves.select(pl.col(c).cast(t) for c, t in CURVE_COLUMNS.items()).with_columns(
        series=pl.when(pl.col("metric") == "accuracy")
        .then(pl.lit("Performance"))
        .otherwise(pl.lit("Token Length"))
    )
    blue, orange = COLOURS["accuracy"], COLOURS["token length"]
    colour = (
        alt.Color("series:N")
        .scale(domain=["Performance", "Token Length"], range=[blue, orange])
        .legend(title=None, orient="top")
    )
    shape = (
        alt.Shape("series:N")
        .scale(domain=["Performance", "Token Length"], range=["circle", "square"])
        .legend(title=None, orient="top")
    )
    x = alt.X("iteration:Q").title(x_title)
    acc_scale = (
        alt.Scale(zero=False, domain=list(accuracy_domain))
        if accuracy_domain
        else alt.Scale(zero=False)
    )
    tok_scale = alt.Scale(domain=list(token_domain)) if token_domain else alt.Scale()
    base = alt.Chart().encode(x=x)
    is_acc = alt.datum.metric == "accuracy"
    band = (
        base.transform_filter(is_acc & alt.expr.isValid(alt.datum.lo))
        .mark_area(opacity=0.22, color=blue)
        .encode(
            y=alt.Y("lo:Q").title("Accuracy").scale(acc_scale).axis(titleColor=blue),
            y2="hi:Q",
        )
    )
    accuracy = (
        base.transform_filter(is_acc & alt.expr.isValid(alt.datum.value))
        .mark_line(point=alt.OverlayMarkDef(filled=True, size=28), strokeWidth=1.6)
        .encode(
            y=alt.Y("value:Q").title("Accuracy").scale(acc_scale).axis(titleColor=blue),
            color=colour,
            shape=shape,
            tooltip=[
                "benchmark:N",
                "iteration:Q",
                alt.Tooltip("value:Q", format=".3f"),
                alt.Tooltip("lo:Q", format=".3f"),
                alt.Tooltip("hi:Q", format=".3f"),
            ],
        )
    )
    tokens = (
        base.transform_filter(alt.datum.metric == "token length")
        .mark_line(
            point=alt.OverlayMarkDef(filled=True, size=28), strokeWidth=1.6, strokeDash=[1, 0]
        )
        .encode(
            y=alt.Y("value:Q")
            .title("Token Length")
            .scale(tok_scale)
            .axis(orient="right", titleColor=orange),
            color=colour,
            shape=shape,
            tooltip=["benchmark:N", "iteration:Q", alt.Tooltip("value:Q", format=",.0f")],
        )
    )
    panel = alt.layer(alt.layer(band, accuracy), tokens).resolve_scale(y="independent")
    names = list(order) if order is not None else curves["benchmark"].unique(maintain_order=True)
    # panels ordered by a number, never by a list of names: Vega-Lite writes a sort list into an
    # expression, and a name from someone's log (a quote, a line separator) would break it
    curves = curves.with_columns(
        panel=pl.col("benchmark").replace_strict(names, list(range(len(names))), default=len(names))
    )
    return (
        alt.layer(panel, data=curves)
        .properties(width=190, height=120)
        .facet(
            facet=alt.Facet("benchmark:N", title=None).sort(field="panel", op="min"),
            columns=columns,
        )
        .resolve_scale(y="independent", x="independent")
        .properties(title=alt.Title(title, subtitle=subtitle))
    )


def gain_vs_growth(gg: pl.DataFrame) -> alt.LayerChart:
    """001 analysis: accuracy gain against token-length growth, one labelled point per benchmark
    whose description gives a start and an end (ranges give no gain)."""
    pts = gg.filter(pl.col("gain").is_not_null())
    xdom = [0, max(32000, pts["token_growth"].max() * 1.1)]
    ydom = [0, max(0.25, pts["gain"].max() * 1.2)]
    pts = with_label_positions(
        pts, "token_growth", "gain", "benchmark", Axis(xdom, 360), Axis(ydom, 240, flip=True)
    )
    x = alt.X("token_growth:Q").title("Token length growth over the run").scale(domain=xdom)
    y = alt.Y("gain:Q").title("Accuracy gain (end - start)").scale(domain=ydom)
    base = alt.Chart(pts)
    points = base.mark_point(filled=True, size=70, color=COLOURS["accuracy"], opacity=1).encode(
        x=x, y=y, tooltip=["benchmark:N", "gain:Q", "token_growth:Q"]
    )
    labels = text_layers(pts, "benchmark", xdom, ydom)
    return alt.layer(points, *labels).properties(
        width=360, height=240, title="Accuracy gain against token-length growth (as described)"
    )


# ---- 004: GRPO vs MEL ----------------------------------------------------------------------------

METHOD_SHAPES = {"GRPO": "circle", "MEL": "triangle-up"}


def grpo_vs_mel(
    df: pl.DataFrame,
    *,
    n_problems: int | None = None,
    smoothed: pl.DataFrame | None = None,
) -> alt.LayerChart:
    """004: validation score against training step, GRPO blue circles and MEL red triangles,
    each curve's peak annotated, and the one stated range (GRPO, steps 60-100) as a shaded box.

    `n_problems` adds Wilson 95% intervals for a benchmark of that size; `smoothed` (columns
    method, step, smoothed) adds smoothed curves as dashed lines.
    """
    fig = data.figure("grpo_vs_mel")
    points = df.filter(pl.col("kind") == "point").with_columns(
        reading=_reading("grpo_vs_mel", "score")
    )
    ranges = df.filter(pl.col("kind") != "point").pivot(
        on="kind", index=["method", "step", "step_end"], values="score"
    )
    ydom = _domain(fig["y_domain"], points["score"].to_list(), 0.02)
    if n_problems is not None:
        points = stats.with_intervals(points, "score", n_problems, scale=1.0)
        ydom = [0.0, max(ydom[1], points["hi"].max() + 0.02)]
    methods = ["GRPO", "MEL"]
    colour = (
        alt.Color("method:N")
        .scale(domain=methods, range=[COLOURS[m] for m in methods])
        .legend(title=None, orient="bottom-right")
    )
    shape = (
        alt.Shape("method:N")
        .scale(domain=methods, range=[METHOD_SHAPES[m] for m in methods])
        .legend(title=None, orient="bottom-right")
    )
    x = alt.X("step:Q").title(fig["x_title"]).scale(domain=fig["x_domain"], nice=False)
    y = alt.Y("score:Q").title(fig["y_title"]).scale(domain=ydom, nice=False, zero=False)
    base = alt.Chart(points)
    lines = base.mark_line(strokeWidth=2).encode(x=x, y=y, color=colour)
    marks = base.mark_point(filled=True, size=80, opacity=1).encode(
        x=x,
        y=y,
        color=colour,
        shape=shape,
        tooltip=["method:N", "step:Q", alt.Tooltip("score:Q", format=".2f"), "reading:N"],
    )
    peaks = points.sort("score", descending=True).unique("method", keep="first").sort("method")
    peaks = peaks.with_columns(
        note=pl.format("peak {} (step {})", pl.col("score").round(2), pl.col("step"))
    )
    peak_labels = (
        alt.Chart(peaks)
        .mark_text(dy=-12, fontWeight="bold")
        .encode(x=x, y=y, text="note:N", color=colour)
    )
    stated = (
        alt.Chart(ranges)
        .mark_rect(opacity=0.18)
        .encode(
            x=alt.X("step:Q").scale(domain=fig["x_domain"]),
            x2="step_end:Q",
            y=alt.Y("range low:Q").scale(domain=ydom),
            y2="range high:Q",
            color=alt.Color("method:N")
            .scale(domain=methods, range=[COLOURS[m] for m in methods])
            .legend(None),
            tooltip=["method:N", "step:Q", "step_end:Q", "range low:Q", "range high:Q"],
        )
    )
    layers: list[alt.Chart] = [stated]
    if n_problems is not None:
        # the two methods share steps: nudge their bars apart so both stay visible
        layers.append(
            base.transform_calculate(shifted="datum.step + (datum.method == 'MEL' ? 1.2 : -1.2)")
            .mark_errorbar(ticks=True, thickness=1.5)
            .encode(
                x=alt.X("shifted:Q").scale(domain=fig["x_domain"]).title(fig["x_title"]),
                y=alt.Y("lo:Q").scale(domain=ydom).title(fig["y_title"]),
                y2="hi:Q",
                color=colour,
            )
        )
    if smoothed is not None:
        layers.append(
            alt.Chart(smoothed)
            .mark_line(strokeDash=[5, 3], strokeWidth=1.5)
            .encode(
                x=x,
                y=alt.Y("smoothed:Q").scale(domain=ydom),
                color=colour,
                tooltip=["method:N", "step:Q", alt.Tooltip("smoothed:Q", format=".3f")],
            )
        )
    return alt.layer(*layers, lines, marks, peak_labels).properties(
        title=fig["title"], width=520, height=320
    )


# ---- your own run --------------------------------------------------------------------------------


def accuracy_by_group(
    table: pl.DataFrame, group: str, *, title: str, overall: pl.DataFrame | None = None
) -> alt.LayerChart:
    """Accuracy with Wilson 95% intervals per group (e.g. MATH difficulty level), from
    `aggregate.accuracy_table`; `overall` (one row) adds a rule at the overall accuracy."""
    x = alt.X(f"{group}:O").title(group.replace("_", " ").capitalize()).axis(labelAngle=0)
    y = alt.Y("accuracy:Q").title("Accuracy").scale(domain=[0, 1]).axis(format=".0%")
    base = alt.Chart(table)
    bars = base.mark_rule(strokeWidth=2, color=COLOURS["accuracy"]).encode(x=x, y="lo:Q", y2="hi:Q")
    points = base.mark_point(filled=True, size=80, color=COLOURS["accuracy"], opacity=1).encode(
        x=x,
        y=y,
        tooltip=[
            f"{group}:O",
            "problems:Q",
            alt.Tooltip("accuracy:Q", format=".3f"),
            alt.Tooltip("lo:Q", format=".3f"),
            alt.Tooltip("hi:Q", format=".3f"),
        ],
    )
    layers: list[alt.Chart] = [bars, points]
    if overall is not None:
        o = overall.with_columns(
            note=pl.format(
                "overall {}% ({} problems)", (pl.col("accuracy") * 100).round(1), pl.col("problems")
            )
        )
        rule = alt.Chart(o).mark_rule(strokeDash=[5, 3], color=COLOURS["described"])
        layers += [
            rule.encode(y="accuracy:Q"),
            alt.Chart(o)
            .mark_text(align="left", dy=-7, x=4, color="#444444")
            .encode(y="accuracy:Q", text="note:N"),
        ]
    return alt.layer(*layers).properties(title=title, width=360, height=260)


def accuracy_vs_size(scores: pl.DataFrame, *, title: str, columns: int = 4) -> alt.FacetChart:
    """Accuracy against model size (log axis), one panel per benchmark, from
    `readers.read_scores` (columns model, size_b, benchmark, accuracy, optional family)."""
    tooltip = ["model:N", "size_b:Q", alt.Tooltip("accuracy:Q", format=".3f")]
    if "family" in scores.columns:
        tooltip.insert(1, "family:N")
    # median accuracy per half-decade of model size (bins with 3+ models), at the bin's centre
    medians = (
        scores.filter(pl.col("size_b") > 0)
        .with_columns(bin=(pl.col("size_b").log10() * 2).floor())
        .group_by("benchmark", "bin")
        .agg(pl.col("accuracy").median(), models=pl.len())
        .filter(pl.col("models") >= 3)
        .select("benchmark", "accuracy", "models", size_b=10 ** ((pl.col("bin") + 0.5) / 2))
    )
    rows = pl.concat(
        [scores.with_columns(kind=pl.lit("model")), medians.with_columns(kind=pl.lit("median"))],
        how="diagonal_relaxed",
    ).sort("benchmark", "kind", "size_b", "model", nulls_last=True)
    x = alt.X("size_b:Q").title("Model size (B parameters)").scale(type="log")
    points = (
        alt.Chart()
        .transform_filter(alt.datum.kind == "model")
        .mark_point(filled=True, size=30, opacity=0.7, color=COLOURS["accuracy"])
        .encode(x=x, y=alt.Y("accuracy:Q").title("Accuracy").scale(domain=[0, 1]), tooltip=tooltip)
    )
    trend = (
        alt.Chart()
        .transform_filter(alt.datum.kind == "median")
        .mark_line(
            color=COLOURS["token length"], point=alt.OverlayMarkDef(color=COLOURS["token length"])
        )
        .encode(x=x, y="accuracy:Q", tooltip=["size_b:Q", "accuracy:Q", "models:Q"])
    )
    return (
        alt.layer(points, trend, data=rows)
        .properties(width=200, height=150)
        .facet(facet=alt.Facet("benchmark:N", title=None), columns=columns)
        .properties(
            title=alt.Title(
                title,
                subtitle="line: median accuracy per half-decade of "
                "model size (bins with 3 or more models)",
            )
        )
    )


# ---- across the papers ---------------------------------------------------------------------------

DOCUMENT_COLOURS = {
    "000": DESCRIBED["orange"],
    "001": DESCRIBED["green"],
    "003": DESCRIBED["purple"],
    "004": DESCRIBED["red"],
    "published 000": COLOURS["published"],
}


def across_papers(rows: pl.DataFrame, group: str) -> alt.LayerChart:
    """Every value reported for one benchmark across the documents: one row per value, sorted
    by value, with its Wilson 95% interval for the benchmark's size, coloured by document."""
    sub = rows.filter(pl.col("group") == group).sort("value", descending=True)
    docs = [d for d in DOCUMENT_COLOURS if d in set(sub["document"])]
    y = alt.Y("label:N").sort(sub["label"].to_list()).title(None).axis(labelLimit=320)
    colour = (
        alt.Color("document:N")
        .scale(domain=docs, range=[DOCUMENT_COLOURS[d] for d in docs])
        .legend(title="document", orient="bottom")
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
            "label:N",
            "document:N",
            alt.Tooltip("value:Q", format=".1f"),
            alt.Tooltip("lo:Q", format=".1f"),
            alt.Tooltip("hi:Q", format=".1f"),
            "protocol:N",
            "source:N",
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
