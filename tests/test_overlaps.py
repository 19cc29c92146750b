"""Labels never sit on marks (issue 26): every chart the report shows, drawn to SVG by
vl-convert as the report draws it, with each data label's box measured against the marks drawn
beside it, and every line, band and error bar kept inside its plot.

What is measured, on the SVG (positions are the translates of every enclosing group added up):
- a data label is a `<text>` of a `mark-text role-mark` group (axis labels and titles, legends,
  chart titles and facet headers are other roles, and are left out). Its box is as wide as the
  text is in Liberation Sans, the theme's font (measured with the font file itself, as resvg
  draws it), and spans Vega's text bounds: from 0.79 font sizes above its baseline to 0.21
  below. A text stroked white is a halo; the label drawn over it at the same spot is haloed.
- the marks: points (the polygon of each symbol's path), lines (each segment of a line's path,
  as thick as its stroke), rules (intervals, baselines, thresholds), bars and error-bar ticks
  (rects drawn at opacity 0.5 or more) and the other labels. Shaded bands and boxes (areas, and
  rects fainter than that) lie under the text and are not counted; nor are gridlines.
- a hit is an overlap deeper than TOLERANCE px: the label's box, shrunk by it on every side,
  still meets the mark, haloed or not (issue 46: a halo parts the text from a line but cuts the
  interval or curve under it). A label's leader (the thin line joining a label set further out
  to its point) is a rule like any other.
"""

from __future__ import annotations

import functools
import math
import re
import xml.etree.ElementTree as ET
from dataclasses import dataclass, field
from pathlib import Path

import altair as alt
import polars as pl
import pytest
import vl_convert as vlc
from hypothesis import given, settings
from hypothesis import strategies as st

from helpers.charts import labels as placement
from helpers.charts import text_metrics
from helpers.paths import NOTEBOOKS
from helpers.render import site

from .chart_examples import EXAMPLES

TOLERANCE = 1.0  # px a label may touch a mark by (anti-aliasing, rounding of positions)
THIN = 2.5  # px: a rect this thin is an error bar's tick, not a bar
SOLID = 0.5  # a rect drawn at this opacity or more is a bar or tick; fainter ones are shading
SVG = "{http://www.w3.org/2000/svg}"
FONTS = Path("/usr/share/fonts/truetype/liberation")

Box = tuple[float, float, float, float]  # left, top, right, bottom
Point = tuple[float, float]


# ---- reading the SVG ----------------------------------------------------------------------------


@dataclass
class Label:
    text: str
    box: Box
    haloed: bool = False


@dataclass
class Mark:
    kind: str  # "point", "line", "rule", "bar", "tick"
    name: str  # what a report says it hit
    polygon: list[Point] = field(default_factory=list)  # filled shapes
    segments: list[tuple[Point, Point]] = field(default_factory=list)  # stroked lines
    width: float = 0.0  # stroke width of segments
    clip: Box | None = None
    frame: Box | None = None  # the plot the mark is drawn in


@dataclass
class Drawing:
    labels: list[Label]
    marks: list[Mark]
    frames: list[tuple[Box, Mark]]  # (plot, mark) for marks that must stay inside their plot


_NUMBER = r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?"


def _translate(transform: str | None) -> Point:
    """The translation of a transform attribute (vl-convert writes `translate(x,y)`; a rotated
    data label would need more, and fails loudly below)."""
    if not transform:
        return 0.0, 0.0
    dx = dy = 0.0
    for x, y in re.findall(rf"translate\(({_NUMBER})[ ,]*({_NUMBER})?\)", transform):
        dx, dy = dx + float(x), dy + float(y or 0)
    return dx, dy


def _path_points(d: str) -> list[list[Point]]:
    """The subpaths of an SVG path as polylines (arcs and curves sampled), in its own units."""
    tokens = re.findall(rf"[MmLlHhVvZzAaCcQqSsTt]|{_NUMBER}", d)
    paths: list[list[Point]] = []
    x = y = 0.0
    start = (0.0, 0.0)
    i, cmd = 0, ""

    def num() -> float:
        nonlocal i
        i += 1
        return float(tokens[i - 1])

    while i < len(tokens):
        if re.fullmatch(r"[A-Za-z]", tokens[i]):
            cmd = tokens[i]
            i += 1
            if cmd in "Zz":
                if paths:
                    paths[-1].append(start)
                x, y = start
                continue
        rel = cmd.islower()
        c = cmd.upper()
        ox, oy = (x, y) if rel else (0.0, 0.0)
        if c == "M":
            x, y = ox + num(), oy + num()
            start = (x, y)
            paths.append([(x, y)])
            cmd = "l" if rel else "L"  # further pairs are lines
            continue
        if c == "L":
            x, y = ox + num(), oy + num()
        elif c == "H":
            x = (x if rel else 0.0) + num()
        elif c == "V":
            y = (y if rel else 0.0) + num()
        elif c == "A":
            rx, ry, _, large, sweep = num(), num(), num(), num(), num()
            ex, ey = ox + num(), oy + num()
            paths[-1].extend(_arc((x, y), (ex, ey), rx, ry, bool(large), bool(sweep)))
            x, y = ex, ey
        elif c in "CQST":
            n = {"C": 3, "Q": 2, "S": 2, "T": 1}[c]
            pts = [(ox + num(), oy + num()) for _ in range(n)]
            paths[-1].extend(pts[:-1])  # control points: a hull around the curve
            x, y = pts[-1]
        paths[-1].append((x, y))
    return paths


def _arc(p0: Point, p1: Point, rx: float, ry: float, large: bool, sweep: bool) -> list[Point]:
    """Points along an SVG arc (circles only: symbols are drawn with rx == ry)."""
    r = max(rx, ry, math.dist(p0, p1) / 2)
    mx, my = (p0[0] + p1[0]) / 2, (p0[1] + p1[1]) / 2
    half = math.dist(p0, p1) / 2
    h = math.sqrt(max(r * r - half * half, 0.0))
    if half == 0:
        return []
    ux, uy = (p1[0] - p0[0]) / (2 * half), (p1[1] - p0[1]) / (2 * half)
    sign = 1 if large != sweep else -1
    cx, cy = mx - sign * h * uy, my + sign * h * ux
    a0 = math.atan2(p0[1] - cy, p0[0] - cx)
    a1 = math.atan2(p1[1] - cy, p1[0] - cx)
    span = a1 - a0
    if sweep and span < 0:
        span += 2 * math.pi
    if not sweep and span > 0:
        span -= 2 * math.pi
    return [
        (cx + r * math.cos(a0 + span * k / 16), cy + r * math.sin(a0 + span * k / 16))
        for k in range(1, 16)
    ]


@functools.cache
def _font(size: float, bold: bool):
    from PIL import ImageFont

    name = "LiberationSans-Bold.ttf" if bold else "LiberationSans-Regular.ttf"
    return ImageFont.truetype(str(FONTS / name), size=size)


def text_width(text: str, size: float = 10, bold: bool = False) -> float:
    """How wide a text is drawn: measured in the theme's font where it is installed (`make`
    installs it), else the placement's estimate."""
    if (FONTS / "LiberationSans-Regular.ttf").exists():
        return _font(size, bold).getlength(text)
    return len(text) * text_metrics.CHAR_W * size / 10


def _opacity(el: ET.Element, key: str = "fill-opacity") -> float:
    return float(el.get("opacity", 1)) * float(el.get(key, 1))


def read_svg(svg: str) -> Drawing:
    """The data labels and marks of a vl-convert SVG, in the SVG's pixels."""
    root = ET.fromstring(svg)
    clips = {
        c.get("id"): tuple(float(r.get(k, 0)) for k in ("x", "y", "width", "height"))
        for c in root.iter(f"{SVG}clipPath")
        for r in c.iter(f"{SVG}rect")
    }
    texts: list[tuple[ET.Element, Point]] = []
    marks: list[Mark] = []
    frames: list[tuple[Box, Mark]] = []

    def walk(el: ET.Element, origin: Point, clip: Box | None, frame: Box | None, kind: str):
        tx, ty = _translate(el.get("transform"))
        ox, oy = origin[0] + tx, origin[1] + ty
        cls = el.get("class", "")
        if el.tag in (f"{SVG}svg", f"{SVG}g"):
            if m := re.match(r"url\(#(.+)\)", el.get("clip-path", "")):
                x, y, w, h = clips[m.group(1)]
                clip = (ox + x, oy + y, ox + x + w, oy + y + h)
            if "role-mark" in cls.split():
                kind = cls.split()[0].removeprefix("mark-")  # symbol, line, rule, rect, text, area
            elif cls.startswith("mark-"):
                kind = ""  # axes, legends, titles, headers: not data
            for child in el:
                if child.tag == f"{SVG}path" and child.get("class") == "background":
                    # a group's background is the size of the plot it holds
                    pts = [p for sub in _path_points(child.get("d", "")) for p in sub]
                    xs, ys = [p[0] for p in pts] or [0], [p[1] for p in pts] or [0]
                    if max(xs) - min(xs) > 0 and max(ys) - min(ys) > 0:
                        frame = (ox + min(xs), oy + min(ys), ox + max(xs), oy + max(ys))
                walk(child, (ox, oy), clip, frame, kind)
            return
        if not kind or el.get("opacity") == "0" or el.get("class") in ("background", "foreground"):
            return
        what = el.get("aria-label", "")[:60]
        if kind == "text" and el.tag == f"{SVG}text":
            texts.append((el, (ox, oy)))
        elif kind in ("symbol", "rect") and el.tag == f"{SVG}path":
            if kind == "rect" and _opacity(el) < SOLID:
                return  # shading: a band or a stated range under the text
            polygon = [(ox + x, oy + y) for sub in _path_points(el.get("d", "")) for x, y in sub]
            if not polygon:
                return
            xs, ys = [p[0] for p in polygon], [p[1] for p in polygon]
            thin = min(max(xs) - min(xs), max(ys) - min(ys)) <= THIN
            name = "point" if kind == "symbol" else ("tick" if thin else "bar")
            mark = Mark(name, f"{name} ({what})" if what else name, polygon=polygon, clip=clip)
            marks.append(mark)
            if frame and kind == "symbol":  # a point at the plot's edge may overhang it
                frames.append((frame, Mark(name, mark.name, polygon=[(ox, oy)], clip=clip)))
            elif frame:
                frames.append((frame, mark))
        elif kind in ("line", "rule") and el.tag in (f"{SVG}path", f"{SVG}line"):
            if (
                el.get("stroke") in (None, "none", "transparent")
                or _opacity(el, "stroke-opacity") == 0
            ):
                return
            if el.tag == f"{SVG}line":
                x1, y1 = float(el.get("x1", 0)), float(el.get("y1", 0))
                x2, y2 = float(el.get("x2", 0)), float(el.get("y2", 0))
                polylines = [[(x1, y1), (x2, y2)]]
            else:
                polylines = _path_points(el.get("d", ""))
            segments = [
                ((ox + a[0], oy + a[1]), (ox + b[0], oy + b[1]))
                for line in polylines
                for a, b in zip(line, line[1:], strict=False)
            ]
            width = float(el.get("stroke-width", 1))
            name = f"{kind} ({what})" if what else kind
            mark = Mark(kind, name, segments=segments, width=width, clip=clip)
            marks.append(mark)
            if frame:
                frames.append((frame, mark))
        elif kind == "area" and el.tag == f"{SVG}path" and frame:
            pts = [(ox + x, oy + y) for sub in _path_points(el.get("d", "")) for x, y in sub]
            frames.append((frame, Mark("area", f"area ({what})", polygon=pts, clip=clip)))

    walk(root, (0.0, 0.0), None, None, "")

    halos = []
    found = []
    for el, (x, y) in texts:
        assert "rotate" not in (el.get("transform") or ""), "a rotated data label"
        assert el.find(f"{SVG}tspan") is None, "a data label of several lines"
        text = "".join(el.itertext())
        size = float(el.get("font-size", "10px").removesuffix("px"))
        bold = el.get("font-weight") in ("bold", "700", "800", "900")
        w = text_width(text, size, bold)
        left = {"start": x, "middle": x - w / 2, "end": x - w}[el.get("text-anchor", "start")]
        box = (left, y - 0.79 * size, left + w, y + 0.21 * size)
        if el.get("stroke", "").lower() in ("white", "#fff", "#ffffff"):
            halos.append((text, box))
        else:
            found.append(Label(text, box))
    for label in found:
        label.haloed = any(
            t == label.text and max(abs(a - b) for a, b in zip(box, label.box, strict=True)) < 0.5
            for t, box in halos
        )
    return Drawing(found, marks, frames)


# ---- geometry -----------------------------------------------------------------------------------


def _shrink(box: Box, by: float) -> Box:
    return (box[0] + by, box[1] + by, box[2] - by, box[3] - by)


def _inside(p: Point, box: Box) -> bool:
    return box[0] <= p[0] <= box[2] and box[1] <= p[1] <= box[3]


def _segment_meets_box(a: Point, b: Point, box: Box) -> bool:
    """Liang-Barsky: does the segment a-b pass through the box?"""
    t0, t1 = 0.0, 1.0
    dx, dy = b[0] - a[0], b[1] - a[1]
    for p, q in (
        (-dx, a[0] - box[0]),
        (dx, box[2] - a[0]),
        (-dy, a[1] - box[1]),
        (dy, box[3] - a[1]),
    ):
        if p == 0:
            if q < 0:
                return False
        else:
            t = q / p
            if p < 0:
                t0 = max(t0, t)
            else:
                t1 = min(t1, t)
            if t0 > t1:
                return False
    return True


def _polygon_contains(polygon: list[Point], p: Point) -> bool:
    inside = False
    for (x1, y1), (x2, y2) in zip(polygon, polygon[1:] + polygon[:1], strict=True):
        if (y1 > p[1]) != (y2 > p[1]) and p[0] < x1 + (p[1] - y1) * (x2 - x1) / (y2 - y1):
            inside = not inside
    return inside


def _meets(mark: Mark, box: Box) -> bool:
    if mark.clip is not None:  # only the part of a clipped mark that is drawn
        box = (
            max(box[0], mark.clip[0]),
            max(box[1], mark.clip[1]),
            min(box[2], mark.clip[2]),
            min(box[3], mark.clip[3]),
        )
    if box[0] >= box[2] or box[1] >= box[3]:
        return False
    if mark.segments:
        wide = _shrink(box, -mark.width / 2)
        return any(_segment_meets_box(a, b, wide) for a, b in mark.segments)
    poly = mark.polygon
    corners = [(box[0], box[1]), (box[2], box[1]), (box[2], box[3]), (box[0], box[3])]
    return (
        any(_inside(p, box) for p in poly)
        or any(_polygon_contains(poly, c) for c in corners)
        or any(
            _segment_meets_box(a, b, box) for a, b in zip(poly, poly[1:] + poly[:1], strict=True)
        )
    )


def _boxes_overlap(a: Box, b: Box, tolerance: float) -> bool:
    return (
        min(a[2], b[2]) - max(a[0], b[0]) > tolerance
        and min(a[3], b[3]) - max(a[1], b[1]) > tolerance
    )


def overlaps(drawing: Drawing) -> list[tuple[str, str]]:
    """(label, what it hits) for every label that sits on a mark or another label."""
    found = []
    for i, label in enumerate(drawing.labels):
        core = _shrink(label.box, TOLERANCE)
        for other in drawing.labels[:i]:
            if _boxes_overlap(label.box, other.box, 2 * TOLERANCE):
                found.append((label.text, f"label {other.text!r}"))
        for mark in drawing.marks:
            if _meets(mark, core):
                found.append((label.text, mark.name))
    return found


def outside(drawing: Drawing) -> list[str]:
    """The lines, rules, bands and points that reach beyond the plot that holds them (clipped
    or not: a fit cut off at the plot's edge hides where it goes)."""
    found = []
    for frame, mark in drawing.frames:
        pts = mark.polygon or [p for seg in mark.segments for p in seg]
        if any(not _inside(p, _shrink(frame, -TOLERANCE)) for p in pts):
            found.append(mark.name)
    return found


# ---- the charts ---------------------------------------------------------------------------------

# every chart of the report: the charts the executed notebooks store, which the report draws
FIGURES = {
    f"{nb.stem}#{f.number}": f.spec
    for nb in sorted(NOTEBOOKS.glob("*.ipynb"))
    for f in site.figures(nb)
}
# the chart functions those charts come from; every other public chart function (the command
# line's charts) is measured on its example in chart_examples
IN_THE_REPORT = {
    "across_papers",
    "comparison",
    "detectability",
    "flip_counts",
    "gain_vs_growth",
    "grpo_vs_mel",
    "paired_differences",
    "prm_data_scaling",
    "rl_length_scaling",
    "rl_length_scaling_panel",
    "run_curves",
    "run_grid",
    "step_dpo_sizing",
    "training_dynamics",
}
CHARTS = sorted(FIGURES) + sorted(f"example:{n}" for n in EXAMPLES if n not in IN_THE_REPORT)


@functools.cache
def drawing(key: str) -> Drawing:
    """A chart drawn once to SVG, as the report draws it, and read back."""
    if key.startswith("example:"):
        spec = EXAMPLES[key.removeprefix("example:")][0]().to_dict()
    else:
        spec = FIGURES[key]
    return read_svg(vlc.vegalite_to_svg(spec))


@pytest.mark.parametrize("key", CHARTS)
def test_no_label_sits_on_a_mark(key):
    """No data label overlaps a point, a bar, an error bar, a line or another label, haloed
    or not (issues 26 and 46)."""
    assert overlaps(drawing(key)) == []


@pytest.mark.parametrize("key", CHARTS)
def test_marks_stay_inside_their_plot(key):
    """Fits, extrapolations, intervals and bars end inside the plot that holds them."""
    assert outside(drawing(key)) == []


def test_the_report_is_measured():
    """The measurement sees the report's labels and marks (a reader that found none would pass
    every chart): every figure notebook's labels, the points, lines, rules and bars."""
    drawn = [drawing(key) for key in FIGURES]
    assert len(FIGURES) >= 18
    assert sum(len(d.labels) for d in drawn) >= 140
    kinds = {m.kind for d in drawn for m in d.marks}
    assert kinds >= {"point", "line", "rule", "bar", "tick"}
    labelled = {key.split("_")[0] for key in FIGURES if drawing(key).labels}
    assert labelled >= {"000", "001", "002", "003", "004", "007"}


# ---- the measurement, on charts built to collide -----------------------------------------------


def _measure(*layers: alt.Chart) -> Drawing:
    spec = alt.layer(*layers).properties(width=200, height=100).to_dict()
    return read_svg(vlc.vegalite_to_svg(spec))


ROWS = pl.DataFrame({"x": [1.0, 2.0, 3.0], "y": [1.0, 2.0, 1.0], "name": ["a", "bee", "c"]})
X = alt.X("x:Q").scale(domain=[0, 4])
Y = alt.Y("y:Q").scale(domain=[0, 3])


def _label(text: str, x: float, y: float, **mark) -> alt.Chart:
    frame = pl.DataFrame({"x": [x], "y": [y], "t": [text]})
    return alt.Chart(frame).mark_text(baseline="middle", **mark).encode(x=X, y=Y, text="t:N")


_coordinate = st.floats(-50, 150, allow_nan=False)


@settings(max_examples=400, deadline=None)
@given(
    box=st.tuples(_coordinate, _coordinate, st.floats(0, 80), st.floats(0, 20)),
    line=st.tuples(_coordinate, _coordinate, _coordinate, _coordinate, st.floats(0.5, 4)),
)
def test_a_line_a_label_is_not_priced_against_crosses_it_nowhere(box, line):
    """Placing a label prices its box only against the lines that reach near it
    (`_Plot._reaching`): any other line must cross the box nowhere, to the last bit."""
    left, top, wide, tall = box
    box = (left, top, left + wide, top + tall)
    plot = placement._Plot(solid=[], segments=[line], centres=[], width=100, height=100)
    ((x0, y0, x1, y1, _),) = plot._reaching()
    if not (box[0] < x1 and box[2] > x0 and box[1] < y1 and box[3] > y0):
        assert placement._crossing(box, line) == 0.0
    plot.segments.append(line[2:4] + line[0:2] + line[4:])  # a leader added: reached too
    assert len(plot._reaching()) == 2


def test_a_label_on_a_point_a_line_a_bar_or_a_label_is_found():
    points = alt.Chart(ROWS).mark_point(filled=True, size=60).encode(x=X, y=Y)
    line = alt.Chart(ROWS).mark_line().encode(x=X, y=Y)
    bar = alt.Chart(pl.DataFrame({"x": [0.5], "y": [2.5]})).mark_bar(size=12).encode(x=X, y=Y)
    rule = alt.Chart(ROWS).mark_rule().encode(x=X, y=alt.Y("y:Q").scale(domain=[0, 3]), y2="y2:Q")
    rules = rule.transform_calculate(y2="datum.y + 0.8")
    found = overlaps(
        _measure(
            points,
            line,
            bar,
            rules,
            _label("on a point", 1, 1),  # centred on point a
            _label("on the line", 2.5, 1.5),  # between b and c
            _label("on a bar", 0.5, 2.0),
            _label("under it", 0.5, 2.05),  # on the label above
            _label("on a rule", 3, 1.4),
        )
    )
    hits = {(label, hit.split(" ")[0]) for label, hit in found}
    assert ("on a point", "point") in hits
    assert ("on the line", "line") in hits
    assert ("on a bar", "bar") in hits
    assert ("under it", "label") in hits
    assert ("on a rule", "rule") in hits


def test_a_clear_label_passes_and_a_halo_excuses_nothing():
    points = alt.Chart(ROWS).mark_point(filled=True, size=60).encode(x=X, y=Y)
    line = alt.Chart(ROWS).mark_line(strokeWidth=2).encode(x=X, y=Y)
    clear = _label("clear", 1, 2.5)
    haloed = [_label("haloed", 2.5, 1.5, **placement.HALO), _label("haloed", 2.5, 1.5)]
    on_point = [_label("on b", 2, 2, **placement.HALO), _label("on b", 2, 2)]
    drawn = _measure(points, line, clear, *haloed, *on_point)
    assert [label.haloed for label in drawn.labels] == [False, True, True]
    # the halo neither excuses the line under "haloed" nor the point under "on b"
    assert {label for label, _ in overlaps(drawn)} == {"haloed", "on b"}


def test_a_fit_leaving_the_plot_is_found():
    fit = pl.DataFrame({"x": [1.0, 3.0], "y": [1.0, 3.5]})
    inside = alt.Chart(ROWS).mark_line().encode(x=X, y=Y)
    leaves = alt.Chart(fit).mark_line().encode(x=X, y=Y)
    assert outside(_measure(inside)) == []
    assert len(outside(_measure(inside, leaves))) == 1


@pytest.mark.skipif(
    not (FONTS / "LiberationSans-Regular.ttf").exists(), reason="the theme's font is not installed"
)
def test_placement_measures_text_as_it_is_drawn():
    """text_metrics.py's widths are the font's own (placement and measurement agree)."""
    for text in ["k1.5-short w/ merge + rs", "Qwen2-57B-A14B-Step-DPO", "peak 0.46 (step 130)"]:
        assert text_metrics.text_width(text) == pytest.approx(text_width(text, 10), abs=0.05)
    bold = text_metrics.text_width("GRPO range, as described", bold=True)
    assert bold >= text_width("GRPO range, as described", 10, bold=True)


# ---- placement --------------------------------------------------------------------------------


def test_placement_keeps_labels_off_rules_and_halos_what_it_cannot():
    """A rule right of a point sends its label left; a point boxed in by rules on every side
    gets the spot that crosses least, and a halo."""
    free = placement.layout([100], [50], ["label"], 200, 100)
    assert free[0].align == "left" and not free[0].halo  # the first choice: right of it
    wall = placement.rules([0.6], [0.0], [1.0]).in_pixels(
        placement.Axis([0, 1], 200), placement.Axis([0, 1], 100, flip=True)
    )
    beside = placement.layout([100], [50], ["label"], 200, 100, wall)
    assert beside[0].align == "right" and not beside[0].halo
    grid = placement.NONE
    for v in (0.3, 0.4, 0.5, 0.6, 0.7):
        grid += placement.rules([v], [0.0], [1.0]) + placement.hrules([v], [0, 1])
    boxed = placement.layout(
        [100], [50], ["label"], 200, 100,
        grid.in_pixels(placement.Axis([0, 1], 200), placement.Axis([0, 1], 100, flip=True)),
    )  # fmt: skip
    assert boxed[0].halo


def test_placement_does_not_name_the_wrong_point():
    """A label goes where it is clearly nearer its own point than any other."""
    xs, ys = [100, 100], [50, 72]  # b right under a, closer than a label's height and a half
    spots = placement.layout(xs, ys, ["a", "b"], 200, 100)
    for (x, y), spot, text in zip(zip(xs, ys, strict=True), spots, "ab", strict=True):
        box = placement._box(x, y, spot.dx, spot.dy, spot.align, text)
        others = [(px, py) for px, py in zip(xs, ys, strict=True) if (px, py) != (x, y)]
        assert all(
            placement._distance(box, px, py) >= placement._distance(box, x, y) + placement.NEARER
            for px, py in others
        )


def test_a_leader_is_measured_against_a_line_as_pixel_by_pixel():
    """`_cross` counts the pixels of a leader near a line by halving (the distance is convex
    along the leader); it gives what looking at every pixel gives, crossing, parallel,
    touching at an end or far apart."""
    import random

    def every_pixel(a, b):
        pad = b[4] / 2 + a[4] / 2 + placement.CLEAR
        steps = max(1, int(math.hypot(a[2] - a[0], a[3] - a[1])))
        return sum(
            placement._to_segment(
                a[0] + (a[2] - a[0]) * i / steps, a[1] + (a[3] - a[1]) * i / steps, b
            )
            < pad
            for i in range(steps + 1)
        )

    rng = random.Random(7)
    counts = []
    for n in range(20_000):
        a = tuple(rng.uniform(0, 60) for _ in range(4)) + (0.8,)
        b = tuple(rng.uniform(0, 60) for _ in range(4)) + (1.5,)
        if n % 5 == 0:  # alongside, a pixel apart
            b = (a[0], a[1] + 1, a[2], a[3] + 1, 1.5)
        counts.append(every_pixel(a, b))
        assert placement._cross(a, b) == counts[-1], (a, b)
    assert sum(c > 20 for c in counts) > 1000 and counts.count(0) > 1000  # both kinds met


def test_no_label_is_set_over_another_labels_leader():
    """Two points a few pixels apart at the foot of three curves (008's AIME panel): each label
    finds a spot where no leader runs under another label (under its halo, the leader seemed
    to start at that label and named the wrong point)."""
    from helpers import charts
    from helpers.figures import detectability

    gaps = detectability.gaps()
    spec = charts.detectability(detectability.power_curves(gaps), gaps).to_dict()
    rows = pl.DataFrame(spec["datasets"][spec["data"]["name"]], infer_schema_length=None)
    for panel in rows.partition_by("panel"):
        xaxis = placement.Axis([0, panel.filter(layer="curve")["difference"].max()], 300)
        yaxis = placement.Axis([0, 1], 200, flip=True)
        labels = panel.filter(layer="gap")
        boxes = [
            placement._box(xaxis.to_px(r["label_x"]), yaxis.to_px(r["label_y"]), 0, 0,
                           r["label_align"], r["label"])
            for r in labels.iter_rows(named=True)
        ]  # fmt: skip
        for i, r in enumerate(labels.iter_rows(named=True)):
            if r.get("leader_x") is None:
                continue
            leader = (xaxis.to_px(r["leader_x"]), yaxis.to_px(r["leader_y"]),
                      xaxis.to_px(r["leader_x2"]), yaxis.to_px(r["leader_y2"]), 0.8)  # fmt: skip
            crossed = [j for j, b in enumerate(boxes) if j != i and placement._crossing(b, leader)]
            assert not crossed, (r["label"], [labels["label"][j] for j in crossed])
