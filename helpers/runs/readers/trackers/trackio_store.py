"""trackio's project databases (`<project>.db` in TRACKIO_DIR, by default
`~/.cache/huggingface/trackio/`), read with sqlite3, read-only, without trackio.

As trackio 0.43's `sqlite_storage.py` writes them (schema version 2, in `PRAGMA user_version`;
write-ahead log):

    metrics   id, run_id, timestamp (ISO text), run_name, step, metrics: one row per
              `trackio.log` call, the metrics one JSON object (bytes, as orjson writes them,
              or text), NaN and the infinities as the strings "NaN", "Infinity", "-Infinity"
    configs   run_id, run_name, config (JSON; trackio adds _Username, _Created, _Group)

A project is one database and every run logged to it: each is a run here, named as logged.
Databases written before trackio 0.24 (schema 0 and 1) have no run_id: a run is its name. A
newer schema is read by the columns above while it has them. Nested objects are flattened
with '/'; media, tables and histograms (objects with a `_type`) are left out.
"""

from __future__ import annotations

import json
from pathlib import Path

import polars as pl

from helpers.errors import DataError
from helpers.runs.readers.format import Format
from helpers.runs.readers.trackers.wandb_store import History
from helpers.runs.readers.wire import sqlite

SCHEMA = 2  # the schema version trackio 0.43 writes
NEEDED = {"metrics": {"id", "run_name", "step", "metrics"}}
NUMBERS = ("NaN", "Infinity", "-Infinity")  # how trackio writes what JSON has no number for


def _items(prefix: str, value: object, out: list[tuple[str, str | None]]) -> None:
    """(key, value as JSON text) for each logged value, nested keys joined with '/'."""
    if isinstance(value, dict):
        if "_type" not in value:  # a media object, table or histogram: not a number
            for k, v in value.items():
                _items(f"{prefix}/{k}" if prefix else str(k), v, out)
    elif value is None:
        out.append((prefix, None))
    elif isinstance(value, str) and value in NUMBERS:
        out.append((prefix, value))
    else:
        out.append((prefix, json.dumps(value)))


def _config(raw: bytes | str | None) -> dict:
    try:
        doc = json.loads(raw) if raw else {}
    except (ValueError, TypeError):
        return {}
    return {k: v for k, v in doc.items() if not k.startswith("_")} if isinstance(doc, dict) else {}


def tables(path: Path) -> list[tuple[str, str, pl.DataFrame, list[str]]]:
    """Each run in the database as (name, id, table, what was read): one row per logged row,
    one text column per key (cast per column by the metric log reader), `_step` the step
    and `__line` the row's id in the metrics table; runs in the order they first logged."""
    with sqlite.opened(path) as db:
        found = sqlite.tables(db)
        version = db.execute("PRAGMA user_version").fetchone()[0]
        sqlite.require(
            path,
            found,
            NEEDED,
            f"a trackio database (schema {version}; trackio 0.43 writes {SCHEMA})",
        )
        key = "run_id" if "run_id" in found["metrics"] else "run_name"
        histories: dict[str, History] = {}
        names: dict[str, str] = {}
        for row, run, name, step, blob in db.execute(
            f"SELECT id, {key}, run_name, step, metrics FROM metrics ORDER BY id"
        ):
            try:
                doc = json.loads(blob)
            except (ValueError, TypeError):
                doc = None
            if not isinstance(doc, dict):
                raise DataError(
                    path, "a JSON object of metrics (trackio's metrics row)", row=row,
                    column="metrics", got=str(blob)[:60],
                )  # fmt: skip
            items: list[tuple[str, str | None]] = []
            _items("", doc, items)
            histories.setdefault(run, History()).add(row, items, step)
            names[run] = name
        configs = {}
        if {"run_name", "config"} <= found.get("configs", set()):
            by = "run_id" if "run_id" in found["configs"] and key == "run_id" else "run_name"
            configs = {r: _config(c) for r, c in db.execute(f"SELECT {by}, config FROM configs")}
    runs = []
    for run, history in histories.items():
        said = [f"run {names[run]!r}" + (f" (id {run})" if key == "run_id" else "")]
        said[0] += f", {len(history)} logged rows"
        config = configs.get(run, {})
        if config:
            shown = ", ".join(f"{k}={json.dumps(v)[:40]}" for k, v in list(config.items())[:6])
            said.append(f"config ({len(config)} keys): {shown}{' ...' if len(config) > 6 else ''}")
        if version > SCHEMA:
            said.append(f"schema version {version}, newer than {SCHEMA}: read by its columns")
        runs.append((names[run], run, history.frame(), said))
    return runs


def _runs(path: Path, mapping: dict) -> list:
    return [(name, (run_id,), lambda t=t, s=s: (t, s)) for name, run_id, t, s in tables(path)]


FORMAT = Format(
    "trackio",
    "trackio database (<project>.db: a row per logged step, metrics as JSON; runs by name)",
    rank=81,
    magic=lambda ev: sqlite.is_sqlite(ev.path) and sqlite.tracker(ev.path) == "trackio",
    runs=_runs,
)
