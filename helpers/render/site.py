# ruff: noqa: E402 - altair and nbformat are imported after the IRI grammar is deferred
"""The static report: site/index.html, one page per notebook, every figure as PNG, SVG and
self-contained interactive HTML. Nothing in it loads from the network.

The site is built in a temporary folder beside the target and swapped in by renaming, so an
interrupted build leaves the previous site whole and a rebuild replaces it cleanly.
"""

from __future__ import annotations

import html
import os
import re
import shutil
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from helpers.render.lazy import defer_iri_grammar

defer_iri_grammar()  # before altair imports jsonschema: start-up only, no behaviour change

import altair as alt
import nbformat
from nbconvert import HTMLExporter

from helpers.paths import NOTEBOOKS, SITE
from helpers.render import export

CSS = """
body { font-family: "Liberation Sans", Helvetica, Arial, sans-serif; max-width: 1100px;
       margin: 2em auto; padding: 0 1em; color: #222; line-height: 1.45; }
a { color: #2f5d8a; } code, pre { font-family: "Liberation Mono", monospace; font-size: 90%; }
pre { background: #f6f6f6; padding: .6em; overflow-x: auto; }
table { border-collapse: collapse; font-size: 90%; }
td, th { border: 1px solid #ddd; padding: 2px 6px; }
.figures li { margin: .2em 0; } img { max-width: 100%; }
.jp-InputPrompt, .jp-OutputPrompt { display: none; }
.jp-Cell { margin: 1em 0; }
"""


@dataclass(frozen=True)
class Figure:
    notebook: str
    number: int
    title: str
    spec: dict

    @property
    def stem(self) -> str:
        slug = re.sub(r"[^a-z0-9]+", "-", self.title.lower()).strip("-")[:48] or "chart"
        return f"{self.notebook}-fig{self.number}-{slug}"


def figures(notebook: Path) -> list[Figure]:
    """Every chart output of an executed notebook, in order."""
    nb = nbformat.read(notebook, as_version=4)
    found = []
    for cell in nb.cells:
        for output in cell.get("outputs", []):
            spec = output.get("data", {}).get(export.VEGALITE_MIME)
            if spec is not None:  # labelled for JupyterLab's Vega-Lite 5; drawn here by 6
                spec = {**spec, "$schema": alt.SCHEMA_URL}
                found.append(Figure(notebook.stem, len(found) + 1, export.spec_title(spec), spec))
    return found


def _page(title: str, body: str) -> str:
    return (
        "<!DOCTYPE html>\n<html lang='en'><head><meta charset='utf-8'>"
        f"<title>{html.escape(title)}</title><style>{CSS}</style></head>"
        f"<body>{body}</body></html>\n"
    )


def _figure_list(figs: list[Figure], prefix: str) -> str:
    items = "".join(
        f"<li>{html.escape(f.title or f.stem)}: "
        f"<a href='{prefix}{f.stem}.html'>interactive</a> · "
        f"<a href='{prefix}{f.stem}.png'>PNG</a> · "
        f"<a href='{prefix}{f.stem}.svg'>SVG</a></li>"
        for f in figs
    )
    return f"<ul class='figures'>{items}</ul>"


@cache
def _exporter() -> HTMLExporter:
    """One exporter for every page: it compiles its templates once (0.1 s a notebook)."""
    return HTMLExporter(
        template_name="basic", exclude_input_prompt=True, exclude_output_prompt=True
    )


def _notebook_body(notebook: Path) -> str:
    body, _ = _exporter().from_filename(str(notebook))
    return body


def build(notebooks: list[Path], out: Path = SITE) -> Path:
    """Write the whole site for these executed notebooks; returns the site folder."""
    out = Path(out)
    for stale in out.parent.glob(f".{out.name}.*"):
        shutil.rmtree(stale, ignore_errors=True)
    tmp = out.parent / f".{out.name}.building-{os.getpid()}"
    (tmp / "figures").mkdir(parents=True)
    try:
        entries = []
        for notebook in sorted(Path(n) for n in notebooks):
            figs = figures(notebook)
            for f in figs:
                export.save_each_format(f.spec, tmp / "figures" / f.stem)
            body = (
                f"<p><a href='index.html'>All notebooks</a></p>"
                f"<h2>Figures in this notebook</h2>{_figure_list(figs, 'figures/')}"
                f"<hr>{_notebook_body(notebook)}"
            )
            (tmp / f"{notebook.stem}.html").write_text(_page(notebook.stem, body), "utf-8")
            entries.append((notebook.stem, figs))
        index = "<h1>reasoning-figures: report</h1>" + "".join(
            f"<h2><a href='{stem}.html'>{html.escape(stem)}</a></h2>"
            + _figure_list(figs, "figures/")
            for stem, figs in entries
        )
        (tmp / "index.html").write_text(_page("reasoning-figures", index), encoding="utf-8")
        old = out.parent / f".{out.name}.old-{os.getpid()}"
        if out.exists():
            out.rename(old)
        tmp.rename(out)
        shutil.rmtree(old, ignore_errors=True)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    return out


def main() -> int:
    site = build(sorted(NOTEBOOKS.glob("*.ipynb")))
    print(f"report written to {site / 'index.html'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
