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
