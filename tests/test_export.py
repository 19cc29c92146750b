"""Exports: JSON embedded in HTML can never end its script block or open markup."""

from __future__ import annotations

import json
import re

import pytest

from helpers.io import FORMATS
from helpers.paths import NOTEBOOKS
from helpers.render import export, site


@pytest.mark.parametrize(
    "text",
    [
        "</script><script>alert(1)</script>",
        "<!--",
        "</SCRIPT >",
        "a & b < c > d",
        "line\u2028separator\u2029",
        "plain",
    ],
)
def test_json_for_html_round_trips_and_has_no_markup(text):
    value = {"name": text, "list": [text, {"nested": text}]}
    out = export.json_for_html(value)
    assert json.loads(out) == value
    assert not re.search(r"[<>&\u2028\u2029]", out)


def test_html_export_carries_the_spec_in_a_data_block(tmp_path):
    spec = {"title": "<b>t</b>", "mark": "point", "data": {"values": [{"a": "</script>"}]}}
    html = export.to_html(spec)
    assert "<title>&lt;b&gt;t&lt;/b&gt;</title>" in html
    block = re.search(r'<script type="application/json" id="vega-spec">(.*?)</script>', html, re.S)
    assert json.loads(block.group(1)) == spec
    assert html.count("</script>") == 3  # the bundle, the data block, the embedding call


def test_the_script_bundle_is_built_once_and_kept_whole(tmp_path, monkeypatch):
    """vl-convert builds the page's scripts in seconds: the first page builds them and keeps
    them in the user's cache; later pages (other processes) read them back. A kept copy
    that does not match its checksum (cut short, edited) is built again; a cache that
    cannot be written costs the build, never the page."""
    real, builds = export.vlc.javascript_bundle, []

    def counted(*args, **kwargs):
        builds.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(export.vlc, "javascript_bundle", counted)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    path = export.bundle_path()
    assert path.parent == tmp_path / "cache" / "reasoning-figures"
    export._bundle.cache_clear()
    try:
        page = export.to_html(SPEC)
        assert builds == [1] and path.is_file()
        export._bundle.cache_clear()  # as a new process finds it
        assert export.to_html(SPEC) == page and builds == [1]
        kept = path.read_text(encoding="utf-8")
        for damaged in (kept[:-5000], kept.replace("vegaEmbed", "vegaEmbez", 1)):
            path.write_text(damaged, encoding="utf-8")
            export._bundle.cache_clear()
            assert export.to_html(SPEC) == page
            assert path.read_text(encoding="utf-8") == kept  # built again, and kept again
        assert len(builds) == 3
        blocked = tmp_path / "a file"
        blocked.write_text("")
        monkeypatch.setenv("XDG_CACHE_HOME", str(blocked))  # no folder can be made in it
        export._bundle.cache_clear()
        assert export.to_html(SPEC) == page and len(builds) == 4
        # no home to keep it in (no HOME, no passwd entry; a relative XDG_CACHE_HOME is not
        # one, as the XDG spec says): built each time, the page the same
        monkeypatch.setenv("XDG_CACHE_HOME", "cache")
        monkeypatch.delenv("HOME")

        def homeless():
            raise RuntimeError("Could not determine home directory.")

        monkeypatch.setattr(export.Path, "home", staticmethod(homeless))
        assert export.bundle_path() is None
        export._bundle.cache_clear()
        assert export.to_html(SPEC) == page and len(builds) == 5
    finally:
        export._bundle.cache_clear()


SPEC = {
    "data": {"values": [{"step": s, "accuracy": s / 10, "name": "<b>é</b>"} for s in range(5)]},
    "mark": "line",
    "encoding": {"x": {"field": "step", "type": "quantitative"}, "y": {"field": "accuracy"}},
    "title": "a chart",
}


@pytest.mark.parametrize("suffix", [".png", ".svg"])
def test_the_render_process_draws_what_this_process_draws(tmp_path, suffix):
    ours, theirs = tmp_path / f"here{suffix}", tmp_path / f"there{suffix}"
    export.save(SPEC, ours, ppi=100.0)
    with export.RenderProcess(suffix, 100.0) as drawing:
        drawing.save(SPEC, theirs)
    assert theirs.read_bytes() == ours.read_bytes()
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []  # no temp left


def test_each_format_from_one_layout_is_what_save_draws(tmp_path):
    """The report's four files of a figure: the PNG rasterised from the SVG is the PNG `save`
    draws from the spec, for a plain chart and for a stored figure with clipped layers, text
    and a legend; the PDF is that SVG's. (SVGs are not compared: Vega numbers clip paths by a
    count kept per process; nor are PDFs: svg2pdf orders its objects differently each time.)"""
    stored = site.figures(NOTEBOOKS / "003_prm_data_scaling.ipynb")[1].spec
    for i, spec in enumerate([SPEC, stored]):
        written = export.save_each_format(spec, tmp_path / f"chart{i}")
        assert [p.name for p in written] == [f"chart{i}{s}" for s in FORMATS]
        export.save(spec, tmp_path / f"saved{i}.png")
        assert written[0].read_bytes() == (tmp_path / f"saved{i}.png").read_bytes()
        assert written[1].read_text().startswith("<svg")
        assert written[2].read_bytes().startswith(b"%PDF-")
        assert written[3].read_text() == export.to_html(spec)


def test_a_spec_the_render_process_cannot_draw_is_an_error_and_no_file(tmp_path):
    bad = {**SPEC, "mark": "no such mark"}
    said = "drawing x.png failed: ValueError: Vega-Lite to PNG conversion failed"
    with pytest.raises(RuntimeError, match=said), export.RenderProcess(".png") as drawing:
        drawing.save(bad, tmp_path / "x.png")
    assert list(tmp_path.iterdir()) == []


def test_a_render_process_given_no_spec_ends(tmp_path):
    drawing = export.RenderProcess(".svg")
    process = drawing._proc
    with pytest.raises(ZeroDivisionError), drawing:
        raise ZeroDivisionError  # the caller failed while building the chart
    assert process.poll() is not None
