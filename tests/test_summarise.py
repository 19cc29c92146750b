"""helpers.runs.summarise: progress shown where someone watches, interval widths said per benchmark."""

from __future__ import annotations

import sys

import polars as pl

import helpers
from helpers.runs import summarise


def test_progress_shows_on_a_terminal_or_in_a_notebook(monkeypatch):
    monkeypatch.delitem(sys.modules, "ipykernel", raising=False)
    monkeypatch.setattr(sys.stderr, "isatty", lambda: False)
    with summarise.progress(10, "x") as bar:
        assert bar.disable  # CI, nbval's pipe, a redirected log: nothing
        bar.update(10)
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True)
    with summarise.progress(10, "x") as bar:
        assert not bar.disable and bar.delay == 1.0 and bar.unit == " rows"
    monkeypatch.setattr(sys.stderr, "isatty", lambda: False)
    monkeypatch.setitem(sys.modules, "ipykernel", object())
    with summarise.progress(10, "x") as bar:
        assert not bar.disable  # a notebook kernel: shown once the work takes a second


def test_interval_lines_count_problems_or_say_why_not():
    table = pl.DataFrame(
        {
            "benchmark": ["AIME24", "AIME24", "all"],
            "problems": [30, 30, 30],
            "accuracy": [0.3, 0.3, 0.3],
        }
    )
    lo, hi = helpers.stats.wilson_interval(9, 30)
    assert summarise.interval_lines(table) == [
        f"AIME24: 30 problems, accuracy ~30%, 95% interval +/-{(hi - lo) / 2 * 100:.1f} points"
    ]
    sizeless = table.with_columns(problems=pl.lit(None, pl.Int64))
    assert summarise.interval_lines(sizeless)[0].startswith("no benchmark size known")
    assert summarise.interval_lines(table.drop("problems")) == [
        "this input has no per-problem counts, so no interval"
    ]
