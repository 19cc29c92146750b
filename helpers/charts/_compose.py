"""Layers and concatenations of charts, as `alt.layer`, `alt.vconcat`, `alt.hconcat` and
`alt.concat` build them, without altair copying every part again at each level.

altair copies a compound chart's parts whole when it builds it (to lift their selections and
data to it) and again whenever it copies the chart "shallowly", which it does through the same
constructor: `to_dict` so copied each nested level of a 13-panel grid, everything beneath it
every time (0.41 s to build that grid and 0.25-0.33 s to turn it into a spec, of which about
0.18 s and 0.2 s were these copies). Here, where no part carries anything to lift (data of its
own, a selection, a name, or a layer's size), the chart is built empty and given its parts as
they are, and its shallow copy is one: the same spec, every example chart's and notebook's
(`tests/test_charts.py` holds every chart function's spec to altair's own build). Otherwise
altair builds it as it would.
"""

from __future__ import annotations

from typing import Any

import altair as alt
from altair.utils.schemapi import SchemaBase


class _Shallow:
    """A compound chart whose `copy(deep=False)` copies only the chart, not its parts."""

    def copy(self, deep: Any = True, ignore: list[str] | None = None):
        if deep is not False:
            return super().copy(deep, ignore)  # type: ignore[misc]
        copied = object.__new__(type(self))
        SchemaBase.__init__(copied, *self._args, **self._kwds)  # type: ignore[attr-defined]
        return copied


class Layer(_Shallow, alt.LayerChart):
    pass


class VConcat(_Shallow, alt.VConcatChart):
    pass


class HConcat(_Shallow, alt.HConcatChart):
    pass


class Concat(_Shallow, alt.ConcatChart):
    pass


LAYER_PROPS = ("height", "width", "view")  # what altair moves from a chart's layers to it


def _plain(charts: tuple, props: tuple[str, ...] = ()) -> bool:
    """Whether no chart has anything altair would lift to the chart made of them: data of its
    own, a selection, a name (nor a layer of it a name), or one of `props`."""
    for chart in charts:
        own = [getattr(chart, key, alt.Undefined) for key in ("data", "params", "name", *props)]
        if any(value is not alt.Undefined for value in own):
            return False
        inner = getattr(chart, "layer", alt.Undefined)
        if isinstance(chart, alt.LayerChart) and any(
            getattr(part, "name", alt.Undefined) is not alt.Undefined for part in inner
        ):
            return False
    return True


def _built(kind: type, key: str, charts: tuple, props: tuple[str, ...], **kwargs):
    if not _plain(charts, props):
        return kind(**{key: charts}, **kwargs)
    chart = kind(**kwargs)
    chart[key] = list(charts)
    return chart


def layer(*charts, **kwargs) -> Layer:
    """`alt.layer(*charts, **kwargs)`."""
    return _built(Layer, "layer", charts, LAYER_PROPS, **kwargs)


def vconcat(*charts, **kwargs) -> VConcat:
    """`alt.vconcat(*charts, **kwargs)`."""
    return _built(VConcat, "vconcat", charts, (), **kwargs)


def hconcat(*charts, **kwargs) -> HConcat:
    """`alt.hconcat(*charts, **kwargs)`."""
    return _built(HConcat, "hconcat", charts, (), **kwargs)


def concat(*charts, **kwargs) -> Concat:
    """`alt.concat(*charts, **kwargs)`."""
    return _built(Concat, "concat", charts, (), **kwargs)
