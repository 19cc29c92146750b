"""The theme and the offline notebook renderer."""

from __future__ import annotations

import base64
import json
import subprocess
import sys

import altair as alt

import helpers
from helpers import theme

SCRIPT = """
import json, sys
import altair as alt, polars as pl
import helpers
df = helpers.load("grpo_vs_mel").filter(kind="point")
chart = alt.Chart(df).mark_line(point=True).encode(x="step:Q", y="score:Q", color="method:N").properties(title="AIME24")
bundle = chart._repr_mimebundle_()
sys.stdout.write(json.dumps(bundle, sort_keys=True))
"""


def _bundle_in_fresh_process() -> dict:
    out = subprocess.run([sys.executable, "-c", SCRIPT], capture_output=True, text=True, check=True)
    assert out.stderr == ""
    return json.loads(out.stdout)


def test_importing_helpers_enables_theme_and_renderer():
    assert alt.theme.active == theme.THEME
    assert alt.renderers.active == theme.RENDERER
    spec = alt.Chart(helpers.load("grpo_vs_mel")).mark_point().encode(x="step:Q").to_dict()
    assert spec["config"]["font"] == theme.FONT


def test_renderer_output_is_offline_and_identical_across_processes():
    first, second = _bundle_in_fresh_process(), _bundle_in_fresh_process()
    assert first == second
    assert set(first) == {theme.VEGALITE_MIME, "image/png", "text/plain"}
    text = json.dumps(first)
    assert "<script" not in text and "cdn.jsdelivr" not in text and "altair-viz-" not in text
    assert first["text/plain"] == "<Vega-Lite chart: AIME24>"
    spec = first[theme.VEGALITE_MIME]
    assert spec["mark"]["type"] == "line" and spec["encoding"]["x"]["field"] == "step"
    [values] = spec["datasets"].values()
    assert len(values) == 13


def test_png_is_a_real_picture():
    chart = alt.Chart(helpers.load("grpo_vs_mel")).mark_point().encode(x="step:Q", y="score:Q")
    png = base64.b64decode(theme.mimebundle(chart.to_dict())["image/png"])
    assert png.startswith(b"\x89PNG\r\n\x1a\n")
    width, height = int.from_bytes(png[16:20], "big"), int.from_bytes(png[20:24], "big")
    assert width > 300 and height > 200


def test_meaningful_colours_are_one_mapping():
    assert theme.COLOURS["GRPO"] == theme.DESCRIBED["blue"]
    assert theme.COLOURS["MEL"] == theme.DESCRIBED["red"]
    assert theme.COLOURS["k1.5"] == theme.DESCRIBED["orange"]
    assert len(set(theme.DESCRIBED.values())) == len(theme.DESCRIBED)
