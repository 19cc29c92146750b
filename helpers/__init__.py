"""reasoning-figures: data, charts and statistics for reproducing LLM-reasoning figures.

The project's Altair theme and offline notebook renderer are registered when charts are first
drawn (`helpers.charts` or `helpers.theme` imported), and at once where `import helpers` runs
in a notebook kernel or beside altair. The command line (`python -m helpers`) loads neither
altair nor the chart code unless it draws.
"""

import importlib
import sys

from .lazy import defer_iri_grammar

defer_iri_grammar()  # before anything imports altair (and with it jsonschema)

from .data import field, figure, load, long_view, names, resource  # noqa: E402
from .errors import DataError  # noqa: E402

if "IPython" in sys.modules or "altair" in sys.modules:  # a notebook, or a script that draws
    from . import theme

SUBMODULES = (
    "aggregate",
    "across",
    "analysis",
    "benchmarks",
    "charts",
    "choose",
    "cli",
    "compare",
    "describe",
    "export",
    "readers",
    "simulate",
    "stats",
    "theme",
)


def __getattr__(name: str):
    """`helpers.charts` and the other submodules load when first used."""
    if name in SUBMODULES:
        return importlib.import_module(f"{__name__}.{name}")
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def versions() -> None:
    """Print the versions of the libraries that shape a notebook's numbers and charts (the
    pinned ones; no dates, so a re-executed notebook stays byte-identical)."""
    from importlib.metadata import version

    print(
        " | ".join(f"{name} {version(name)}" for name in ("polars", "altair", "vl-convert-python"))
    )


__all__ = [
    "DataError",
    "field",
    "figure",
    "load",
    "long_view",
    "names",
    "resource",
    "theme",
    "versions",
]
