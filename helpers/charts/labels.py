"""Place point labels so they do not pile on each other (Vega-Lite has no label layout)."""

from __future__ import annotations

import math
from collections.abc import Sequence

import altair as alt
import polars as pl

CHAR_W = 5.8  # px per character at the theme's 10 px text size (Liberation Sans, mean width)
LINE_H = 12.0
POINT_R = 5.0

# (dx, dy, align) offsets in pixels, tried in this order of preference.
_CANDIDATES = [
    (7, 0, "left"),
    (-7, 0, "right"),
    (6, -10, "left"),
    (6, 10, "left"),
    (-6, -10, "right"),
    (-6, 10, "right"),
    (0, -13, "center"),
    (0, 13, "center"),
    (14, -18, "left"),
    (14, 18, "left"),
    (-14, -18, "right"),
    (-14, 18, "right"),
]


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


def _box(x: float, y: float, dx: float, dy: float, align: str, text: str):
    w = len(text) * CHAR_W
    left = {"left": x + dx, "right": x + dx - w, "center": x + dx - w / 2}[align]
    return (left, y + dy - LINE_H / 2, left + w, y + dy + LINE_H / 2)


def _overlap(a, b) -> float:
    w = min(a[2], b[2]) - max(a[0], b[0])
    h = min(a[3], b[3]) - max(a[1], b[1])
    return w * h if w > 0 and h > 0 else 0.0


def place(
    xs: Sequence[float], ys: Sequence[float], texts: Sequence[str], width: float, height: float
) -> list[tuple[float, float, str]]:
    """Greedy placement in pixel space: for each point, the first candidate offset with the
    least overlap with placed labels, all points and the plot's edges."""
    points = [
        (x - POINT_R, y - POINT_R, x + POINT_R, y + POINT_R) for x, y in zip(xs, ys, strict=False)
    ]
    placed: list[tuple[float, float, float, float]] = []
    out = []
    for x, y, text in zip(xs, ys, texts, strict=True):
        best, best_cost = None, math.inf
        for rank, (dx, dy, align) in enumerate(_CANDIDATES):
            box = _box(x, y, dx, dy, align, text)
            cost = sum(_overlap(box, p) for p in placed) * 4
            cost += sum(_overlap(box, p) for p in points)
            outside = max(0, -box[0]) + max(0, box[2] - width) + max(0, -box[1])
            cost += outside * LINE_H * 2 + max(0, box[3] - height) * 40
            cost += rank * 0.5
            if cost < best_cost:
                best, best_cost = (dx, dy, align), cost
        placed.append(_box(x, y, *best, text))
        out.append(best)
    return out


def with_label_positions(
    df: pl.DataFrame, x: str, y: str, text: str, xaxis: Axis, yaxis: Axis
) -> pl.DataFrame:
    """Add `label_x`, `label_y` (data units) and `label_align` columns for a text layer."""
    xs = [xaxis.to_px(v) for v in df[x].to_list()]
    ys = [yaxis.to_px(v) for v in df[y].to_list()]
    spots = place(xs, ys, df[text].to_list(), xaxis.pixels, yaxis.pixels)
    return df.with_columns(
        label_x=pl.Series(
            [xaxis.from_px(px + dx) for px, (dx, _, _) in zip(xs, spots, strict=False)]
        ),
        label_y=pl.Series(
            [yaxis.from_px(py + dy) for py, (_, dy, _) in zip(ys, spots, strict=False)]
        ),
        label_align=pl.Series([a for _, _, a in spots]),
    )


def text_layers(
    frame: pl.DataFrame,
    text: str,
    xdom: Sequence[float],
    ydom: Sequence[float],
    *,
    xscale: str = "linear",
) -> list[alt.Chart]:
    """Text layers for a frame from `with_label_positions`, one per alignment used (align is a
    mark property in Vega-Lite, not an encoding)."""
    base = alt.Chart(frame)
    x = alt.X("label_x:Q").scale(type=xscale, domain=list(xdom), nice=False)
    y = alt.Y("label_y:Q").scale(domain=list(ydom), nice=False)
    return [
        base.transform_filter(alt.datum.label_align == a)
        .mark_text(align=a, baseline="middle", fontSize=10)
        .encode(x=x, y=y, text=alt.Text(f"{text}:N"))
        .properties(name=f"labels_{a}")
        for a in sorted(set(frame["label_align"]))
    ]
