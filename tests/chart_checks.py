"""Tests every public chart function takes, run from each chart test file for the chart
functions of the modules it names in `CHART_MODULES` (`conftest.pytest_generate_tests` gives
them `chart_function`): `test_charts` for the figures' charts, `test_run_charts` for a run's.
A test file imports these tests, so that pytest collects them there."""

from __future__ import annotations

import json

from tests.chart_examples import EXAMPLES, built


def test_chart_builds_round_trips_and_renders(chart_function):
    """Built, validated, read back to the same spec, checked, and drawn: the SVG, and the PNG
    rasterised from it (what vl-convert draws from the spec, as `test_export` holds)."""
    import vl_convert as vlc

    chart, spec = built(chart_function)
    again = type(chart).from_dict(json.loads(json.dumps(spec)))
    assert again.to_dict() == spec
    EXAMPLES[chart_function][1](spec)
    svg = vlc.vegalite_to_svg(spec)
    assert svg.lstrip().startswith("<svg") and "<text" in svg
    png = vlc.svg_to_png(svg, scale=1)
    assert png[:8] == b"\x89PNG\r\n\x1a\n" and len(png) > 2000


def test_chart_is_the_spec_altair_builds(chart_function, monkeypatch):
    """Layers and concatenations are made without altair's copies of their parts
    (`charts._compose`): the chart is the spec altair's own `alt.layer`, `alt.vconcat`,
    `alt.hconcat` and `alt.concat` build, and stays so when copied."""
    import altair as alt

    from helpers.charts import _compose

    chart, spec = built(chart_function)
    assert chart.copy(deep=False).to_dict() == spec == chart.copy().to_dict()
    for name in ("layer", "vconcat", "hconcat", "concat"):
        monkeypatch.setattr(_compose, name, getattr(alt, name))
    assert EXAMPLES[chart_function][0]().to_dict() == spec


def _stated_axes(node):
    """Every axis of a compiled Vega spec, in its groups."""
    if isinstance(node, dict):
        yield from node.get("axes", [])
        for mark in node.get("marks", []):
            yield from _stated_axes(mark)


def test_every_stated_tick_is_drawn(chart_function):
    """An axis given its tick values draws each of them: Vega thins stated values to the
    axis's tick count (Vega-Lite's default is one per 40 px), which drew 002's accuracy axis,
    described with a tick every 2.5 points, with one every 5."""
    import vl_convert as vlc

    for axis in _stated_axes(vlc.vegalite_to_vega(built(chart_function)[1])):
        if "values" in axis and isinstance(axis["values"], list):
            assert isinstance(axis.get("tickCount"), int), (chart_function, axis)
            assert axis["tickCount"] >= len(axis["values"]), (chart_function, axis)


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


def test_series_are_told_apart_in_greyscale(chart_function):
    """Issue 44: where colour names series, a shape or a dash names them too (or a label on
    every mark, or colours of different lightness), so a greyscale print keeps them apart."""
    assert grey_clashes(built(chart_function)[1]) == []


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


def test_tooltips_speak_in_words(chart_function):
    """Every tooltip line of every chart is titled in words (issue 29): no `model_size`,
    `lo`/`hi` or `accuracy_a` shown to a reader; the stored charts of the notebooks too."""
    assert _untitled_tooltips(built(chart_function)[1]) == []
