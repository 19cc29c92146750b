"""Loaded before pytest's installed plugins (`-p` in pyproject's addopts): the test processes
start as the package's own do, with the IRI grammar deferred (`helpers.render.lazy`) before
nbval's plugin imports nbformat, and so jsonschema (0.9 s of each pytest process here)."""

from helpers.render.lazy import defer_iri_grammar

defer_iri_grammar()
