"""Chart functions: what a reader must see is in the spec (marks, fields, points, domains, layers)."""

from __future__ import annotations

import functools
import json
import re

import altair as alt
import polars as pl
import pytest

import helpers
from helpers import charts
from helpers.charts import labels, own_run
from helpers.charts.step_dpo_sizing import GAIN_TEXT
from helpers.figures import (
    across_papers,
    detectability,
    grpo_vs_mel,
    prm_data_scaling,
    rl_length_scaling,
    step_dpo_sizing,
    training_dynamics,
)
from helpers.render import theme
from helpers.runs import drawable, readers, summarise
from tests.realdata import SKY_ACCURACY, SKY_PROBLEMS


def _layers(spec: dict) -> list[dict]:
    return spec.get("layer", [spec])


def _data(spec: dict, layer: dict, parent: dict | None = None) -> list[dict]:
    """Rows a layer draws (its own data, else its parent's)."""
    source = layer.get("data") or (parent or {}).get("data")
    return spec["datasets"][source["name"]]


def _named(spec: dict) -> dict[str, dict]:
    """A layered spec's layers by their names, in drawing order (Altair suffixes `_1`, `_2` to a
    name repeated in another panel)."""
    return {re.sub(r"_\d+$", "", ly["name"]): ly for ly in spec["layer"] if "name" in ly}


def _text(title) -> str:
    """A title's text, whether given as a string or a Title (with its anchor)."""
    return title["text"] if isinstance(title, dict) else title


def _centred(title) -> bool:
    return isinstance(title, dict) and title.get("anchor") == "middle"


def _roundtrip(chart: alt.TopLevelMixin) -> dict:
    spec = chart.to_dict()
    assert json.loads(json.dumps(spec)) == spec
    return spec


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


# ---- your own run -------------------------------------------------------------------------------


def test_accuracy_by_group_spec():

    from tests.realdata import SKY

    samples = readers.read_qwen_math(SKY)
    spec = _roundtrip(
        charts.accuracy_by_group(
            summarise.accuracy_table(samples, ["level"]),
            "level",
            title="t",
            overall=summarise.accuracy_table(samples),
        )
    )
    marks = [ly["mark"]["type"] for ly in spec["layer"]]
    assert marks == ["rule", "point", "rule"]
    assert spec["layer"][0]["encoding"]["y"]["field"] == "lo"
    assert len(_data(spec, spec["layer"][1])) == 5
    # the overall line is named in the subtitle, where no label can cross a group's interval
    overall = f"dashed line: overall {SKY_ACCURACY:.1%} ({SKY_PROBLEMS} problems)"
    assert spec["title"]["subtitle"][0] == overall


def test_the_mean_of_the_benchmarks_is_drawn_apart_after_them():
    """Issue 46: one evaluation's mean of its benchmarks is not one more benchmark along the
    axis: a panel of its own after theirs, on the same accuracy scale, a dark diamond."""
    table = pl.DataFrame(
        {
            "benchmark": ["AIME24", "MATH500", "mean of 2 benchmarks"],
            "accuracy": [0.3, 0.8, 0.55],
            "lo": [0.15, 0.76, 0.48],
            "hi": [0.5, 0.84, 0.62],
            "problems": [30, 500, None],
            "average": [False, False, True],
        }
    )
    spec = _roundtrip(charts.accuracy_by_group(table, "benchmark", title="t"))
    benchmarks, mean = spec["hconcat"]
    assert spec["resolve"]["scale"]["y"] == "shared"
    drawn = [[r["benchmark"] for r in _data(spec, p["layer"][1], p)] for p in (benchmarks, mean)]
    assert drawn == [["AIME24", "MATH500"], ["mean of 2 benchmarks"]]
    assert mean["layer"][1]["encoding"]["shape"]["value"] == "diamond"
    assert mean["layer"][1]["encoding"]["x"]["title"] == "Average"
    assert mean["layer"][1]["encoding"]["y"]["axis"]["labels"] is False


def test_accuracy_vs_size_spec():

    from tests.realdata import OBS

    scores = readers.read_scores(OBS, benchmarks=["GSM8K", "MMLU"])
    spec = _roundtrip(charts.accuracy_vs_size(summarise.size_table(scores), title="t"))
    assert spec["facet"]["field"] == "benchmark"
    points, trend = spec["spec"]["layer"]
    assert points["encoding"]["x"]["scale"]["type"] == "log"
    rows = spec["datasets"][spec["data"]["name"]]
    assert sum(r["kind"] == "model" for r in rows) == scores.height
    medians = [r for r in rows if r["kind"] == "median"]
    assert medians and all(r["models"] >= 3 for r in medians)


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


# ---- every public chart function, discovered ------------------------------------------------
# Each public chart function in `helpers.charts` needs an example here (a builder and a check of
# its own spec); the test below finds the functions itself, so a new chart without an example
# fails. Each example builds, survives JSON and `from_dict`, and renders to PNG and SVG.

EXAMPLES: dict[str, tuple] = {}


def example(name: str):
    def register(build):
        def check(check_spec):
            EXAMPLES[name] = (build, check_spec)
            return check_spec

        return check

    return register


@functools.cache  # one comparison for every example that draws it
def _compared():
    from helpers.runs import examples
    from helpers.runs.compare import compare

    return compare(examples.comparison_logs())


@example("rl_length_scaling")(lambda: charts.rl_length_scaling(helpers.load("rl_length_scaling")))
def _(spec):
    assert [_text(p["title"]) for p in spec["hconcat"]] == ["MATH500", "AIME2024"]
    assert all(_centred(p["title"]) for p in spec["hconcat"])  # centred above each, as described


@example("rl_length_scaling_panel")(
    lambda: charts.rl_length_scaling_panel(
        rl_length_scaling.with_benchmark_intervals(helpers.load("rl_length_scaling")), "AIME2024"
    )
)
def _(spec):
    assert list(_named(spec))[:2] == ["intervals", "points"]


@example("step_dpo_sizing")(lambda: charts.step_dpo_sizing(helpers.load("step_dpo_sizing")))
def _(spec):
    assert _text(spec["title"]) == "Accuracy on the MATH test set" and _centred(spec["title"])


@example("prm_data_scaling")(lambda: charts.prm_data_scaling(helpers.load("prm_data_scaling")))
def _(spec):
    assert [p["layer"][0]["encoding"]["y"]["field"] for p in spec["hconcat"]] == ["accuracy"] * 2


@example("training_dynamics")(
    lambda: charts.training_dynamics(
        training_dynamics.described_curves(helpers.load("training_dynamics")), title="t"
    )
)
def _(spec):
    assert spec["facet"]["field"] == "benchmark" and spec["columns"] == 4


@example("gain_vs_growth")(
    lambda: charts.gain_vs_growth(
        training_dynamics.gain_and_growth(helpers.load("training_dynamics"))
    )
)
def _(spec):
    points = spec["layer"][0]
    assert points["encoding"]["x"]["field"] == "token_growth"
    rows = _data(spec, points, spec)
    assert rows and all(r["gain"] is not None for r in rows)
    # every point is named by a label layer
    texts = [ly for ly in spec["layer"] if ly["mark"]["type"] == "text"]
    named = {r["benchmark"] for t in texts for r in _data(spec, t, spec)}
    assert named == {r["benchmark"] for r in rows}


@example("grpo_vs_mel")(
    lambda: charts.grpo_vs_mel(grpo_vs_mel.method_curves(helpers.load("grpo_vs_mel")))
)
def _(spec):
    assert _named(spec)["points"]["encoding"]["shape"]["legend"] is not None


@example("accuracy_by_group")(
    lambda: charts.accuracy_by_group(
        summarise.accuracy_table(readers.read_qwen_math(_sky()), ["level"]), "level", title="t"
    )
)
def _(spec):
    assert list(_named(spec)) == ["intervals"]


def _sky():
    from tests.realdata import SKY

    return SKY


def _scores():
    from tests.realdata import OBS

    return readers.read_scores(OBS, benchmarks=["GSM8K"])


@example("accuracy_vs_size")(
    lambda: charts.accuracy_vs_size(summarise.size_table(_scores()), title="t", columns=1)
)
def _(spec):
    assert list(_named(spec["spec"])) == ["models", "medians"]


def _leaderboard():
    from helpers.runs.leaderboard import leaderboard

    models = pl.DataFrame(
        {
            "model": ["a-7B", "b-1.5B", "c", "a-7B", "b-1.5B", "c"],
            "benchmark": ["AIME24"] * 3 + ["MATH500"] * 3,
            "accuracy": [0.5, 0.3, 0.1, 0.9, 0.6, 0.58],
            "size_b": [7.0, 1.5, None] * 2,
        }
    )
    return leaderboard(models)


@example("leaderboard")(
    lambda: charts.leaderboard(_leaderboard()[0], title="t", notes=_leaderboard()[1])
)
def _(spec):
    panels = spec["concat"]
    assert [p["title"] for p in panels] == ["AIME24", "MATH500"]
    assert [list(_named(p)) for p in panels] == [["tiers", "intervals", "models"]] * 2
    y = panels[1]["layer"][2]["encoding"]["y"]
    assert y["sort"] == ["a-7B", "b-1.5B", "c"]  # ranked from the top
    assert "shading" in spec["title"]["subtitle"][1]


def _run_curves():
    from .conftest import EXAMPLE

    return summarise.sample_curves(summarise.aggregate_samples(pl.scan_parquet(EXAMPLE)))


@example("run_grid")(lambda: charts.run_grid(_run_curves(), title="t", columns=2))
def _(spec):
    """Per benchmark, accuracy (percent, with its band) above mean length, one x axis; panels
    named by number (a benchmark's name never enters an expression), layers uniquely named."""
    units = spec["concat"]
    assert spec["columns"] == 2 and len(units) == 3
    accuracy, length = units[0]["vconcat"]
    band, line = accuracy["layer"]
    assert line["encoding"]["y"]["axis"]["format"] == ".0%" and band["mark"]["type"] == "area"
    assert _text(accuracy["title"]) == "aime-like (simulated)"
    assert line["encoding"]["y"]["title"] == "Accuracy"  # the first column only
    assert units[1]["vconcat"][0]["layer"][1]["encoding"]["y"]["title"] is None
    assert length["encoding"]["y"]["title"] == ["Mean", "tokens"]  # no taller than its panel
    assert "datum.panel === 0" in json.dumps(length["transform"])
    names = [x["name"] for u in units for c in u["vconcat"] for x in c.get("layer", [c])]
    assert len(names) == len(set(names)) == 9
    x = line["encoding"]["x"]["scale"]["domain"]
    assert x == [0, 150]


@example("across_papers")(
    lambda: charts.across_papers(across_papers.by_paper(across_papers.across_papers(), "MATH500"))
)
def _(spec):
    points = _named(spec["vconcat"][0])["points"]
    assert points["encoding"]["color"]["legend"]["title"] == "paper"
    assert points["encoding"]["x"]["scale"]["domain"] == [60, 100]
    labels = [r["label"] for panel in spec["vconcat"] for r in _data(spec, panel)]
    assert len(labels) == len(set(labels)) == 45  # 001's start left out: a curve gives its end


@example("run_curves")(lambda: charts.run_curves(_compared().curves, _compared().runs))
def _(spec):
    assert spec["facet"]["field"] == "benchmark"
    assert spec["spec"]["layer"][0]["encoding"]["color"]["legend"]["title"] == "run"


@example("paired_differences")(lambda: charts.paired_differences(_compared().differences))
def _(spec):
    layers = _named(spec["spec"])
    assert {"paired", "unpaired", "zero", "difference"} <= set(layers)
    # differences of accuracies are labelled in percentage points, not as relative percentages
    y = layers["difference"]["encoding"]["y"]
    assert "percentage points" in y["title"] and "* 100" in y["axis"]["labelExpr"]


@example("detectability")(
    lambda: charts.detectability(
        detectability.power_curves(detectability.gaps()), detectability.gaps()
    )
)
def _(spec):
    rows = spec["datasets"][spec["data"]["name"]]
    points = [r for r in rows if r["layer"] == "gap"]
    assert len(points) == len(detectability.GAPS)
    assert all(r["difference"] >= 0 for r in points)  # a gap's size; its sign in the tooltip
    assert {r["panel"] for r in rows} == {
        "AIME2024 / AIME24 (30 problems)", "MATH500 (500 problems)", "MATH (5,000 problems)",
    }  # fmt: skip
    assert {r["figure"] for r in points} == set(detectability.FIGURES.values())
    # each point labelled (a reader of the PNG cannot hover): what it compares, signed
    for r in points:
        assert r["label"].startswith(detectability.SHORT[r["comparison"]])
        signed = f"{r['shown_points']:+g}".replace("-", "\u2212")  # a true minus
        assert r["label"].endswith(f"({signed})") and r["label_x"] is not None
    texts = [x for x in spec["spec"]["layer"] if x["mark"]["type"] == "text"]
    assert texts and all(x["encoding"]["text"]["field"] == "label" for x in texts)


def _design_power():
    from helpers import stats
    from helpers.runs import power_curves

    rows = [
        {"design": design, "problems": 500, "accuracy": 0.5, "agreement": agreement,
         "alpha": 0.05, "power": 0.8,
         "minimum_detectable_difference": stats.minimum_detectable_difference(
             500, 0.5, agreement=agreement)}
        for design, agreement in (("unpaired", None), ("paired", 0.8))
    ]  # fmt: skip
    return power_curves.design_curves(rows, 0.05)


@example("power_against_difference")(
    lambda: charts.power_against_difference(
        *_design_power(), power=0.8, title="t", subtitle=["line: power"]
    )
)
def _(spec):
    """Each design's curve crosses the power asked for at its smallest detectable difference
    (the same formula found both), where its circle is drawn."""
    rows = spec["datasets"][spec["data"]["name"]]
    for design in ("unpaired", "paired, 80% answered alike"):
        curve = [r for r in rows if r["series"] == design and r["layer"] == "curve"]
        (smallest,) = [
            r for r in rows if r["series"] == design and r.get("point") == "smallest detectable"
        ]
        below = max((r for r in curve if r["power"] <= 0.8), key=lambda r: r["power"])
        above = min((r for r in curve if r["power"] >= 0.8), key=lambda r: r["power"])
        assert below["difference"] <= smallest["difference"] + 0.05
        assert smallest["difference"] <= above["difference"] + 0.05
    asked = [r for r in rows if r.get("point") == "asked"]
    assert [r["difference"] for r in asked] == [5.0, 5.0]


@example("problem_flips")(lambda: charts.problem_flips(_compared().problems))
def _(spec):
    assert {"bars", "problems"} <= set(_named(spec["spec"]))


@example("flip_counts")(lambda: charts.flip_counts(drawable.flip_counts(_compared().problems)))
def _(spec):
    """Counted by how much each problem moved: one bar per amount, its count written on it,
    and the counts add up to the problems that flipped."""
    assert {"bars", "counts"} <= set(_named(spec["spec"]))
    rows = spec["datasets"][spec["data"]["name"]]
    assert sum(r["problems"] for r in rows) == _compared().problems.height
    assert {r["better"] for r in rows} == {"method better", "baseline better"}


@example("comparison")(
    lambda: charts.comparison(
        _compared().curves,
        _compared().differences,
        _compared().problems,
        _compared().runs,
        title="t",
    )
)
def _(spec):
    assert len(spec["vconcat"]) == 3


def _chart_functions() -> list[str]:
    return sorted(
        name
        for name in charts.__all__
        if callable(getattr(charts, name)) and not isinstance(getattr(charts, name), type)
    )


def test_every_public_chart_function_has_an_example():
    assert len(_chart_functions()) >= 14
    assert [n for n in _chart_functions() if n not in EXAMPLES] == []
    assert [n for n in EXAMPLES if n not in _chart_functions()] == []


@functools.cache
def _built(name: str) -> tuple[alt.TopLevelMixin, dict]:
    """The example chart of a chart function and its spec, built once for the tests below."""
    chart = EXAMPLES[name][0]()
    return chart, chart.to_dict()


@pytest.mark.parametrize("name", _chart_functions())
def test_chart_builds_round_trips_and_renders(name):
    """Built, validated, read back to the same spec, checked, and drawn: the SVG, and the PNG
    rasterised from it (what vl-convert draws from the spec, as `test_export` holds)."""
    import vl_convert as vlc

    chart, spec = _built(name)
    again = type(chart).from_dict(json.loads(json.dumps(spec)))
    assert again.to_dict() == spec
    EXAMPLES[name][1](spec)
    svg = vlc.vegalite_to_svg(spec)
    assert svg.lstrip().startswith("<svg") and "<text" in svg
    png = vlc.svg_to_png(svg, scale=1)
    assert png[:8] == b"\x89PNG\r\n\x1a\n" and len(png) > 2000


def _stated_axes(node):
    """Every axis of a compiled Vega spec, in its groups."""
    if isinstance(node, dict):
        yield from node.get("axes", [])
        for mark in node.get("marks", []):
            yield from _stated_axes(mark)


@pytest.mark.parametrize("name", _chart_functions())
def test_every_stated_tick_is_drawn(name):
    """An axis given its tick values draws each of them: Vega thins stated values to the
    axis's tick count (Vega-Lite's default is one per 40 px), which drew 002's accuracy axis,
    described with a tick every 2.5 points, with one every 5."""
    import vl_convert as vlc

    for axis in _stated_axes(vlc.vegalite_to_vega(_built(name)[1])):
        if "values" in axis and isinstance(axis["values"], list):
            assert isinstance(axis.get("tickCount"), int), (name, axis)
            assert axis["tickCount"] >= len(axis["values"]), (name, axis)


# ---- told apart in greyscale (issue 44) -------------------------------------------------------

SERIES_MARKS = {"line", "point", "rule", "bar", "tick", "trail", "circle", "square"}
COLOUR_CHANNELS = ("color", "fill", "stroke")
GREY_APART = 20  # CIE L*: colours this far apart in lightness are different greys
# colours that repeat what position already says: "method better" bars rise above zero and
# "baseline better" ones fall below it
SIGNED = {"better"}


def _lightness(hex_colour: str) -> float:
    """CIE L* (0 black to 100 white) of an sRGB colour, as a greyscale print renders it."""
    r, g, b = (int(hex_colour[i : i + 2], 16) / 255 for i in (1, 3, 5))

    def linear(c: float) -> float:
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    y = 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b)
    return 116 * y ** (1 / 3) - 16 if y > 216 / 24389 else y * 24389 / 27


def _views(node, data=None):
    """Each view of a spec (a unit or a layer of units) with its layers and the data they draw
    by default."""
    if isinstance(node, dict):
        data = node.get("data", data)
        if "layer" in node:
            layers, stack = [], list(node["layer"])
            while stack:
                layer = stack.pop(0)
                stack[:0] = layer.get("layer", [])
                if "mark" in layer:
                    layers.append(layer)
            yield layers, data
            return
        if "mark" in node:
            yield [node], data
            return
        for key, value in node.items():
            if key not in ("datasets", "data", "config", "encoding"):
                yield from _views(value, data)
    elif isinstance(node, list):
        for item in node:
            yield from _views(item, data)


def _mark(layer: dict) -> str:
    return layer["mark"]["type"] if isinstance(layer["mark"], dict) else layer["mark"]


def _one_to_one(rows: list[dict], field: str, other: str) -> bool:
    """Whether `other` (a shape's or a dash's field) names each value of `field` (a colour's)
    with a value of its own, over `rows`."""
    pairs = {(r.get(field), r.get(other)) for r in rows if r.get(field) is not None}
    return len(pairs) == len({a for a, _ in pairs}) == len({b for _, b in pairs})


def grey_clashes(spec: dict) -> list[str]:
    """Series told apart by colour alone, in colours one grey in print: in a view, a colour
    field with two values or more on lines, points, rules or bars, with no shape or dash on
    the same field over the same rows (markers on a line name it; a line of other rows, such
    as a smoothed curve, needs its own), no data label on those rows naming each mark, and two
    of its colours closer in lightness than GREY_APART."""
    found = []
    for layers, data in _views(spec):
        labelled = {  # rows whose marks a text layer names, one by one
            str(ly.get("data", data))
            for ly in layers
            if _mark(ly) == "text" and "text" in ly.get("encoding", {})
        }
        redundant = {
            (str(ly.get("data", data)), ly["encoding"][ch].get("field"))
            for ly in layers
            for ch in ("shape", "strokeDash")
            if isinstance(ly.get("encoding", {}).get(ch), dict)
        }
        for layer in layers:
            if _mark(layer) not in SERIES_MARKS:
                continue
            for channel in COLOUR_CHANNELS:
                enc = layer.get("encoding", {}).get(channel)
                if not isinstance(enc, dict) or "field" not in enc:
                    continue
                field = enc["field"]
                source = layer.get("data", data)
                rows = spec["datasets"][source["name"]] if source else []
                values = sorted({str(r.get(field)) for r in rows if r.get(field) is not None})
                named = str(source) in labelled or any(
                    _one_to_one(rows, field, other)
                    for where, other in redundant
                    if where == str(source)
                )
                if len(values) < 2 or named or field in SIGNED:
                    continue
                scale = enc.get("scale")
                if scale is None and "scale" in enc:  # colours given in the data
                    colours = values
                else:
                    domain = (scale or {}).get("domain") or values
                    colours = (scale or {}).get("range", [])[: len(domain)]
                greys = sorted(_lightness(c) for c in colours if str(c).startswith("#"))
                close = any(b - a < GREY_APART for a, b in zip(greys, greys[1:], strict=False))
                if close or len(greys) < len(colours):
                    found.append(f"{layer.get('name', _mark(layer))}: {field} by colour alone")
    return found


@pytest.mark.parametrize("name", _chart_functions())
def test_series_are_told_apart_in_greyscale(name):
    """Issue 44: where colour names series, a shape or a dash names them too (or a label on
    every mark, or colours of different lightness), so a greyscale print keeps them apart."""
    assert grey_clashes(_built(name)[1]) == []


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


def _untitled_tooltips(node) -> list[str]:
    """Tooltip lines anywhere in a spec that would show a reader a column name: no title, or a
    title that is the field itself or has an underscore in it."""
    found = []
    if isinstance(node, dict):
        for key, value in node.items():
            if key == "tooltip" and value is not None:
                for line in value if isinstance(value, list) else [value]:
                    title = line.get("title") if isinstance(line, dict) else None
                    field = line.get("field") if isinstance(line, dict) else line
                    if not title or title == field or "_" in title:
                        found.append(str(field))
            else:
                found += _untitled_tooltips(value)
    elif isinstance(node, list):
        for value in node:
            found += _untitled_tooltips(value)
    return found


@pytest.mark.parametrize("name", _chart_functions())
def test_tooltips_speak_in_words(name):
    """Every tooltip line of every chart is titled in words (issue 29): no `model_size`,
    `lo`/`hi` or `accuracy_a` shown to a reader; the stored charts of the notebooks too."""
    assert _untitled_tooltips(_built(name)[1]) == []


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


def test_a_difference_bar_of_few_seeds_is_cut_at_the_axis_edge_and_said():
    """Issue 46: notebook 007's pair has two seeds a run, and a paired interval counting the
    seeds' spread with one or two degrees of freedom spans ±50 points where the verdict's is
    ±11: the difference panels share an axis cut at ±30 points (every difference, unpaired
    interval and last-step interval inside), each bar past it ends in a triangle at the edge,
    and the section's subtitle says so; the flips are counted from losses to gains."""
    from helpers.charts.compare_runs import difference_limit
    from helpers.runs import compare, examples
    from helpers.runs.presentation import comparison_chart

    c = compare.compare(examples.comparison_logs())
    limit = difference_limit(c.differences)
    assert limit == 0.3
    last = c.differences.filter(pl.col("step_b") == pl.col("step_b").max())
    assert (last["hi"].abs().max() < limit) and (c.differences["hi"].max() > limit)
    spec = comparison_chart(c).to_dict()
    runs_part, differences, flips = spec["vconcat"]
    said = json.dumps(differences["title"], ensure_ascii=False)
    assert "axis cut at ±30 points: a bar past it ends in a chevron" in said
    assert differences["resolve"]["scale"]["y"] == "shared"
    layers = {ly.get("name"): ly for ly in differences["spec"]["layer"]}
    assert layers["difference"]["encoding"]["y"]["scale"] == {"domain": [-0.3, 0.3], "clamp": True}
    assert layers["cut hi"]["encoding"]["y"] == {"datum": 0.3}
    assert layers["cut lo"]["mark"] | {"filled": False} == layers["cut lo"]["mark"]  # open
    assert flips["spec"]["layer"][0]["encoding"]["x"]["sort"] == "ascending"
    assert difference_limit(c.differences.with_columns(lo=pl.lit(-0.01), hi=pl.lit(0.01))) is None


def test_a_run_wide_length_is_titled_the_runs_and_a_sources_own_is_not():
    """Drawn once under the first panel, the run's length says it is the run's (it read as that
    benchmark's own); a panel with a length of its own keeps the plain title; long titles are
    broken in two, so they do not overhang their short panel."""
    curves = _run_curves()
    names = curves["benchmark"].unique(maintain_order=True).to_list()
    spec = charts.run_grid(
        curves, title="t", columns=1, one_length=True, own_lengths=[names[1]]
    ).to_dict()
    lengths = [u["vconcat"][1] for u in spec["concat"] if "vconcat" in u]
    assert [x["encoding"]["y"]["title"] for x in lengths] == [
        ["Run's mean", "tokens"],
        ["Mean", "tokens"],
    ]
    assert "vconcat" not in spec["concat"][2]  # the third benchmark: no length of its own


def test_narrow_panels_label_the_last_step_and_the_first_where_it_fits():
    """Eight checkpoints on a four-column grid: not every label fits, so labels are kept from
    the last back, each clear of the one after it, and the first (two digits) still fits."""
    steps = [50.0, 100.0, 150.0, 200.0, 250.0, 300.0, 350.0, 400.0]
    axis = own_run._labelled(steps, 4)
    kept = {int(v) for v in re.findall(r"datum.value == (\d+)", axis["labelExpr"])}
    assert kept == {50, 100, 200, 300, 400} and axis["labelFlush"] is False
    assert own_run._labelled(steps[:3], 4) == {"labelFlush": False}  # room for all three
