# ruff: noqa: E402 - altair and nbformat are imported after the IRI grammar is deferred
"""The static report: site/index.html, one page per notebook, every figure as PNG, SVG and
self-contained interactive HTML, and each page of docs/ as HTML (site/docs/). Nothing in it
loads from the network.

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

from helpers.paths import NOTEBOOKS, ROOT, SITE
from helpers.render import export

DOCS = ROOT / "docs"

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
.doc td, .doc th { vertical-align: top; text-align: left; }
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
        f"<a href='{prefix}{f.stem}.svg'>SVG</a> · "
        f"<a href='{prefix}{f.stem}.pdf'>PDF</a></li>"
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


# ---- the docs/ pages --------------------------------------------------------------------------

_SCHEME = re.compile(r"^(?:[a-zA-Z][a-zA-Z0-9+.-]*:|//)")


def doc_name(md: Path) -> str:
    """A docs page's file name in site/docs/: README.md, the folder's index, is index.html."""
    return "index.html" if md.name == "README.md" else f"{md.stem}.html"


def slug(text: str, taken: dict[str, int]) -> str:
    """A heading's anchor as GitHub makes it (lower case, punctuation dropped, spaces as
    hyphens, -1, -2, ... on a repeat), so a link to `page.md#anchor` works on both."""
    base = re.sub(r"[^\w\- ]", "", text.strip().lower()).replace(" ", "-")
    n = taken.get(base, 0)
    taken[base] = n + 1
    return f"{base}-{n}" if n else base


def _href(href: str, page: Path, pages: set[Path]) -> str | None:
    """Where a link of a docs page points in the site: another docs page's .html (with its
    anchor), an anchor or a web address as written; None for a file the site does not hold."""
    if href.startswith("#") or _SCHEME.match(href):
        return href
    path, _, anchor = href.partition("#")
    target = (page.parent / path).resolve()
    if target not in pages:
        return None
    return doc_name(target) + (f"#{anchor}" if anchor else "")


def _doc_html(page: Path, pages: set[Path]) -> tuple[str, str]:
    """(title, HTML body) of a docs page. Raw HTML in the markdown is shown as text, never run:
    markdown-it with `html` off escapes it. Links to other pages go to their .html; a link to a
    file the site does not hold (source code, the project README) keeps its text only."""
    # markdown-it-py is not among the declared dependencies: it comes with the `test` extra
    # (frictionless -> typer -> rich), which `make install` installs beside `lab`. Imported
    # here, where the report is built, so that importing this module never needs it.
    from markdown_it import MarkdownIt

    md = MarkdownIt("commonmark", {"html": False}).enable("table")
    tokens = md.parse(page.read_text(encoding="utf-8"))
    titles, taken = [], {}
    for i, token in enumerate(tokens):
        if token.type == "heading_open":
            text = "".join(c.content for c in tokens[i + 1].children or [])
            token.attrSet("id", slug(text, taken))
            if token.tag == "h1":
                titles.append(text)
        if token.type != "inline" or not token.children:
            continue
        kept, links = [], []  # links: for each open link, whether it was kept
        for child in token.children:
            if child.type == "link_open":
                href = _href(str(child.attrGet("href") or ""), page, pages)
                links.append(href is not None)
                if href is None:
                    continue
                child.attrSet("href", href)
            elif child.type == "link_close" and not links.pop():
                continue
            kept.append(child)
        token.children = kept
    return (titles or [page.stem])[0], md.renderer.render(tokens, md.options, {})


def write_docs(docs: Path, out: Path) -> list[tuple[str, str]]:
    """Write each docs/*.md as out/<name>.html; returns (file name, title) of each, the
    folder's index first."""
    pages = sorted(Path(docs).glob("*.md"), key=lambda p: (p.name != "README.md", p.name))
    if not pages:
        return []
    out.mkdir(parents=True, exist_ok=True)
    known = {p.resolve() for p in pages}
    written = []
    for page in pages:
        title, body = _doc_html(page, known)
        nav = (
            "<p><a href='../index.html'>The report</a> · <a href='index.html'>Documentation</a></p>"
        )
        (out / doc_name(page)).write_text(
            _page(title, f"{nav}<div class='doc'>{body}</div>"), encoding="utf-8"
        )
        written.append((doc_name(page), title))
    return written


def build(notebooks: list[Path], out: Path = SITE, docs: Path = DOCS) -> Path:
    """Write the whole site for these executed notebooks, with the pages of `docs`; returns the
    site folder."""
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
        pages = write_docs(docs, tmp / "docs")
        docs_list = "".join(
            f"<li><a href='docs/{name}'>{html.escape(title)}</a></li>" for name, title in pages
        )
        index = (
            "<h1>reasoning-figures: report</h1>"
            + (
                "<p>Each notebook's page and figures, then the "
                "<a href='#documentation'>documentation</a>.</p>"
                if pages
                else ""
            )
            + "".join(
                f"<h2><a href='{stem}.html'>{html.escape(stem)}</a></h2>"
                + _figure_list(figs, "figures/")
                for stem, figs in entries
            )
            + (f"<h2 id='documentation'>Documentation</h2><ul>{docs_list}</ul>" if pages else "")
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
