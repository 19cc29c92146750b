"""Exports: JSON embedded in HTML can never end its script block or open markup."""

from __future__ import annotations

import json
import re

import pytest

from helpers.render import export


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
