"""The figures' chart functions (000-004, 006, 008): what a reader must see is in the spec
(marks, fields, points, domains, layers); and, for these, the tests every chart function
takes (`chart_checks`)."""

from __future__ import annotations

import re

import altair as alt
import polars as pl
import pytest

import helpers
from helpers import charts
from helpers.charts import labels
from helpers.charts.step_dpo_sizing import GAIN_TEXT
from helpers.figures import (
    across_papers,
    grpo_vs_mel,
    prm_data_scaling,
    rl_length_scaling,
    step_dpo_sizing,
    training_dynamics,
)
from helpers.render import theme
from tests.chart_checks import (  # noqa: F401 (collected here, for CHART_MODULES)
    _untitled_tooltips,
    grey_clashes,
    test_chart_builds_round_trips_and_renders,
    test_chart_is_the_spec_altair_builds,
    test_every_stated_tick_is_drawn,
    test_series_are_told_apart_in_greyscale,
    test_tooltips_speak_in_words,
)
from tests.chart_examples import (
    EXAMPLES,
    _centred,
    _data,
    _named,
    _roundtrip,
    _text,
    chart_functions,
)

CHART_MODULES = (
    "across_papers", "detectability", "grpo_vs_mel", "prm_data_scaling", "rl_length_scaling",
    "step_dpo_sizing", "training_dynamics",
)  # fmt: skip


# ---- 000 ----------------------------------------------------------------------------------------


def test_length_scaling_has_two_described_panels_with_every_point_labelled():
    df = helpers.load("rl_length_scaling")
    spec = _roundtrip(charts.rl_length_scaling(df))
    assert [_text(p["title"]) for p in spec["hconcat"]] == ["MATH500", "AIME2024"]
    assert all(_centred(p["title"]) for p in spec["hconcat"])  # centred above each, as described
    for panel in spec["hconcat"]:
        layers = panel["layer"]
        points = [ly for ly in layers if ly["mark"]["type"] == "point"]
        texts = [ly for ly in layers if ly["mark"]["type"] == "text"]
        assert len(points) == 1 and texts
        rows = _data(spec, points[0], panel)
        assert len(rows) == 10 and {r["panel"] for r in rows} == {_text(panel["title"])}
        enc = points[0]["encoding"]
        assert enc["x"]["field"] == "drawn_x" and enc["y"]["field"] == "accuracy"
        # with no intervals to set apart, every point is drawn at the length read
        assert all(r["drawn_x"] == r["token_length"] for r in rows)
        assert enc["color"]["scale"]["range"] == [theme.COLOURS["k1.5"], theme.COLOURS["other"]]
        assert {t["field"] for t in enc["tooltip"]} >= {
            "model",
            "token_length",
            "accuracy",
            "reading",
        }
        assert all(t["encoding"]["text"]["field"] == "model" for t in texts)
        # the described domain, widened to hold every described point
        ydom = enc["y"]["scale"]["domain"]
        assert ydom[0] <= min(r["accuracy"] for r in rows) and ydom[1] >= max(
            r["accuracy"] for r in rows
        )
    aime = spec["hconcat"][1]["layer"][0]["encoding"]
    assert aime["y"]["scale"]["domain"][0] < 10 and aime["x"]["scale"]["domain"][1] > 5000


def test_length_scaling_options_add_frontier_intervals_and_published_layers():
    df = helpers.load("rl_length_scaling")
    pub = pl.DataFrame(
        {
            "panel": ["AIME2024"],
            "model": ["x"],
            "token_length": [3272],
            "accuracy": [60.8],
            "source": ["Section 3.4"],
        }
    )
    spec = _roundtrip(
        charts.rl_length_scaling(
            rl_length_scaling.with_benchmark_intervals(df),
            frontier=rl_length_scaling.frontiers(df),
            published=pub,
        )
    )
    aime = _named(spec["hconcat"][1])
    # the published crosses are drawn over the points they sit on (under them, most were hidden)
    assert list(aime)[:5] == ["intervals", "frontier", "frontier_rings", "points", "published"]
    assert spec["title"]["text"].endswith(
        ", with 95% intervals, the Pareto frontier and the published values"
    )
    # each addition named, and the intervals set apart where two models share a length
    assert len(spec["title"]["subtitle"]) == 5
    assert spec["title"]["subtitle"][1].endswith(
        "the more accurate drawn slightly left so that both show: MATH500 1,200 and AIME2024 "
        "3,200 tokens"
    )
    points = {r["model"]: r for r in _data(spec, aime["points"], spec["hconcat"][1])}
    dpo, rs = points["k1.5-short w/ dpo"], points["k1.5-short w/ merge + rs"]
    assert dpo["token_length"] == rs["token_length"] == 3200
    # the one beaten where it was read, the one beating it left of it (off the frontier)
    assert rs["drawn_x"] == 3200 and dpo["drawn_x"] < 3200 and dpo["accuracy"] > rs["accuracy"]
    rule = aime["intervals"]
    assert rule["encoding"]["y"]["field"] == "lo" and rule["encoding"]["y2"]["field"] == "hi"
    gpt = next(r for r in _data(spec, rule, spec["hconcat"][1]) if r["model"] == "gpt-4-0513")
    # Wilson for 9% of 30 by hand: centre 0.1365, half-width 0.1071
    assert gpt["lo"] == pytest.approx(2.95, abs=0.02) and gpt["hi"] == pytest.approx(
        24.36, abs=0.02
    )
    frontier = _data(spec, aime["frontier"])
    assert [r["model"] for r in frontier][-2:] == ["k1.5-short w/ rl", "k1.5-long"]
    # a "+" of two thin strokes, not filled: the point read at the same value shows through
    published = aime["published"]["mark"]
    assert published["shape"] == "M-1,0L1,0M0,-1L0,1" and published["filled"] is False
    assert len(_data(spec, aime["published"])) == 1


@pytest.mark.parametrize("panel", ["MATH500", "AIME2024"])
def test_labels_do_not_overlap_each_other(panel):
    """The placed labels of each 000 panel, as the chart draws them, never overlap."""
    spec = charts.rl_length_scaling(helpers.load("rl_length_scaling")).to_dict()
    layer = next(p for p in spec["hconcat"] if _text(p["title"]) == panel)
    rows = _data(spec, layer["layer"][0], layer)
    enc = layer["layer"][0]["encoding"]
    xa = labels.Axis(enc["x"]["scale"]["domain"], charts.PANEL_W)
    ya = labels.Axis(enc["y"]["scale"]["domain"], charts.PANEL_H, flip=True)
    df = pl.DataFrame(rows)
    xs = [xa.to_px(v) for v in df["token_length"]]
    ys = [ya.to_px(v) for v in df["accuracy"]]
    spots = [
        (s.dx, s.dy, s.align)
        for s in labels.layout(xs, ys, df["model"].to_list(), charts.PANEL_W, charts.PANEL_H)
    ]
    placed = [
        (round(xa.to_px(r["label_x"]) - x), round(ya.to_px(r["label_y"]) - y), r["label_align"])
        for r, x, y in zip(rows, xs, ys, strict=True)
    ]
    # the chart uses these placements (a spot found over the whole plot is at a fraction of a px)
    assert placed == [(round(dx), round(dy), a) for dx, dy, a in spots]
    boxes = [
        labels._box(x, y, *s, t) for x, y, s, t in zip(xs, ys, spots, df["model"], strict=False)
    ]
    overlaps = [
        (i, j) for i in range(len(boxes)) for j in range(i) if labels._overlap(boxes[i], boxes[j])
    ]
    assert overlaps == []


def test_axis_round_trips_on_log_scale():
    ax = labels.Axis([1000, 100000], 300, kind="log")
    assert ax.to_px(10000) == pytest.approx(150)
    assert ax.from_px(ax.to_px(59000)) == pytest.approx(59000)


# ---- 002 ----------------------------------------------------------------------------------------


def test_step_dpo_sizing_spec():
    df = helpers.load("step_dpo_sizing")
    spec = _roundtrip(charts.step_dpo_sizing(df))
    legend, plot = spec["hconcat"]
    assert _text(spec["title"]) == "Accuracy on the MATH test set" and _centred(spec["title"])
    # the described legend: four entries with no plotted point (rings), then its notes
    legend_rows = _data(spec, legend["layer"][0], legend)
    assert [r["model"] for r in legend_rows if not r["note"]] == [
        "DeepSeekMath-RL",
        "Qwen2-7B-Instruct",
        "DeepSeekMath-Instruct",
        "MathGenieLM-Mistral",
    ]
    layers = plot["layer"]
    rules = [ly for ly in layers if ly["mark"]["type"] == "rule"]
    assert len(rules) == 1 and rules[0]["mark"]["strokeDash"] == [6, 4]
    assert {r["model"] for r in _data(spec, rules[0])} == {
        "Gemini-1.5-Pro",
        "GPT-4-1106",
        "Claude-3-Opus",
    }
    [points] = [ly for ly in layers if ly["mark"]["type"] == "point"]
    rows = _data(spec, points, plot)
    assert len(rows) == 11
    shapes = {r["model"]: r["shape"] for r in rows}
    assert all(shapes[m] == "triangle-up" for m in shapes if m.endswith("Step-DPO"))
    assert all(shapes[m] == "circle" for m in shapes if not m.endswith("Step-DPO"))
    assert {r["hex"] for r in rows if r["model"].endswith("Step-DPO")} == {
        theme.COLOURS["Step-DPO"]
    }
    x = points["encoding"]["x"]
    assert x["axis"]["values"] == [0, 1, 2, 3, 4, 5]
    for i, size in enumerate(["7B", "32B", "47B", "57B", "70B", "72B"]):
        assert f"datum.value == {i} ? '{size}'" in x["axis"]["labelExpr"]
    assert points["encoding"]["y"]["scale"]["domain"] == [42.5, 72.5]
    baseline_text = [
        ly
        for ly in layers
        if ly["mark"]["type"] == "text" and ly["mark"].get("align") == "left" and "dy" in ly["mark"]
    ]
    assert len(baseline_text) == 1


SIZES = ["7B", "32B", "47B", "57B", "70B", "72B"]


def test_step_dpo_gains_layer_and_values():

    df = helpers.load("step_dpo_sizing")
    gains = step_dpo_sizing.step_dpo_gains(df)
    assert dict(zip(gains["base_model"], gains["gain"], strict=True)) == {
        "Qwen1.5-32B-SFT": 2.0,
        "Qwen2-57B-A14B-Instruct": 7.5,
        "Llama3-70B-Instruct": 9.0,
        "Qwen2-72B-Instruct†": -4.5,
        "Qwen2-72B-Instruct": 5.5,
    }
    spec = _roundtrip(charts.step_dpo_sizing(df, gains=gains))
    plot = spec["hconcat"][1]
    red = [ly for ly in plot["layer"] if ly["mark"].get("color") == theme.COLOURS["Step-DPO"]]
    texts = [ly for ly in plot["layer"] if ly["mark"].get("color") == GAIN_TEXT]
    # the bars, the caps of the one set apart, the labels right and left of their bars
    assert [ly["mark"]["type"] for ly in red + texts] == ["rule", "rule", "text", "text"]
    bars = _data(spec, red[0])
    # at the points' size; the second of two at one size a little right of the first, so the
    # two 72B bars, which meet at the Step-DPO point, do not read as one
    at = {r["base_model"]: r["pos"] - SIZES.index(r["model_size"]) for r in bars}
    assert at == pytest.approx({m: 0.0 for m in at} | {"Qwen2-72B-Instruct": 0.25})
    spans = sorted(sorted((r["base"], r["step_dpo"])) for r in bars if r["model_size"] == "72B")
    assert spans[0][1] <= spans[1][0]  # the two 72B comparisons meet at Step-DPO, no overlap
    for r in bars:  # a bar at its markers stops short of both (touching, it read as an arrow);
        # the one set apart runs from one marker's level to the other's, capped back to each
        short = 0 if r["base_model"] == "Qwen2-72B-Instruct" else 2 * 0.6
        assert abs(r["step_dpo"] - r["base"]) == pytest.approx(abs(r["gain"]) - short)
    caps = _data(spec, red[1])
    assert sorted(r["level"] for r in caps) == [59.5, 65.0]
    assert all(r["near"] < r["pos"] and round(r["pos"]) == round(r["near"]) for r in caps)
    sides = {r["model_size"]: r["side"] for r in bars}
    # right of 32B's 2-point bar sits a model's name; the names keep off the bars (issue 26),
    # so the 7B name no longer reaches over to its left, and the label goes there
    assert sides == {"32B": "left", "57B": "right", "70B": "right", "72B": "right"}


# ---- 003 ----------------------------------------------------------------------------------------


def test_prm_data_scaling_spec():
    df = helpers.load("prm_data_scaling")
    spec = _roundtrip(charts.prm_data_scaling(df))
    left, right = spec["hconcat"]
    # the panels are named by their x axes, as described; no panel title repeats them
    assert "title" not in left and "title" not in right
    assert [p["layer"][0]["encoding"]["x"]["title"] for p in (left, right)] == [
        "Number of Training Samples",
        "Parameter Size of PRMs",
    ]
    lines = [ly for ly in left["layer"] if ly["mark"]["type"] == "line"]
    assert len(lines) == 2 and lines[1]["mark"]["strokeDash"] == [5, 4]
    x = lines[0]["encoding"]["x"]
    assert x["scale"]["type"] == "log" and x["axis"]["values"] == [1000, 5000, 10000, 59000]
    assert "'59k'" in x["axis"]["labelExpr"]
    hollow = [
        ly
        for ly in left["layer"]
        if ly["mark"]["type"] == "point" and ly["mark"]["filled"] is False
    ]
    assert len(hollow) == 1 and hollow[0]["transform"] == [
        {"filter": "(datum.status === 'extrapolated')"}
    ]
    [rpoints] = [ly for ly in right["layer"] if ly["mark"]["type"] == "point"]
    rows = _data(spec, rpoints, right)
    assert sorted(r["series"] for r in rows) == sorted(
        [
            "ReasonFlux-PRM-1.5B",
            "ReasonFlux-PRM-7B",
            "Qwen2.5-Math-PRM-7B",
            "Skywork-PRM-7B",
            "Qwen2.5-Math-PRM-72B",
        ]
    )
    assert {r["series"]: r["shape"] for r in rows}["Skywork-PRM-7B"] == "square"
    # the described 60-90 range, widened to hold the extrapolated ~92
    ydom = rpoints["encoding"]["y"]["scale"]["domain"]
    assert ydom[0] == 60 and ydom[1] >= 92


def test_prm_fit_band_layer():

    fit, band = prm_data_scaling.loglinear_band(
        [1000, 10000], [83, 90], 500, (1000, 59000), points=5
    )
    assert fit.slope == pytest.approx(7.0)
    assert (
        band.height == 5 and (band["lo"] < band["mean"]).all() and (band["mean"] < band["hi"]).all()
    )
    spec = _roundtrip(charts.prm_data_scaling(helpers.load("prm_data_scaling"), fit=band))
    area = spec["hconcat"][0]["layer"][0]
    assert area["mark"]["type"] == "area" and area["mark"]["clip"] is True
    assert len(_data(spec, area)) == 5


# ---- 001 ----------------------------------------------------------------------------------------


def panel_order(spec: dict) -> list[str]:
    """Benchmarks in the order a faceted chart draws its panels (sorted by the `panel` field)."""
    assert spec["facet"]["sort"] == {"field": "panel", "op": "min"}
    rows = spec["datasets"][spec["data"]["name"]]
    ranks = {r["benchmark"]: r["panel"] for r in rows}
    return sorted(ranks, key=ranks.get)


def _panel_layers(spec: dict) -> tuple[dict, dict, dict]:
    """(band, accuracy line, token line) of a training_dynamics facet spec."""
    outer = spec["spec"]["layer"][0]
    acc_layer, tokens = outer["layer"]
    band, accuracy = acc_layer["layer"]
    return band, accuracy, tokens


def test_training_grid_from_the_description():

    td = helpers.load("training_dynamics")
    curves = training_dynamics.described_curves(td)
    spec = _roundtrip(
        charts.training_dynamics(
            curves,
            title="t",
            order=td["benchmark"].to_list(),
            accuracy_domain=[0.2, 1.0],
            token_domain=[0, 30000],
        )
    )
    assert spec["columns"] == 4
    assert spec["facet"]["field"] == "benchmark"
    assert panel_order(spec) == td["benchmark"].to_list()
    assert spec["resolve"]["scale"]["y"] == "independent"
    band, accuracy, tokens = _panel_layers(spec)
    assert band["mark"]["type"] == "area" and accuracy["mark"]["type"] == "line"
    assert spec["spec"]["layer"][0]["resolve"]["scale"]["y"] == "independent"
    assert tokens["encoding"]["y"]["axis"]["orient"] == "right"
    # two axes told apart by colour, and the legend says which is which (no axis titles)
    assert accuracy["encoding"]["y"]["axis"]["labelColor"] == theme.COLOURS["accuracy"]
    assert tokens["encoding"]["y"]["axis"]["labelColor"] == theme.COLOURS["token length"]
    assert "left axis" in accuracy["encoding"]["color"]["legend"]["labelExpr"]
    assert "right axis" in accuracy["encoding"]["color"]["legend"]["labelExpr"]
    assert accuracy["encoding"]["y"]["scale"]["domain"] == [0.2, 1.0]
    # every panel spans the same iterations (stated: no empty extent where a panel has no band)
    assert accuracy["encoding"]["x"]["scale"]["domain"] == [0, 150]
    assert spec["spec"]["width"] * 4 + 3 * 14 + 4 * 82 <= 880  # four columns fit a notebook
    rows = spec["datasets"][spec["data"]["name"]]
    # 13 benchmarks x 2 ends x 2 metrics, nothing in between
    assert len(rows) == 52 and {r["iteration"] for r in rows} == {0.0, 150.0}
    bands = [r for r in rows if r["lo"] is not None]
    assert {r["benchmark"] for r in bands} == set(
        td.filter(accuracy_shape="fluctuates")["benchmark"]
    )


def test_training_grid_rejects_untidy_input():
    with pytest.raises(ValueError, match="lacks columns"):
        charts.training_dynamics(pl.DataFrame({"benchmark": ["x"]}), title="t")


def test_simulated_run_through_the_grid():
    from helpers.figures import training_dynamics

    truth = pl.DataFrame(
        {
            "benchmark": ["small", "large"],
            "n_problems": [30, 500],
            "acc_start": [0.3, 0.3],
            "acc_end": [0.6, 0.6],
            "tokens_start": [1000, 1000],
            "tokens_end": [5000, 5000],
        }
    )
    run = training_dynamics.training_run(truth, list(range(0, 101, 10)), seed=1)
    again = training_dynamics.training_run(truth, list(range(0, 101, 10)), seed=1)
    assert run.equals(again) and run.height == 22
    assert (run["correct"] <= run["n"]).all()
    curves = training_dynamics.curves_from_counts(run)
    acc = curves.filter(metric="accuracy")
    assert ((acc["lo"] <= acc["value"]) & (acc["value"] <= acc["hi"])).all()
    spread = acc.group_by("benchmark").agg((pl.col("hi") - pl.col("lo")).mean()).sort("benchmark")
    assert spread["hi"][1] > 3 * spread["hi"][0]  # "small" (n=30) bands are far wider
    spec = _roundtrip(charts.training_dynamics(curves, title="simulated"))
    assert len(spec["datasets"][spec["data"]["name"]]) == 44


# ---- 004 ----------------------------------------------------------------------------------------


def test_grpo_vs_mel_spec():
    df = helpers.load("grpo_vs_mel")
    spec = _roundtrip(charts.grpo_vs_mel(grpo_vs_mel.method_curves(df)))
    assert _text(spec["title"]) == "Benchmark: AIME24" and _centred(spec["title"])
    layers = _named(spec)
    assert list(layers) == ["stated_ranges", "lines", "points", "peaks", "stated_range_labels"]
    rect, point, text = layers["stated_ranges"], layers["points"], layers["peaks"]
    assert _data(spec, rect) == [
        {"method": "GRPO", "step": 60, "step_end": 100, "range low": 0.27, "range high": 0.3}
    ]
    enc = point["encoding"]
    assert enc["color"]["scale"]["range"] == [theme.COLOURS["GRPO"], theme.COLOURS["MEL"]]
    assert enc["shape"]["scale"]["range"] == ["circle", "triangle-up"]
    # a legend names both runs: no layer sharing the scale switches it off
    assert enc["color"]["legend"]["orient"] == "bottom-right"
    assert all(
        ly["encoding"]["color"].get("legend", {}) is not None
        for ly in spec["layer"]
        if "color" in ly.get("encoding", {})
    )
    # the shaded range is named inside the chart, clear of the curves (no halo needed)
    (label,) = layers["stated_range_labels"]["layer"]
    assert label["mark"]["type"] == "text" and "color" in label["encoding"]
    assert len(_data(spec, point, spec)) == 13
    assert {r["reading"] for r in _data(spec, point, spec)} == {
        "read score to the nearest 0.01 fraction"
    }
    assert "reading" in {t["field"] for t in enc["tooltip"]}
    assert [r["note"] for r in _data(spec, text)] == [
        "peak 0.37 (step 100)",
        "peak 0.46 (step 130)",
    ]
    ydom = enc["y"]["scale"]["domain"]
    assert ydom[0] < 0.13 and ydom[1] > 0.46  # described 0.15-0.45, widened to the points


def test_grpo_vs_mel_intervals_and_smoothing():
    df = helpers.load("grpo_vs_mel")
    smoothed = grpo_vs_mel.smooth(df.filter(kind="point"), 0.6)
    curves = grpo_vs_mel.method_curves(df, n_problems=30)
    spec = _roundtrip(charts.grpo_vs_mel(curves, smoothed=smoothed))
    layers = _named(spec)
    assert list(layers)[:6] == [
        "stated_ranges", "intervals", "lines", "points", "smoothed GRPO", "smoothed MEL",
    ]  # fmt: skip
    # the smoothed curves bold over the readings, which fade; the weight said
    assert layers["lines"]["mark"]["opacity"] < 1 and layers["points"]["mark"]["opacity"] < 1
    assert layers["smoothed GRPO"]["mark"]["strokeWidth"] > layers["lines"]["mark"]["strokeWidth"]
    assert any("(EMA, weight 0.6) of the readings" in s for s in spec["title"]["subtitle"])
    bars = _data(spec, layers["intervals"], spec)
    first = next(r for r in bars if r["method"] == "GRPO" and r["step"] == 0)
    lo, hi = stats_wilson(0.13 * 30, 30)
    assert first["lo"] == pytest.approx(lo) and first["hi"] == pytest.approx(hi)
    # each method's smoothed curve broken its own way (apart in greyscale), at its own steps
    dashes = [layers[f"smoothed {m}"]["mark"]["strokeDash"] for m in ("GRPO", "MEL")]
    assert dashes == [[6, 3], [2, 2]]
    assert [len(_data(spec, layers[f"smoothed {m}"])) for m in ("GRPO", "MEL")] == [6, 7]


def stats_wilson(k, n):
    from helpers import stats

    return stats.wilson_interval(k, n)


def test_across_papers_spec():
    """006 (issue 26): one panel per paper, colour for the paper (Okabe-Ito), shape for described
    against published, hollow for 001's off-axis AIME end, an axis that fits the values."""
    view = across_papers.by_paper(across_papers.across_papers(), "AIME 2024")
    spec = _roundtrip(charts.across_papers(view))
    panels = spec["vconcat"]  # a panel per paper, in this order, each with its own rows
    assert [_text(p["title"]) for p in panels] == ["Kimi k1.5", "ReasonFlux-PRM", "MEL"]
    for panel in panels:
        rows = _data(spec, panel)
        assert {r["paper"] for r in rows} == {_text(panel["title"])}
    layers = _named(panels[0])
    assert list(layers) == ["intervals", "points", "hollow"]
    points = layers["points"]
    colour = points["encoding"]["color"]["scale"]
    assert colour["range"] == [theme.PAPER_COLOURS[p] for p in colour["domain"]]
    assert layers["intervals"]["encoding"]["color"]["scale"] == colour
    assert set(colour["range"]) <= set(theme.OKABE_ITO.values())
    shape = points["encoding"]["shape"]["scale"]
    assert shape == {"domain": ["as described", "as published"], "range": ["circle", "diamond"]}
    assert points["encoding"]["x"]["scale"]["domain"] == [0, 90]
    data = [r for panel in panels for r in _data(spec, panel)]
    assert len(data) == len({r["label"] for r in data}) == 39
    assert [r["label"] for r in data if r["hollow"]] == ["small internal model, end of RL (Fig 5)"]
    assert layers["hollow"]["transform"] == [{"filter": "datum.hollow"}]
    assert layers["hollow"]["mark"]["fill"] == "white"
    subtitle = " ".join(spec["title"]["subtitle"])
    assert "Hollow: small internal model, end of RL" in subtitle
    assert "gpt-4-0513 = GPT-4o 0513" in subtitle
    assert {t["field"] for t in points["encoding"]["tooltip"]} >= {"protocol", "source", "note"}
    rule = layers["intervals"]["encoding"]
    assert rule["x"]["field"] == "lo" and rule["x2"]["field"] == "hi"


def test_every_public_chart_function_has_an_example():
    """Every public chart function has an example, and its module's tests are in
    `test_charts` or in `test_run_charts`, not both."""
    from tests import test_run_charts

    assert len(chart_functions()) >= 14
    assert [n for n in chart_functions() if n not in EXAMPLES] == []
    assert [n for n in EXAMPLES if n not in chart_functions()] == []
    assert chart_functions(CHART_MODULES + test_run_charts.CHART_MODULES) == chart_functions()
    assert not set(CHART_MODULES) & set(test_run_charts.CHART_MODULES)


def test_every_figure_of_the_report_is_told_apart_in_greyscale():
    """The same of every chart the notebooks store (the report's figures, with the options
    the examples leave out, such as 004's smoothed curves)."""
    from helpers.paths import NOTEBOOKS
    from helpers.render import site

    found = {
        (nb.stem, figure.number): clashes
        for nb in sorted(NOTEBOOKS.glob("*.ipynb"))
        for figure in site.figures(nb)
        if (clashes := grey_clashes(figure.spec))
    }
    assert found == {}


def test_colour_alone_is_found():
    """The check finds runs told apart by colour alone, and passes them with a dash."""
    data = pl.DataFrame({"x": [0, 1, 0, 1], "y": [1, 2, 2, 3], "run": ["a", "a", "b", "b"]})
    colour = alt.Color("run:N").scale(range=theme.RUN_COLOURS[:2])
    alone = alt.Chart(data).mark_line().encode(x="x", y="y", color=colour)
    assert grey_clashes(alt.layer(alone).to_dict()) == ["line: run by colour alone"]
    dashed = alone.encode(strokeDash="run:N")
    assert grey_clashes(alt.layer(dashed).to_dict()) == []
    apart = alone.encode(color=alt.Color("run:N").scale(range=["#000000", "#bbbbbb"]))
    assert grey_clashes(alt.layer(apart).to_dict()) == []


def test_stored_notebook_charts_have_worded_tooltips():
    from helpers.paths import NOTEBOOKS
    from helpers.render import site

    for nb in sorted(NOTEBOOKS.glob("*.ipynb")):
        for figure in site.figures(nb):
            assert _untitled_tooltips(figure.spec) == [], (nb.stem, figure.number)


def test_variants_of_a_figure_have_titles_of_their_own():
    """The described figure keeps its title; each variant names what it adds."""
    df = helpers.load("rl_length_scaling")
    main = _text(_roundtrip(charts.rl_length_scaling(df))["title"])
    fig = helpers.figure("rl_length_scaling")["title"]
    assert main == fig
    variants = [
        charts.rl_length_scaling(rl_length_scaling.with_benchmark_intervals(df)),
        charts.rl_length_scaling(df, frontier=rl_length_scaling.frontiers(df)),
    ]
    titles = [_roundtrip(v)["title"]["text"] for v in variants]
    assert titles == [f"{fig}, with 95% intervals", f"{fig}, with the Pareto frontier"]


# ---- layers and concatenations made without altair's copies (`charts._compose`) --------------


def _parts():
    data = pl.DataFrame({"x": [1, 2, 3], "y": [3, 1, 2], "r": ["a", "b", "a"]})
    base = alt.Chart().encode(x="x:Q", y="y:Q")
    named = base.mark_line().properties(name="line")
    return data, base.mark_point(), named, base.mark_rule().properties(width=100, height=50)


def _both(make):
    """What `make(layer, vconcat, hconcat)` gives from `charts._compose` and from altair."""
    from helpers.charts import _compose as compose

    ours = make(compose.layer, compose.vconcat, compose.hconcat)
    theirs = make(alt.layer, alt.vconcat, alt.hconcat)
    return ours.to_dict(), theirs.to_dict()


@pytest.mark.parametrize(
    "case",
    [
        "interactive",
        "sized layer added",
        "sized layer added in place",
        "interactive panels side by side",
        "facet encodings",
        "named layers side by side",
    ],
)
@pytest.mark.filterwarnings("ignore:Automatically deduplicated selection parameter")
def test_a_chart_made_without_copies_stays_altairs_whatever_is_done_to_it(case):
    data, points, line, sized = _parts()

    def make(layer, vconcat, hconcat):
        if case == "interactive":
            return layer(points, line, data=data).interactive()
        if case == "sized layer added":
            return layer(points, line, data=data) + sized
        if case == "sized layer added in place":
            chart = layer(points, line, data=data)
            chart += sized
            return chart
        if case == "interactive panels side by side":
            one = layer(points, line).interactive()
            return vconcat(one, layer(points, line).interactive(), data=data)
        if case == "facet encodings":
            return layer(points.encode(row="r:N"), line.encode(row="r:N"), data=data)
        two = hconcat(layer(points, line), layer(points, line), data=data)
        return two.properties(title="t").resolve_scale(y="shared")

    ours, theirs = _both(make)
    assert ours == theirs


def test_a_chart_made_without_copies_keeps_its_parts_when_another_changes():
    """A chart's copy, or a chart made of it, is not changed by what is added to it after."""
    from helpers.charts import _compose as compose

    data, points, line, sized = _parts()
    base = compose.layer(points, line, data=data)
    wide = base.properties(width=500)
    wide += points
    assert len(base.layer) == 2 and len(wide.layer) == 3
    inner = compose.layer(points, line)
    both = compose.vconcat(inner, points, data=data)
    before = both.to_dict()
    inner += points
    assert both.to_dict() == before and len(inner.layer) == 3
    stacked = compose.vconcat(points, line, data=data)
    stacked &= points
    assert len(stacked.vconcat) == 3


@pytest.mark.parametrize(
    "parts",
    [
        lambda p: (alt.hconcat(p, p),),
        lambda p: (p.configure(background="red"), p),
        lambda p: ({"mark": "point"}, p),
    ],
    ids=["a concatenation layered", "a configured chart", "a dict"],
)
def test_what_altair_refuses_to_layer_or_set_side_by_side_is_refused(parts):
    from helpers.charts import _compose as compose

    _, points, _, _ = _parts()
    made = parts(points)
    for ours, theirs in ((compose.layer, alt.layer), (compose.vconcat, alt.vconcat)):
        try:
            expected = theirs(*made).to_dict()
        except (TypeError, AttributeError) as e:  # altair's own error, whichever it is
            with pytest.raises(type(e), match=re.escape(str(e)[:30])):
                ours(*made).to_dict()
        else:
            assert ours(*made).to_dict() == expected
