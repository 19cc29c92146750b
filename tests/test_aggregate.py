"""Aggregation: progress shows where someone watches, and nowhere else."""

from __future__ import annotations

import sys

from helpers.runs import summarise


def test_progress_shows_on_a_terminal_or_in_a_notebook(monkeypatch):
    monkeypatch.delitem(sys.modules, "ipykernel", raising=False)
    monkeypatch.setattr(sys.stderr, "isatty", lambda: False)
    with summarise.progress(10, "x") as bar:
        assert bar.disable  # CI, nbval's pipe, a redirected log: nothing
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True)
    with summarise.progress(10, "x") as bar:
        assert not bar.disable and bar.delay == 1.0 and bar.unit == " rows"
    monkeypatch.setattr(sys.stderr, "isatty", lambda: False)
    monkeypatch.setitem(sys.modules, "ipykernel", object())
    with summarise.progress(10, "x") as bar:
        assert not bar.disable  # a notebook kernel: shown once the work takes a second
