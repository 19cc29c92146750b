"""Chart functions: what a reader must see is in the spec (marks, fields, points, domains, layers)."""

from __future__ import annotations

import json

import altair as alt
import polars as pl
import pytest

import helpers
from helpers import charts, labels, theme


def _layers(spec: dict) -> list[dict]:
    return spec.get("layer", [spec])


def _data(spec: dict, layer: dict, parent: dict | None = None) -> list[dict]:
    """Rows a layer draws (its own data, else its parent's)."""
    source = layer.get("data") or (parent or {}).get("data")
    return spec["datasets"][source["name"]]


def _roundtrip(chart: alt.TopLevelMixin) -> dict:
    spec = chart.to_dict()
    assert json.loads(json.dumps(spec)) == spec
    return spec


# ---- 000 ----------------------------------------------------------------------------------------


def test_length_scaling_has_two_described_panels_with_every_point_labelled():
    df = helpers.load("rl_length_scaling")
    spec = _roundtrip(charts.length_scaling(df))
    assert [p["title"] for p in spec["hconcat"]] == ["MATH500", "AIME2024"]
    for panel in spec["hconcat"]:
        layers = panel["layer"]
        points = [ly for ly in layers if ly["mark"]["type"] == "point"]
        texts = [ly for ly in layers if ly["mark"]["type"] == "text"]
        assert len(points) == 1 and texts
        rows = _data(spec, points[0], panel)
        assert len(rows) == 10 and {r["panel"] for r in rows} == {panel["title"]}
        enc = points[0]["encoding"]
        assert enc["x"]["field"] == "token_length" and enc["y"]["field"] == "accuracy"
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
    spec = _roundtrip(charts.length_scaling(df, frontier=True, intervals=True, published=pub))
    aime = spec["hconcat"][1]["layer"]
    marks = [ly["mark"]["type"] for ly in aime]
    assert marks[:3] == ["rule", "line", "point"]
    rule = aime[0]
    assert rule["encoding"]["y"]["field"] == "lo" and rule["encoding"]["y2"]["field"] == "hi"
    gpt = next(r for r in _data(spec, rule, spec["hconcat"][1]) if r["model"] == "gpt-4-0513")
    # Wilson for 9% of 30 by hand: centre 0.1365, half-width 0.1071
    assert gpt["lo"] == pytest.approx(2.95, abs=0.02) and gpt["hi"] == pytest.approx(
        24.36, abs=0.02
    )
    frontier = _data(spec, aime[1])
    assert [r["model"] for r in frontier][-2:] == ["k1.5-short w/ rl", "k1.5-long"]
    published = next(ly for ly in aime if ly["mark"].get("shape") == "cross")
    assert len(_data(spec, published)) == 1


def test_labels_do_not_overlap_each_other():
    df = helpers.load("rl_length_scaling").filter(panel="MATH500")
    xa, ya = labels.Axis([400, 1450], 380), labels.Axis([73.5, 96.5], 300, flip=True)
    xs = [xa.to_px(v) for v in df["token_length"]]
    ys = [ya.to_px(v) for v in df["accuracy"]]
    spots = labels.place(xs, ys, df["model"].to_list(), 380, 300)
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


@pytest.mark.parametrize("build", ["length_scaling"])
def test_every_chart_renders_to_png(build):
    df = helpers.load("rl_length_scaling")
    chart = getattr(charts, build)(df)
    bundle = theme.mimebundle(chart.to_dict())
    assert len(bundle["image/png"]) > 1000
