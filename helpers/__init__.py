"""reasoning-figures: data, charts and statistics for reproducing LLM-reasoning figures.

The package is laid out as its work flows:

- `helpers.figures`: one module per paper figure (000-004, 006), its analyses and simulation
  inputs; `helpers.data` loads the data package they read.
- `helpers.runs`: a researcher's own runs, read -> summarise -> compare -> choose a chart
  (`readers`, `summarise`, `compare`, `choose`), run by polars or Spark (`query`, `spark`).
- `helpers.charts`: the chart functions, named as the figures; they only draw.
- `helpers.render`: theme and renderer, PNG/SVG/HTML export, executing the notebooks and
  building the static report.
- `helpers.stats`: the statistics formulas everything above shares.

Importing `helpers` registers nothing and starts nothing: a notebook calls `helpers.setup()`
once. Submodules load when first used, so the command line loads neither altair nor the chart
code unless it draws.
"""

import importlib
import sys

from helpers.errors import DataError

SUBMODULES = ("benchmark_sizes", "charts", "cli", "data", "figures", "render", "runs", "stats")
DATA_FUNCTIONS = ("field", "figure", "load", "names", "resource")  # `helpers.load(...)`


def __getattr__(name: str):
    """`helpers.charts` and the other submodules load when first used, and with them polars
    (`helpers.load` and the data package's other functions load `helpers.data`): the command
    line sets polars' allocator up before it loads (`helpers/__main__.py`)."""
    if name in DATA_FUNCTIONS:
        return getattr(importlib.import_module(f"{__name__}.data"), name)
    if name in SUBMODULES:
        return importlib.import_module(f"{__name__}.{name}")
    if name == "long_view":  # 006's view of every value: its module loads when it is asked for
        return importlib.import_module(f"{__name__}.figures.across_papers").long_view
    if name == "watch":  # runs watched from a notebook while they train (`runs.live`)
        return importlib.import_module(f"{__name__}.runs.live").watch
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def setup() -> None:
    """Make the project's theme, offline renderer and float rounding altair's current ones, and
    in a notebook kernel start the chart renderer in the background while the first cells run.

    Returns
    -------
    None
        Altair's current theme, renderer and data transformer are changed in place.

    Examples
    --------
    >>> import helpers
    >>> helpers.setup()
    >>> import altair as alt
    >>> alt.theme.active, alt.renderers.active
    ('reasoning_figures', 'reasoning_figures')
    """
    from helpers.render import export, theme

    theme.enable()
    if "ipykernel" in sys.modules:  # a notebook will draw: start the renderer while cells run
        export.warm_up()


def save(chart, path, *, size=None):
    """Write a chart as the command line would: .png, .svg, .pdf (vector, fonts embedded;
    `size` "column", "page" or (width, height) in inches, see `render.export.pdf`) or .html,
    whole or not at all.

    Parameters
    ----------
    chart : altair chart
        Any chart the package's functions return.
    path : str or pathlib.Path
        Where, the format chosen by the suffix.
    size : str or tuple of float, optional
        A PDF's page.

    Returns
    -------
    pathlib.Path
        The file written.

    Examples
    --------
    >>> import helpers, tempfile, pathlib
    >>> from helpers.figures import detectability as d
    >>> helpers.setup()
    >>> chart = helpers.charts.detectability(d.power_curves(d.gaps()), d.gaps())
    >>> out = helpers.save(chart, pathlib.Path(tempfile.mkdtemp()) / "fig.pdf", size="page")
    >>> out.read_bytes()[:5]
    b'%PDF-'
    """
    from pathlib import Path

    from helpers.render import export

    path = Path(path)
    if size is not None and path.suffix != ".pdf":
        raise DataError(path, "a .pdf output for a size (it sets a PDF's page)", got=path.suffix)
    redraw = getattr(chart, "redraw", None)  # a chart whose labels are placed for its size
    if redraw is not None:
        redraw = lambda across, down, again=redraw: again(across, down).to_dict()  # noqa: E731
    return export.save(chart.to_dict(), path, size=size, redraw=redraw)


def versions() -> None:
    """Print the versions of the libraries that shape a notebook's numbers and charts (the
    pinned ones; no dates, so a re-executed notebook stays byte-identical).

    Returns
    -------
    None
        One line is printed: polars, altair and vl-convert-python, each with its version.

    Examples
    --------
    >>> import helpers
    >>> helpers.versions()
    polars ... | altair ... | vl-convert-python ...
    """
    from importlib.metadata import version

    print(
        " | ".join(f"{name} {version(name)}" for name in ("polars", "altair", "vl-convert-python"))
    )


def show(frame, *, rows: int | None = None, decimals: int | None = None) -> None:
    """Print a table whole, the one way every notebook prints its tables: every column, every
    row (or the first `rows`), each text in full, no shape line; floats to `decimals` places
    where given (else as polars prints them).

    Parameters
    ----------
    frame : polars.DataFrame
        The table.
    rows : int, optional
        How many rows, from the top; all by default.
    decimals : int, optional
        Decimal places of floating-point columns.

    Returns
    -------
    None
        The table is printed.

    Examples
    --------
    >>> import polars as pl, helpers
    >>> helpers.show(pl.DataFrame({"model": ["a long model name"], "accuracy": [0.52381]}),
    ...              decimals=3)
    ┌───────────────────┬──────────┐
    │ model             ┆ accuracy │
    │ ---               ┆ ---      │
    │ str               ┆ f64      │
    ╞═══════════════════╪══════════╡
    │ a long model name ┆ 0.524    │
    └───────────────────┴──────────┘
    """
    import polars as pl

    shown = frame if rows is None else frame.head(rows)
    texts = [
        len(v)
        for name, dtype in shown.schema.items()
        if dtype == pl.String
        for v in shown[name].drop_nulls().to_list()
    ]
    options = {
        "tbl_rows": max(shown.height, 1),
        "tbl_cols": max(shown.width, 1),
        "tbl_width_chars": 10_000,  # never wrapped nor cut: a notebook's output scrolls
        "fmt_str_lengths": max([*texts, 8]),
        "tbl_hide_dataframe_shape": True,
    }
    if decimals is not None:
        options["float_precision"] = decimals
    with pl.Config(**options):
        print(shown)


__all__ = [
    "DataError",
    "field",
    "figure",
    "load",
    "long_view",
    "names",
    "resource",
    "setup",
    "show",
    "versions",
    "watch",
]
