"""What every reader shares: JSON lines and CSV headers read with line numbers, numeric casts
that name the bad cell."""

from __future__ import annotations

import csv
import json
from collections.abc import Iterable, Sequence
from contextlib import contextmanager
from pathlib import Path

import polars as pl

from helpers.errors import DataError


def json_line(path: Path, number: int, raw: bytes) -> dict:
    """One JSON object from line `number`, or DataError naming the line and character."""
    try:
        value = json.loads(raw)
    except (json.JSONDecodeError, UnicodeDecodeError) as e:
        column = getattr(e, "colno", None)
        raise DataError(
            path,
            "one JSON object per line",
            line=number,
            column=f"character {column}" if column else None,
            got=raw[:60].decode("utf-8", "replace"),
        ) from None
    if not isinstance(value, dict):
        raise DataError(path, "a JSON object on every line", line=number, got=type(value).__name__)
    return value


LINE_LIMIT = 256 * 2**20  # a JSON line longer than this is not a log line
HEADER_LIMIT = 2**20  # a CSV header longer than this is not a header
DOCUMENT_LIMIT = 512 * 2**20  # a whole-document JSON (results, trainer state) larger than this


def regular_file(path: Path) -> None:
    """Refuse what is not a regular file (a pipe or a device would block or never end)."""
    if not path.is_file():
        raise DataError(path, "a regular file (not a pipe, socket or device)")


def read_anew(path: Path, inode: int, read: int) -> int | None:
    """Where a log followed as it grows must be read again from its start (new, replaced by
    another inode, or cut shorter than the `read` bytes already read): its inode now; else
    None."""
    st = path.stat()
    return st.st_ino if st.st_ino != inode or st.st_size < read else None


def scan_jsonl_lines(path: Path) -> Iterable[tuple[int, dict]]:
    """(line number, object) for every non-blank line of a JSONL file."""
    regular_file(path)
    with path.open("rb") as handle:
        number = 0
        while raw := handle.readline(LINE_LIMIT):
            number += 1
            if len(raw) == LINE_LIMIT and not raw.endswith(b"\n"):
                raise DataError(path, "JSON lines (this line is longer than 256 MB)", line=number)
            if raw.strip():
                yield number, json_line(path, number, raw)


def first_json(path: Path) -> dict:
    for _, record in scan_jsonl_lines(path):
        return record
    raise DataError(path, "at least one JSON line; the file is empty", line=1)


def read_document(path: Path) -> bytes:
    """A whole JSON document's bytes, refusing what is too large to be one."""
    regular_file(path)
    if path.stat().st_size > DOCUMENT_LIMIT:
        raise DataError(path, "a JSON document under 512 MB", got=f"{path.stat().st_size} bytes")
    return path.read_bytes()


def csv_header(path: Path) -> list[str]:
    """The header of a CSV file, read from its first line alone."""
    regular_file(path)
    with path.open("rb") as handle:
        line = handle.readline(HEADER_LIMIT)
    if not line.strip():
        raise DataError(path, "a CSV header row; the file is empty", line=1)
    if b"\x00" in line:
        raise DataError(path, "a text file (found a NUL byte)", line=1)
    if len(line) == HEADER_LIMIT and not line.endswith(b"\n"):
        raise DataError(path, "a CSV header line under 1 MB", line=1)
    try:
        header = next(csv.reader([line.decode("utf-8-sig").rstrip("\r\n")]))
    except (UnicodeDecodeError, csv.Error) as e:
        raise DataError(path, "a UTF-8 CSV header row", line=1, got=str(e)[:80]) from None
    seen = set()
    for name in header:
        if name in seen:
            raise DataError(path, "each column name once", line=1, column=name)
        seen.add(name)
    return header


def text_only(path: Path) -> None:
    """Refuse a CSV holding a NUL byte (what a crash leaves where a file was preallocated):
    polars would read the NULs up to the next newline as one value, gigabytes long. One pass
    over the file, in 8 MB reads, naming the NUL's line."""
    regular_file(path)
    lines = 1
    with path.open("rb") as handle:
        while chunk := handle.read(8 * 2**20):
            at = chunk.find(b"\0")
            if at >= 0:
                lines += chunk.count(b"\n", 0, at)
                raise DataError(path, "text (found a NUL byte: a crash can leave them)", line=lines)
            lines += chunk.count(b"\n")


def _quoted(path: Path) -> bool:
    """Whether a CSV holds a quote after its header: only then can a record span lines."""
    with path.open("rb") as handle:
        handle.readline(HEADER_LIMIT)
        while chunk := handle.read(2**20):
            if b'"' in chunk:
                return True
    return False


def csv_lines(path: Path, rows: int) -> list[int]:
    """The line each of the first `rows` data records of a CSV starts on: the record's index
    + 2, unless a quoted field holds a newline, which makes a record span two lines and moves
    every later record down."""
    if not _quoted(path):
        return list(range(2, rows + 2))
    starts = []
    with path.open(newline="", encoding="utf-8", errors="replace") as handle:
        reader = csv.reader(handle)
        end = 0
        for _ in reader:
            starts.append(end + 1)
            end = reader.line_num
            if len(starts) > rows:
                break
    return starts[1:]


def csv_line(path: Path, row: int) -> int:
    """The line a CSV's data record `row` (counted from 0) starts on."""
    lines = csv_lines(path, row + 1)
    return lines[row] if row < len(lines) else row + 2


def numeric(path: Path, frame: pl.DataFrame, columns: Sequence[str]) -> pl.DataFrame:
    """Cast columns to Float64; a cell that is not a number raises DataError naming its line
    (from a `__line` column where the frame has one, else its CSV line) and column. A
    trainer_state.json is one document: there the place is its log_history entry."""
    if not columns:
        return frame
    columns = list(columns)
    cast = frame.select(pl.col(columns).cast(pl.Float64, strict=False))
    # a cell that does not read as a number is a null the text did not have
    before = frame.select(pl.col(columns).null_count()).row(0)
    after = cast.select(pl.all().null_count()).row(0)
    for c, had, has in zip(columns, before, after, strict=True):
        if has == had:
            continue
        row = int((frame[c].is_not_null() & cast[c].is_null()).arg_true()[0])
        line = int(frame["__line"][row]) if "__line" in frame.columns else csv_line(path, row)
        raise DataError(path, "a number", got=frame[c][row], **place(path, line, c))
    return frame.with_columns(cast)


def place(path: Path, line: int, column: str) -> dict:
    """Where a logged value is, for DataError: its line and column, in a trainer_state.json
    (one document) its log_history entry, in a TensorBoard or W&B log its record, in a
    tracker's database its row."""
    if path.suffix == ".json":
        return {"column": f"log_history[{line}].{column}"}
    if path.is_dir() or ".tfevents." in path.name or path.suffix == ".wandb":  # records
        return {"row": line, "column": column}
    from helpers.runs.readers.wire import sqlite

    if sqlite.is_sqlite(path):  # a tracker's database: the run's row (step) or table row
        return {"row": line, "column": column}
    return {"line": line, "column": column}


@contextmanager
def reading(path: Path | str):
    """Turn what polars or the system says about unreadable data into the package's error,
    naming the input (and, for a folder of Parquet files, the first file whose columns differ
    from the others' in type)."""
    try:
        yield
    except (pl.exceptions.PolarsError, OSError) as e:
        message = str(e).splitlines()[0][:160]
        path = Path(path)
        if path.is_dir():
            files = files_in(path, (".parquet",))[0]
            first = pl.read_parquet_schema(files[0]) if files else {}
            for f in files[1:]:
                try:
                    schema = pl.read_parquet_schema(f)
                except (pl.exceptions.PolarsError, OSError):
                    raise DataError(f, "a readable Parquet file") from None
                differs = [c for c in schema if c in first and schema[c] != first[c]]
                if differs:
                    raise DataError(
                        f,
                        "the same column types in every file of the folder "
                        f"({files[0].relative_to(path)} has {first[differs[0]]})",
                        column=differs[0],
                        got=str(schema[differs[0]]),
                    ) from None
        raise DataError(path, "data that can be read as one table", got=message) from None


def files_in(folder: Path, suffixes: Sequence[str] = ()) -> tuple[list[Path], list[str]]:
    """Every file under `folder` (ending in one of `suffixes`, if given), each read once.

    Symbolic links are followed once: a link to a file or folder already reached (a `latest ->
    checkpoint-10` beside its target) is left out, and a link back to a folder above (a loop)
    is never entered. A path without links wins over a link to the same place. Returns the
    files, sorted, and one note naming the links left out (none if there were none).
    """
    seen_dirs: set[tuple[int, int]] = set()
    seen_files: set[tuple[int, int]] = set()
    files: list[Path] = []
    skipped: list[str] = []
    links: list[Path] = []
    pending = [folder]
    while pending or links:
        if not pending:  # every real path walked: now the links, in order
            link = links.pop(0)
            try:
                target = link.stat()
            except OSError:  # a dangling link
                skipped.append(f"{link.relative_to(folder)} (dangling)")
                continue
            key = (target.st_dev, target.st_ino)
            if key in (seen_dirs if link.is_dir() else seen_files):
                skipped.append(str(link.relative_to(folder)))
            elif link.is_dir():
                pending.append(link)
            else:
                seen_files.add(key)
                if not suffixes or link.suffix.lower() in suffixes:
                    files.append(link)
            continue
        here = pending.pop()
        info = here.stat()
        if (info.st_dev, info.st_ino) in seen_dirs:
            skipped.append(str(here.relative_to(folder)))
            continue
        seen_dirs.add((info.st_dev, info.st_ino))
        for entry in sorted(here.iterdir()):
            if entry.is_symlink():
                links.append(entry)
            elif entry.is_dir():
                pending.append(entry)
            elif entry.is_file():
                stat = entry.stat()
                seen_files.add((stat.st_dev, stat.st_ino))
                if not suffixes or entry.suffix.lower() in suffixes:
                    files.append(entry)
    notes = []
    if skipped:
        notes.append(
            f"{len(skipped)} link(s) to what was already read, left out: "
            + ", ".join(sorted(skipped)[:4])
            + (" ..." if len(skipped) > 4 else "")
        )
    return sorted(files), notes


def distinct_inputs(paths: Sequence[Path]) -> None:
    """Refuse an input given twice: the same file or folder (also through a link, or a hard
    link), or a file or folder inside another input; its samples would be counted twice."""
    seen: list[tuple[Path, Path]] = []  # (as given, resolved)
    for path in paths:
        real = path.resolve()
        for given, other in seen:
            same = real == other or (real.exists() and other.exists() and real.samefile(other))
            if same or other in real.parents or real in other.parents:
                how = (
                    "the same as"
                    if same
                    else "inside"
                    if other in real.parents
                    else "a folder holding"
                )
                raise DataError(
                    path, f"each input once; this is {how} the input {given}, read already"
                )
        seen.append((path, real))
