"""reasoning-figures: data, charts and statistics for reproducing LLM-reasoning figures.

Importing the package registers the project's Altair theme and its offline notebook renderer.
"""

from . import theme
from .data import field, figure, load, long_view, names, resource
from .errors import DataError


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
