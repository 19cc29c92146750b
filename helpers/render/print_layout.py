"""A chart laid out again for a paper's column or page, its text readable in print.

A chart is drawn for a screen: 650 px wide with 10-px labels. Shrunk whole to a 3.25-in column,
those labels would print at 3.6 pt. Here the text keeps its size and the plots make room
instead, as a figure set in a paper is: the chart's panels are set in as many columns as leave
each plot at least `MIN_PLOT` px wide, every plot is narrowed (or widened) by one factor so the
chart, drawn at `TEXT_PT` for its smallest text, is as wide as the page asked for, its heights
follow by the square root of that factor, and titles are broken again to the new width.
The width a chart's fixed parts take (axes, legends, titles) is measured by drawing it twice,
not guessed.
"""

from __future__ import annotations

import copy
import math
import re
from collections.abc import Callable

import vl_convert as vlc

from helpers.charts.text_metrics import BOLD, text_width, wrapped

TEXT_PT = 7.5  # the smallest text at print size, in points
MIN_PLOT = 140  # px: a plot narrower than this sets its chart's panels in fewer columns
NARROW = 450  # px: a chart laid out narrower than this has its legends under it
_ROOT = re.compile(r'<svg[^>]*?\swidth="([\d.]+)"\s+height="([\d.]+)"')
_FONT = re.compile(r'font-size="([\d.]+)px"')
Redraw = Callable[[float, float], dict]
_CHARTS = ("hconcat", "vconcat", "concat", "facet")  # a chart of charts, titled as one


def measure(svg: str) -> tuple[float, float, float | None]:
    """A drawn chart's width and height in px, and its smallest text's size (None: no text)."""
    found = _ROOT.search(svg)
    fonts = [float(f) for f in _FONT.findall(svg)]
    return float(found.group(1)), float(found.group(2)), min(fonts) if fonts else None


def laid_out(spec: dict) -> tuple[float, float, float | None]:
    """`measure` of the chart the spec draws, from Vega's scene graph rather than its SVG
    (the same three numbers for every example chart, each at two sizes; a quarter less time,
    and the layout for print draws a chart seven times or more). A text drawn at no size of
    its own (a null or missing size, left to Vega's default) is measured from the SVG."""
    scene = vlc.vegalite_to_scenegraph(spec)
    sizes: list[float] = []
    nodes = [scene["scenegraph"]]
    while nodes:
        node = nodes.pop()
        items = node.get("items", ())
        if node.get("marktype") == "text":
            sizes += [item.get("fontSize") for item in items]
        nodes += [item for item in items if "items" in item]
    if not all(type(size) in (int, float) for size in sizes):
        return measure(vlc.vegalite_to_svg(spec))
    smallest = float(min(sizes)) if sizes else None
    return float(scene["width"]), float(scene["height"]), smallest


def scaled(svg: str, factor: float) -> str:
    """The drawing `factor` times as wide and tall (its viewBox kept: everything scales)."""
    found = _ROOT.search(svg)
    width, height = float(found.group(1)), float(found.group(2))
    root = found.group(0)
    root = root.replace(f'width="{found.group(1)}"', f'width="{width * factor:.3f}"', 1)
    root = root.replace(f'height="{found.group(2)}"', f'height="{height * factor:.3f}"', 1)
    return svg[: found.start()] + root + svg[found.end() :]


def for_print(spec: dict, width_pt: float, redraw: Redraw | None = None) -> dict:
    """`spec` laid out for a page `width_pt` points wide (see the module's docstring); the
    spec given is left as it was. `redraw(across, down)`, where given, builds the chart again
    with its plots that much wider and taller (a chart whose labels are placed for its plots'
    size, `charts._common.redrawable`): used instead of stretching the spec's sizes."""
    _, _, smallest = laid_out(spec)
    if smallest is None:
        return spec
    target = width_pt * smallest / TEXT_PT  # px: drawn at this width, the text is TEXT_PT
    columns = None

    def set_for_print(out: dict) -> dict:
        """Ticks thinned, legends under the plots on a column, panels in `columns`."""
        _thin_crowded_ticks(out)
        if target < NARROW:
            _legends_below(out)
        if columns is not None:
            _set_columns(out, columns)
        return out

    base = set_for_print(copy.deepcopy(spec))
    fixed, plots = _split(base)
    panels = _most_columns(base)
    if panels > 1 and (target - fixed) / panels < MIN_PLOT:
        columns = max(1, min(panels, math.floor((target - fixed) / MIN_PLOT)))
        _set_columns(base, columns)
        fixed, plots = _split(base)

    def resized(scale: float) -> dict:
        if redraw is not None:  # built again at the size: its labels placed afresh
            return set_for_print(redraw(scale, math.sqrt(scale)))
        out = copy.deepcopy(base)
        _scale_plots(out, scale, math.sqrt(scale))
        return out

    scale, out = 1.0, base
    for step in range(3):  # a further step where one fell short (a label, a legend moved)
        if plots <= 0:
            break
        scale *= max((target - fixed) / plots, 0.2)
        out = resized(scale)
        width = laid_out(_untitled(out))[0]
        if abs(width - target) <= 0.02 * target or step == 2:  # no further step to size
            break
        fixed, plots = _split(out, width)
    _rewrap(out, target)
    return out


def _split(spec: dict, width: float | None = None) -> tuple[float, float]:
    """The chart's width, titles aside (`width`, where measured already), as its fixed parts'
    and its plots': drawn again with every plot half as wide again, the width gained is half
    the plots' (the widest row's)."""
    untitled = _untitled(spec)
    width = laid_out(untitled)[0] if width is None else width
    _scale_plots(untitled, 1.5, 1.0)
    plots = 2 * (laid_out(untitled)[0] - width)
    return width - plots, plots


def _untitled(spec: dict) -> dict:
    """A copy of the spec without its charts' titles (they are broken to fit afterwards)."""
    copied = copy.deepcopy(spec)
    for node in _nodes(copied):
        if _is_chart(node, copied):
            node.pop("title", None)
    return copied


def _thin_crowded_ticks(spec: dict) -> None:
    """An axis narrowed until its labels come within 4 px drops every other one (Vega's
    parity rule) rather than printing them run together."""
    config = spec.setdefault("config", {})
    config["axis"] = {"labelOverlap": "parity", "labelSeparation": 4, **config.get("axis", {})}


def _legends_below(spec: dict) -> None:
    """Every legend set beside the plots put under them, its entries one a line: on a column, a
    legend beside the plots would leave them no room (one inside a plot stays). A legend set
    at a place of its own (in a grid's empty cell) goes under them too: the grid it was
    placed in is set again."""
    below = {"orient": "bottom", "direction": "vertical"}
    aside = ("right", "left", "none")
    config = spec.setdefault("config", {})
    if config.get("legend", {}).get("orient", "right") in aside:
        config["legend"] = {**config.get("legend", {}), **below}
    for node in _nodes(spec):
        legend = node.get("legend")
        if isinstance(legend, dict) and legend.get("orient", "right") in aside:
            placed = {k: v for k, v in legend.items() if k not in ("legendX", "legendY")}
            node["legend"] = {**placed, **below}


def _nodes(node):
    """Every dict in a spec, depth first (a spec's own data left out)."""
    if isinstance(node, dict):
        yield node
        for key, value in node.items():
            if key not in ("datasets", "data", "config"):
                yield from _nodes(value)
    elif isinstance(node, list):
        for item in node:
            yield from _nodes(item)


def _is_plot(node: dict) -> bool:
    return "mark" in node or "layer" in node


def _is_chart(node: dict, spec: dict) -> bool:
    """A plot, a chart of charts or the whole spec (their titles are charts' titles)."""
    return _is_plot(node) or node is spec or any(key in node for key in _CHARTS)


def _scale_plots(spec: dict, across: float, down: float) -> None:
    """Every plot's width times `across` and height times `down`."""
    for node in _nodes(spec):
        if not _is_plot(node):
            continue
        for key, by in (("width", across), ("height", down)):
            size = node.get(key)
            if isinstance(size, int | float):  # a step (a band per category) stays: its labels
                node[key] = round(size * by, 1)


def _most_columns(spec: dict) -> int:
    """The most panels any grid of the chart sets side by side."""
    most = 1
    for node in _nodes(spec):
        if "hconcat" in node:
            most = max(most, len(node["hconcat"]))
        elif "concat" in node or "facet" in node:
            most = max(most, node.get("columns") or len(node.get("concat", [])) or 1)
    return most


def _set_columns(spec: dict, columns: int) -> None:
    """Every grid of the chart set in at most `columns` columns, wrapping into rows."""
    for node in _nodes(spec):
        if "hconcat" in node and len(node["hconcat"]) > columns:
            node["concat"] = node.pop("hconcat")
            node["columns"] = columns
        elif ("concat" in node or "facet" in node) and (node.get("columns") or 99) > columns:
            node["columns"] = columns


def _sentences(lines: list[str]) -> list[str]:
    """A line that starts with a bracket joined to the one before (it goes on with it), to be
    broken at the new width."""
    out: list[str] = []
    for line in lines:
        if out and line.startswith("("):
            out[-1] = f"{out[-1]} {line}"
        else:
            out.append(line)
    return out


def _rewrap(spec: dict, width: float) -> None:
    """Titles broken between words to fit: a plot's to its width, others' to `width`."""
    theme = spec.get("config", {}).get("title", {})
    for node in _nodes(spec):
        title = node.get("title")
        if not _is_chart(node, spec):
            continue  # an axis's or a legend's title
        if isinstance(title, str | list):
            title = node["title"] = {"text": title}
        if not isinstance(title, dict):
            continue
        room = node.get("width") if _is_plot(node) and node is not spec else width
        if not isinstance(room, int | float):
            room = width
        for key, size in (("text", "fontSize"), ("subtitle", "subtitleFontSize")):
            lines = title.get(key)
            if lines is None:
                continue
            lines = [lines] if isinstance(lines, str) else lines
            px = title.get(size, theme.get(size, 12))
            fits = room / BOLD if key == "text" else room  # a title is bold
            if any(text_width(line, px) > fits for line in lines):
                title[key] = wrapped(_sentences(lines), fits, px)
