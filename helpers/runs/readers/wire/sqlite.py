"""The SQLite databases trackers keep (MLflow's `mlflow.db`, trackio's `<project>.db`), opened
read-only with Python's sqlite3: nothing is ever written beside them.

How a database is opened depends on its journal, read from its header (byte 18: 1 a rollback
journal, 2 write-ahead log):

- rollback journal (MLflow's): `mode=ro`, which writes nothing; a writer holding the database
  locked for longer than LOCK_WAIT seconds is an error saying so;
- write-ahead log (trackio's) with no `-wal` file beside it: everything is in the database
  itself, opened `immutable` (`mode=ro` would create `-wal` and `-shm` files beside it);
- write-ahead log with a `-wal` file (a run still writing, or killed before a checkpoint):
  the database and its log are copied to a temporary folder and read there, so the latest
  rows are read and nothing is created beside them.

A file cut short or damaged, or a database lacking the tables and columns a reader needs (a
newer schema), is one DataError naming the file and what was expected.
"""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import quote

from helpers.errors import DataError
from helpers.runs.readers.wire.magic import starts_with

if TYPE_CHECKING:  # sqlite3 loads when a database is opened, not for every command
    import sqlite3

HEADER = b"SQLite format 3\x00"
LOCK_WAIT = 2.0  # seconds to wait for a writer's lock before saying the database is locked
# what tells a tracker's database from any other SQLite file: a table each always has
MLFLOW_TABLES = {"experiments", "runs", "metrics", "tags"}
TRACKIO_METRICS = {"run_name", "step"}  # the JSON column is checked when read


def is_sqlite(path: Path) -> bool:
    """An SQLite database by content: its first 16 bytes are 'SQLite format 3' and a NUL."""
    return starts_with(path, HEADER)


def _uri(path: Path, how: str) -> str:
    return f"file:{quote(str(path.resolve()))}?{how}"


@contextmanager
def opened(path: Path) -> Iterator[sqlite3.Connection]:
    """A read-only connection to the database at `path` (see the module's docstring); any
    SQLite error while it is used is a DataError naming the file."""
    import sqlite3

    with path.open("rb") as handle:
        header = handle.read(100)
    wal = len(header) == 100 and header[18] == 2
    log = path.with_name(path.name + "-wal")
    with tempfile.TemporaryDirectory(prefix="helpers-sqlite-") as temp:
        try:
            if wal and log.is_file() and log.stat().st_size:
                copy = Path(temp) / "run.db"
                shutil.copyfile(path, copy)
                shutil.copyfile(log, copy.with_name("run.db-wal"))
                uri = _uri(copy, "mode=ro")
            else:
                uri = _uri(path, "immutable=1" if wal else "mode=ro")
            connection = sqlite3.connect(uri, uri=True, timeout=LOCK_WAIT)
        except (sqlite3.Error, OSError) as e:
            raise DataError(path, "an SQLite database that can be opened", got=str(e)) from None
        try:
            yield connection
        except sqlite3.OperationalError as e:
            if "locked" in str(e) or "busy" in str(e):
                raise DataError(
                    path,
                    f"a database no other process holds locked (still locked after {LOCK_WAIT:g} "
                    "s: a writer is in a long transaction; try again when it is done)",
                ) from None
            raise DataError(path, "a readable SQLite database", got=str(e)) from None
        except sqlite3.DatabaseError as e:
            raise DataError(
                path, "a whole SQLite database (this one is cut short or damaged)", got=str(e)
            ) from None
        finally:
            connection.close()


def tables(connection: sqlite3.Connection) -> dict[str, set[str]]:
    """Each table's name and column names."""
    names = [n for (n,) in connection.execute("SELECT name FROM sqlite_master WHERE type='table'")]
    return {n: {row[1] for row in connection.execute(f'PRAGMA table_info("{n}")')} for n in names}


def require(
    path: Path, found: Mapping[str, set[str]], needed: Mapping[str, set[str]], what: str
) -> None:
    """Refuse a database without the tables and columns a reader needs, naming them: a newer
    (or other) schema than the one `what` describes."""
    for table, columns in needed.items():
        missing = sorted(columns - found.get(table, set()))
        if table not in found or missing:
            has = sorted(found.get(table, ())) if table in found else "no such table"
            raise DataError(
                path,
                f"{what}: table {table}({', '.join(sorted(columns))}); a newer or other schema "
                "has it otherwise",
                column=table,
                got=has,
            )


def tracker(path: Path) -> str:
    """Which tracker's database this is: 'mlflow-sqlite' or 'trackio', by its tables; another
    SQLite database is a DataError listing its tables."""
    with opened(path) as connection:
        found = tables(connection)
    if set(found) >= MLFLOW_TABLES:
        return "mlflow-sqlite"
    if found.get("metrics", set()) >= TRACKIO_METRICS:
        return "trackio"
    raise DataError(
        path,
        "an MLflow store (tables " + ", ".join(sorted(MLFLOW_TABLES)) + ") or a trackio "
        "database (a table metrics with run_name and step)",
        got=sorted(found)[:8],
    )
