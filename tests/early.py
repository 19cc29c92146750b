"""Loaded by pytest before its other plugins (`-p tests.early` in pyproject.toml): the IRI
grammar jsonschema builds at import (nbval's nbformat imports it) is deferred to its first use,
as the package defers it in its own processes (`helpers.render.lazy`): about 2 s less of each
pytest process, the same validations."""

from helpers.render.lazy import defer_iri_grammar

defer_iri_grammar()
