"""Write a chart to PNG, SVG or self-contained HTML (scripts inlined), whole or not at all."""

from __future__ import annotations

from pathlib import Path

import vl_convert as vlc

from .io import write_bytes_atomic, write_text_atomic

FORMATS = (".png", ".svg", ".html")


def save(spec: dict, path: str | Path) -> Path:
    """Render a Vega-Lite spec to `path`, the format chosen by its suffix."""
    path = Path(path)
    if path.suffix == ".png":
        return write_bytes_atomic(path, vlc.vegalite_to_png(spec, scale=2.0))
    if path.suffix == ".svg":
        return write_text_atomic(path, vlc.vegalite_to_svg(spec))
    if path.suffix == ".html":
        return write_text_atomic(path, vlc.vegalite_to_html(spec, bundle=True, renderer="svg"))
    raise ValueError(f"{path}: the output must end in one of {', '.join(FORMATS)}")
