"""The examples in the package's docstrings run and give what they say (numpy-doc style, one
runnable example on the public functions a notebook calls)."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import helpers

# modules that import optional or heavy engines only when used are imported all the same here:
# importing a module of the package must never need more than the base install
MODULES = sorted(
    m.name
    for m in pkgutil.walk_packages(helpers.__path__, "helpers.")
    if m.name != "helpers.__main__"
)


def test_docstring_examples_run():
    attempted, failed = 0, []
    for name in ["helpers", *MODULES]:
        result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
        attempted += result.attempted
        if result.failed:
            failed.append(name)
    assert failed == []
    assert attempted >= 10  # the examples above exist: a docstring losing one is noticed


def test_the_readme_map_names_every_module_and_only_what_exists():
    """README's "What is where" names each module of the package (by path, or by file name in
    its folder's row) and every path it names is in the tree."""
    import re

    from helpers.paths import ROOT

    readme = (ROOT / "README.md").read_text()
    section = readme.split("## What is where", 1)[1].split("\n## ", 1)[0]
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
