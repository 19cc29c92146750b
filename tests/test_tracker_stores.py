"""Trackers' SQLite stores and stores of several runs: MLflow's SQLite store written here by
MLflow itself (`mlflow.set_tracking_uri("sqlite:///...")`, offline: telemetry off, no server),
trackio's database written to trackio 0.43's schema and by trackio itself (from an environment
of its own, .venv-trackio, which make installs: trackio pins Pillow below 13, this project uses
13), and a TensorBoard log dir of real
runs, one folder each. Each is read back through `load`, `plot -o .csv`, `compare -o .csv`
and `inspect`, with the numbers logged; damaged, locked and newer-schema databases are one
error line; nothing is written beside a store."""

from __future__ import annotations

import functools
import json
import os
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import polars as pl
import pytest

from helpers import DataError
from helpers.cli import main
from helpers.runs import readers
from helpers.runs.readers.detect import detect
from helpers.runs.readers.wire import sqlite
from tests.realdata import REALDATA

from .conftest import ROOT

# what each run logs: math500 mean@4 and aime24 mean@16 at steps 0, 10, 20, 30 (verl's names,
# '@' written '_at_' as verl's MLflow logger does); grpo's aime24 is NaN at step 20, and two
# nested runs add its math500 at steps 40 and 50
STEPS = [0, 10, 20, 30]
MATH500 = {"grpo": [0.25, 0.375, 0.5, 0.625], "mel": [0.3125, 0.4375, 0.5625, 0.6875]}
AIME24 = {"grpo": [0.0625, 0.125, float("nan"), 0.1875], "mel": [0.125, 0.1875, 0.25, 0.3125]}
LENGTH = {"grpo": [900.0, 910.0, 920.0, 930.0], "mel": [800.0, 810.0, 820.0, 830.0]}
NESTED = [(40, 0.6875), (50, 0.75)]

MLFLOW_WRITER = f"""
import sys, mlflow
nan = float("nan")
mlflow.set_tracking_uri(sys.argv[1])
mlflow.set_experiment("rl-math")
math500, aime24, length = {MATH500!r}, {AIME24!r}, {LENGTH!r}
for name in ("grpo", "mel"):
    with mlflow.start_run(run_name=name):
        mlflow.log_params({{"lr": 1e-6, "n_samples": 4}})
        for i, step in enumerate({STEPS}):
            mlflow.log_metrics({{
                "val-core/math500/acc/mean_at_4": math500[name][i],
                "val-core/aime24/acc/mean_at_16": aime24[name][i],
                "response_length/mean": length[name][i],
            }}, step=step)
        if name == "grpo":
            for step, value in {NESTED}:
                with mlflow.start_run(run_name=f"eval-{{step}}", nested=True):
                    mlflow.log_metric("val-core/math500/acc/mean_at_4", value, step=step)
        else:  # mel stops on an error: MLflow marks it FAILED
            mlflow.end_run(status="FAILED")
with mlflow.start_run(run_name="deleted") as junk:
    mlflow.log_metric("val-core/math500/acc/mean_at_4", 0.5, step=0)
mlflow.delete_run(junk.info.run_id)
"""
OFFLINE = {"MLFLOW_DISABLE_TELEMETRY": "true", "DO_NOT_TRACK": "true", "HF_HUB_OFFLINE": "1"}


def _one_error_line(capsys, path) -> str:
    """What `inspect` says of a store it cannot read: one error line, naming the store."""
    capsys.readouterr()
    assert main(["inspect", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith(f"error: {path}")
    return err


def _altered(target: Path, statements: list[str], source: Path | None = None) -> Path:
    """`target`: a copy of the SQLite database `source` (a new one without it) after the SQL
    `statements`."""
    if source is not None:
        shutil.copyfile(source, target)
    with sqlite3.connect(target) as db:
        for statement in statements:
            db.execute(statement)
    db.close()  # the context manager commits, and leaves the connection open
    return target


def _snapshot(folder: Path) -> dict:
    return {p: (p.stat().st_size, p.stat().st_mtime_ns) for p in folder.rglob("*")}


@pytest.fixture(scope="module")
def mlflow_db(tmp_path_factory) -> Path:
    """An MLflow SQLite store written by MLflow: runs grpo (with two nested runs) and mel in
    experiment rl-math, and a deleted run."""
    base = tmp_path_factory.mktemp("mlflow_sqlite")
    db = base / "store" / "mlflow.db"
    db.parent.mkdir()
    done = subprocess.run(
        [sys.executable, "-c", MLFLOW_WRITER, f"sqlite:///{db}"], cwd=base, capture_output=True,
        text=True, timeout=300, env={**os.environ, **OFFLINE},
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-2000:]
    return db


# trackio 0.43.0's sqlite_storage.py: the tables `init_db` leaves (metrics and configs as its
# schema version 2 defines them), WAL journal, and rows as `bulk_log` and `store_config`
# insert them (the metrics one JSON object, NaN and infinities as strings)
TRACKIO_SCHEMA = """
CREATE TABLE metrics (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    run_id TEXT NOT NULL,
    timestamp TEXT NOT NULL,
    run_name TEXT NOT NULL,
    step INTEGER NOT NULL,
    metrics TEXT NOT NULL,
    log_id TEXT,
    space_id TEXT
);
CREATE TABLE configs (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    run_id TEXT NOT NULL,
    run_name TEXT NOT NULL,
    config TEXT NOT NULL,
    created_at TEXT NOT NULL,
    UNIQUE(run_id)
);
CREATE TABLE project_metadata (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE INDEX idx_metrics_run_step ON metrics(run_id, step);
"""


def _trackio_value(value):
    """trackio's `serialize_values`: NaN and the infinities as strings."""
    if isinstance(value, float) and value != value:
        return "NaN"
    if value in (float("inf"), float("-inf")):
        return "Infinity" if value > 0 else "-Infinity"
    if isinstance(value, dict):
        return {k: _trackio_value(v) for k, v in value.items()}
    return value


def _trackio_rows(run: str, run_id: str, steps, start: int = 0) -> list[tuple]:
    rows = []
    for i, step in enumerate(steps, start):
        logged = {
            "val-core/math500/acc/mean@4": MATH500[run][i],
            "val-core/aime24/acc/mean@16": AIME24[run][i],
            "response_length": {"mean": LENGTH[run][i]},  # nested: read as response_length/mean
            "samples": {"_type": "trackio.table", "data": [[1, 2]]},  # a table: left out
        }
        blob = json.dumps(_trackio_value(logged), separators=(",", ":")).encode()
        rows.append((f"2026-11-24T08:00:{i:02d}+00:00", run_id, run, step, blob, f"log-{i}"))
    return rows


def _write_trackio(db: Path, *, close: bool = True) -> sqlite3.Connection | None:
    connection = sqlite3.connect(db)
    connection.execute("PRAGMA journal_mode = WAL")
    connection.executescript(TRACKIO_SCHEMA)
    connection.execute("PRAGMA user_version = 2")
    for run in ("grpo", "mel"):
        connection.executemany(
            "INSERT INTO metrics (timestamp, run_id, run_name, step, metrics, log_id) "
            "VALUES (?, ?, ?, ?, ?, ?)",
            _trackio_rows(run, f"id-{run}", STEPS),
        )
        config = {"lr": 1e-6, "_Username": None, "_Created": "2026-11-24", "_Group": None}
        connection.execute(
            "INSERT INTO configs (run_id, run_name, config, created_at) VALUES (?, ?, ?, ?)",
            (f"id-{run}", run, json.dumps(config).encode(), "2026-11-24"),
        )
    connection.commit()
    if close:
        connection.close()
        return None
    return connection


@pytest.fixture
def trackio_db(tmp_path) -> Path:
    """A trackio project database (rl-math) with runs grpo and mel, closed (no -wal file)."""
    db = tmp_path / "trackio" / "rl-math.db"
    db.parent.mkdir()
    _write_trackio(db)
    assert sorted(p.name for p in db.parent.iterdir()) == ["rl-math.db"]
    return db


def _expected(run: str, values: dict, steps=STEPS) -> list[tuple[int, float]]:
    return [(s, v) for s, v in zip(steps, values[run], strict=True) if v == v]


# ---- MLflow's SQLite store ---------------------------------------------------------------------


def test_mlflow_sqlite_store_is_read_as_logged(mlflow_db):
    """Two top-level runs, each as logged; grpo's nested runs stitched into its curve at steps
    40 and 50; its NaN a missing value; verl's '_at_' read as '@' (so mean@4 gives k = 4); the
    deleted run left out; nothing written beside the store."""
    before = _snapshot(mlflow_db.parent)
    assert detect(mlflow_db) == "mlflow-sqlite"
    grpo, mel = readers.load_runs(mlflow_db)
    assert (grpo.run, mel.run, grpo.format) == ("grpo", "mel", "mlflow-sqlite")
    math500 = grpo.scores.filter(benchmark="math500").sort("step")
    assert math500.select("step", "score").rows() == _expected("grpo", MATH500) + NESTED
    assert math500["k"].unique().to_list() == [4] and math500["problems"][0] == 500
    aime = grpo.scores.filter(benchmark="aime24").sort("step")
    assert aime.select("step", "score").rows() == _expected("grpo", AIME24)  # no step 20
    assert aime["k"].unique().to_list() == [16] and aime["problems"][0] == 30
    assert mel.scores.filter(benchmark="math500").sort("step").select("step", "score").rows() == (
        _expected("mel", MATH500)
    )
    assert mel.tokens.sort("step").select("step", "tokens").rows() == _expected("mel", LENGTH)
    notes = "\n".join(grpo.notes)
    assert "run 'grpo'; 2 nested runs stitched by step; '_at_' read as '@' in 2 keys" in notes
    assert "experiment 'rl-math'" in notes and "params (2): lr=1e-06, n_samples=4" in notes
    assert "1 deleted run(s) in the store left out" in notes
    # how each run ended, as MLflow wrote it: grpo FINISHED, mel FAILED (said so)
    assert (grpo.ended, mel.ended) == (True, True)
    assert "the run did not finish (MLflow status FAILED)" in mel.notes
    assert not any("did not finish" in n for n in grpo.notes)
    running = _altered(
        mlflow_db.parent / "running.db", ["UPDATE runs SET status = 'RUNNING'"], mlflow_db
    )
    assert [r.ended for r in readers.load_runs(running)] == [False, False]
    running.unlink()
    one = readers.load(f"{mlflow_db}#mel")
    assert one.scores.equals(mel.scores) and one.run == "mel"
    with pytest.raises(DataError, match=r"the store holds 2 runs \(grpo, mel\)"):
        readers.load(mlflow_db)
    assert _snapshot(mlflow_db.parent) == before


def test_an_mlflow_file_store_mlflow_writes_is_read_as_logged(tmp_path):
    """The same runs written by MLflow to its file store (mlruns/, in maintenance mode since
    MLflow 3.7: MLFLOW_ALLOW_FILE_STORE lets it write one): each run as logged, grpo's nested
    runs stitched at steps 40 and 50, the deleted run (in .trash) left out."""
    store = tmp_path / "mlruns"
    done = subprocess.run(
        [sys.executable, "-c", MLFLOW_WRITER, store.as_uri()], cwd=tmp_path, capture_output=True,
        text=True, timeout=300, env={**os.environ, **OFFLINE, "MLFLOW_ALLOW_FILE_STORE": "true"},
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-2000:]
    assert detect(store) == "mlflow"
    runs = {r.run: r for r in readers.load_runs(store)}  # in the order of the runs' folders
    assert sorted(runs) == ["grpo", "mel"]  # the deleted run left out, and said so
    grpo, mel = runs["grpo"], runs["mel"]
    assert any(
        "1 deleted run(s) in the store left out" in n for r in runs.values() for n in r.notes
    )
    math500 = grpo.scores.filter(benchmark="math500").sort("step")
    assert math500.select("step", "score").rows() == _expected("grpo", MATH500) + NESTED
    assert mel.tokens.sort("step").select("step", "tokens").rows() == _expected("mel", LENGTH)
    # meta.yaml's status (MLflow's RunStatus number): grpo FINISHED, mel FAILED
    assert (grpo.ended, mel.ended) == (True, True)
    assert "the run did not finish (MLflow status FAILED)" in mel.notes


def test_mlflow_sqlite_store_through_the_command_line(mlflow_db, tmp_path, capsys):
    """`plot` draws both runs (the .csv: a row per run, benchmark and step, as logged);
    PATH#RUN is one run, as a run alone is drawn; `inspect` lists the runs under PATH#RUN;
    `compare PATH --baseline grpo` compares mel with grpo at the steps both logged (math500
    +6.25 points at 0, 10, 20, 30; aime24 at 0, 10 and 30: grpo's step 20 is NaN), and so
    does NAME=PATH#RUN twice."""
    out = tmp_path / "runs.csv"
    assert main(["plot", str(mlflow_db), "-o", str(out)]) == 0
    table = pl.read_csv(out)
    assert table.columns[:3] == ["run", "step", "benchmark"]
    for run in ("grpo", "mel"):
        rows = table.filter(run=run, benchmark="math500").sort("step")
        nested = NESTED if run == "grpo" else []
        assert rows.select("step", "score").rows() == _expected(run, MATH500) + nested
        aime = table.filter(run=run, benchmark="aime24").sort("step")
        assert aime.select("step", "score").rows() == _expected(run, AIME24)
    chart = tmp_path / "runs.html"
    assert main(["plot", str(mlflow_db), "-o", str(chart)]) == 0
    assert chart.stat().st_size > 10_000
    single = tmp_path / "grpo.csv"
    assert main(["plot", f"{mlflow_db}#grpo", "-o", str(single)]) == 0
    alone = pl.read_csv(single)
    assert alone.columns[0] == "step" and "run" not in alone.columns
    assert alone.equals(table.filter(run="grpo").drop("run").select(alone.columns))
    capsys.readouterr()
    assert main(["inspect", str(mlflow_db)]) == 0
    text = capsys.readouterr().out
    assert text.startswith(f"{mlflow_db}: 2 runs (mlflow-sqlite): grpo, mel\n")
    assert f"{mlflow_db}#mel: mlflow-sqlite" in text
    assert "  math500: validation, 500 problems, mean@4, 6 steps (0-50)" in text
    assert "  aime24: validation, 30 problems, mean@16, 3 steps (0-30)" in text
    differences = tmp_path / "d.csv"
    args = ["compare", str(mlflow_db), "--baseline", "grpo", "-o", str(differences)]
    assert main(args) == 0
    d = pl.read_csv(differences).sort("benchmark", "step")
    assert set(d["comparison"]) == {"mel vs grpo"}
    math500 = d.filter(benchmark="math500")
    assert math500["step"].to_list() == STEPS
    assert math500["difference"].to_list() == pytest.approx([0.0625] * 4, abs=1e-12)
    aime = d.filter(benchmark="aime24")
    assert aime["step"].to_list() == [0, 10, 30]
    assert aime["difference"].to_list() == pytest.approx([0.0625, 0.0625, 0.125], abs=1e-12)
    named = tmp_path / "named.csv"
    args = ["compare", f"base={mlflow_db}#grpo", f"new={mlflow_db}#mel", "-o", str(named)]
    assert main(args) == 0
    again = pl.read_csv(named).sort("benchmark", "step")
    assert again["difference"].to_list() == d["difference"].to_list()
    assert set(again["comparison"]) == {"new vs base"}
    capsys.readouterr()
    args = ["compare", f"x={mlflow_db}", "y=whatever.csv", "-o", str(tmp_path / "no.csv")]
    assert main(args) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "one run for x=PATH; PATH holds 2 runs (grpo, mel)" in err


def test_damaged_locked_and_newer_mlflow_stores(mlflow_db, tmp_path, capsys, monkeypatch):
    """A store cut short, one a writer holds locked, one whose metrics table is not MLflow's
    (a newer schema), another SQLite database, and an MLflow store with no run: one error
    line each, naming the file and what was expected."""
    monkeypatch.setattr(sqlite, "LOCK_WAIT", 0.2)

    error = functools.partial(_one_error_line, capsys)

    cut = tmp_path / "cut.db"
    cut.write_bytes(mlflow_db.read_bytes()[: mlflow_db.stat().st_size // 3])
    assert "a whole SQLite database (this one is cut short or damaged)" in error(cut)
    locked = tmp_path / "locked.db"
    shutil.copyfile(mlflow_db, locked)
    writer = sqlite3.connect(locked)
    writer.execute("BEGIN EXCLUSIVE")
    try:
        assert "a database no other process holds locked (still locked after 0.2 s" in (
            error(locked)
        )
    finally:
        writer.rollback()
        writer.close()
    newer = _altered(
        tmp_path / "newer.db",
        ["ALTER TABLE metrics RENAME COLUMN value TO metric_value"],
        mlflow_db,
    )
    said = error(newer)
    assert "column 'metrics': expected MLflow's SQLite store (schema " in said
    assert "table metrics(is_nan, key, run_uuid, step, timestamp, value)" in said
    other = _altered(tmp_path / "other.db", ["CREATE TABLE things (a, b)"])
    assert "expected an MLflow store (tables experiments, metrics, runs, tags)" in error(other)
    empty = _altered(tmp_path / "empty.db", ["DELETE FROM metrics"], mlflow_db)
    assert "a run that logged metrics; the database holds none" in error(empty)


# ---- trackio -----------------------------------------------------------------------------------


def test_trackio_project_is_read_as_logged(trackio_db, tmp_path, capsys):
    """Each run of the project as logged (nested keys joined with '/', the table left out, a
    "NaN" a missing value), named as logged, with its config; `plot` draws both, PATH#RUN one;
    `compare` compares them; the database and its folder are left as they were."""
    before = _snapshot(trackio_db.parent)
    assert detect(trackio_db) == "trackio"
    grpo, mel = readers.load_runs(trackio_db)
    assert (grpo.run, mel.run) == ("grpo", "mel")
    for run, loaded in (("grpo", grpo), ("mel", mel)):
        scores = loaded.scores.sort("benchmark", "step")
        assert scores.filter(benchmark="math500").select("step", "score").rows() == _expected(
            run, MATH500
        )
        assert scores.filter(benchmark="aime24").select("step", "score").rows() == _expected(
            run, AIME24
        )
        assert loaded.tokens.sort("step").select("step", "tokens").rows() == _expected(run, LENGTH)
    notes = "\n".join(grpo.notes)
    assert (
        "run 'grpo' (id id-grpo), 4 logged rows" in notes and "config (1 keys): lr=1e-06" in notes
    )
    out = tmp_path / "runs.csv"
    assert main(["plot", str(trackio_db), "-o", str(out)]) == 0
    table = pl.read_csv(out)
    assert (
        table.filter(run="mel", benchmark="math500").sort("step")["score"].to_list()
        == (MATH500["mel"])
    )
    single = tmp_path / "mel.csv"
    assert main(["plot", f"{trackio_db}#mel", "-o", str(single)]) == 0
    assert pl.read_csv(single).filter(benchmark="math500")["score"].to_list() == MATH500["mel"]
    d = tmp_path / "d.csv"
    assert main(["compare", str(trackio_db), "--baseline", "grpo", "-o", str(d)]) == 0
    math500 = pl.read_csv(d).filter(benchmark="math500").sort("step")
    assert math500["difference"].to_list() == pytest.approx([0.0625] * 4, abs=1e-12)
    capsys.readouterr()
    assert main(["inspect", str(trackio_db)]) == 0
    text = capsys.readouterr().out
    assert text.startswith(f"{trackio_db}: 2 runs (trackio): grpo, mel\n")
    assert f"{trackio_db}#grpo: trackio" in text
    assert _snapshot(trackio_db.parent) == before


def test_a_run_whose_metrics_are_not_recognised_is_named_and_left_out(trackio_db, tmp_path, capsys):
    """A third run that logged only a loss: `inspect` says why it is not read, `plot` draws the
    other two and names it in the subtitle, `compare` compares the other two and says so."""
    insert = (
        "INSERT INTO metrics (timestamp, run_id, run_name, step, metrics) VALUES "
        "('2026-11-24T10:00:00+00:00', 'id-debug', 'debug', 0, '{\"loss\":1.5}')"
    )
    _altered(trackio_db, [insert])
    grpo, mel, debug = readers.load_runs(trackio_db)
    assert debug.run == "debug" and debug.scores is None
    assert "expected accuracy or response-length columns" in debug.unread
    assert grpo.unread is None and mel.scores is not None
    assert main(["inspect", str(trackio_db)]) == 0
    text = capsys.readouterr().out
    assert "3 runs (trackio): grpo, mel, debug" in text and "  not read: " in text
    out = tmp_path / "runs.csv"
    assert main(["plot", str(trackio_db), "-o", str(out)]) == 0
    assert sorted(set(pl.read_csv(out)["run"])) == ["grpo", "mel"]
    svg = tmp_path / "runs.svg"
    assert main(["plot", str(trackio_db), "-o", str(svg)]) == 0
    assert "not drawn: debug" in svg.read_text()  # and why, from its error
    d = tmp_path / "d.csv"
    capsys.readouterr()
    assert main(["compare", str(trackio_db), "--baseline", "mel", "-o", str(d)]) == 0
    assert f"note: {trackio_db}#debug not compared: " in capsys.readouterr().out
    assert set(pl.read_csv(d)["comparison"]) == {"grpo vs mel"}


def test_trackio_still_writing_is_read_whole_and_left_alone(tmp_path):
    """A run still writing: its last rows are in the write-ahead log (`-wal`), not yet in the
    database; they are read (from a copy in a temporary folder) and nothing beside the
    database is created or changed."""
    db = tmp_path / "live" / "rl-math.db"
    db.parent.mkdir()
    writer = _write_trackio(db, close=False)
    try:
        writer.execute("PRAGMA wal_autocheckpoint = 0")
        writer.executemany(
            "INSERT INTO metrics (timestamp, run_id, run_name, step, metrics, log_id) "
            "VALUES (?, ?, ?, ?, ?, ?)",
            [
                (t, i, "grpo", 40, json.dumps({"val-core/math500/acc/mean@4": 0.875}), "l")
                for t, i in [("2026-11-24T09:00:00+00:00", "id-grpo")]
            ],
        )
        writer.commit()
        assert (db.parent / "rl-math.db-wal").stat().st_size > 0
        before = _snapshot(db.parent)
        grpo = readers.load(f"{db}#grpo")
        math500 = grpo.scores.filter(benchmark="math500").sort("step")
        assert math500.select("step", "score").rows() == [*_expected("grpo", MATH500), (40, 0.875)]
        assert _snapshot(db.parent) == before
    finally:
        writer.close()


def test_damaged_and_newer_trackio_databases(trackio_db, tmp_path, capsys):
    """A metrics row that is not a JSON object names its row; a newer schema without the
    columns read names the table and the schema version; a database cut short is an error."""

    error = functools.partial(_one_error_line, capsys)

    bad = _altered(
        tmp_path / "bad.db", ["UPDATE metrics SET metrics = '[1, 2' WHERE id = 3"], trackio_db
    )
    assert "row 3, column 'metrics': expected a JSON object of metrics" in error(bad)
    newer = _altered(
        tmp_path / "newer.db",
        ["ALTER TABLE metrics RENAME COLUMN metrics TO payload", "PRAGMA user_version = 3"],
        trackio_db,
    )
    said = error(newer)
    assert "expected a trackio database (schema 3; trackio 0.43 writes 2): table " in said
    assert "metrics(id, metrics, run_name, step)" in said
    cut = tmp_path / "cut.db"
    cut.write_bytes(trackio_db.read_bytes()[:6000])
    assert "cut short or damaged" in error(cut)


def test_a_project_trackio_itself_writes_is_read_as_logged(tmp_path):
    """trackio's own API (trackio.init/log/finish, offline, its database in a temporary
    folder), run from the environment `make` gives it (.venv-trackio: trackio pins Pillow
    below 13), writes two runs; each is read back with the values logged, and the CLI draws
    them over each other."""
    python = ROOT / ".venv-trackio" / "bin" / "python"
    assert python.exists(), "make installs trackio into .venv-trackio"
    writer = f"""
import trackio
for run in ("grpo", "mel"):
    trackio.init(project="rl-math", name=run, config={{"lr": 1e-6}})
    for i, step in enumerate({STEPS}):
        trackio.log({{"val-core/math500/acc/mean@4": {MATH500!r}[run][i]}}, step=step)
    trackio.finish()
"""
    env = {**os.environ, **OFFLINE, "TRACKIO_DIR": str(tmp_path / "trackio")}
    done = subprocess.run(
        [str(python), "-c", writer], env=env, cwd=tmp_path, capture_output=True, text=True,
        timeout=300,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-2000:]
    database = tmp_path / "trackio" / "rl-math.db"
    grpo, mel = readers.load_runs(database)
    assert (grpo.run, mel.run) == ("grpo", "mel")
    assert grpo.scores.sort("step")["score"].to_list() == MATH500["grpo"]
    assert mel.scores.sort("step")["score"].to_list() == MATH500["mel"]
    out = tmp_path / "runs.csv"
    assert main(["plot", str(database), "-o", str(out)]) == 0
    table = pl.read_csv(out)
    assert sorted(set(table["run"])) == ["grpo", "mel"] and table.height == 2 * len(STEPS)


def test_a_log_dir_tensorboardx_writes_is_read_as_logged(tmp_path):
    """tensorboardX's SummaryWriter writes two runs into one log dir (a folder each, as
    trainers do), under verl's names, which the writer stores as `val-core/math500/acc/mean_4`
    (a tag may not hold '@'); each run is read as verl named it, with the values logged to the
    float32 TensorBoard keeps, and compare takes the log dir with --baseline."""
    import numpy as np
    from tensorboardX import SummaryWriter

    logdir = tmp_path / "runs"
    for name in ("grpo", "mel"):
        with SummaryWriter(str(logdir / name)) as writer:
            for i, step in enumerate(STEPS):
                writer.add_scalar("val-core/math500/acc/mean@4", MATH500[name][i], step)
                writer.add_scalar("response_length/mean", LENGTH[name][i], step)
    runs = {r.run: r for r in readers.load_runs(logdir)}
    assert sorted(runs) == ["grpo", "mel"]
    for name, run in runs.items():
        scores = run.scores.sort("step")
        assert scores["step"].to_list() == STEPS
        assert scores["score"].to_list() == [float(np.float32(v)) for v in MATH500[name]]
        assert run.tokens.sort("step")["tokens"].to_list() == LENGTH[name]
    out = tmp_path / "d.csv"
    assert main(["compare", str(logdir), "--baseline", "grpo", "-o", str(out)]) == 0
    d = pl.read_csv(out)
    assert d["difference"].to_list() == pytest.approx([0.0625] * len(STEPS), abs=1e-7)


# ---- a TensorBoard log dir: a folder per run (real TRL GRPO runs) ------------------------------

TB_STAGE2 = REALDATA / "illustrated_grpo_trl_stage2" / "runs"
TB_STAGE4 = REALDATA / "illustrated_grpo_trl_stage4" / "stage4_runs"
REWARDS = ["--map", "accuracy=rewards/{benchmark}/mean"]


def test_tensorboard_log_dir_of_several_runs(tmp_path, capsys):
    """Two real runs in a log dir, a folder each (and the aborted launch's folder, which holds
    no scalar: no run): `plot` draws both, each with the numbers it gives alone; `inspect`
    lists them; `compare` takes the folder and the baseline's name."""
    logs = tmp_path / "logs"
    shutil.copytree(TB_STAGE2, logs / "stage2")
    shutil.copytree(TB_STAGE4, logs / "stage4")
    assert [
        r.run for r in readers.load_runs(logs, mapping={"accuracy": "rewards/{benchmark}/mean"})
    ] == [
        "stage2/Aug03_00-13-34_forcifer-123",
        "stage4/Aug03_06-26-13_abf94c617dac",
    ]
    out = tmp_path / "runs.csv"
    assert main(["plot", str(logs), *REWARDS, "-o", str(out)]) == 0
    table = pl.read_csv(out)
    for run, alone in (("stage2", TB_STAGE2), ("stage4", TB_STAGE4)):
        single = tmp_path / f"{run}.csv"
        assert main(["plot", str(alone), *REWARDS, "-o", str(single)]) == 0
        expected = pl.read_csv(single)
        drawn = table.filter(pl.col("run").str.starts_with(run)).drop("run")
        assert drawn.select(expected.columns).equals(expected)
    stage2 = table.filter(pl.col("run").str.starts_with("stage2"), benchmark="correctness_reward")
    assert stage2.height == 300 and round(stage2["score"].mean(), 3) == 0.516
    capsys.readouterr()
    assert main(["inspect", str(logs), *REWARDS]) == 0
    text = capsys.readouterr().out
    assert text.startswith(f"{logs}: 2 runs (tensorboard): stage2/Aug03_00-13-34_forcifer-123, ")
    d = tmp_path / "d.csv"
    base = "stage2/Aug03_00-13-34_forcifer-123"
    assert main(["compare", str(logs), *REWARDS, "--baseline", base, "-o", str(d)]) == 0
    compared = pl.read_csv(d).filter(benchmark="correctness_reward")
    assert compared["step"].to_list() == list(range(1, 301))


def test_compare_reads_a_store_once_and_the_next_comparison_anew(tmp_path, monkeypatch):
    """Two runs of one log dir compared as PATH#RUN: the store is listed once and each run's
    events read once (the comparison keeps what it read; nothing is kept past it), so a
    second comparison reads them again, as a run that goes on logging needs."""
    from helpers.runs import compare
    from helpers.runs.readers.trackers import stores

    logs = tmp_path / "logs"
    shutil.copytree(TB_STAGE2, logs / "stage2")
    shutil.copytree(TB_STAGE4, logs / "stage4")
    listed, read = [], []
    real_get = stores.get

    def counting(kind):
        found = real_get(kind)

        def runs(path, mapping):
            listed.append(path)
            out = []
            for name, aliases, rows in found.runs(path, mapping):
                out.append((name, aliases, functools.partial(_counted, read, name, rows)))
            return out

        return type("Counted", (), {"runs": staticmethod(runs)})

    monkeypatch.setattr(stores, "get", counting)
    mapping = {"accuracy": "rewards/{benchmark}/mean"}
    pairs = {
        "a": f"{logs}#stage2/Aug03_00-13-34_forcifer-123",
        "b": f"{logs}#stage4/Aug03_06-26-13_abf94c617dac",
    }
    first = compare.compare(pairs, mapping=mapping)
    assert (len(listed), sorted(read)) == (
        1,
        sorted(["stage2/Aug03_00-13-34_forcifer-123", "stage4/Aug03_06-26-13_abf94c617dac"]),
    )
    again = compare.compare(pairs, mapping=mapping)
    assert (len(listed), len(read)) == (2, 4)
    assert again.differences.equals(first.differences)


def _counted(read: list, name: str, rows):
    read.append(name)
    return rows()


def test_a_folder_with_no_run(tmp_path, capsys):
    """An empty folder, and a TensorBoard folder whose only event file holds no scalar: one
    error line each, naming the folder."""
    (tmp_path / "empty").mkdir()
    aborted = tmp_path / "aborted"
    shutil.copytree(TB_STAGE4 / "Aug03_06-25-49_fab26b9b2f2d", aborted)
    for folder, said in ((tmp_path / "empty", "found none"), (aborted, "expected accuracy or")):
        assert main(["plot", str(folder), "-o", str(tmp_path / "x.csv")]) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and err.startswith(f"error: {folder}") and said in err


# verl's MLflow logger (`log_generations_to_mlflow`): at each validation a file
# val_step<step>.json of {"input", "output", "score"} rows (newer verl: {"table_name", "rows"}),
# handed to mlflow.log_artifact; MLflow copies it into the run's artifacts/
MLFLOW_GENERATIONS = """
import json, os, sys, mlflow
mlflow.set_tracking_uri(sys.argv[1])
mlflow.set_experiment("rl-math")
for name, right, wrapped in (("base", {0}, False), ("new", {0, 1, 2}, True)):
    with mlflow.start_run(run_name=name):
        for step in (10, 20):
            mlflow.log_metric("val-core/math/acc/mean_at_1", len(right) / 3, step=step)
            rows = [
                {"input": f"  Question {i}:\\n what is {i} + {i}?", "output": f"{name} says",
                 "score": float(i in right)}
                for i in range(3)
            ]
            path = os.path.join(sys.argv[2], f"val_step{step}.json")
            with open(path, "w") as f:
                json.dump({"table_name": "val/generations", "rows": rows} if wrapped else rows, f)
            mlflow.log_artifact(path)
"""


def test_verls_generations_as_mlflow_artifacts_pair_two_runs(tmp_path, capsys):
    """verl's validation generations as MLflow artifacts, put in place by MLflow itself
    (issue 41): each run's artifacts/ read as per-sample logs keyed by the prompt (both of
    verl's layouts), compared prompt by prompt; the store's `inspect` points to them."""
    store, scratch = tmp_path / "mlruns", tmp_path / "scratch"
    scratch.mkdir()
    done = subprocess.run(
        [sys.executable, "-c", MLFLOW_GENERATIONS, store.as_uri(), str(scratch)], cwd=tmp_path,
        capture_output=True, text=True, timeout=300,
        env={**os.environ, **OFFLINE, "MLFLOW_ALLOW_FILE_STORE": "true"},
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-2000:]
    artifacts = {
        (run / "meta.yaml").read_text().split("run_name: ")[1].split()[0]: run / "artifacts"
        for run in store.glob("*/*")
        if (run / "artifacts").is_dir()
    }
    assert sorted(artifacts) == ["base", "new"]
    assert all(detect(a) == "mlflow-generations" for a in artifacts.values())
    out = tmp_path / "d.csv"
    args = [f"base={artifacts['base']}", f"new={artifacts['new']}", "-o", str(out)]
    assert main(["compare", *args]) == 0
    assert "validation generations, step 20: new vs base: +66.7 points" in capsys.readouterr().out
    d = pl.read_csv(out).sort("step")
    assert d.select("step", "problems", "won", "lost", "tied").rows() == [
        (10, 3, 2, 0, 1),
        (20, 3, 2, 0, 1),
    ]
    assert main(["inspect", str(store)]) == 0
    said = capsys.readouterr().out
    assert "verl's validation generations are logged as MLflow artifacts" in said
    assert "2 MLflow artifact(s): 3 prompts a step at 2 steps" not in said  # not read there
    assert main(["inspect", str(artifacts["new"])]) == 0
    assert "(2 MLflow artifact(s)): 3 prompts a step at 2 steps" in capsys.readouterr().out
