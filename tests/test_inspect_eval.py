"""Inspect AI's `.eval` logs, written by inspect-ai's own eval() with a mock model (from the
environment `make` gives it, .venv-writers): read as the JSON log of the same run is, and a
run that did not finish (cancelled, stopped by an error, killed mid-run) said to be partial in
`inspect`, the chart's subtitle, the CSV and `compare` (issue 41)."""

from __future__ import annotations

from pathlib import Path

import polars as pl
import pytest

from helpers.cli import main
from helpers.runs import readers
from helpers.runs.readers import detect


@pytest.fixture
def logs(inspect_logs) -> dict[str, Path]:
    return inspect_logs


def _csv(tmp_path: Path, log: Path) -> pl.DataFrame:
    out = tmp_path / f"{log.parent.name}.csv"
    assert main(["plot", str(log), "-o", str(out)]) == 0
    return pl.read_csv(out)


def test_an_eval_log_reads_as_the_json_log_of_the_same_run(logs, tmp_path):
    """Six questions, three answered right: the .eval (Zstandard-compressed zip members) and
    the JSON log give the same table, 50% over 6 problems."""
    assert detect(logs["eval"]) == "inspect" and detect(logs["json"]) == "inspect"
    from_eval, from_json = _csv(tmp_path, logs["eval"]), _csv(tmp_path, logs["json"])
    assert from_eval.drop("file").equals(from_json.drop("file"))
    row = from_eval.filter(pl.col("file") == "all").row(0, named=True)
    assert (row["problems"], row["accuracy"]) == (6, 0.5)
    assert "status" not in from_eval.columns  # a finished run says nothing of it
    assert readers.load(logs["eval"]).ended is True


def test_epochs_are_samples_of_one_problem(logs, tmp_path):
    row = _csv(tmp_path, logs["epochs"]).filter(pl.col("file") == "all").row(0, named=True)
    assert (row["problems"], row["samples_per_problem"], row["accuracy"]) == (6, 2, 0.5)


def test_the_decoding_settings_reach_the_caption(logs, capsys):
    """Issue 44: the settings the eval ran with (Inspect writes eval()'s into the log's plan)
    are read and named in the comparison's caption; a log that gives none is said to."""
    assert readers.load(logs["epochs"]).decoding == {
        "temperature": 0.6, "top_p": 0.95, "max_tokens": 512,
    }  # fmt: skip
    assert readers.load(logs["eval"]).decoding == {}
    from helpers.runs.compare import compare

    caption = compare([("greedy", logs["eval"]), ("sampled", logs["epochs"])]).caption()
    assert (
        "decoding: sampled temperature 0.6, top-p 0.95, at most 512 tokens; not in the logs "
        "of greedy" in caption
    )


@pytest.mark.parametrize(
    ("kind", "status"),
    [("cancelled", "cancelled"), ("error", "error"), ("killed", "started")],
)
def test_a_run_that_did_not_finish_is_said_to_be_partial(logs, tmp_path, capsys, kind, status):
    """The completed samples' accuracy is read (three right answers: 100%), and the status
    with how many samples of the six planned is in the CSV, the chart's subtitle and
    `inspect`; never a whole score."""
    table = _csv(tmp_path, logs[kind])
    assert table["status"].str.starts_with(f"{status}: ").all()
    assert table["status"].str.ends_with("of 6 planned").all()
    done = int(table["status"][0].split(": ")[1].split()[0])
    assert 1 <= done < 6 and table.filter(pl.col("file") == "all")["problems"].item() == done
    # a cancelled or failed run ended; one killed while it ran says "started": not ended
    assert readers.load(logs[kind]).ended is (status != "started")
    assert main(["inspect", str(logs[kind])]) == 0
    assert f"the run did not finish ({status}: {done} samples of 6 planned)" in (
        capsys.readouterr().out
    )
    from helpers.runs.choose import chart_for

    chart, _ = chart_for([logs[kind]])
    subtitle = chart.to_dict()["title"]["subtitle"]
    assert any("did not finish" in line and "partial score" in line for line in subtitle)


def test_compare_says_which_run_did_not_finish(logs, tmp_path, capsys):
    out = tmp_path / "d.csv"
    args = ["compare", f"whole={logs['eval']}", f"stopped={logs['cancelled']}", "-o", str(out)]
    assert main(args) == 0
    printed = capsys.readouterr().out
    assert "stopped did not finish (cancelled: " in printed and "a partial score" in printed
    row = pl.read_csv(out).row(0, named=True)
    assert row["status_a"] is None and row["status_b"].startswith("cancelled: ")
