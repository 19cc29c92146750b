"""Start-up: keep work out of processes that never need it.

jsonschema (which altair imports) registers format checkers at import, and where the optional
`rfc3987-syntax` is installed (JupyterLab's dependencies bring it) it builds that package's IRI
grammars then: about 1.5 s of every process and notebook kernel that imports altair, spent for
the `iri` and `iri-reference` formats, which Vega-Lite's schema never uses. `defer_iri_grammar`
puts a stand-in under the module's name before jsonschema looks for it: jsonschema registers its
IRI checkers as always, and the real grammar loads on the first IRI actually checked, so every
validation gives the same answer as before.
"""

from __future__ import annotations

import importlib
import importlib.util
import sys
import types

NAME = "rfc3987_syntax"


class _Deferred(types.ModuleType):
    """Stands in for rfc3987_syntax until something uses it, then becomes it."""

    def __getattr__(self, attribute: str):
        if attribute.startswith("__"):  # the import system asks for __path__ and the like
            raise AttributeError(attribute)
        return getattr(_real(), attribute)


def _real() -> types.ModuleType:
    if isinstance(sys.modules.get(NAME), _Deferred):
        del sys.modules[NAME]
    return importlib.import_module(NAME)


def _is_valid_syntax(*args, **kwargs):
    return _real().is_valid_syntax(*args, **kwargs)


def defer_iri_grammar() -> None:
    """Defer rfc3987_syntax's grammar building to its first use (see the module's text). Does
    nothing where jsonschema is already imported or the package is not installed."""
    if "jsonschema" in sys.modules or NAME in sys.modules:
        return
    spec = importlib.util.find_spec(NAME)
    if spec is None:
        return
    stand_in = _Deferred(NAME, "deferred: loads on first use (helpers.render.lazy)")
    stand_in.__spec__ = spec  # importlib.util.find_spec still finds the installed package
    stand_in.is_valid_syntax = _is_valid_syntax
    sys.modules[NAME] = stand_in
