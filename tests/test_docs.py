"""The examples in the package's docstrings run and give what they say (numpy-doc style, one
runnable example on the public functions a notebook calls)."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import helpers

# modules that import optional or heavy engines only when used are imported all the same here:
# importing a module of the package must never need more than the base install
MODULES = sorted(
    m.name
    for m in pkgutil.walk_packages(helpers.__path__, "helpers.")
    if m.name != "helpers.__main__"
)


@pytest.mark.parametrize("name", ["helpers", *MODULES])
def test_each_module_imports_and_its_examples_run(name):
    """Each module imports with the base install, and the examples in its docstrings (where
    it has any) give what they say."""
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.failed == 0


def test_the_docstrings_keep_their_examples():
    """The examples exist (a module with none passes the test above): a docstring losing them
    is noticed."""
    finder = doctest.DocTestFinder()
    found = sum(
        len(test.examples)
        for name in ["helpers", *MODULES]
        for test in finder.find(importlib.import_module(name))
    )
    assert found >= 10


def test_the_architecture_map_names_every_module_and_only_what_exists():
    """docs/architecture.md ("What is where") names each module of the package (by path, or by
    file name in its folder's row) and every path it names is in the tree."""
    import re

    from helpers.paths import ROOT

    section = (ROOT / "docs" / "architecture.md").read_text()
    unnamed = [
        str(p.relative_to(ROOT))
        for p in sorted((ROOT / "helpers").rglob("*.py"))
        if p.name != "__init__.py"
        and str(p.relative_to(ROOT)) not in section
        and f"`{p.name}`" not in section
    ]
    assert unnamed == []
    named = re.findall(r"`((?:helpers|tests|benchmarks|notebooks|data)/[\w./-]*)`", section)
    assert len(named) > 10
    assert [n for n in named if not (ROOT / n).exists()] == []


def _links(page):
    """Every link's target in a markdown page, as markdown-it reads it (not in code)."""
    from markdown_it import MarkdownIt

    md = MarkdownIt("commonmark").enable("table")
    return [
        str(child.attrGet("href"))
        for token in md.parse(page.read_text())
        if token.type == "inline"
        for child in token.children or []
        if child.type == "link_open"
    ]


def _anchors(page):
    """The anchors of a markdown page's headings, as GitHub (and the report) make them."""
    from markdown_it import MarkdownIt

    from helpers.render import site

    tokens = MarkdownIt("commonmark").enable("table").parse(page.read_text())
    taken: dict[str, int] = {}
    return {
        site.slug("".join(c.content for c in tokens[i + 1].children or []), taken)
        for i, token in enumerate(tokens)
        if token.type == "heading_open"
    }


def test_the_readme_is_short_and_every_link_of_readme_and_docs_leads_somewhere():
    """README.md stays a page a newcomer reads to the end (at most 300 lines), links every docs
    page, and every relative link in README.md and docs/*.md names a file that exists (and a
    heading that exists, where it names one)."""
    import re

    from helpers.paths import ROOT

    readme = ROOT / "README.md"
    assert len(readme.read_text().splitlines()) <= 300
    docs = sorted((ROOT / "docs").glob("*.md"))
    assert {p.name for p in docs} >= {"README.md", "verdict.md", "formats.md", "architecture.md"}
    linked = {(ROOT / h.partition("#")[0]).resolve() for h in _links(readme)}
    assert [p.name for p in docs if p.resolve() not in linked] == []
    broken, checked = [], 0
    for page in [readme, *docs]:
        for href in _links(page):
            if re.match(r"^[a-zA-Z][a-zA-Z0-9+.-]*:|^//", href):
                continue  # a web address
            path, _, anchor = href.partition("#")
            target = (page.parent / path).resolve() if path else page
            checked += 1
            if not target.exists():
                broken.append(f"{page.name}: {href}")
            elif anchor and target.suffix == ".md" and anchor not in _anchors(target):
                broken.append(f"{page.name}: {href} (no such heading)")
    assert broken == []
    assert checked > 20


def test_docs_pages_are_written_into_the_report_linked_and_escaped(tmp_path):
    """site.build writes each docs/*.md as site/docs/<name>.html (README.md as index.html),
    links each from the report's index, points links between pages at the .html pages, keeps
    only the text of a link to a file the site does not hold, and shows raw HTML as text."""
    import re

    from helpers.paths import ROOT
    from helpers.render import site

    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "README.md").write_text(
        "# The docs\n\n- [Formats](formats.md#a-table)\n- [Back](../README.md)\n"
    )
    (docs / "formats.md").write_text(
        "# Formats\n\n<script>alert(1)</script>\n\nA <img src=x onerror=alert(2)> cell.\n\n"
        "## A table\n\n| a | b |\n| --- | --- |\n| `x\\|y` | [code](../helpers/io.py) |\n\n"
        "[index](README.md), [web](https://example.org/), [here](#a-table), "
        "[bad](javascript:alert(3))\n"
    )
    out = site.build([], out=tmp_path / "site", docs=docs)
    index = (out / "index.html").read_text()
    assert "href='docs/index.html'" in index and "href='docs/formats.html'" in index
    page = (out / "docs" / "formats.html").read_text()
    assert "<script>alert" not in page and "&lt;script&gt;alert(1)&lt;/script&gt;" in page
    assert "<img" not in page and "&lt;img src=x onerror=alert(2)&gt;" in page
    assert "javascript:" not in page.replace("[bad](javascript:alert(3))", "")
    assert '<h2 id="a-table">A table</h2>' in page and "<code>x|y</code>" in page
    assert '<a href="index.html">index</a>' in page
    assert '<a href="https://example.org/">web</a>' in page and '<a href="#a-table">' in page
    assert "<td>code</td>" in page  # a source file is not in the site: the text stays
    home = (out / "docs" / "index.html").read_text()
    assert '<a href="formats.html#a-table">Formats</a>' in home and "<li>Back</li>" in home
    assert "href='../index.html'" in home  # back to the report

    # the project's own pages: each written and linked, every link inside the site, no network
    out = site.build([], out=tmp_path / "real", docs=ROOT / "docs")
    index = (out / "index.html").read_text()
    for md in sorted((ROOT / "docs").glob("*.md")):
        name = site.doc_name(md)
        assert (out / "docs" / name).is_file()
        assert f"href='docs/{name}'" in index
    for page in sorted((out / "docs").glob("*.html")):
        text = page.read_text()
        for href in re.findall(r"href=[\"']([^\"']*)[\"']", text):
            if href.startswith(("https://", "http://")):
                continue
            path, _, anchor = href.partition("#")
            target = (page.parent / path) if path else page
            assert target.is_file(), (page.name, href)
            if anchor:
                assert f'id="{anchor}"' in target.read_text(), (page.name, href)
        assert not re.search(r"<(?:script|link|img|iframe)\b", text), page.name
