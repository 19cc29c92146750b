"""The framing of W&B's transaction log (`run-<id>.wandb`), read without wandb: the records
of the file, each checked against its CRC. As wandb 0.31's `core/pkg/leveldb/record.go` and
`core/internal/transactionlog/` write it:

    header  ':W&B', 0xBEE1 (uint16, little-endian), version 0: the file's first 7 bytes
    blocks  of 32 KiB from the start of the file (the header takes the first block's first
            7 bytes); a chunk never crosses a block's end, and fewer than 7 bytes left at a
            block's end are zero padding
    chunk   CRC-32 (IEEE, the zlib one, unmasked) of the type byte and the data (uint32,
            little-endian), data length (uint16), type (1 a whole record, 2 first, 3 middle,
            4 last chunk of one), data
    record  the data of its chunks: one `Record` protocol buffer (wandb/proto/wandb_internal.proto),
            decoded by `wandb_store`

SwanLab's run logs (`run-<id>.swanlab`, `backup.swanlab`) are framed the same way (its
writer says it follows W&B's) behind their own header, ':SWL' and 0xE1D6: `swanlab_store`
reads them with `Records` too.
"""

from __future__ import annotations

import struct
import zlib
from collections.abc import Iterator
from pathlib import Path

from helpers.errors import DataError
from helpers.runs.readers._common import regular_file
from helpers.runs.readers.wire.magic import starts_with

HEADER = b":W&B" + struct.pack("<H", 0xBEE1)  # then the version byte
VERSION = 0
BLOCK = 32 * 1024
CHUNK = 7  # a chunk's header: checksum, length, type
FULL, FIRST, MIDDLE, LAST = 1, 2, 3, 4


def is_wandb_file(path: Path) -> bool:
    """A W&B transaction log by content: its first bytes are ':W&B' and W&B's magic number."""
    return starts_with(path, HEADER)


class Records:
    """The CRC-checked records of one .wandb file (or another tracker's log framed so:
    `header`, then a version byte among `versions`), as (record number from 1, byte offset,
    data). A record cut short at the end (a run killed, or still writing) ends the reading
    and is counted in `unread` (bytes); a checksum that does not match, or chunks out of
    order, is a DataError naming the record and its offset. `start` (with `count`, the records
    before it) reads on from where a record begins, the `end` of an earlier reading: a watch's
    next look at a log that grew."""

    def __init__(
        self,
        path: Path,
        header: bytes = HEADER,
        versions: tuple[int, ...] = (VERSION,),
        tracker: str = "W&B",
        start: int = 0,
        count: int = 0,
    ) -> None:
        self.path = path
        self.header, self.versions, self.tracker = header, versions, tracker
        self.version = versions[0]
        self.unread = 0  # bytes at the end that hold no complete record
        self.count = count
        self.start = start
        self.end = start  # where the record after the last whole one begins

    def error(self, what: str, offset: int, number: int | None = None) -> DataError:
        """A DataError naming the damaged record (the one being read unless `number`)."""
        number = self.count + 1 if number is None else number
        return DataError(
            self.path, f"{what} (record {number}, at byte {offset:,}; the file is damaged there)"
        )

    def _check_header(self, block: bytes) -> None:
        header, name = self.header, self.tracker
        if block[: len(header)] != header or len(block) < len(header) + 1:
            start = header[:4].decode()
            raise DataError(self.path, f"a {name} transaction log (starting {start!r})", row=1)
        self.version = block[len(header)]
        if self.version not in self.versions:
            raise DataError(
                self.path,
                f"a {name} transaction log of version {' or '.join(map(str, self.versions))}",
                got=f"version {self.version}",
            )

    def __iter__(self) -> Iterator[tuple[int, int, bytes]]:
        regular_file(self.path)
        size = self.path.stat().st_size
        with self.path.open("rb") as handle:
            header, name = self.header, self.tracker
            if self.start:  # read on: from the block holding where the next record begins
                start = self.start - self.start % BLOCK
                handle.seek(start)
                block, at = handle.read(BLOCK), self.start - start
            else:
                block = handle.read(BLOCK)
                self._check_header(block)
                start, at = 0, len(header) + 1  # the block's offset in the file; where in it
            parts: list[bytes] = []
            first = 0  # offset of the record being gathered
            while True:
                if at + CHUNK > len(block):  # padding, or the end of the file
                    if len(block) < BLOCK:
                        if at < len(block) and any(block[at:]):
                            self.unread = size - (first if parts else start + at)
                        elif parts:
                            self.unread = size - first
                        return
                    start += len(block)
                    block, at = handle.read(BLOCK), 0
                    if not block:
                        self.unread = size - first if parts else 0
                        return
                    continue
                crc, length, kind = struct.unpack_from("<IHB", block, at)
                offset = start + at
                if crc == 0 and length == 0 and kind == 0:
                    if not parts:  # a zeroed block's remainder, which W&B's reader skips
                        at = len(block)
                        continue
                    if len(block) < BLOCK and not any(block[at:]):  # zeros where a killed
                        self.unread = size - first  # run's last record was to be written
                        return
                end = at + CHUNK + length
                if end > BLOCK:
                    raise self.error(f"a {name} chunk that ends within its 32 KiB block", offset)
                if end > len(block):  # the file ends inside this chunk
                    self.unread = size - (first if parts else offset)
                    return
                if zlib.crc32(block[at + CHUNK - 1 : end]) != crc:
                    raise self.error(f"a {name} record matching its checksum", offset)
                data = block[at + CHUNK : end]
                at = end
                if kind == FULL and not parts:
                    self.count += 1
                    self.end = start + at
                    yield self.count, offset, data
                elif kind == FIRST and not parts:
                    first, parts = offset, [data]
                elif kind in (MIDDLE, LAST) and parts:
                    parts.append(data)
                    if kind == LAST:
                        self.count += 1
                        self.end = start + at
                        yield self.count, first, b"".join(parts)
                        parts = []
                else:
                    raise self.error(
                        f"{name} chunks in order (a chunk of type {kind} here)", offset
                    )
