"""A run read again as it grows, at the cost of what was written since the last look (`python
-m helpers watch`, `helpers.watch`).

`Follow(path).look()` gives the run as read so far, as `load` reads it. Where the log is
written by appending, each look reads only the bytes after the last whole line or record it
read, and the rows read before are kept:

- JSON-lines and text logs (per-step metric logs, verl's file and console loggers,
  prime-rl's metrics): whole lines only; a last line with no end of line yet is read as `load`
  reads it (kept if it is whole JSON, else waited for) and read again at the next look;
- TensorBoard event files (one file, or one run's folder): whole records only, a record cut
  short is waited for; an event file that appears in the folder (a restarted run) is read from
  its start;
- W&B run folders (one run, one `.wandb` log): whole records only, decoded from where the last
  look stopped, a record cut short waited for.

Which of these a format is, each format's declaration says (`Format.grows`).

A file replaced or cut shorter (a new inode, a size below what was read) is read again from
its start. Any other input (a store of several runs, per-sample logs, a database) is read
whole at each look.
"""

from __future__ import annotations

import contextlib
from dataclasses import dataclass
from pathlib import Path

import polars as pl

from helpers.errors import DataError
from helpers.runs.inputs import run_named
from helpers.runs.readers._common import json_line, read_anew, reading
from helpers.runs.readers.detect import FORMATS, detect
from helpers.runs.readers.formats import framework_logs
from helpers.runs.readers.formats.metrics import metric_log, rows_frame
from helpers.runs.readers.loaded import Loaded
from helpers.runs.readers.registry import get, is_store
from helpers.runs.readers.runs import load, reading_options, with_sizes
from helpers.runs.readers.trackers import tfevents, wandb_store
from helpers.runs.readers.trackers.stores import Store


@dataclass
class _Tail:
    """How far one file was read: its inode, the offset after the last whole line or record,
    that line's or record's number, and its rows read so far (one frame, grown at each look)."""

    inode: int = -1
    offset: int = 0
    number: int = 0
    rows: pl.DataFrame | None = None

    def restart_if_new(self, path: Path) -> None:
        """Forget what was read where the file must be read from its start: new, replaced
        (another inode) or cut shorter than what was read."""
        inode = read_anew(path, self.inode, self.offset)
        if inode is not None:
            self.inode, self.offset, self.number, self.rows = inode, 0, 0, None


def _lines_joined(frames: list[pl.DataFrame]) -> pl.DataFrame:
    """Frames of a log's lines as one, columns in the order the full read gives them (each
    key where it first appears, `__line` last)."""
    table = pl.concat(frames, how="diagonal_relaxed") if len(frames) > 1 else frames[0]
    return table.select(pl.exclude("__line"), "__line")


class Follow:
    """One input followed as it grows; `look()` is the run as read so far. `read` counts the
    lines or records parsed, in all (what a look costs is what it read)."""

    def __init__(self, path: str | Path, **options) -> None:
        self.path = Path(path)
        self.options = reading_options(**options)
        self.kind: str | None = None
        self.read = 0
        self._tails: dict[Path, _Tail] = {}
        self._logs: dict[Path, wandb_store.Following] = {}

    def look(self) -> Loaded:
        if run_named(self.path)[1] is not None:  # PATH#RUN: one run of a store, read whole
            return load(self.path, **self.options)
        with reading(self.path):
            if self.kind is None:
                self.kind = detect(self.path, self.options["mapping"])
            grows = get(self.kind).grows
            if grows == "lines" and self.path.is_file():
                loaded = self._lines()
            elif grows == "tfrecords":
                loaded = self._events()
            elif grows == "leveldb":
                loaded = self._wandb()
            else:
                loaded = None
        if loaded is None:  # read whole
            return load(self.path, **self.options)
        with_sizes(loaded, self.options["problems"])
        return loaded

    # ---- lines ----------------------------------------------------------------------------

    def _lines(self) -> Loaded:
        path, kind = self.path, self.kind
        tail = self._tails.setdefault(path, _Tail())
        tail.restart_if_new(path)
        with path.open("rb") as handle:
            handle.seek(tail.offset)
            data = handle.read()
        whole = data.rfind(b"\n") + 1
        lines = []
        for raw in data[:whole].split(b"\n")[:-1]:
            tail.number += 1
            lines.append((tail.number, raw.rstrip(b"\r"), True))
        partial = data[whole:]
        last = [(tail.number + 1, partial.rstrip(b"\r"), False)] if partial.strip() else []
        self.read += len(lines) + len(last)
        tail.offset += whole
        rows, said = self._rows(lines)
        kept = [] if tail.rows is None else [tail.rows]
        if rows:
            kept = [_lines_joined([*kept, self._frame(rows)])]
            tail.rows = kept[0]
        provisional, said_last = self._rows(last)  # read again at the next look
        frames = kept + ([self._frame(provisional)] if provisional else [])
        if not frames:
            self._frame([])  # the reader's own error: no logged step yet
        loaded = metric_log(path, kind, self.options, _lines_joined(frames))
        loaded.notes.insert(0, FORMATS[kind])
        loaded.notes += said + said_last
        return loaded

    def _rows(self, lines: list) -> tuple[list[tuple[int, dict]], list[str]]:
        if self.kind in framework_logs.KINDS:
            return framework_logs.rows_of(self.path, self.kind, iter(lines))
        rows = []
        for number, raw, ended in lines:
            if not raw.strip():
                continue
            if ended:
                rows.append((number, json_line(self.path, number, raw)))
            else:  # the last line: kept if it is whole JSON, else being written (next look)
                with contextlib.suppress(DataError):
                    rows.append((number, json_line(self.path, number, raw)))
        return rows, []

    def _frame(self, rows: list[tuple[int, dict]]) -> pl.DataFrame:
        if self.kind in framework_logs.KINDS:
            return framework_logs.rows_frame(self.path, rows)
        return rows_frame(self.path, rows, "the file")

    # ---- TensorBoard ----------------------------------------------------------------------

    def _events(self) -> Loaded | None:
        path = self.path
        files = tfevents.event_files(path) if path.is_dir() else [path]
        if len({f.parent for f in files}) > 1:  # a store of several runs: read whole
            return None
        for gone in set(self._tails) - set(files):
            del self._tails[gone]
        scalars = []
        for f in files:
            tail = self._tails.setdefault(f, _Tail())
            try:
                tail.restart_if_new(f)
            except FileNotFoundError:  # gone since it was listed: seen at the next look
                continue
            frame, tail.offset, number = tfevents.scalars_from(f, tail.offset, tail.number)
            self.read += number - tail.number
            tail.number = number
            if tail.rows is None or frame.height:
                tail.rows = frame if tail.rows is None else pl.concat([tail.rows, frame])
            scalars.append(tail.rows)
        if not scalars:
            return None
        table = tfevents.widen(scalars)
        if not is_store(path, self.kind):  # one event file
            loaded = metric_log(path, self.kind, self.options, table)
            loaded.notes.insert(0, FORMATS[self.kind])
            return loaded
        folder = files[0].parent
        name = folder.relative_to(path).as_posix() if folder != path else folder.name
        found = [(name, (), lambda: (table, []))] if table.height else []
        (loaded,) = Store(path, self.kind, self.options, found).load(None, every=False)
        return loaded

    # ---- W&B ------------------------------------------------------------------------------

    def _wandb(self) -> Loaded | None:
        found = wandb_store.runs(self.path)
        if len(found) != 1 or len(found[0][2]) != 1:  # several runs, or one resumed: read whole
            return None
        name, run_id, (log,) = found[0]
        following = self._logs.get(log)
        if following is None:
            self._logs = {log: (following := wandb_store.Following(log))}
        before = following.count
        following.look()
        self.read += following.count - before
        if not following.history:  # no history (yet): the whole read says what there is
            return None
        rows = following.rows()
        stored = [(name or log.parent.name, (run_id, log.parent.name), lambda: rows)]
        (loaded,) = Store(self.path, self.kind, self.options, stored).load(None, every=False)
        return loaded
