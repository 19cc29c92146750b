"""Place labels where they sit on no mark: not on a point, a line, a rule, an error bar, a bar or
another label (Vega-Lite has no label layout). Where every spot near a point crosses a thin
line, the label gets a white halo (a white-stroked copy of the text drawn beneath it).

Placement works in pixels. A chart hands over its labelled points and, in data units, the other
marks of the plot (`points`, `rules`, `hrules`, `line`, `text_boxes`, added with `+`); the
axes (`Axis`) turn them into pixels as Vega-Lite will draw them.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import NamedTuple

import altair as alt
import polars as pl

from helpers.charts.text_metrics import FONT_SIZE, text_width

LINE_H = 12.0  # px: a label's height, with a pixel to spare above and below its glyphs
POINT_R = 5.0
CLEAR = 2.0  # px a label keeps clear of a line, beyond the line's own half-width
NEARER = 8.0  # px: a label is this much nearer its own point than any other, or it is ambiguous
DETACHED = 12.0  # px: a label further than this from its point is joined to it by a leader
GAP = 6.0  # px kept between two labels side by side (closer, they read as one)
EDGE = 6.0  # px a label keeps from the plot's left and right edges
HALO = {"stroke": "white", "strokeWidth": 3, "strokeJoin": "round"}

# Where a label may go, in order of preference: beside the point, then above or below it,
# then a little further out. Each ring is a horizontal offset and the vertical ones tried
# with it, right of the point (text left-aligned) before left of it; at 0, centred above or
# below.
_RINGS = [
    (7, (0,)),
    (6, (-10, 10)),
    (0, (-13, 13)),
    (14, (-18, 18)),
    (0, (-24, 24)),
    (7, (-22, 22)),
]
_CANDIDATES = [  # (dx, dy, align) in pixels
    spot
    for dx, dys in _RINGS
    for spot in (
        [(0, dy, "center") for dy in dys]
        if dx == 0
        else [(dx, dy, "left") for dy in dys] + [(-dx, dy, "right") for dy in dys]
    )
]

# Further out, a label is joined to its point by a leader (a thin grey line), so that it
# cannot name the wrong point: tried where every spot beside the point sits on something.
_FAR = [
    spot
    for dx in (26, 42)
    for dy in (0, -14, 14, -28, 28, -40, 40)
    for spot in ((dx, dy, "left"), (-dx, dy, "right"))
] + [(0, dy, "center") for dy in (-34, 34, -46, 46, -58, 58)]
LEADER = {"color": "#777777", "strokeWidth": 0.8}

# What a candidate spot costs: sitting on a point, a bar or another label is worse than
# crossing a line (which a halo can mend), and either is worse than any spot that is free.
# A spot nearer another point than its own would name the wrong point: nearly as bad. A
# leader costs less than crossing a line, more than any free spot beside the point.
# A leader that crosses a line costs less than a label on one (a thin line across another
# reads as a crossing), and more the further it runs along it.
_ON_LABEL, _ON_MARK, _AMBIGUOUS, _ON_LINE, _LEADER = 1000.0, 500.0, 200.0, 150.0, 25.0
_LEADER_CROSSES = 40.0
# a leader whose end (at its point or at its label) touches another mark: dearer than
# crossing one, cheaper than a label on one
_TOUCHES = 60.0
# a label on a band, or straddling its end: legible, but worse than one beside it with a
# leader across the band's edge; still better than one on a line
_IN_AREA = 120.0


class Axis:
    """A linear, log or index scale from data to pixels (and back)."""

    def __init__(self, domain: Sequence[float], pixels: float, kind: str = "linear", flip=False):
        self.lo, self.hi = domain
        self.pixels, self.kind, self.flip = pixels, kind, flip

    def _t(self, v: float) -> float:
        return math.log10(v) if self.kind == "log" else v

    def _inv(self, v: float) -> float:
        return 10**v if self.kind == "log" else v

    def to_px(self, v: float) -> float:
        lo, hi = self._t(self.lo), self._t(self.hi)
        frac = (self._t(v) - lo) / (hi - lo)
        return (1 - frac if self.flip else frac) * self.pixels

    def from_px(self, px: float) -> float:
        frac = px / self.pixels
        frac = 1 - frac if self.flip else frac
        lo, hi = self._t(self.lo), self._t(self.hi)
        return self._inv(lo + frac * (hi - lo))


# ---- the marks a label keeps off ----------------------------------------------------------------


Box = tuple[float, float, float, float]  # left, top, right, bottom in pixels
Segment = tuple[float, float, float, float, float]  # x0, y0, x1, y1, stroke width in pixels


class Drawn(NamedTuple):
    """A plot's marks in pixels: boxes a label must not sit on (points, bars, texts), segments
    it should not cross (lines, rules, error bars) and the centres of the points among the
    boxes (a label nearer one of them than its own point would name the wrong one); and
    areas a label had better keep out of (a band: text reads worse on it) that a leader may
    cross."""

    boxes: list[Box]
    segments: list[Segment]
    centres: list[tuple[float, float]]
    areas: tuple[Box, ...] = ()


@dataclass(frozen=True)
class Marks:
    """Marks of a plot, in data units: boxes (points, bars, texts: a data rectangle widened by
    pixels on each side), segments (lines, rules, error bars: two data points and a stroke
    width in pixels), the points' centres and areas (bands: two data corners). Added
    together with `+`."""

    boxes: tuple[tuple[float, float, float, float, float, float, float, float], ...] = ()
    segments: tuple[tuple[float, float, float, float, float], ...] = ()
    centres: tuple[tuple[float, float], ...] = ()
    areas: tuple[tuple[float, float, float, float], ...] = ()

    def __add__(self, other: Marks) -> Marks:
        return Marks(
            self.boxes + other.boxes,
            self.segments + other.segments,
            self.centres + other.centres,
            self.areas + other.areas,
        )

    def in_pixels(self, xaxis: Axis, yaxis: Axis) -> Drawn:
        def rect(x0, y0, x1, y1, left=0.0, top=0.0, right=0.0, bottom=0.0) -> Box:
            xs = sorted((xaxis.to_px(x0), xaxis.to_px(x1)))
            ys = sorted((yaxis.to_px(y0), yaxis.to_px(y1)))
            return (xs[0] - left, ys[0] - top, xs[1] + right, ys[1] + bottom)

        boxes = [rect(*b) for b in self.boxes]
        segments = [
            (xaxis.to_px(x0), yaxis.to_px(y0), xaxis.to_px(x1), yaxis.to_px(y1), width)
            for x0, y0, x1, y1, width in self.segments
        ]
        centres = [(xaxis.to_px(x), yaxis.to_px(y)) for x, y in self.centres]
        return Drawn(boxes, segments, centres, tuple(rect(*a) for a in self.areas))


NONE = Marks()


def _floats(values: Iterable) -> list[float | None]:
    return [None if v is None else float(v) for v in values]


def points(xs: Iterable[float], ys: Iterable[float], radius: float = POINT_R) -> Marks:
    """Point marks (symbols of about `radius` px)."""
    r = radius
    centres = tuple(
        (x, y) for x, y in zip(_floats(xs), _floats(ys), strict=True) if None not in (x, y)
    )
    return Marks(boxes=tuple((x, y, x, y, r, r, r, r) for x, y in centres), centres=centres)


def rules(
    xs: Iterable[float], lo: Iterable[float], hi: Iterable[float], width: float = 2.0
) -> Marks:
    """Vertical rules from `lo` to `hi` at each x: intervals, error bars, gain bars."""
    return Marks(
        segments=tuple(
            (x, a, x, b, width)
            for x, a, b in zip(_floats(xs), _floats(lo), _floats(hi), strict=True)
            if None not in (x, a, b)
        )
    )


def hrules(ys: Iterable[float], xdom: Sequence[float], width: float = 1.0) -> Marks:
    """Horizontal rules across the plot: baselines, thresholds."""
    return Marks(segments=tuple((xdom[0], y, xdom[1], y, width) for y in _floats(ys)))


def line(xs: Iterable[float], ys: Iterable[float], width: float = 2.0) -> Marks:
    """A line through the points in the order given."""
    pts = [(x, y) for x, y in zip(_floats(xs), _floats(ys), strict=True) if None not in (x, y)]
    pairs = zip(pts, pts[1:], strict=False)
    return Marks(segments=tuple((x0, y0, x1, y1, width) for (x0, y0), (x1, y1) in pairs))


def band(xs: Iterable[float], lo: Iterable[float], hi: Iterable[float]) -> Marks:
    """A band between `lo` and `hi` over `xs` (an interval around a fit): its upper and lower
    edges, which a label should not cross, and between each two xs the area it covers, which
    a label had better keep out of (its ends are not edges: a leader may run down one)."""
    rows = [r for r in zip(_floats(xs), _floats(lo), _floats(hi), strict=True) if None not in r]
    pairs = list(zip(rows, rows[1:], strict=False))
    edges = line([r[0] for r in rows], [r[1] for r in rows], 1.0) + line(
        [r[0] for r in rows], [r[2] for r in rows], 1.0
    )
    areas = tuple((a[0], min(a[1], b[1]), b[0], max(a[2], b[2])) for a, b in pairs)
    return edges + Marks(areas=areas)


def leaders(frame: pl.DataFrame) -> Marks:
    """The leaders of a frame from `with_label_positions`, as segments later labels keep off."""
    if "leader_x" not in frame.columns:
        return NONE
    rows = frame.drop_nulls("leader_x")
    return Marks(
        segments=tuple(
            (x0, y0, x1, y1, LEADER["strokeWidth"])
            for x0, y0, x1, y1 in rows.select(
                "leader_x", "leader_y", "leader_x2", "leader_y2"
            ).iter_rows()
        )
    )


def text_boxes(
    xs: Iterable[float],
    ys: Iterable[float],
    labels: Iterable[str],
    *,
    align: str = "center",
    baseline: str = "middle",
    dx: float = 0,
    dy: float = 0,
    bold: bool = False,
) -> Marks:
    """Text marks drawn by a chart itself (a note, a baseline's name), as boxes."""
    boxes = []
    for x, y, text in zip(_floats(xs), _floats(ys), labels, strict=True):
        w = text_width(text, bold=bold)
        left = {"left": dx, "right": dx - w, "center": dx - w / 2}[align]
        top = {"top": dy, "middle": dy - LINE_H / 2, "bottom": dy - LINE_H}[baseline]
        boxes.append((x, y, x, y, -left, -top, left + w, top + LINE_H))
    return Marks(boxes=tuple(boxes))


# ---- placement ----------------------------------------------------------------------------------


class Spot(NamedTuple):
    """Where a label goes: its offset from its point, its alignment, whether it needs a halo
    (every spot, near or far, crosses a thin line) and its leader, if it is far from its
    point: the line's ends, as offsets from the point in pixels."""

    dx: float
    dy: float
    align: str
    halo: bool
    leader: tuple[float, float, float, float] | None = None


def _box(
    x: float, y: float, dx: float, dy: float, align: str, text: str, bold: bool = False
) -> Box:
    w = text_width(text, bold=bold)
    left = {"left": x + dx, "right": x + dx - w, "center": x + dx - w / 2}[align]
    return (left, y + dy - LINE_H / 2, left + w, y + dy + LINE_H / 2)


def _overlap(a: Box, b: Box) -> float:
    w = min(a[2], b[2]) - max(a[0], b[0])
    h = min(a[3], b[3]) - max(a[1], b[1])
    return w * h if w > 0 and h > 0 else 0.0


def _crossing(box: Box, seg: Segment) -> float:
    """How long a stretch of the segment (as thick as its stroke, and CLEAR px more) runs
    through the box; 0 if it misses it (Liang-Barsky clipping)."""
    x0, y0, x1, y1, width = seg
    half = width / 2 + CLEAR
    left, top, right, bottom = box[0] - half, box[1] - half, box[2] + half, box[3] + half
    if (  # wholly to one side: what the clipping below finds too, at a fraction of the cost
        (x0 < left and x1 < left)
        or (x0 > right and x1 > right)
        or (y0 < top and y1 < top)
        or (y0 > bottom and y1 > bottom)
    ):
        return 0.0
    dx, dy = x1 - x0, y1 - y0
    t0, t1 = 0.0, 1.0
    for p, q in ((-dx, x0 - left), (dx, right - x0), (-dy, y0 - top), (dy, bottom - y0)):
        if p == 0:
            if q < 0:
                return 0.0
            continue
        t = q / p
        if p < 0:
            t0 = max(t0, t)
        else:
            t1 = min(t1, t)
        if t0 >= t1:
            return 0.0
    return max((t1 - t0) * math.hypot(dx, dy), width)


def _distance(box: Box, x: float, y: float) -> float:
    return math.hypot(max(box[0] - x, 0, x - box[2]), max(box[1] - y, 0, y - box[3]))


def _leader(box: Box, x: float, y: float) -> Segment | None:
    """A leader from inside the point at (x, y) (so that it meets a symbol of any shape: a
    triangle's side lies nearer its centre than a circle's edge) to 2 px short of the
    label's box; None where the box is too near the point for one (it sits on the point)."""
    cx, cy = min(max(x, box[0]), box[2]), min(max(y, box[1]), box[3])
    length = math.hypot(cx - x, cy - y)
    if length < POINT_R + 6:
        return None
    ux, uy = (cx - x) / length, (cy - y) / length
    start, end = POINT_R / 2, length - 2
    return (x + ux * start, y + uy * start, x + ux * end, y + uy * end, LEADER["strokeWidth"])


def _beyond(leader: Segment, x: float, y: float, distance: float) -> Segment | None:
    """The part of a leader from the point at (x, y) further than `distance` from it, or None
    where it is all nearer."""
    x0, y0, x1, y1, width = leader
    length = math.hypot(x1 - x, y1 - y)
    if length <= distance:
        return None
    ux, uy = (x1 - x) / length, (y1 - y) / length
    return (x + ux * distance, y + uy * distance, x1, y1, width)


def _to_segment(px: float, py: float, seg: Segment) -> float:
    x0, y0, x1, y1, _ = seg
    dx, dy = x1 - x0, y1 - y0
    t = ((px - x0) * dx + (py - y0) * dy) / ((dx * dx + dy * dy) or 1.0)
    t = min(max(t, 0.0), 1.0)
    return math.hypot(px - (x0 + t * dx), py - (y0 + t * dy))


def _cross(a: Segment, b: Segment) -> int:
    """How many pixels of segment `a` (a leader) come within `b`'s half-stroke and CLEAR px
    of `b`, looked at every pixel along `a`: a few where it crosses, many where it runs
    along `b`; 0 where it keeps clear."""
    pad = b[4] / 2 + a[4] / 2 + CLEAR
    if (  # far apart: no pixel of `a` can be near `b`
        max(a[0], a[2]) < min(b[0], b[2]) - pad
        or min(a[0], a[2]) > max(b[0], b[2]) + pad
        or max(a[1], a[3]) < min(b[1], b[3]) - pad
        or min(a[1], a[3]) > max(b[1], b[3]) + pad
    ):
        return 0
    if _apart(a, b) >= pad:  # no point of `a` near `b`, so no pixel of it either
        return 0
    steps = max(1, int(math.hypot(a[2] - a[0], a[3] - a[1])))

    def gap(i: int) -> float:  # the distance from `a`'s i-th pixel to `b`
        return _to_segment(a[0] + (a[2] - a[0]) * i / steps, a[1] + (a[3] - a[1]) * i / steps, b)

    # the distance to a segment is convex along a line, so the pixels within `pad` of `b` are
    # one run around the nearest: found by halving (a leader is tested against every mark of
    # a plot hundreds of times; looking at each of its pixels took minutes on 008's curves)
    nearest = _first(0, steps, lambda i: gap(i + 1) >= gap(i))
    if gap(nearest) >= pad:
        return 0
    first = _first(0, nearest, lambda i: gap(i) < pad)
    last = _first(nearest, steps + 1, lambda i: gap(i) >= pad) - 1
    return last - first + 1


def _apart(a: Segment, b: Segment) -> float:
    """The least distance between two segments: 0 where they cross, else the least from an
    end of one to the other."""
    (ax, ay, bx, by), (cx, cy, dx, dy) = a[:4], b[:4]

    def side(px, py, qx, qy, rx, ry):  # which side of p-q the point r is on
        return (qx - px) * (ry - py) - (qy - py) * (rx - px)

    if (side(ax, ay, bx, by, cx, cy) > 0) != (side(ax, ay, bx, by, dx, dy) > 0) and (
        side(cx, cy, dx, dy, ax, ay) > 0
    ) != (side(cx, cy, dx, dy, bx, by) > 0):
        return 0.0
    return min(
        _to_segment(ax, ay, b),
        _to_segment(bx, by, b),
        _to_segment(cx, cy, a),
        _to_segment(dx, dy, a),
    )


def _first(lo: int, hi: int, test) -> int:
    """The least i in [lo, hi) for which `test(i)` holds (`test` false, then true), else hi."""
    while lo < hi:
        mid = (lo + hi) // 2
        if test(mid):
            hi = mid
        else:
            lo = mid + 1
    return lo


@dataclass
class _Plot:
    """What a label being placed must keep off: the marks (boxes, segments, points' centres),
    the labels and leaders placed so far, and the plot's size."""

    solid: list[Box]
    segments: list[Segment]
    centres: list[tuple[float, float]]
    width: float
    height: float
    placed: list[Box] = field(default_factory=list)
    leaders: list[Segment] = field(default_factory=list)  # of the labels placed so far
    areas: tuple[Box, ...] = ()
    _split: dict = field(default_factory=dict, init=False, repr=False)  # see `_through`
    _reach: list = field(default_factory=list, init=False, repr=False)  # see `_reaching`

    def cost(
        self, x: float, y: float, box: Box, leader: Segment | None, bound: float = math.inf
    ) -> tuple[float, bool]:
        """What a spot for the label of the point at (x, y) costs, and whether it crosses a
        line (and so needs a halo). A spot with a leader that costs `bound` or more without
        its leader's own crossings is not looked at further (a cost at least `bound` comes
        back): most spots of a search over the whole plot are, and a leader's are the dear
        part."""
        cost = 0.0
        spaced = (box[0] - GAP, box[1] - 1, box[2] + GAP, box[3] + 1)  # two labels never touch
        for p in self.placed:
            if area := _overlap(spaced, p):
                cost += _ON_LABEL + area * 4
        for b in self.solid:
            if area := _overlap(box, b):
                cost += area if area < 4 else _ON_MARK + area  # a corner's graze, or a hit
        if leader is not None and cost + _LEADER >= bound:
            return cost + _LEADER, False
        left, top, right, bottom = box
        crossed = [
            c
            for x0, y0, x1, y1, seg in self._reaching()
            if left < x1 and right > x0 and top < y1 and bottom > y0 and (c := _crossing(box, seg))
        ]
        rest = self._around(box, crossed)
        if leader is None:
            near = _distance(box, x, y)
            others = [(px, py) for px, py in self.centres if (px, py) != (x, y)]
            if any(_distance(box, px, py) < near + NEARER for px, py in others):
                cost += _AMBIGUOUS
        elif (least := cost + _LEADER + sum(rest)) >= bound:  # before its leader's crossings
            return least, False
        else:
            cost += _LEADER + self.crossings(x, y, leader, budget=bound - least)
        for term in rest[:-1]:  # added in this order: a cost is the same to the last bit
            cost += term
        return cost + rest[-1], bool(crossed)

    def _around(self, box: Box, crossed: list[float]) -> tuple[float, ...]:
        """What a label's box costs for what lies around it: the lines it crosses (`crossed`:
        how far each runs through it), a band it sits on, a leader it hides, the plot's
        edges it runs into or over, and its bottom below the plot."""
        # a label over another's leader hides it under its halo: the leader then seemed to
        # start at this label, naming the wrong point
        outside = max(0, -box[0]) + max(0, box[2] - self.width) + max(0, -box[1])
        # a label's side on the plot's left or right edge runs into the axis or the frame
        edge = max(0, EDGE - box[0]) + max(0, box[2] - self.width + EDGE) - outside
        return (
            sum(_ON_LINE + c for c in crossed),
            _IN_AREA * any(_overlap(box, a) for a in self.areas),
            sum(_ON_LABEL for seg in self.leaders if _crossing(box, seg)),
            outside * LINE_H * 2 + max(0, edge) * 4,
            max(0, box[3] - self.height) * 40,
        )

    def crossings(self, x: float, y: float, leader: Segment, budget: float = math.inf) -> float:
        """What a leader from the point at (x, y) costs for what it crosses: labels, marks
        (any box but the point's own, which a chart may list among its marks), lines (more
        the further it runs along one; a line through the point, such as its own interval,
        only past where the leader starts on it: one that runs down it hides it), and another
        mark where either of its ends touches it. Once the cost reaches `budget`, counting
        stops: at least `budget` comes back (the spot costs too much already)."""
        cost = sum(_ON_LABEL for p in self.placed if _crossing(p, leader))
        cost += sum(
            _ON_MARK
            for b in self.solid
            if not (b[0] <= x <= b[2] and b[1] <= y <= b[3]) and _crossing(b, leader)
        )
        away = _beyond(leader, x, y, POINT_R + 4)  # past where it leaves its point's own lines
        near, so_far = [], cost
        for seg, through in self._through(x, y)[0]:
            if (part := away if through else leader) is not None and (n := _cross(part, seg)):
                near.append(n)
                so_far += _LEADER_CROSSES + 4 * n
                if so_far >= budget:
                    return so_far
        cost += sum(_LEADER_CROSSES + 4 * n for n in near)  # as always summed: the same bits
        return cost + _TOUCHES * self._touches_another(x, y, leader)

    def _touches_another(self, x: float, y: float, leader: Segment) -> bool:
        """Whether either end of a leader from the point at (x, y) touches another mark: where
        it comes out of its point (a symbol or the ring round it) or where it meets its
        label, another point, or a line or bar that does not pass through the point itself.
        A reader follows a leader to whatever its ends touch."""
        out = _beyond(leader, x, y, POINT_R + 3)
        ends = [(leader[2], leader[3])] + ([] if out is None else [(out[0], out[1])])
        for ex, ey in ends:
            if any(
                math.hypot(ex - px, ey - py) < POINT_R + 1
                for px, py in self.centres
                if (px, py) != (x, y)
            ):
                return True
            if any(_to_segment(ex, ey, seg) < seg[4] / 2 + 1 for seg in self._through(x, y)[1]):
                return True
        return False

    def _reaching(self) -> list:
        """Each segment beside the box beyond which it touches no label: its ends' extent,
        its half-stroke and CLEAR px, and 1 px more (`_crossing` finds 0 for a box outside it,
        whatever the rounding). A search over the plot looks at a label's box against every
        segment thousands of times; most are nowhere near it."""
        for seg in self.segments[len(self._reach) :]:  # leaders are added as labels are placed
            x0, y0, x1, y1, width = seg
            pad = width / 2 + CLEAR + 1
            self._reach.append(
                (min(x0, x1) - pad, min(y0, y1) - pad, max(x0, x1) + pad, max(y0, y1) + pad, seg)
            )
        return self._reach

    def _through(self, x: float, y: float) -> tuple[list, list[Segment]]:
        """The plot's segments, each with whether it passes through the point at (x, y)
        (within POINT_R of its centre), and those that do not and are no label's leader:
        worked out once a point, while no segment is added (a leader is priced against
        every segment, for each of the hundreds of spots a label may take)."""
        key = (x, y, len(self.segments))
        if key not in self._split:
            pairs = [(seg, _to_segment(x, y, seg) <= POINT_R) for seg in self.segments]
            clear = [seg for seg, through in pairs if not through and seg not in self.leaders]
            self._split[key] = (pairs, clear)
        return self._split[key]


def _grid(x: float, y: float, width: float, height: float) -> list:
    """Spots over the whole plot, every 5 px (left-aligned; columns left to right, each top
    down), each costing more the further it is from the point at (x, y) (its leader is
    longer)."""
    return [
        (gx - x, gy - y, "left", 30 + math.hypot(gx - x, gy - y) * 0.8)
        for gx in range(int(EDGE), int(width), 5)
        for gy in range(int(LINE_H), int(height), 5)
    ]


def _anywhere(
    plot: _Plot, x: float, y: float, text: str, bold: bool, best_cost: float, best: Spot
) -> tuple[float, Spot]:
    """The cheapest of the spots over the whole plot (`_grid`) for a label that finds nothing
    free near its point, if it costs less than `best_cost`; else (best_cost, best). Spots are
    priced nearest first: a spot costs at least its distance and a leader, so once that alone
    is more than the best found, no spot further out can cost less (on 008's curves this
    prices a tenth of the grid). Of spots that cost the same, the first in the grid's order
    wins, as if the grid were walked in order."""
    spots = _grid(x, y, plot.width, plot.height)
    first = None  # the grid index of the best spot, where it is one of these
    for k in sorted(range(len(spots)), key=lambda k: spots[k][3]):
        dx, dy, align, extra = spots[k]
        if extra + _LEADER > best_cost:
            break
        # a spot costing exactly `best_cost` is priced whole (it may come first in the grid)
        led = _led(plot, x, y, (dx, dy, align), text, bold, bound=best_cost - extra + 1e-6)
        if led is None:
            continue
        cost = led[0] + extra
        if cost < best_cost or (cost == best_cost and first is not None and k < first):
            best_cost, best, first = cost, led[1], k
    return best_cost, best


def layout(
    xs: Sequence[float],
    ys: Sequence[float],
    texts: Sequence[str],
    width: float,
    height: float,
    marks: Drawn | None = None,
    *,
    bold: bool = False,
) -> list[Spot]:
    """Greedy placement in pixel space: for each point, the candidate spot that costs least,
    counting what it sits on (labels and leaders placed before it, every labelled point, the
    plot's other marks: boxes and segments in pixels), how far it leaves the plot and how far
    down the list of preferences it comes; a spot not clearly nearer its own point than any
    other (by NEARER px) costs nearly as much as one on a point. Where every spot beside the
    point sits on something, spots further out are tried, each with a leader to its point
    that must itself keep off the marks and labels."""
    marks = marks or Drawn([], [], [])
    order = list(range(len(texts)))
    spots, costs = _greedy(xs, ys, texts, width, height, marks, bold, order)
    for _ in range(2):  # a label left on something is placed first, where that costs less
        stuck = [i for i in order if costs[i] >= _ON_LINE]
        if not stuck:
            break
        order = stuck + [i for i in order if i not in stuck]
        again, again_costs = _greedy(xs, ys, texts, width, height, marks, bold, order)
        if sum(again_costs) >= sum(costs):
            break
        spots, costs = again, again_costs
    # a label still on another (or on its leader): the spots it could take alone, cheapest
    # first, each tried with the other labels placed after it (two labels crowded together
    # each took the spot that left the other none)
    for i in [i for i in order if costs[i] >= _ON_LABEL]:
        alone = _new_plot(xs, ys, marks, width, height)
        rest = [j for j in order if j != i]
        for spot in _options(alone, xs[i], ys[i], texts[i], bold, LOOKAHEAD):
            again, again_costs = _greedy(
                xs, ys, texts, width, height, marks, bold, [i, *rest], fixed={i: spot}
            )
            if sum(again_costs) < sum(costs):
                spots, costs = again, again_costs
    return spots


LOOKAHEAD = 12  # spots tried for a label left on another, each with the rest placed after it


def _new_plot(
    xs: Sequence[float], ys: Sequence[float], marks: Drawn, width: float, height: float
) -> _Plot:
    """A plot with no label placed yet: every labelled point's box and centre besides the
    plot's marks."""
    points = [
        (x - POINT_R, y - POINT_R, x + POINT_R, y + POINT_R) for x, y in zip(xs, ys, strict=True)
    ]
    centres = list(zip(xs, ys, strict=True)) + list(marks.centres)
    return _Plot(
        points + list(marks.boxes), list(marks.segments), centres, width, height, areas=marks.areas
    )


def _priced(plot: _Plot, x: float, y: float, text: str, bold: bool) -> list[tuple[float, Spot]]:
    """The spots for the label of the point at (x, y) with what they cost on `plot`: beside the
    point, then further out with a leader (each spot's rank in the preferences counted; not
    the search over the whole plot, which `_greedy` makes where these are all taken)."""
    priced = list(_beside(plot, x, y, text, bold))
    for dx, dy, align, extra in _far():
        if (led := _led(plot, x, y, (dx, dy, align), text, bold)) is not None:
            priced.append((led[0] + extra, led[1]))
    return priced


def _far() -> list[tuple[float, float, str, float]]:
    """The spots further out (_FAR), each with what its rank in the preferences adds."""
    return [(dx, dy, align, rank * 0.5) for rank, (dx, dy, align) in enumerate(_FAR)]


def _led(
    plot: _Plot, x: float, y: float, spot: tuple, text: str, bold: bool, bound: float = math.inf
) -> tuple[float, Spot] | None:
    """What a spot (dx, dy, align) joined to the point at (x, y) by a leader costs, and the
    spot with its leader; None where it sits too near the point for one. A cost of `bound`
    or more is not looked at further (see `_Plot.cost`)."""
    dx, dy, align = spot
    box = _box(x, y, dx, dy, align, text, bold)
    leader = _leader(box, x, y)
    if leader is None:
        return None
    cost, halo = plot.cost(x, y, box, leader, bound=bound)
    return cost, Spot(dx, dy, align, halo, _ends(leader, x, y))


def _beside(plot: _Plot, x: float, y: float, text: str, bold: bool):
    """(cost, spot) of each spot beside the point at (x, y), in the order of preference, each
    costing half a unit more than the one before it; a spot far enough off to be joined to
    its point by a leader (`_greedy`) pays for what that leader crosses."""
    for rank, (dx, dy, align) in enumerate(_CANDIDATES):
        box = _box(x, y, dx, dy, align, text, bold)
        cost, halo = plot.cost(x, y, box, None)
        if _distance(box, x, y) > DETACHED and (leader := _leader(box, x, y)) is not None:
            cost += plot.crossings(x, y, leader)
        yield cost + rank * 0.5, Spot(dx, dy, align, halo)


def _ends(leader: Segment, x: float, y: float) -> tuple[float, float, float, float]:
    """A leader's ends as offsets from its point (how a `Spot` keeps them)."""
    return (leader[0] - x, leader[1] - y, leader[2] - x, leader[3] - y)


def _drawn_leader(spot: Spot, x: float, y: float) -> Segment | None:
    """A spot's leader as the segment drawn from the point at (x, y), or None."""
    if spot.leader is None:
        return None
    sx, sy, ex, ey = spot.leader
    return (x + sx, y + sy, x + ex, y + ey, LEADER["strokeWidth"])


def _options(plot: _Plot, x: float, y: float, text: str, bold: bool, k: int) -> list[Spot]:
    """The `k` cheapest spots for a label on `plot`, each clear of the ones before it (spots a
    few pixels apart leave the other labels the same room)."""
    chosen: list[Spot] = []
    for _, spot in sorted(_priced(plot, x, y, text, bold), key=lambda p: p[0]):
        box = _box(x, y, spot.dx, spot.dy, spot.align, text, bold)
        if all(not _overlap(box, _box(x, y, s.dx, s.dy, s.align, text, bold)) for s in chosen):
            chosen.append(spot)
        if len(chosen) == k:
            break
    return chosen


def _greedy(
    xs: Sequence[float],
    ys: Sequence[float],
    texts: Sequence[str],
    width: float,
    height: float,
    marks: Drawn,
    bold: bool,
    order: list[int],
    fixed: dict[int, Spot] | None = None,
) -> tuple[list[Spot], list[float]]:
    """`layout`'s placement with the labels taken in `order`: each label's spot and what it
    cost (a leader crossing a label placed before it counts in the later label's cost); a
    label in `fixed` takes the spot given there."""
    plot = _new_plot(xs, ys, marks, width, height)
    spots: list[Spot | None] = [None] * len(texts)
    costs = [0.0] * len(texts)
    for i in order:
        x, y, text = xs[i], ys[i], texts[i]
        if fixed and i in fixed:
            best = fixed[i]
            box = _box(x, y, best.dx, best.dy, best.align, text, bold)
            best_cost = plot.cost(x, y, box, _drawn_leader(best, x, y))[0]
            _place(plot, x, y, box, best)
            spots[i], costs[i] = best, best_cost
            continue
        best_cost, best = min(_beside(plot, x, y, text, bold), key=lambda priced: priced[0])
        if best_cost >= _IN_AREA:  # nothing free beside the point: further out, with a leader
            for dx, dy, align, extra in _far():
                led = _led(plot, x, y, (dx, dy, align), text, bold, bound=best_cost - extra)
                if led is not None and led[0] + extra < best_cost:
                    best_cost, best = led[0] + extra, led[1]
            best_cost, best = _anywhere(plot, x, y, text, bold, best_cost, best)
        box = _box(x, y, best.dx, best.dy, best.align, text, bold)
        if best.leader is None and _distance(box, x, y) > DETACHED:  # joined, not left afloat
            leader = _leader(box, x, y)
            if leader is not None:
                best = best._replace(leader=_ends(leader, x, y))
        _place(plot, x, y, box, best)
        spots[i], costs[i] = best, best_cost
    return spots, costs


def _place(plot: _Plot, x: float, y: float, box: Box, spot: Spot) -> None:
    """A label placed on `plot`: its box, and its leader where it has one."""
    plot.placed.append(box)
    if (leader := _drawn_leader(spot, x, y)) is not None:
        plot.segments.append(leader)
        plot.leaders.append(leader)


def with_label_positions(
    df: pl.DataFrame,
    x: str,
    y: str,
    text: str,
    xaxis: Axis,
    yaxis: Axis,
    *,
    avoid: Marks = NONE,
    bold: bool = False,
    centred: bool = False,
) -> pl.DataFrame:
    """Add `label_x`, `label_y` (data units), `label_align` and `label_halo` columns for a text
    layer: each row's label placed beside its point, off the other points and labels and off
    the marks in `avoid` (`bold`: for labels drawn in bold). `centred`: every label given by
    its centre, to be drawn centre-aligned (one text layer, whatever side each label is on)."""
    xs = [xaxis.to_px(v) for v in df[x].to_list()]
    ys = [yaxis.to_px(v) for v in df[y].to_list()]
    spots = layout(
        xs,
        ys,
        df[text].to_list(),
        xaxis.pixels,
        yaxis.pixels,
        avoid.in_pixels(xaxis, yaxis),
        bold=bold,
    )
    if centred:
        shift = {"left": 0.5, "right": -0.5, "center": 0.0}
        spots = [
            s._replace(dx=s.dx + shift[s.align] * text_width(t, bold=bold), align="center")
            for s, t in zip(spots, df[text].to_list(), strict=True)
        ]
    out = df.with_columns(
        label_x=pl.Series([xaxis.from_px(px + s.dx) for px, s in zip(xs, spots, strict=True)]),
        label_y=pl.Series([yaxis.from_px(py + s.dy) for py, s in zip(ys, spots, strict=True)]),
        label_align=pl.Series([s.align for s in spots], dtype=pl.String),
        label_halo=pl.Series([s.halo for s in spots], dtype=pl.Boolean),
    )
    if not any(s.leader for s in spots):
        return out
    ends = {}
    for name, axis, at, offset in (
        ("leader_x", xaxis, xs, 0), ("leader_y", yaxis, ys, 1),
        ("leader_x2", xaxis, xs, 2), ("leader_y2", yaxis, ys, 3),
    ):  # fmt: skip
        ends[name] = pl.Series(
            [
                None if s.leader is None else axis.from_px(p + s.leader[offset])
                for p, s in zip(at, spots, strict=True)
            ],  # fmt: skip
            dtype=pl.Float64,
        )
    return out.with_columns(**ends)


def leader_layer(frame: pl.DataFrame, xdom, ydom, *, xscale: str = "linear") -> list[alt.Chart]:
    """The leaders of a frame from `with_label_positions` (thin grey lines joining labels set
    further out to their points), as one layer; none where no label has one."""
    if "leader_x" not in frame.columns:
        return []
    return [
        alt.Chart(frame)
        .transform_filter("isValid(datum.leader_x)")
        .mark_rule(**LEADER)
        .encode(
            x=alt.X("leader_x:Q").scale(type=xscale, domain=list(xdom), nice=False),
            y=alt.Y("leader_y:Q").scale(domain=list(ydom), nice=False),
            x2="leader_x2:Q",
            y2="leader_y2:Q",
        )
        .properties(name="leaders")
    ]


def text_layers(
    frame: pl.DataFrame,
    text: str,
    xdom: Sequence[float],
    ydom: Sequence[float],
    *,
    xscale: str = "linear",
    bold: bool = False,
    **encodings,
) -> list[alt.Chart]:
    """Text layers for a frame from `with_label_positions`, one per alignment used (align is a
    mark property in Vega-Lite, not an encoding), each over a white halo where its labels
    cross a line, and under them the leaders of labels set further out. `encodings` (a
    colour) are passed to the text."""
    base = alt.Chart(frame)
    x = alt.X("label_x:Q").scale(type=xscale, domain=list(xdom), nice=False)
    y = alt.Y("label_y:Q").scale(domain=list(ydom), nice=False)
    said = alt.Text(f"{text}:N")
    layers = leader_layer(frame, xdom, ydom, xscale=xscale)
    for a in sorted(set(frame["label_align"])):
        rows = base.transform_filter(alt.datum.label_align == a)
        where = {"align": a, "baseline": "middle", "fontSize": FONT_SIZE}
        if bold:
            where["fontWeight"] = "bold"
        if frame.filter((pl.col("label_align") == a) & pl.col("label_halo")).height:
            layers.append(
                rows.transform_filter(alt.datum.label_halo)
                .mark_text(**where, **HALO)
                .encode(x=x, y=y, text=said)
                .properties(name=f"halos_{a}")
            )
        layers.append(
            rows.mark_text(**where)
            .encode(x=x, y=y, text=said, **encodings)
            .properties(name=f"labels_{a}")
        )
    return layers
