"""TensorBoard event files (`events.out.tfevents.*`), read without TensorFlow or TensorBoard.

A file is a sequence of TFRecords: an 8-byte little-endian length, the masked CRC-32C of those
8 bytes, the record, and the record's masked CRC-32C. Each record is an `Event` protocol
buffer, decoded by `tfevents_event`; `tfevents_bulk` reads many records at a time.
"""

from __future__ import annotations

import struct
from collections.abc import Iterator
from pathlib import Path

import polars as pl

from helpers.errors import DataError
from helpers.runs.readers._common import regular_file

NAME_MARK = ".tfevents."  # in every event file's name, which ends in the writer's host name
FIRST_EVENT = b"brain.Event:"  # an event file's first record holds its file_version


def records(path: Path) -> Iterator[tuple[int, bytes]]:
    """(record number from 1, bytes) of each CRC-checked record (`records_from` the start)."""
    for number, record, _ in records_from(path):
        yield number, record


def records_from(path: Path, start: int = 0, number: int = 0) -> Iterator[tuple[int, bytes, int]]:
    """(record number, bytes, the offset after it) of each CRC-checked record from byte
    `start`, numbered on from `number` (a watch resumes where it stopped). A record cut short
    at the end of the file (a run still writing, or killed) ends the reading; a checksum that
    does not match anywhere else is an error naming the record. The file is mapped, not read
    whole: pages come and go as the records are read. Checksums are TFRecord's: CRC-32C,
    masked (rotated right by 15 bits, plus 0xA282EAD8)."""
    import mmap

    regular_file(path)
    with path.open("rb") as handle:
        if handle.seek(0, 2) <= start:
            return
        with mmap.mmap(handle.fileno(), 0, access=mmap.ACCESS_READ) as data:
            from crc32c import crc32c  # called inline: a million records call it twice each

            size, at = len(data), start
            header, footer = struct.Struct("<QI").unpack_from, struct.Struct("<I").unpack_from
            while at < size:
                number += 1
                if size - at < 12:
                    return
                length, length_crc = header(data, at)
                c = crc32c(data[at : at + 8])
                if (((c >> 15) | (c << 17)) + 0xA282EAD8) & 0xFFFFFFFF != length_crc:
                    raise DataError(
                        path, "a TensorBoard record length with its checksum", row=number
                    )
                start, end = at + 12, at + 12 + length
                if end + 4 > size:
                    return  # the last record, cut short while it was written
                record = data[start:end]
                c = crc32c(record)
                if (((c >> 15) | (c << 17)) + 0xA282EAD8) & 0xFFFFFFFF != footer(data, end)[0]:
                    raise DataError(path, "a TensorBoard record matching its checksum", row=number)
                at = end + 4
                yield number, record, at


def is_event_file(path: Path) -> bool:
    """An event file by content: its first record is a checked Event holding a file_version
    (its name need only contain '.tfevents.': the end is the writer's host name)."""
    if NAME_MARK not in path.name or not path.is_file():
        return False
    try:
        for _, data in records(path):
            return FIRST_EVENT in data[:64]
    except (DataError, OSError, struct.error):
        return False
    return False


def read_scalars(path: str | Path) -> pl.DataFrame:
    """Every scalar of one event file as rows: step, tag, value, record (its number)."""
    return scalars_from(Path(path))[0]


def scalars_from(path: Path, start: int = 0, number: int = 0) -> tuple[pl.DataFrame, int, int]:
    """The scalars of the whole records from byte `start` on (`read_scalars`' rows, numbered
    on from `number`), the offset after the last whole record, and its number: read many
    records at a time (`tfevents_bulk`), checked and decoded as `records_from` and
    `_scalars` do one at a time."""
    from helpers.runs.readers.trackers.tfevents_bulk import scalars

    regular_file(path)
    return scalars(path, start, number)


def event_files(folder: Path) -> list[Path]:
    """The event files under a folder (each link followed once), oldest first: by the time
    in the name (`events.out.tfevents.<seconds>.<host>...`), then the name."""
    from helpers.runs.readers._common import files_in

    found = [f for f in files_in(folder)[0] if is_event_file(f)]

    def written(f: Path) -> tuple[int, str]:
        stamp = f.name.split(NAME_MARK, 1)[1].split(".", 1)[0]
        return (int(stamp) if stamp.isdigit() else 0, f.name)

    return sorted(found, key=written)


# verl's validation keys as TensorBoard writers leave them: torch's and tensorboardX's
# SummaryWriter replace characters a tag may not hold with '_', so `mean@4` arrives `mean_4`
_VERL_CLEANED = r"^(val-(?:core|aux)/.+/)(mean|best|worst|maj)_(\d+)(/.*)?$"


def _trainer_names(tag: pl.Expr) -> pl.Expr:
    """Tags as Hugging Face's Trainer logs them in trainer_state.json: its TensorBoard callback
    writes `loss` as `train/loss` and `eval_accuracy` as `eval/accuracy`; verl's `mean@4`,
    which the writers turned into `mean_4`, as verl named it."""
    return (
        pl.when(tag.str.starts_with("train/"))
        .then(tag.str.strip_prefix("train/"))
        .when(tag.str.starts_with("eval/"))
        .then("eval_" + tag.str.strip_prefix("eval/"))
        .when(tag.str.contains(_VERL_CLEANED))
        .then(tag.str.replace(_VERL_CLEANED, "${1}${2}@${3}${4}"))
        .otherwise(tag)
    )


def runs(folder: Path) -> list[tuple[Path, list[Path]]]:
    """The runs under a folder: each folder holding event files is one (SummaryWriter writes
    one per run: `runs/<date>_<host>/`), with its files oldest first, folders in name order."""
    files = event_files(folder)
    if not files:
        raise DataError(folder, "TensorBoard event files (events.out.tfevents.*); found none")
    found: dict[Path, list[Path]] = {}
    for f in files:
        found.setdefault(f.parent, []).append(f)
    return sorted(found.items())


def wide(path: Path, files: list[Path] | None = None) -> pl.DataFrame:
    """One run's scalars, one row per step and one column per tag (named as in
    trainer_state.json), from an event file, the event files given, or every event file under
    a folder (a restarted run writes several: a later file's value for a step and tag
    replaces an earlier one's). `__line` holds the record number of each step's first
    scalar."""
    files = files or (event_files(path) if path.is_dir() else [path])
    if not files:
        raise DataError(path, "TensorBoard event files (events.out.tfevents.*); found none")
    return widen([read_scalars(f) for f in files])


def widen(scalars: list[pl.DataFrame]) -> pl.DataFrame:
    """`wide` of each event file's scalars (`read_scalars`' rows), oldest file first."""
    every = pl.concat([frame.with_columns(file=pl.lit(i)) for i, frame in enumerate(scalars)])
    if every.height == 0:  # event files with no scalar (an aborted launch's text summaries)
        return pl.DataFrame(schema={"step": pl.Int64, "__line": pl.Int64})
    from helpers.runs.readers.trackers.tfevents_bulk import wide as fast

    tags = every["tag"].unique(maintain_order=True)
    renamed = tags.to_frame().select(_trainer_names(pl.col("tag")))["tag"].to_list()
    names = list(dict.fromkeys(renamed))
    number = {name: i for i, name in enumerate(names)}
    codes = every["tag"].replace_strict(tags, [number[r] for r in renamed], return_dtype=pl.Int64)
    table = fast(every, codes.to_numpy(), names)
    if table is not None:
        return table
    every = (
        every.with_columns(tag=_trainer_names(pl.col("tag")))
        .sort("file", "record")
        .unique(["step", "tag"], keep="last", maintain_order=True)
    )
    lines = every.group_by("step").agg(__line=pl.col("record").min())
    table = every.pivot(on="tag", index="step", values="value", aggregate_function="last")
    return table.join(lines, on="step").sort("step")


def store_runs(path: Path, mapping: dict) -> list:
    """A folder of event files as a tracker's store: a run per folder that holds scalars."""
    found = []
    for folder, files in runs(path):
        table = wide(folder, files)
        if table.height:
            name = folder.relative_to(path).as_posix() if folder != path else folder.name
            found.append((name, (), lambda t=table: (t, [])))
    return found
