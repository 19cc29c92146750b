"""Every Eval Ever, the interchange schema for evaluation results: read from files written by
every-eval-ever's own Inspect converter (from Inspect logs written by inspect-ai; both from
.venv-writers), and written by `plot`/`compare -o results.json`, each file checked against
the schema every-eval-ever ships and read back to the same numbers (issue 41)."""

from __future__ import annotations

import json
import subprocess
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import polars as pl
import pytest

from helpers.cli import main
from helpers.runs import readers
from helpers.runs.readers.detect import detect
from tests.conftest import WRITERS, writer_env
from tests.realdata import CHECKPOINTS, SKY, SKY14

WRITER = Path(__file__).with_name("eee_writer.py")


def _run(tmp: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [WRITERS, WRITER, *args], env=writer_env(tmp), cwd=tmp, capture_output=True, text=True
    )


@pytest.fixture(scope="module")
def converted(inspect_logs, tmp_path_factory) -> dict[str, tuple[Path, Path]]:
    """(aggregate, samples) as every-eval-ever converts the finished Inspect runs: six
    questions, three right; once with one epoch, once with two (the two at once, each
    converter with a home of its own)."""
    out = tmp_path_factory.mktemp("eee")
    names = ("eval", "epochs")

    def convert(name: str) -> subprocess.CompletedProcess:
        home = out / f"home-{name}"
        home.mkdir()
        return _run(home, "convert", str(inspect_logs[name]), str(out / name))

    with ThreadPoolExecutor(len(names)) as pool:
        runs = dict(zip(names, pool.map(convert, names), strict=True))
    found = {}
    for name, done in runs.items():
        assert done.returncode == 0, done.stderr[-2000:]
        (aggregate,) = (out / name).rglob("*-*-*-*-*[0-9a-f].json")
        (samples,) = (out / name).rglob("*_samples.jsonl")
        found[name] = (aggregate, samples)
    return found


@pytest.mark.parametrize(("name", "k"), [("eval", 1), ("epochs", 2)])
def test_an_aggregate_reads_its_samples_and_agrees_with_them(converted, name, k, capsys):
    """The aggregate alone is read with the answers of the JSONL beside it (its sha256
    matching the aggregate's), checked against the score the aggregate states."""
    aggregate, samples = converted[name]
    assert detect(aggregate) == "eee-results" and detect(samples) == "eee-samples"
    run = readers.load(aggregate)
    table = run.samples.collect()
    assert table["problem_id"].n_unique() == 6 and table.height == 6 * k
    assert table["correct"].mean() == 0.5
    assert main(["inspect", str(aggregate)]) == 0
    said = capsys.readouterr().out
    assert f"answers from {samples.name}" in said and "stated result agrees" in said
    assert f"6 problems, {k} sample(s) per problem" in said


def test_an_aggregate_without_its_samples_gives_its_scores(converted, tmp_path):
    aggregate, samples = converted["eval"]
    alone = tmp_path / aggregate.name
    alone.write_bytes(aggregate.read_bytes())
    scores = readers.load(alone).scores
    assert scores.select("benchmark", "score", "problems").rows() == [("arithmetic", 0.5, 6)]
    changed = tmp_path / samples.name  # beside it, but not the file the aggregate names
    changed.write_text(samples.read_text().replace('"is_correct": true', '"is_correct": false'))
    run = readers.load(alone)
    assert run.samples is None and any("differs from the sha256" in n for n in run.notes)


def _validated(tmp: Path, files: list[Path]) -> list[dict]:
    done = _run(tmp, "validate", *map(str, files))
    assert done.returncode == 0, done.stdout + done.stderr[-2000:]
    return [json.loads(f.read_text()) for f in files]


def test_plot_writes_the_schema_and_reads_back_the_same_numbers(tmp_path):
    """A run of checkpoints: each step's accuracy and Wilson interval over its 30 problems,
    as the CSV gives them, valid in every-eval-ever's schema; read back, the same table."""
    out = tmp_path / "results.json"
    assert main(["plot", str(CHECKPOINTS), "-o", str(out)]) == 0
    (doc,) = _validated(tmp_path, [out])
    assert main(["plot", str(CHECKPOINTS), "-o", str(tmp_path / "c.csv")]) == 0
    csv = pl.read_csv(tmp_path / "c.csv").sort("step")
    results = doc["evaluation_results"]
    assert [int(r["score_details"]["details"]["step"]) for r in results] == csv["step"].to_list()
    for r, row in zip(results, csv.iter_rows(named=True), strict=True):
        score = r["score_details"]
        interval = score["uncertainty"]["confidence_interval"]
        assert score["score"] == pytest.approx(row["accuracy"], abs=1e-12)
        assert (interval["lower"], interval["upper"]) == pytest.approx(
            (row["lo"], row["hi"]), abs=1e-12
        )
        assert score["uncertainty"]["num_samples"] == row["problems"] == 30
    back = readers.load(out).scores.sort("step")
    assert back["step"].to_list() == csv["step"].to_list()
    assert back["score"].to_list() == pytest.approx(csv["accuracy"].to_list(), abs=1e-12)


def test_compare_writes_each_run_with_its_difference_from_the_baseline(tmp_path, capsys):
    out = tmp_path / "results.json"
    assert main(["compare", f"base={SKY}", f"new={SKY14}", "-o", str(out)]) == 0
    printed = capsys.readouterr().out
    files = [tmp_path / "results.base.json", tmp_path / "results.new.json"]
    assert f"wrote {files[0]}\nwrote {files[1]}\n" in printed and not out.exists()
    base, new = _validated(tmp_path, files)
    assert main(["compare", f"base={SKY}", f"new={SKY14}", "-o", str(tmp_path / "d.csv")]) == 0
    row = pl.read_csv(tmp_path / "d.csv").row(0, named=True)
    (result,) = new["evaluation_results"]
    details = result["score_details"]["details"]
    assert details["baseline"] == "base" and details["separable"] == "true"
    for key, column in (("difference", "difference"), ("difference_lower", "lo")):
        assert float(details[key]) == pytest.approx(row[column], abs=1e-11)
    assert result["score_details"]["score"] == pytest.approx(row["accuracy_b"])
    assert "baseline" not in base["evaluation_results"][0]["score_details"].get("details", {})
