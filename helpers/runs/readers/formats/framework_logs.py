"""Logs the RL frameworks write themselves, read without them, as rows for the metric-log
reader (`readers.metrics`: one row per logged step, every value as text, `__line` its line):

    verl-file     verl's file logger (`trainer.logger=['file']`, verl/utils/tracking.py
                  `FileLogger`): one line per `Tracking.log` call, `{"step": N, "data": {flat
                  metric keys: values}}`, written by orjson with numpy scalars as numbers and
                  NaN and infinity as `null`; written unbuffered, line by line
    verl-console  verl's console logger (`trainer.logger=['console']`,
                  verl/utils/logger/aggregate_logger.py `concat_dict_to_str`): `step:N` then
                  ` - key:value` for every value that is a number, each printed by
                  `pprint.pformat` (`0.49`, `3`, `nan`, `True`; numpy 2 scalars as
                  `np.float64(0.49)`, `np.int64(3)`); other lines of the log are skipped, and
                  a Ray prefix (`(TaskRunner pid=12) `, coloured or not) is taken off
    prime-rl      prime-rl's file monitor (`metrics.jsonl` in the run's output folder,
                  src/prime_rl/monitors/file.py): `{"step": N, "time": <seconds>, **metrics}`
                  per line, appended by trainer and orchestrator; NaN and infinity are dropped
                  before writing

A line cut off at the end of the file (a run killed while writing it: it has no end of line)
is left out and said so; any other line that cannot be read is a DataError naming it.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path

import polars as pl

from helpers.errors import DataError
from helpers.runs.readers._common import LINE_LIMIT, json_line, regular_file
from helpers.runs.readers.format import Format

KINDS = ("verl-file", "verl-console", "prime-rl")

# verl's console line, once a Ray prefix and terminal colours are taken off
_ANSI = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")
_RAY_PREFIX = re.compile(r"^\([^()]* pid=\d+[^()]*\)\s*")
_RAY_REPEATED = re.compile(r"\s*\[repeated \d+x across cluster\]$")
_STEP = re.compile(r"^step:(-?\d+)(?: - (.*))?$")
# what pprint.pformat prints for a number: Python's repr, wrapped by numpy 2 in its type
_NUMPY = re.compile(r"^np\.(?:float|int|uint)\d*\((.*)\)$")
_NUMBER = re.compile(r"^[-+]?(?:(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?|nan|inf)$")
_TRUTH = {"True": "1", "False": "0"}
# a verl console step line's start, in bytes, for recognising a log without reading it all
_SNIFF = re.compile(
    rb"(?m)^(?:\x1b\[[0-9;]*m)*(?:\([^()\n]* pid=\d+[^()\n]*\)(?:\x1b\[[0-9;]*m)*\s*)?"
    rb"step:-?\d+ - [^\n:]+:"
)
# prime-rl's keys: `time/step` on trainer and orchestrator lines, `<train|eval>/<env>/<all|
# effective>/...` on the orchestrator's
_PRIME_KEY = re.compile(r"^(?:train|eval)/.+/(?:all|effective)/")


def json_kind(first: dict) -> str | None:
    """The framework that wrote a JSON-lines log, from its first object, or None."""
    keys = set(first)
    if keys == {"step", "data"} and isinstance(first["data"], dict):
        return "verl-file"
    if {"step", "time"} <= keys and ("time/step" in keys or any(_PRIME_KEY.match(k) for k in keys)):
        return "prime-rl"
    return None


def sniff(path: Path) -> str | None:
    """A log under a name no other reader takes (`run.log`, `stdout.txt`, `metrics.out`), by
    content: a verl file logger's or prime-rl's JSON lines, or a verl console log (a line
    `step:N - key:value`). None if it is neither."""
    regular_file(path)
    with path.open("rb") as handle:
        head = handle.read(2**20)
        first = head.lstrip().split(b"\n", 1)[0]
        if first.startswith(b"{"):
            try:
                doc = json.loads(first)
            except (json.JSONDecodeError, UnicodeDecodeError):
                doc = None
            if isinstance(doc, dict):
                return json_kind(doc)
        block, tail = head, b""
        while block:  # 8 MB at a time, the last line carried over to the next block
            text = tail + block
            if _SNIFF.search(text):
                return "verl-console"
            end = text.rfind(b"\n")
            tail = text[end + 1 :][: 2**16] if end >= 0 else text[: 2**16]
            block = handle.read(8 * 2**20)
    return None


def _lines(path: Path) -> Iterator[tuple[int, bytes, bool]]:
    """(line number, bytes without the end of line, whether it had one) of every line."""
    regular_file(path)
    with path.open("rb") as handle:
        number = 0
        while raw := handle.readline(LINE_LIMIT):
            number += 1
            ended = raw.endswith(b"\n")
            if len(raw) == LINE_LIMIT and not ended:
                raise DataError(path, "lines under 256 MB", line=number)
            yield number, raw.rstrip(b"\r\n"), ended


def _cut_note(number: int) -> str:
    return (
        f"line {number}, the last, is cut off (no end of line: the run was stopped while "
        "writing it): left out"
    )


Lines = Iterator[tuple[int, bytes, bool]]


def _json_rows(
    path: Path, kind: str, lines: Lines | None = None
) -> tuple[list[tuple[int, dict]], list[str]]:
    """verl's file logger or prime-rl's metrics.jsonl as (line, flat values) per line (of
    `lines`, where only some are read: a watch's new ones)."""
    rows, notes, nulls, nested = [], [], 0, {}
    for number, raw, ended in _lines(path) if lines is None else lines:
        if not raw.strip():
            continue
        if not ended:  # the last line, perhaps written in part
            try:
                json.loads(raw)
            except (json.JSONDecodeError, UnicodeDecodeError):
                notes.append(_cut_note(number))
                break
        value = json_line(path, number, raw)
        if kind == "verl-file":
            if not isinstance(value, dict) or not isinstance(value.get("data"), dict):
                raise DataError(
                    path,
                    'a verl file-logger line: {"step": N, "data": {"metric": value, ...}}',
                    line=number,
                    column="data",
                    got=raw[:60].decode("utf-8", "replace"),
                )
            values = {**value["data"], "step": value.get("step")}
        elif isinstance(value, dict):
            values = value
        else:
            raise DataError(path, "a JSON object on every line", line=number, got=raw[:60])
        flat = {}
        for key, v in values.items():
            if isinstance(v, dict | list):
                nested.setdefault(key, None)
            else:  # true and false stay JSON's words: no number, should a metric be one
                flat[key] = ("true" if v else "false") if isinstance(v, bool) else v
                nulls += v is None and key != "step"
        rows.append((number, flat))
    if nested:
        names = list(nested)
        notes.append(
            f"left out {len(names)} keys holding lists or objects, not numbers: "
            + ", ".join(names[:4])
            + (" ..." if len(names) > 4 else "")
        )
    if nulls and kind == "verl-file":
        notes.append(
            f"{nulls} values logged as null (verl's file logger writes NaN and infinity so): "
            "read as not logged"
        )
    return rows, notes


def _console_value(path: Path, number: int, key: str, text: str) -> str:
    """A value as verl prints it, as text a float cast reads: `np.float64(0.49)` is `0.49`."""
    inner = _NUMPY.match(text)
    value = inner.group(1) if inner else text
    if value in _TRUTH:
        return _TRUTH[value]
    if not _NUMBER.match(value):
        raise DataError(
            path,
            "a number as verl prints it (0.49, 3, nan, np.float64(0.49), np.int64(3))",
            line=number,
            column=key,
            got=text,
        )
    return value


def console_rows(
    path: Path, cut_at: int | None = None, lines: Lines | None = None
) -> tuple[list[tuple[int, dict]], list[str]]:
    """verl's console lines as (line, values), perhaps none (of `lines`, where only some are
    read: a watch's new ones); every other line is skipped, and so is a step line of `cut_at`
    characters or more (W&B's output.log cuts lines there: a value on such a line cannot be
    trusted)."""
    rows, notes, other, cut = [], [], 0, 0
    for number, raw, ended in _lines(path) if lines is None else lines:
        if b"step:" not in raw:  # most of a log: skipped without decoding
            other += bool(raw.strip())
            continue
        line = raw.decode("utf-8", "replace").rsplit("\r", 1)[-1]  # what a terminal shows
        if cut_at is not None and len(line) >= cut_at:
            cut += 1
            continue
        line = _RAY_PREFIX.sub("", _ANSI.sub("", line).lstrip())
        m = _STEP.match(_RAY_REPEATED.sub("", line))
        if not m:
            other += bool(line.strip())
            continue
        if not ended:  # print ends every line it writes: this one was cut short
            notes.append(_cut_note(number))
            break
        values = {"step": m.group(1)}
        for part in (m.group(2) or "").split(" - "):
            key, sep, text = part.rpartition(":")
            if not sep or not key:
                raise DataError(
                    path,
                    "'key:value' between ' - ' on verl's step line",
                    line=number,
                    got=part,
                )
            values[key] = _console_value(path, number, key, text)
        rows.append((number, values))
    if rows:
        notes.append(f"{len(rows)} step lines read; {other} other lines of the log skipped")
    if cut:
        notes.append(f"{cut} step lines of {cut_at:,} characters or more (cut) skipped")
    return rows, notes


def rows_of(path: Path, kind: str, lines: Lines) -> tuple[list[tuple[int, dict]], list[str]]:
    """Some whole lines of a framework's log (a watch's new ones) as rows, with notes."""
    return (
        console_rows(path, lines=lines) if kind == "verl-console" else _json_rows(path, kind, lines)
    )


def rows_frame(path: Path, rows: list[tuple[int, dict]]) -> pl.DataFrame:
    """One row per logged line, one text column per key (in the order keys first appear),
    `__line` the line it is on."""
    if not rows:
        raise DataError(path, "at least one logged step in the file", line=1)
    columns = list(dict.fromkeys(["step", *(k for _, r in rows for k in r)]))
    text = {c: [None if r.get(c) is None else str(r[c]) for _, r in rows] for c in columns}
    return pl.DataFrame(text, schema={c: pl.String for c in columns}).with_columns(
        __line=pl.Series([n for n, _ in rows], dtype=pl.Int64)
    )


def read(path: str | Path, kind: str) -> tuple[pl.DataFrame, list[str]]:
    """A framework's log (`kind` one of KINDS) as the metric-log reader's rows, with notes on
    what was left out."""
    path = Path(path)
    if kind == "verl-console":
        rows, notes = console_rows(path)
        if not rows:
            raise DataError(path, "at least one verl step line ('step:N - key:value - ...')")
    elif kind in KINDS:
        rows, notes = _json_rows(path, kind)
    else:
        raise DataError(path, f"one of {', '.join(KINDS)}", got=kind)
    return rows_frame(path, rows), notes


# ---- the formats ------------------------------------------------------------------------------


def _read(path: Path, where) -> object:
    """The framework's own log, read as rows by the metric-log reader."""
    from helpers.runs.readers.formats.metrics import metric_log

    rows, said = read(path, where.kind)
    loaded = metric_log(path, where.kind, where.options, rows)
    loaded.notes += said
    return loaded


def _format(name: str, description: str, rank: int) -> Format:
    return Format(
        name,
        description,
        rank=rank,
        read=_read,
        line=None if name == "verl-console" else lambda ev: json_kind(ev.first) == name,
        # a log under any other name: by its lines
        text=lambda ev: ev.once("framework", lambda: sniff(ev.path)) == name,
        grows="lines",
    )


FORMATS = [
    _format(
        "verl-file", 'verl file logger (JSON lines: {"step": N, "data": {metric: value}})', 140
    ),
    _format(
        "prime-rl",
        "prime-rl metrics.jsonl (its file monitor: step, time and metrics per line)",
        141,
    ),
    _format(
        "verl-console",
        "verl console log (lines 'step:N - key:value - ...'; other lines skipped)",
        142,
    ),
]
