"""The theme and the offline notebook renderer."""

from __future__ import annotations

import base64
import json
import subprocess
import sys
import zlib

import altair as alt
import polars as pl
import vl_convert as vlc

import helpers
from helpers.render import export, theme

BUNDLE = """
import json, sys
import altair as alt, polars as pl
import helpers
helpers.setup()
df = helpers.load("grpo_vs_mel").filter(kind="point")
chart = alt.Chart(df).mark_line(point=True).encode(x="step:Q", y="score:Q", color="method:N").properties(title="AIME24")
bundle = json.dumps(chart._repr_mimebundle_(), sort_keys=True)
"""
SCRIPT = BUNDLE + "sys.stdout.write(bundle)\n"


def _bundle_in_fresh_process() -> dict:
    out = subprocess.run([sys.executable, "-c", SCRIPT], capture_output=True, text=True, check=True)
    assert out.stderr == ""
    return json.loads(out.stdout)


def test_setup_enables_theme_and_renderer():
    assert alt.theme.active == theme.THEME
    assert alt.renderers.active == theme.RENDERER
    spec = alt.Chart(helpers.load("grpo_vs_mel")).mark_point().encode(x="step:Q").to_dict()
    assert spec["config"]["font"] == theme.FONT


def test_renderer_output_is_offline_and_identical_across_processes():
    first, here = _bundle_in_fresh_process(), {}
    exec(BUNDLE, here)  # the same chart drawn in this process (which drew others before)
    assert first == json.loads(here["bundle"])
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
    png = base64.b64decode(export.mimebundle(chart.to_dict())["image/png"])
    assert png.startswith(b"\x89PNG\r\n\x1a\n")
    width, height = int.from_bytes(png[16:20], "big"), int.from_bytes(png[20:24], "big")
    assert width > 300 and height > 200


def test_chart_data_do_not_carry_last_bit_noise():
    """Two machines whose kernels disagree in the last bit store the same spec."""

    def spec(value: float) -> dict:
        frame = pl.DataFrame({"x": [value, 1 / 3], "n": [1, 2]})
        return alt.Chart(frame).mark_point().encode(x="x:Q", y="n:Q").to_dict()

    assert 0.1 + 0.2 != 0.3
    assert spec(0.1 + 0.2) == spec(0.3)
    [values] = spec(0.3)["datasets"].values()
    assert values == [{"x": 0.3, "n": 1}, {"x": 0.33333333, "n": 2}]
    assert spec(0.3) != spec(0.30001)


def _chunks(png: bytes) -> list[tuple[bytes, bytes]]:
    chunks, at = [], 8
    while at < len(png):
        size = int.from_bytes(png[at : at + 4], "big")
        chunks.append((png[at + 4 : at + 8], png[at + 8 : at + 8 + size]))
        at += 12 + size
    return chunks


def test_png_bytes_come_from_pythons_zlib_not_the_cpu():
    """Pillow's zlib-ng picks its deflate code by CPU; the stored PNG must not depend on it."""
    chart = alt.Chart(helpers.load("grpo_vs_mel")).mark_point().encode(x="step:Q", y="score:Q")
    png = export.small_png(vlc.vegalite_to_png(chart.to_dict()))
    chunks = _chunks(png)
    kinds = [kind for kind, _ in chunks]
    assert kinds[0] == b"IHDR" and kinds[-1] == b"IEND" and b"PLTE" in kinds
    assert chunks[0][1][8:10] == bytes([8, 3])  # 8-bit palette colour
    stream = b"".join(data for kind, data in chunks if kind == b"IDAT")
    assert stream == zlib.compress(zlib.decompress(stream), 9)


def test_meaningful_colours_are_one_mapping():
    assert theme.COLOURS["GRPO"] == theme.DESCRIBED["blue"]
    assert theme.COLOURS["MEL"] == theme.DESCRIBED["red"]
    assert theme.COLOURS["k1.5"] == theme.DESCRIBED["orange"]
    assert len(set(theme.DESCRIBED.values())) == len(theme.DESCRIBED)


KERNEL_SCRIPT = """
import sys, threading, types
if sys.argv[1] == "kernel":
    sys.modules["ipykernel"] = types.ModuleType("ipykernel")  # as in a notebook kernel
import helpers
imported = ",".join(t.name for t in threading.enumerate())
helpers.setup()
print(imported + "|" + ",".join(t.name for t in threading.enumerate()))
"""


def test_a_notebook_kernel_starts_the_renderer_early_and_the_command_line_does_not():
    def threads(where: str) -> str:
        out = subprocess.run(
            [sys.executable, "-c", KERNEL_SCRIPT, where], capture_output=True, text=True, check=True
        )
        return out.stdout

    imported, set_up = threads("kernel").split("|")
    assert "vl-convert warm-up" not in imported  # importing starts nothing
    assert "vl-convert warm-up" in set_up
    assert "vl-convert warm-up" not in threads("script")


def test_warming_up_changes_no_picture():
    chart = alt.Chart(helpers.load("grpo_vs_mel")).mark_point().encode(x="step:Q", y="score:Q")
    before = export.mimebundle(chart.to_dict())
    thread = export.warm_up()
    thread.join(timeout=60)
    assert not thread.is_alive()
    assert export.mimebundle(chart.to_dict()) == before
