"""SwanLab's local run logs, read without swanlab: `swanlog/run-<time>-<id>/` holds one log,
framed as W&B's transaction log is (`wandb_log.Records`) behind the header ':SWL', 0xE1D6
and a version byte:

- version 1 (SwanLab up to 0.9, `backup.swanlab`): each record a JSON object
  `{"model_type": ..., "data": ...}`; "Scalar" records hold `key`, `step` and
  `metric.data`, "Experiment" the run's name and id, "Project" the project, and "Footer"
  (written when the run ends) `success`;
- version 2 (SwanLab 0.10, `run-<id>.swanlab`): each record a `swanlab.record.v1.Record`
  protocol buffer: `scalar` (13: key 1, step 2, value 5 holding the number in 1), `start`
  (10: project 1, name 4, id 10) and `finish` (11: state 1, 1 finished, 2 crashed,
  3 aborted), decoded field by field as `protobuf` does.

SwanLab's own system metrics (`__swanlab__.*`: CPU, memory) are left out."""

from __future__ import annotations

import json
import struct
from dataclasses import dataclass, field
from pathlib import Path

import polars as pl

from helpers.errors import DataError
from helpers.runs.readers._common import files_in
from helpers.runs.readers.format import Format
from helpers.runs.readers.trackers.wandb_store import History
from helpers.runs.readers.wire.magic import starts_with
from helpers.runs.readers.wire.protobuf import fields
from helpers.runs.readers.wire.wandb_log import Records

SUFFIX = ".swanlab"
HEADER = b":SWL" + struct.pack("<H", 0xE1D6)
JSON_RECORDS, PROTOBUF_RECORDS = 1, 2
STATES = {0: "running", 1: "finished", 2: "crashed", 3: "aborted"}
SYSTEM = "__swanlab__"
START, FINISH, SCALAR = 10, 11, 13


def is_swanlab_file(path: Path) -> bool:
    """A SwanLab run log by content: its first bytes are ':SWL' and SwanLab's magic number."""
    return path.is_file() and starts_with(path, HEADER)


@dataclass
class Run:
    """What one log holds: the run's name, id and project, how it ended (None where the log
    has no end record: killed, or still running), and its scalars by step."""

    path: Path
    name: str = ""
    run_id: str = ""
    project: str = ""
    ended: str | None = None
    steps: dict[int, dict[str, float | None]] = field(default_factory=dict)
    system: int = 0  # SwanLab's own system metrics, left out
    unread: int = 0


def _scalar(run: Run, key: str, step: int, value: float | None) -> None:
    if key.startswith(SYSTEM):
        run.system += 1
        return
    run.steps.setdefault(step, {})[key] = value


def _json_record(run: Run, records: Records, offset: int, data: bytes) -> None:
    try:
        doc = json.loads(data)
    except (ValueError, UnicodeDecodeError):
        raise records.error("a SwanLab record holding a JSON object", offset) from None
    kind = doc.get("model_type") if isinstance(doc, dict) else None
    body = doc.get("data") if isinstance(doc, dict) else None
    body = body if isinstance(body, dict) else {}
    if kind == "Scalar":
        metric = body.get("metric") if isinstance(body.get("metric"), dict) else {}
        value, step, key = metric.get("data"), body.get("step"), body.get("key")
        if type(step) is not int or not isinstance(key, str):
            raise records.error("a SwanLab scalar with a key and a whole step", offset)
        number = float(value) if type(value) in (int, float) else None
        _scalar(run, key, step, number)
    elif kind == "Experiment":
        run.name, run.run_id = str(body.get("name") or ""), str(body.get("id") or "")
    elif kind == "Project":
        run.project = str(body.get("name") or "")
    elif kind == "Footer":
        run.ended = "finished" if body.get("success") else "crashed"


def _text(value: object) -> str:
    return value.decode("utf-8", "replace") if isinstance(value, bytes) else ""


def _proto_record(run: Run, records: Records, offset: int, data: bytes) -> None:
    try:
        for number, _, value in fields(data):
            if number == SCALAR:
                key, step, scalar = "", 0, None
                for n, _, v in fields(value):
                    if n == 1:
                        key = _text(v)
                    elif n == 2:
                        step = v - (1 << 64) if v >= 1 << 63 else v  # int64 as a varint
                    elif n == 5:
                        for m, wire, number_ in fields(v):
                            if m == 1 and wire == 1:
                                scalar = struct.unpack("<d", number_)[0]
                _scalar(run, key, step, scalar)
            elif number == START:
                for n, _, v in fields(value):
                    if n == 1:
                        run.project = _text(v)
                    elif n == 4:
                        run.name = _text(v)
                    elif n == 10:
                        run.run_id = _text(v)
            elif number == FINISH:
                state = next((v for n, _, v in fields(value) if n == 1), 0)
                run.ended = STATES.get(state, f"state {state}")
    except (ValueError, IndexError, struct.error):
        raise records.error("a SwanLab record (a protocol buffer)", offset) from None


def scan(path: Path) -> Run:
    """One log, every record checked against its CRC."""
    run = Run(path)
    records = Records(path, HEADER, (JSON_RECORDS, PROTOBUF_RECORDS), "SwanLab")
    for _, offset, data in records:
        if records.version == JSON_RECORDS:
            _json_record(run, records, offset, data)
        else:
            _proto_record(run, records, offset, data)
    run.unread = records.unread
    return run


def logs(path: Path) -> list[Path]:
    """The SwanLab logs a file or folder holds, in the order the runs started (their folders
    are named `run-<time>-<id>`)."""
    if not path.is_dir():
        return [path]
    found = [f for f in files_in(path)[0] if f.suffix == SUFFIX and is_swanlab_file(f)]
    return sorted(found, key=lambda f: f.parent.name)


def runs(path: Path) -> list[tuple[str, tuple[str, ...], Path]]:
    """(name, aliases: its id and folder, log) for each run a file or folder holds."""
    found = logs(path)
    if not found:
        raise DataError(path, "a SwanLab run log (run-<id>.swanlab or backup.swanlab)")
    named = []
    for log in found:
        run = scan(log)
        named.append((run.name or log.parent.name, (run.run_id, log.parent.name), log))
    return named


def wide(log: Path) -> tuple[pl.DataFrame, list[str], bool]:
    """One run's scalars, one row per step and one text column per key (`_step` the step),
    with the notes for `inspect`: the run's name, how it ended, what was left out."""
    run = scan(log)
    history = History()
    for i, step in enumerate(sorted(run.steps), 1):
        values = run.steps[step]
        history.add(i, [(k, None if v is None else repr(v)) for k, v in values.items()], step)
    project = f", project {run.project}" if run.project else ""
    notes = [f"run {run.name!r} (id {run.run_id or '?'}{project})"]
    if run.ended is None:
        notes.append(
            f"{log.name}: no end record: the run was killed or crashed, or is still writing; "
            "its history ends where the file does"
        )
    elif run.ended != "finished":
        notes.append(f"{log.name}: the run ended {run.ended}")
    if run.unread:
        notes.append(f"{log.name}: the last {run.unread:,} bytes (a record cut short) left unread")
    if run.system:
        notes.append(f"left out {run.system} values of SwanLab's system metrics ({SYSTEM}.*)")
    if not history:
        raise DataError(log, "a SwanLab run that logged scalars (swanlab.log); found none")
    return history.frame(), notes, run.ended is not None


# ---- the format -------------------------------------------------------------------------------


def _empty(path: Path) -> DataError:
    """SwanLab writes through a buffer: a run killed early leaves an empty file."""
    size = path.stat().st_size
    return DataError(path, "a SwanLab run log (starting ':SWL')", row=1, got=f"{size} bytes")


def _in_folder(ev) -> bool:
    found = [f for f in ev.files if f.suffix == SUFFIX]
    if any(map(is_swanlab_file, found)):
        return True
    if found:
        raise _empty(found[0])
    return False


def _is_log(ev) -> bool:
    if is_swanlab_file(ev.path):  # by content: the ':SWL' header
        return True
    if ev.path.suffix == SUFFIX:
        raise _empty(ev.path)
    return False


def _runs(path: Path, mapping: dict) -> list:
    return [(name, aliases, lambda f=log: wide(f)) for name, aliases, log in runs(path)]


FORMAT = Format(
    "swanlab",
    "SwanLab run log (swanlog/run-*/: run-<id>.swanlab, or backup.swanlab before SwanLab "
    "0.10; CRC-checked; run name, how it ended)",
    rank=40,
    folder=_in_folder,
    magic=_is_log,
    runs=_runs,
)
