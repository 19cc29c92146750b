"""MLflow's SQLite store (`mlflow.db`: the default tracking backend since MLflow 3.7; verl's
default is `sqlite:////tmp/mlruns.db`), read with sqlite3, read-only, without MLflow.

The tables read, as MLflow 3.17 defines them (`mlflow/store/tracking/dbmodels/models.py`):

    experiments   experiment_id, name, lifecycle_stage ('active' or 'deleted')
    runs          run_uuid, name, experiment_id, lifecycle_stage, start_time
    metrics       run_uuid, key, value, timestamp (ms), step, is_nan (a NaN is stored as 0
                  with is_nan 1; an infinity as +-1.797e308, which MLflow itself reads back)
    tags          run_uuid, key, value: `mlflow.parentRunId` makes a run a child of another,
                  `mlflow.runName` names it
    params        run_uuid, key, value

Deleted runs and experiments are left out. A nested run (one per iteration or evaluation)
is stitched into its top-level run's curve by step, as in the file store: one code for both
(`mlflow_store.stitch`), which also reads verl's `_at_` as `@`.
"""

from __future__ import annotations

import math
from pathlib import Path

import polars as pl

from helpers.runs.readers.format import Format
from helpers.runs.readers.trackers.mlflow_store import Run, listed, stitch
from helpers.runs.readers.wire import sqlite

NEEDED = {
    "experiments": {"experiment_id", "name", "lifecycle_stage"},
    "runs": {"run_uuid", "name", "experiment_id", "lifecycle_stage", "start_time", "status"},
    "metrics": {"run_uuid", "key", "value", "timestamp", "step", "is_nan"},
    "tags": {"run_uuid", "key", "value"},
    "params": {"run_uuid", "key", "value"},
}


def tables(path: Path) -> list[tuple[Run, pl.DataFrame, list[str]]]:
    """Each top-level run with metrics in the store, as (run, table, what was read): one row
    per step, one column per metric (see `mlflow_store.stitch`), in the order the runs
    started."""
    with sqlite.opened(path) as db:
        found = sqlite.tables(db)
        revision = (
            db.execute("SELECT version_num FROM alembic_version").fetchone()
            if "version_num" in found.get("alembic_version", set())
            else None
        )
        what = "MLflow's SQLite store" + (f" (schema {revision[0]})" if revision else "")
        sqlite.require(path, found, NEEDED, what)
        rows = db.execute(
            "SELECT r.run_uuid, r.name, e.name, r.status FROM runs r JOIN experiments e "
            "ON r.experiment_id = e.experiment_id WHERE r.lifecycle_stage = 'active' "
            "AND e.lifecycle_stage = 'active' ORDER BY r.start_time, r.run_uuid"
        ).fetchall()
        deleted = db.execute("SELECT count(*) FROM runs").fetchone()[0] - len(rows)
        tags: dict[str, dict[str, str]] = {}
        for run_id, key, value in db.execute(
            "SELECT run_uuid, key, value FROM tags "
            "WHERE key IN ('mlflow.parentRunId', 'mlflow.runName')"
        ):
            tags.setdefault(run_id, {})[key] = value
        params: dict[str, dict[str, str]] = {}
        for run_id, key, value in db.execute("SELECT run_uuid, key, value FROM params"):
            params.setdefault(run_id, {})[key] = value
        points: dict[str, list[tuple[int, str, float, int]]] = {r[0]: [] for r in rows}
        for run_id, step, key, value, nan, stamp in db.execute(
            "SELECT run_uuid, step, key, value, is_nan, timestamp FROM metrics ORDER BY rowid"
        ):
            if run_id in points:
                points[run_id].append((step, key, math.nan if nan else value, stamp or 0))
    every = [
        Run(
            path,
            run_id,
            tags.get(run_id, {}).get("mlflow.runName") or name or run_id,
            tags.get(run_id, {}).get("mlflow.parentRunId"),
            status=status,
        )
        for run_id, name, _, status in rows
    ]
    experiments = {run_id: experiment for run_id, _, experiment, _ in rows}
    found_runs = []
    for root, table, said in stitch(every, points):
        notes = [f"{said[0]}; experiment {experiments[root.run_id]!r}"]
        given = params.get(root.run_id, {})
        if given:
            shown = ", ".join(f"{k}={str(v)[:40]}" for k, v in list(given.items())[:6])
            notes.append(f"params ({len(given)}): {shown}{' ...' if len(given) > 6 else ''}")
        if deleted:
            notes.append(f"{deleted} deleted run(s) in the store left out")
        found_runs.append((root, table, notes))
    return found_runs


def _runs(path: Path, mapping: dict) -> list:
    return listed(tables(path))


FORMAT = Format(
    "mlflow-sqlite",
    "MLflow SQLite store (mlflow.db: runs, metrics and tags tables; nested runs by step; "
    "verl's '_at_' read as '@')",
    rank=80,
    magic=lambda ev: sqlite.is_sqlite(ev.path) and sqlite.tracker(ev.path) == "mlflow-sqlite",
    runs=_runs,
)
