"""The benchmark's three engines answer the same question: same rows, same numbers."""

from __future__ import annotations

import pytest

from benchmarks import aggregate


def test_engines_agree_on_a_small_synthetic_log(tmp_path):
    path = tmp_path / "samples.parquet"
    aggregate.make_data(60_000, path, seed=3)
    aggregate.agree(path)  # raises if any engine differs from polars anywhere


def test_agreement_check_can_fail(tmp_path, monkeypatch):
    path = tmp_path / "samples.parquet"
    aggregate.make_data(60_000, path, seed=3)
    real = aggregate.ENGINES["pandas"]
    monkeypatch.setitem(
        aggregate.ENGINES,
        "pandas",
        lambda p: real(p).with_columns(accuracy=aggregate.pl.col("accuracy") + 0.01),
    )
    with pytest.raises(AssertionError, match="pandas disagrees"):
        aggregate.agree(path)
