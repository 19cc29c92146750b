"""helpers.runs.summarise: progress shown where someone watches, interval widths said per benchmark."""

from __future__ import annotations

import sys
from pathlib import Path

import polars as pl
import pytest

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


def _samples(**columns) -> pl.DataFrame:
    rows = {
        "step": [0, 0, 0, 0, 10, 10],
        "benchmark": ["m"] * 6,
        "problem_id": [2, 2, 10, 10, 2, 10],
        "sample_id": [0, 1, 0, 1, 0, 0],
        "correct": [True, False, True, True, False, True],
        "response_tokens": [100] * 6,
    }
    return pl.DataFrame({**rows, **columns})


def test_problem_counts_of_several_logs_at_once_each_in_order(tmp_path):
    """Several logs counted side by side give each log's own counts, in the order of benchmark,
    step and problem id as text ("10" before "2"), a log of scores only none."""
    _samples().write_parquet(tmp_path / "a.parquet")
    _samples(correct=[False] * 6).with_columns(
        pl.col("benchmark").cast(pl.Categorical)
    ).write_parquet(tmp_path / "b.parquet")
    (tmp_path / "scores.csv").write_text("step,benchmark,accuracy\n0,m,0.5\n")
    paths = [tmp_path / "a.parquet", tmp_path / "scores.csv", tmp_path / "b.parquet"]
    (a, _), (none, scores), (b, _) = summarise.problem_counts(paths, None, {})
    assert none is None and scores.scores is not None
    assert a.select("step", "problem_id", "n", "c").rows() == [
        (0, 10, 2, 2),
        (0, 2, 2, 1),
        (10, 10, 1, 1),
        (10, 2, 1, 0),
    ]
    assert b["benchmark"].dtype == pl.String and b["c"].to_list() == [0, 0, 0, 0]
    assert b.select("step", "problem_id").equals(a.select("step", "problem_id"))


def test_problem_counts_name_the_log_that_cannot_be_counted(tmp_path, monkeypatch):
    """When counting the logs together fails, each is counted alone to name the one that
    failed (here a log whose `correct` column holds text once read)."""
    from helpers.errors import DataError
    from helpers.runs.readers import SampleLog

    good, bad = tmp_path / "good.parquet", tmp_path / "bad.parquet"
    _samples().write_parquet(good)
    _samples().write_parquet(bad)
    real = summarise.load

    def load(path, **options):
        loaded = real(path, **options)
        if Path(path).name == "bad.parquet":  # counting fails: `correct` turned to text
            samples = loaded.samples.with_columns(correct=pl.col("benchmark").cast(pl.Int64))
            return SampleLog(loaded.path, loaded.format, samples=samples)
        return loaded

    monkeypatch.setattr(summarise, "load", load)
    with pytest.raises(DataError) as e:
        summarise.problem_counts([good, bad], None, {})
    assert str(e.value).startswith(str(bad))
