"""W&B run folders where a run lives on the training machine (`wandb/run-<time>-<id>/`,
`wandb/offline-run-<time>-<id>/`, or a `wandb/` folder holding them), read without wandb.

The history is in `run-<id>.wandb`, W&B's transaction log (since wandb 0.31 an offline run
keeps its history, config and summary nowhere else): its records are framed as `wandb_log`
reads them, each one `Record` protocol buffer (wandb/proto/wandb_internal.proto).

Only the fields read here are decoded; the rest is skipped by wire type, so no protobuf
package is needed:

    Record         history = 2, summary = 3, config = 5, run = 17
    HistoryRecord  item = 1 (repeated HistoryItem), step = 2 (HistoryStep: num = 1)
    HistoryItem    key = 1, nested_key = 2 (repeated: a nested dict's path), value_json = 16;
                   wandb 0.31 adds a typed value: none = 3, boolean = 4, integer = 5 (sint64),
                   number = 6 (double), text = 7, json = 8
    SummaryRecord, ConfigRecord   update = 1, remove = 2 (items as HistoryItem's 1, 2, 16)
    RunRecord      run_id = 1, project = 3, config = 4, display_name = 8

Values stay text (JSON as logged: `0.57`, `NaN`, `"a string"`), cast per column by the metric
log reader like a CSV's cells. Beside the log, `files/wandb-summary.json` (older versions) and
`files/output.log` are read where the log holds no history; console lines are cut at 4,096
characters, so a line that long is never read for a value.
"""

from __future__ import annotations

import json
import struct
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import polars as pl

from helpers.errors import DataError
from helpers.runs.readers._common import files_in, read_anew
from helpers.runs.readers.format import Format
from helpers.runs.readers.formats import framework_logs, verl_generations
from helpers.runs.readers.wire.protobuf import fields, varint
from helpers.runs.readers.wire.wandb_log import BLOCK as BLOCK  # re-exported: the tests' block size
from helpers.runs.readers.wire.wandb_log import Records, is_wandb_file

SUFFIX = ".wandb"
CONSOLE_LINE_LIMIT = 4096  # W&B cuts a console line at this many characters


# ---- protocol buffers: only the fields named in the module's docstring ---------------------------


def _item(data: bytes) -> tuple[str, str | None]:
    """A HistoryItem (or SummaryItem, ConfigItem) as (name, value as JSON text or None).
    Two million of these make a long run: one loop, a varint's one-byte case inline."""
    key, nested, value = "", [], None
    at, n = 0, len(data)
    while at < n:
        tag = data[at]
        at += 1
        if tag > 0x7F:  # field 16 (value_json) and above take two bytes
            tag, at = varint(data, at - 1)
        number, wire = tag >> 3, tag & 7
        if wire == 2:
            size = data[at]
            at += 1
            if size > 0x7F:
                size, at = varint(data, at - 1)
            end = at + size
            if end > n:
                raise ValueError("a field past the message's end")
            if number == 16 or number == 8:  # value_json; json
                value = data[at:end].decode("utf-8", "replace")
            elif number == 2:
                nested.append(data[at:end].decode("utf-8", "replace"))
            elif number == 1:
                key = data[at:end].decode("utf-8", "replace")
            elif number == 7:  # text
                value = json.dumps(data[at:end].decode("utf-8", "replace"))
            at = end
        elif wire == 0:
            v, at = varint(data, at)
            if number == 5:  # integer, a sint64: zigzag
                value = str((v >> 1) ^ -(v & 1))
            elif number == 4:
                value = "true" if v else "false"
            elif number == 3:
                value = "null"
        elif wire == 1:
            if number == 6:  # number: NaN and Infinity as W&B's JSON writes them
                value = json.dumps(struct.unpack_from("<d", data, at)[0])
            at += 8
        elif wire == 5:
            at += 4
        else:
            raise ValueError(f"wire type {wire}")
    if at > n:
        raise ValueError("a field past the message's end")
    return key or "/".join(nested), None if value == "null" else value


def _items(data: bytes) -> Iterator[tuple[str, str | None]]:
    for number, _, v in fields(data):
        if number == 1:
            yield _item(v)


def _history(data: bytes) -> tuple[list[tuple[str, str | None]], int]:
    items, step = [], 0
    for number, _, v in fields(data):
        if number == 1:
            items.append(_item(v))
        elif number == 2:
            step = next((n for f, _, n in fields(v) if f == 1), 0)
    return items, step


def _changes(data: bytes, into: dict) -> None:
    """Apply a SummaryRecord's or ConfigRecord's updates and removes to `into`."""
    for number, _, v in fields(data):
        if number in (1, 2):
            name, value = _item(v)
            if number == 1:
                into[name] = value
            else:
                into.pop(name, None)


# ---- one run ------------------------------------------------------------------------------------


@dataclass
class Run:
    """What one .wandb file holds that is read here."""

    path: Path
    run_id: str = ""
    name: str = ""
    project: str = ""
    config: dict[str, str | None] = field(default_factory=dict)
    summary: dict[str, str | None] = field(default_factory=dict)
    histories: int = 0
    unread: int = 0
    exited: bool = False  # the run's exit record (RunExitRecord, field 18) was read


def _run_record(run: Run, data: bytes) -> None:
    for number, _, v in fields(data):
        if number == 1:
            run.run_id = v.decode("utf-8", "replace")
        elif number == 3:
            run.project = v.decode("utf-8", "replace")
        elif number == 8:
            run.name = v.decode("utf-8", "replace")
        elif number == 4:
            _changes(v, run.config)


def scan(path: Path, history: History | None = None, *, quick: bool = False) -> Run:
    """Read one .wandb file: its run record, config, and history (added to `history`); the
    summary is kept only while no history has been seen
    (it is read where a run logged none). `quick`: stop at the first history record (enough
    to tell which runs in a folder logged any)."""
    run = Run(path)
    _scan_into(run, Records(path), history, quick)
    return run


def _scan_into(run: Run, records: Records, history: History | None, quick: bool = False) -> None:
    """The records' run record, config, exit and history, added to `run` and `history` (the
    history records a batch at a time: `_Batch`)."""
    batch = _Batch(records, history)
    try:
        for number, offset, data in records:
            one = _only(data)
            if one is not None and (one[0] == 2 and history is not None and not quick):
                run.histories += 1
                batch.add(number, offset, one[1])
                continue
            if one is not None and one[0] == 3 and run.histories:  # a summary, not kept
                continue
            try:
                for kind, _, v in fields(data):
                    if kind == 2:
                        run.histories += 1
                        if quick and run.run_id:
                            return
                        if history is not None:
                            batch.add(number, offset, v)
                    elif kind == 17:
                        _run_record(run, v)
                    elif kind == 18:
                        run.exited = True
                    elif kind == 5:
                        _changes(v, run.config)
                    elif kind == 3 and not run.histories:
                        _changes(v, run.summary)
            except (ValueError, IndexError, struct.error):
                batch.flush()  # a history record before this one may be the damaged one
                what = "a W&B record holding a Record protocol buffer"
                raise records.error(what, offset, number) from None
    except DataError:
        batch.flush()
        raise
    batch.flush()
    run.unread = records.unread


def _only(data: bytes) -> tuple[int, bytes] | None:
    """(field, value) of a Record that is its number and one length-delimited field (a
    history or summary record, as wandb writes them), read without the general decoder
    (thirty thousand records went through it field by field); None for any other."""
    if len(data) < 4 or data[0] != 0x08:
        return None
    try:
        _, at = varint(data, 1)
        key = data[at]
        if key & 7 != 2 or key & 0x80:
            return None
        size, start = varint(data, at + 1)
    except IndexError:
        return None
    return (key >> 3, data[start:]) if start + size == len(data) else None


class _Batch:
    """History records gathered to be decoded together (`wandb_history.decode`), up to SIZE
    bytes at a time; those it leaves are read here, field by field, in their place."""

    SIZE = 16 * 2**20

    def __init__(self, records: Records, history: History | None) -> None:
        self.records, self.history = records, history
        self.payloads: list[bytes] = []
        self.numbers: list[int] = []
        self.offsets: list[int] = []
        self.size = 0

    def add(self, number: int, offset: int, data: bytes) -> None:
        self.payloads.append(data)
        self.numbers.append(number)
        self.offsets.append(offset)
        self.size += len(data)
        if self.size >= self.SIZE:
            self.flush()

    def flush(self) -> None:
        if not self.payloads or self.history is None:
            return
        from helpers.runs.readers.trackers.wandb_history import decode

        payloads, numbers, offsets = self.payloads, self.numbers, self.offsets
        self.payloads, self.numbers, self.offsets, self.size = [], [], [], 0
        frame, slow = decode(payloads, numbers, _step_of)
        rows = History()
        for i in slow:
            try:
                rows.add(numbers[i], *_history(payloads[i]))
            except (ValueError, IndexError, struct.error):
                what = "a W&B record holding a Record protocol buffer"
                raise self.records.error(what, offsets[i], numbers[i]) from None
        parts = [p for p in (frame, rows.frame() if rows else None) if p is not None]
        if len(parts) > 1:
            joined = pl.concat(parts, how="diagonal")
            parts = [joined.sort("__line", maintain_order=True)]
        self.history.extend(parts[0])


def _step_of(data: bytes) -> int:
    """A HistoryRecord's step (HistoryStep's num), where it logged no `_step`."""
    return _history(data)[1]


class Following:
    """One run's .wandb log read on as it grows (a watch's): its run and history kept, each
    `look()` decoding only the records written since the last (a record cut short waited for);
    a log replaced or cut shorter is read again from its start."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.inode, self.end, self.count = -1, 0, 0
        self.run, self.history = Run(path), History()

    def look(self) -> None:
        inode = read_anew(self.path, self.inode, self.end)
        if inode is not None:
            self.inode, self.end, self.count = inode, 0, 0
            self.run, self.history = Run(self.path), History()
        records = Records(self.path, start=self.end, count=self.count)
        _scan_into(self.run, records, self.history)
        self.end, self.count = records.end, records.count

    def rows(self) -> tuple[pl.DataFrame, list[str], bool]:
        """What `wide` gives for the log as read so far (it has history)."""
        return _widened([self.path], [self.run], self.history)


class History:
    """A run's history as it is read: one row per history record, one text column per key.
    Rows come as frames (`extend`, a batch of records decoded together) or one at a time
    (`add`: console lines, a summary), kept in the order they came."""

    def __init__(self) -> None:
        self.parts: list[pl.DataFrame] = []
        self.columns: dict[str, list[str | None]] = {}  # the rows added one at a time
        self.lines: list[int] = []  # each such row's record number
        self.rows = 0  # rows in `parts`

    def __len__(self) -> int:
        return self.rows + len(self.lines)

    def add(self, number: int, items: list[tuple[str, str | None]], step: int) -> None:
        """One record's items; `_step` from the record's step where no `_step` was logged."""
        r = len(self.lines)
        self.lines.append(number)
        if not any(name == "_step" for name, _ in items):
            items = [*items, ("_step", str(step))]
        for name, value in items:
            column = self.columns.get(name)
            if column is None:
                column = self.columns[name] = [None] * r
            n = len(column)
            if n < r:
                column.extend([None] * (r - n))
            if n > r:  # a key twice in one record: the later value
                column[r] = value
            else:
                column.append(value)

    def extend(self, frame: pl.DataFrame) -> None:
        """Rows decoded together: String columns and `__line`, after those added so far."""
        self._close()
        self.parts.append(frame)
        self.rows += frame.height

    def _close(self) -> None:
        """The rows added one at a time as a frame part."""
        if not self.lines:
            return
        rows = len(self.lines)
        for column in self.columns.values():
            column.extend([None] * (rows - len(column)))
        frame = pl.DataFrame(self.columns, schema=dict.fromkeys(self.columns, pl.String))
        self.parts.append(frame.with_columns(__line=pl.Series(self.lines, dtype=pl.Int64)))
        self.rows += rows
        self.columns, self.lines = {}, []

    def frame(self) -> pl.DataFrame:
        """The rows, every column text; `__line` the record number."""
        self._close()
        if len(self.parts) > 1:
            self.parts = [pl.concat(self.parts, how="diagonal")]
        frame = self.parts[0] if self.parts else pl.DataFrame({"__line": []}, {"__line": pl.Int64})
        # W&B keeps no order of the keys in a record: by name, the step first
        names = sorted((c for c in frame.columns if c != "__line"), key=lambda c: (c != "_step", c))
        return frame.select(*names, "__line")


def _summary_file(folder: Path) -> dict[str, str | None]:
    """files/wandb-summary.json (wandb before 0.31), flattened with '/', values as JSON text."""
    path = folder / "files" / "wandb-summary.json"
    try:
        doc = json.loads(path.read_text(encoding="utf-8")) if path.is_file() else {}
    except (OSError, ValueError):
        raise DataError(path, "a JSON object (W&B's run summary)") from None
    flat: dict[str, str | None] = {}

    def walk(prefix: str, value: object) -> None:
        if isinstance(value, dict) and not value.get("_type"):
            for k, v in value.items():
                walk(f"{prefix}/{k}" if prefix else str(k), v)
        else:
            flat[prefix] = None if value is None else json.dumps(value)

    walk("", doc if isinstance(doc, dict) else {})
    return flat


def _when(path: Path) -> str:
    """A run folder's start time from its name, for ordering: `run-<time>-<id>`."""
    return path.parent.name.removeprefix("offline-")


def logs(path: Path) -> list[Path]:
    """The .wandb files a file or folder holds (named `*.wandb` and starting ':W&B')."""
    if not path.is_dir():
        return [path]
    found = [f for f in files_in(path)[0] if f.suffix == SUFFIX and is_wandb_file(f)]
    return sorted(found, key=_when)


def runs(path: Path) -> list[tuple[str, str, list[Path]]]:
    """The runs a file or folder holds, as (name, id, logs), in the order they started: the
    logs of a run resumed in several folders are one run, read in order; a run that logged
    no history is passed over where others did. Names are the runs' display names, else
    their folders'; a single log is read only to its first history record, for its name (a
    chart is titled with the run's name, not its folder's)."""
    files = logs(path)
    if not files:
        raise DataError(path, "a W&B run's run-<id>.wandb file; found none")
    if len(files) == 1:
        run = scan(files[0], quick=True)
        return [(run.name or "", run.run_id or "", files)]
    scanned = [scan(f, quick=True) for f in files]
    logged = [r for r in scanned if r.histories] or scanned
    groups: dict[str, list[Run]] = {}
    for r in logged:
        groups.setdefault(r.run_id or str(r.path), []).append(r)
    return [
        (
            next((r.name for r in reversed(group) if r.name), "") or group[-1].path.parent.name,
            key,
            [r.path for r in group],
        )
        for key, group in groups.items()
    ]


def wide(path: Path, files: list[Path] | None = None) -> tuple[pl.DataFrame, list[str], bool]:
    """One run's history, one row per history record and one text column per key (nested
    keys joined with '/'), `__line` numbering the records; with the notes for `inspect` (run
    name, config, what was left unread). `files`: the run's logs (one of `runs`), else the
    one run the file or folder holds (several are an error naming them); one run's files from
    several folders (a resumed run) are read in order, a later step's row replacing an
    earlier one's."""
    if files is None:
        found = runs(path)
        if len(found) > 1:
            names = [f"{run[-1].parent.name} ({name})" for name, _, run in found]
            raise DataError(
                path,
                f"one run's history: the folder holds {len(found)} runs "
                f"({', '.join(names[:4])}{' ...' if len(names) > 4 else ''}); give one run's "
                "folder (wandb/run-<time>-<id>/)",
            )
        files = found[0][2]
    history = History()
    return _widened(files, [scan(f, history) for f in files], history)


def _widened(
    files: list[Path], read: list[Run], history: History
) -> tuple[pl.DataFrame, list[str], bool]:
    """`wide` of the runs' logs as scanned: the history as rows, the notes, whether it ended
    (where no history was logged: verl's console lines, else the summary as one row)."""
    run = read[-1]
    name = next((r.name for r in reversed(read) if r.name), "")
    notes = [
        f"run {name!r} (id {run.run_id}{', project ' + run.project if run.project else ''})"
        if name
        else f"run id {run.run_id or '?'}"
    ]
    if len(files) > 1:
        notes.append(f"one run resumed: {len(files)} logs read in order, a later step winning")
    config = {k: v for r in read for k, v in r.config.items() if not k.startswith("_wandb")}
    if config:
        shown = ", ".join(f"{k}={str(v)[:40]}" for k, v in list(config.items())[:6])
        notes.append(f"config ({len(config)} keys): {shown}{' ...' if len(config) > 6 else ''}")
    if not read[-1].exited:  # W&B writes it when the run ends: wandb.finish(), or the exit
        notes.append(
            f"{read[-1].path.name}: no exit record: the run was killed or crashed, or is still "
            "writing; its history ends where the file does"
        )
    for r in read:
        if r.unread:
            notes.append(
                f"{r.path.name}: the last {r.unread:,} bytes (a record cut short: the run was "
                f"killed or is still writing) left unread; {r.histories} history records read"
            )
    folder = files[-1].parent
    generations = folder / "files" / "media" / "table" / "val"
    if generations.is_dir() and verl_generations.tables_in(generations):
        notes.append(
            "verl's validation generations are logged as W&B tables: compare two runs prompt by "
            f"prompt as NAME={generations}"
        )
    console = folder / "files" / "output.log"
    if not history and console.is_file():  # verl's console lines, as W&B captured them
        rows, said = framework_logs.console_rows(console, cut_at=CONSOLE_LINE_LIMIT)
        for number, values in rows:
            step = int(values.pop("step"))
            history.add(number, list(values.items()), step)
        if history:
            notes.append(f"no history in {files[-1].name}: {len(history)} steps from output.log")
        notes += said
    if not history:
        summary = {**_summary_file(folder), **run.summary}
        summary = {k: v for k, v in summary.items() if not k.startswith("_wandb")}
        if summary:
            try:
                step = int(float(summary.get("_step") or 0))
            except (TypeError, ValueError, OverflowError):
                step = 0
            history.add(1, list(summary.items()), step)
            notes.append(f"no history logged: the run's summary as one row at step {step}")
    if not history:
        raise DataError(files[-1], "a W&B run that logged history (wandb.log); found none")
    return history.frame(), notes, read[-1].exited


# ---- the format -------------------------------------------------------------------------------


def _in_folder(ev) -> bool:
    """A folder holding a W&B run's log; a `.wandb` file whose header is damaged is named."""
    found = [f for f in ev.files if f.suffix == SUFFIX]
    if any(map(is_wandb_file, found)):
        return True
    if found:  # a W&B run folder whose log is damaged: the file, not the folder, is named
        with found[0].open("rb") as handle:
            head = handle.read(7)
        raise DataError(found[0], "a W&B transaction log (starting ':W&B')", row=1, got=head)
    return False


def _runs(path: Path, mapping: dict) -> list:
    found = []
    for name, run_id, files in runs(path):
        folders = tuple(dict.fromkeys(f.parent.name for f in files))
        found.append((name or folders[-1], (run_id, *folders), lambda f=files: wide(path, f)))
    return found


FORMAT = Format(
    "wandb-run",
    "W&B run folder (wandb/run-*/, offline-run-*/: run-<id>.wandb history, CRC-checked; run "
    "name and config)",
    rank=30,
    folder=_in_folder,
    magic=lambda ev: is_wandb_file(ev.path),  # by content: the ':W&B' header
    runs=_runs,
    grows="leveldb",
)
