"""reasoning-figures: data, charts and statistics for reproducing LLM-reasoning figures.

Importing the package registers the project's Altair theme and its offline notebook renderer.
"""

from . import theme
from .data import field, figure, load, long_view, names, resource
from .errors import DataError

__all__ = [
    "DataError",
    "field",
    "figure",
    "load",
    "long_view",
    "names",
    "resource",
    "theme",
]
