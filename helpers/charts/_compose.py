"""Layers and concatenations of charts, as `alt.layer`, `alt.vconcat`, `alt.hconcat` and
`alt.concat` make them, without altair copying every part again at each level.

altair copies a compound chart's parts whole when it makes it (to lift their selections and
data to it) and again whenever it copies the chart "shallowly", which it does through the same
constructor: `to_dict` so copied each nested level of a 13-panel grid, everything beneath it
every time (0.41 s to build that grid and 0.25-0.33 s to turn it into a spec, of which about
0.18 s and 0.2 s were these copies). Here, where the parts are plain (nothing to lift, move,
rename or refuse in them: `_plain`), the chart is made empty and given its parts as they are;
its shallow copy copies the chart and its list of parts, not the parts (while they hold
nothing to lift); anything else is left to altair. The same spec, every chart function's
(`tests/chart_checks.py` holds each to altair's own build, and `tests/test_charts.py` what is
done to such a chart after); the parts are the chart's own rather than copies, and the
in-place operators (`+=`, `&=`, `|=`) give a new chart, as `+`, `&` and `|` do.
"""

from __future__ import annotations

from typing import Any

import altair as alt
from altair.utils.schemapi import SchemaBase
from altair.vegalite.v6.api import TOPLEVEL_ONLY_KEYS

OWN = ("data", "params", *TOPLEVEL_ONLY_KEYS)  # what altair lifts from a part, or refuses
SIZE = ("height", "width", "view")  # what altair moves from a chart's layers up to it
FACETS = ("row", "column", "facet")  # encodings `alt.layer` hoists to a facet of the layers
LAYERED = (alt.Chart, alt.LayerChart)  # what may be layered
CONCATENATED = (*LAYERED, alt.VConcatChart, alt.HConcatChart, alt.ConcatChart)


def _set(chart: Any, keys: tuple[str, ...]) -> bool:
    return any(chart._get(key) is not alt.Undefined for key in keys)


def _plain(parts: Any, layered: bool, renamed: bool = True) -> bool:
    """Whether altair, making a chart of `parts` (its layers where `layered`), would lift or
    move nothing in them, nor refuse them: charts, layers (and, side by side, concatenations)
    with none of OWN set, nor SIZE or a facet encoding on a layer; and, where it would number
    them by position (`renamed`: a chart being made, not one copied), no named chart in a layer
    among several parts."""
    for part in parts:
        if not isinstance(part, LAYERED if layered else CONCATENATED):
            return False
        if _set(part, OWN + (SIZE if layered else ())):
            return False
        encoding = part._get("encoding")
        if layered and isinstance(encoding, SchemaBase) and _set(encoding, FACETS):
            return False
        named = renamed and isinstance(part, alt.LayerChart) and len(parts) > 1
        if named and any(
            isinstance(one, SchemaBase) and _set(one, ("name",)) for one in part.layer
        ):
            return False
    return True


class _Shallow:
    """A compound chart whose `copy(deep=False)`, while its parts are plain, copies it and its
    list of parts but not the parts (altair's runs its constructor, which copies them all)."""

    PARTS = ""  # the key of the parts: "layer", "vconcat", "hconcat", "concat"

    def copy(self, deep: Any = True, ignore: list[str] | None = None):
        parts = self._kwds.get(self.PARTS)  # type: ignore[attr-defined]
        layered = self.PARTS == "layer"
        if deep is not False or not _plain(parts or (), layered, renamed=False):
            return super().copy(deep, ignore)  # type: ignore[misc]
        kwds = {**self._kwds, self.PARTS: list(parts)}  # type: ignore[attr-defined]
        copied = object.__new__(type(self))
        SchemaBase.__init__(copied, *self._args, **kwds)  # type: ignore[attr-defined]
        return copied


class Layer(_Shallow, alt.LayerChart):
    PARTS = "layer"

    def __iadd__(self, other):
        return alt.LayerChart.__iadd__(self.copy(deep=[self.PARTS]), other)


class VConcat(_Shallow, alt.VConcatChart):
    PARTS = "vconcat"

    def __iand__(self, other):
        return alt.VConcatChart.__iand__(self.copy(deep=[self.PARTS]), other)


class HConcat(_Shallow, alt.HConcatChart):
    PARTS = "hconcat"

    def __ior__(self, other):
        return alt.HConcatChart.__ior__(self.copy(deep=[self.PARTS]), other)


class Concat(_Shallow, alt.ConcatChart):
    PARTS = "concat"

    def __ior__(self, other):
        return alt.ConcatChart.__ior__(self.copy(deep=[self.PARTS]), other)


def _made(kind: type, charts: tuple, kwargs: dict, altairs):
    """A compound chart of `charts`: made empty and given them where they are plain; else by
    altair's constructor (as `altairs`, altair's function, makes it), or by that function
    itself where a part is not plain for other reasons (a facet encoding `alt.layer` hoists;
    a part altair refuses, which it then refuses)."""
    layered = kind is Layer
    if _plain(charts, layered):
        chart = kind(**kwargs)
        chart[kind.PARTS] = list(charts)
        return chart
    if _plain(charts, layered, renamed=False):  # named layers, numbered by the constructor
        return kind(**{kind.PARTS: charts}, **kwargs)
    return altairs(*charts, **kwargs)


def layer(*charts, **kwargs) -> alt.LayerChart | alt.FacetChart:
    """`alt.layer(*charts, **kwargs)`."""
    return _made(Layer, charts, kwargs, alt.layer)


def vconcat(*charts, **kwargs) -> alt.VConcatChart:
    """`alt.vconcat(*charts, **kwargs)`."""
    return _made(VConcat, charts, kwargs, alt.vconcat)


def hconcat(*charts, **kwargs) -> alt.HConcatChart:
    """`alt.hconcat(*charts, **kwargs)`."""
    return _made(HConcat, charts, kwargs, alt.hconcat)


def concat(*charts, **kwargs) -> alt.ConcatChart:
    """`alt.concat(*charts, **kwargs)`."""
    return _made(Concat, charts, kwargs, alt.concat)
