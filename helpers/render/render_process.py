"""Render a Vega-Lite spec to PNG or SVG in a process of its own, started before the spec exists.

vl-convert holds Python's lock for the whole of a call, and its first call in a process spends
about 0.4 s starting its JavaScript engine. The command line starts this script as soon as it
knows it will draw (after the logs are aggregated, so the two processes' peaks do not add up);
the engine starts here while the other process imports altair and builds the chart, and the
spec arrives on standard input when it is ready. The picture comes back on standard output,
byte for byte what `vl_convert` draws in the calling process (the same package and fonts).

    python render_process.py png 144.0 < spec.json > chart.png

This file imports nothing of the package (that would import polars, a tenth of a second), so
it runs as a script. Standard input closed with nothing on it (the caller failed before
drawing) ends it quietly.
"""

from __future__ import annotations

import json
import sys

import vl_convert as vlc

TINY = {"data": {"values": [{"x": 0}]}, "mark": "point", "encoding": {"x": {"field": "x"}}}


def render(spec: dict, fmt: str, ppi: float) -> bytes:
    """The spec as PNG bytes (at `ppi`, scale 1) or SVG text in UTF-8."""
    if fmt == "png":
        return vlc.vegalite_to_png(spec, scale=1.0, ppi=ppi)
    return vlc.vegalite_to_svg(spec).encode("utf-8")


def main(argv: list[str]) -> int:
    fmt, ppi = argv[0], float(argv[1])
    render(TINY, fmt, ppi)  # the engine and the renderer started before the spec comes
    text = sys.stdin.buffer.read()
    if not text:
        return 0
    try:
        out = render(json.loads(text), fmt, ppi)
    except Exception as e:  # noqa: BLE001 - told to the caller, which raises it
        print(f"{type(e).__name__}: {e}", file=sys.stderr)
        return 1
    sys.stdout.buffer.write(out)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
