"""TensorBoard event files' scalars read many records at a time (`tfevents.scalars_from`).

Read one record at a time (a generator step, two CRC calls, a protobuf walk and a row tuple
each) a log of 400,000 scalars took seconds. Here only finding where each record starts is a
walk (each record's length says where the next begins), foretold thousands at a time where
record sizes repeat (`walk`); the checks and the decoding are numpy operations over all the
records of a window:

- the length's checksum depends only on the length: computed once per distinct length;
- the records' CRC-32C, by `wire.bulk.Crcs`, for all the records of one length together
  (lengths few records share, and long ones, one `crc32c` call each);
- the scalar every SummaryWriter writes, one value an event, decoded by positions:

    Event    wall_time = 1 (0x09, fixed64), step = 2 (0x10, varint), summary = 5 (0x2A)
    Summary  value = 1 (0x0A), one
    Value    tag = 1 (0x0A), simple_value = 2 (0x15, float)

Every other record (the file_version, text summaries, several values an event, TF 2's
tensors) is decoded by `tfevents_event._scalars` as before, and the rows keep record order.
"""

from __future__ import annotations

import struct
from pathlib import Path

import numpy as np
import polars as pl

from helpers.errors import DataError
from helpers.runs.readers.trackers.tfevents_event import SCALARS, _scalars
from helpers.runs.readers.wire.bulk import Crcs, codes, lengths, unaligned, varints

FORETELL_AFTER = 256  # records walked one at a time before the next are foretold
FORETOLD = 16384  # records foretold at a time...
FORETOLD_BYTES = 4 * 2**20  # ...within this many bytes (large records: fewer)
WINDOW = 32 * 2**20  # bytes of records decoded together: what is held besides the results
TABLED = 128  # records up to this length are checked by tables, when...
SHARED = 256  # ...at least this many share their length
MASK = 0xA282EAD8  # TFRecord masks its CRCs: rotated right by 15 bits, plus this
_crcs: Crcs | None = None


def _masked(crc: np.ndarray) -> np.ndarray:
    """CRCs masked as TFRecord stores them (a CRC of data holding CRCs is then no weaker)."""
    crc = crc.astype(np.uint64)
    return (((crc >> 15) | (crc << 17)) + MASK) & 0xFFFFFFFF


def walk(data, start: int) -> tuple[np.ndarray, int | None]:
    """Where each whole record from `start` begins, and where a record cut short by the end
    of the data begins (its length still to be checked), or None. A damaged length sends the
    walk astray from there on: the length checks find the first such record.

    A SummaryWriter logs the same tags in the same order step after step, so record sizes
    repeat with a period: where the last ones walked do, the next thousands are foretold and
    their lengths checked all at once (`_foretold`), the walk going on one record at a time
    from the first that differs. Where sizes do not repeat, it walks one at a time, trying
    again less and less often."""
    size, at = len(data), start
    blocks: list[np.ndarray] = []
    found: list[int] = []
    length = struct.Struct("<Q").unpack_from
    alone = FORETELL_AFTER
    while True:
        for _ in range(alone):
            if at + 12 > size:
                return np.concatenate([*blocks, np.array(found, dtype=np.int64)]), None
            after = at + length(data, at)[0] + 16
            if after > size:
                return np.concatenate([*blocks, np.array(found, dtype=np.int64)]), at
            found.append(at)
            at = after
        ahead, at = _foretold(data, found[-FORETELL_AFTER:], at)
        if ahead.size:
            blocks += [np.array(found, dtype=np.int64), ahead]
            found = []
        alone = FORETELL_AFTER if ahead.size else min(alone * 2, 4096)


def _foretold(data, recent: list[int], at: int) -> tuple[np.ndarray, int]:
    """The starts of the records from `at` on whose sizes repeat those of the `recent` ones
    (the smallest period they repeat with), up to the first that does not, and where the
    record after them starts; none where the recent sizes do not repeat."""
    sizes = np.diff(np.array([*recent, at], dtype=np.int64))
    period = next((p for p in range(1, len(sizes) // 2 + 1) if (sizes[p:] == sizes[:-p]).all()), 0)
    if not period:
        return np.zeros(0, dtype=np.int64), at
    foretold = np.tile(sizes[-period:], FORETOLD // period + 1)[:FORETOLD]
    ends = at + np.cumsum(foretold)
    whole = int(np.searchsorted(ends, min(len(data), at + FORETOLD_BYTES), side="right"))
    if not whole:
        return np.zeros(0, dtype=np.int64), at
    ends, foretold = ends[:whole], foretold[:whole]
    u8 = np.frombuffer(data[at : int(ends[-1])], dtype=np.uint8)
    lengths = unaligned(u8, "<u8")
    starts = ends - foretold
    same = lengths[starts - at].astype(np.int64) + 16 == foretold
    kept = whole if same.all() else int(np.argmin(same))
    return starts[:kept], int(ends[kept - 1]) if kept else at


def _first_bad(u8: np.ndarray, starts: np.ndarray) -> tuple | None:
    """(index, what: 0 its length, 1 its data) of the first record of the window whose
    length or data does not match its checksum, or None."""
    from crc32c import crc32c

    global _crcs
    heads = unaligned(u8, "<u8")
    quads = unaligned(u8, "<u4")
    sizes = heads[starts].astype(np.int64)
    kinds, where = np.unique(sizes, return_inverse=True)
    expected = _masked(np.array([crc32c(struct.pack("<Q", k)) for k in kinds.tolist()]))
    bad_length = np.flatnonzero(quads[starts + 8] != expected[where.reshape(-1)])
    _crcs = _crcs or Crcs(crc32c)
    got = np.zeros(len(starts), dtype=np.uint32)
    order = np.argsort(where.reshape(-1), kind="stable")
    bounds = np.cumsum(np.bincount(where.reshape(-1), minlength=len(kinds)))
    view = memoryview(u8)
    for size, rows in zip(kinds.tolist(), np.split(order, bounds[:-1]), strict=True):
        if size <= TABLED and len(rows) >= SHARED:
            got[rows] = _crcs.of(u8, starts[rows] + 12, size)
        else:
            got[rows] = [crc32c(view[s : s + size]) for s in (starts[rows] + 12).tolist()]
    bad_data = np.flatnonzero(quads[starts + 12 + sizes] != _masked(got))
    first = [(int(b[0]), what) for b, what in ((bad_length, 0), (bad_data, 1)) if b.size]
    return min(first) if first else None


def _simple(u8: np.ndarray, begin: np.ndarray, end: np.ndarray) -> tuple:
    """The records [begin, end) laid out as the module's docstring says: (which are, their
    step as int64, tag start, tag size, value position)."""
    last = len(u8) - 1

    def byte(at: np.ndarray) -> np.ndarray:
        return u8[np.minimum(at, last)]

    fits = (byte(begin) == 0x09) & (end - begin >= 16)
    stepped = byte(begin + 9) == 0x10  # a step of 0 is not written
    step, after, whole = varints(u8, begin + 10)
    fits &= whole | ~stepped
    at = np.where(stepped, after, begin + 9)
    fits &= byte(at) == 0x2A
    summary, summary_end, whole = lengths(u8, at + 1, end)
    fits &= whole & (summary_end == end) & (byte(summary) == 0x0A)
    value, value_end, whole = lengths(u8, summary + 1, end)
    fits &= whole & (value_end == end) & (byte(value) == 0x0A)
    tag, tag_end, whole = lengths(u8, value + 1, end)
    fits &= whole & (tag_end + 5 == end) & (byte(tag_end) == 0x15)
    step = np.where(stepped, step, 0).view(np.int64)
    return fits, step, tag, tag_end - tag, tag_end + 1


def _rows(path: Path, u8: np.ndarray, starts: np.ndarray, numbers: np.ndarray) -> list:
    """The scalars of the window's records (`starts` in `u8`, numbered `numbers`) as frames
    (`SCALARS`' columns) in record order."""
    sizes = unaligned(u8, "<u8")[starts]
    begin = starts + 12
    fits, step, tag, tag_size, value = _simple(u8, begin, begin + sizes.astype(np.int64))
    keyed = codes(u8, tag[fits], tag_size[fits]) if fits.any() else None
    if keyed is None:
        fits[:] = False
        keyed = (np.zeros(0, dtype=np.int64), [])
    code, raw = keyed
    names = pl.Series([t.decode("utf-8", "replace") for t in raw], dtype=pl.String)
    floats = unaligned(u8, "<f4")
    fast = pl.DataFrame(
        {
            "step": step[fits],
            "tag": names.gather(code),
            "value": floats[value[fits]].astype(np.float64),
            "record": numbers[fits],
        },
        schema=SCALARS,
    )
    slow = []
    for i in np.flatnonzero(~fits).tolist():
        data = u8[begin[i] : begin[i] + int(sizes[i])].tobytes()
        try:
            parsed = _scalars(data)
        except (ValueError, IndexError, struct.error):
            raise DataError(path, "a TensorBoard Event record", row=int(numbers[i])) from None
        if parsed is not None:
            slow += [(parsed[0], t, v, int(numbers[i])) for t, v in parsed[1]]
    if not slow:
        return [fast]
    rows = pl.concat([fast, pl.DataFrame(slow, schema=SCALARS, orient="row")])
    return [rows.sort("record", maintain_order=True)]


def scalars(path: Path, start: int, number: int) -> tuple[pl.DataFrame, int, int]:
    """`tfevents.scalars_from`: the scalars of the whole records from byte `start` on, the
    offset after the last one and its number; a record whose length or data does not match
    its checksum, or that does not decode, is a DataError naming it (the first such); one cut
    short at the end ends the reading."""
    import mmap

    frames = [pl.DataFrame(schema=SCALARS)]
    with path.open("rb") as handle:
        if handle.seek(0, 2) <= start:
            return frames[0], start, number
        with mmap.mmap(handle.fileno(), 0, access=mmap.ACCESS_READ) as data:
            starts, cut = walk(data, start)
            end = int(starts[-1]) + _size(data, starts[-1]) if len(starts) else start
            for lo, hi in _windows(starts, end):
                window = data[int(starts[lo]) : int(starts[hi - 1]) + _size(data, starts[hi - 1])]
                u8 = np.frombuffer(window + bytes(16), dtype=np.uint8)
                local = starts[lo:hi] - starts[lo]
                numbers = np.arange(number + lo + 1, number + hi + 1, dtype=np.int64)
                bad = _first_bad(u8, local)
                upto = hi - lo if bad is None else bad[0]
                frames += _rows(path, u8, local[:upto], numbers[:upto])
                if bad is not None:
                    raise _checksum_error(path, int(numbers[upto]), bad[1])
            if cut is not None:
                _check_cut(path, data, cut, number + len(starts) + 1)
    frame = pl.concat(frames) if len(frames) > 2 else frames[-1]
    return frame, end, number + len(starts)


def _size(data, start: int) -> int:
    """The bytes of the record at `start`, framing included."""
    return struct.unpack_from("<Q", data, int(start))[0] + 16


def _windows(starts: np.ndarray, end: int) -> list[tuple[int, int]]:
    """The records in runs of about WINDOW bytes: (first, after last) indices."""
    if not len(starts):
        return []
    first = int(starts[0])
    cuts = np.searchsorted(starts - first, np.arange(WINDOW, end - first, WINDOW))
    bounds = [0, *sorted(set(cuts.tolist()) - {0, len(starts)}), len(starts)]
    return list(zip(bounds[:-1], bounds[1:], strict=False))


def _checksum_error(path: Path, number: int, what: int) -> DataError:
    """The error `tfevents.records_from` raises for record `number`'s length (`what` 0) or
    data (1) not matching its checksum."""
    if what == 0:
        return DataError(path, "a TensorBoard record length with its checksum", row=number)
    return DataError(path, "a TensorBoard record matching its checksum", row=number)


def _check_cut(path: Path, data, at: int, number: int) -> None:
    """A record cut short at the end ends the reading, unless its length is damaged."""
    from crc32c import crc32c

    _, length_crc = struct.unpack_from("<QI", data, at)
    expected = _masked(np.array([crc32c(data[at : at + 8])]))[0]
    if int(expected) != length_crc:
        raise _checksum_error(path, number, 0)


def wide(every: pl.DataFrame, tag: np.ndarray, names: list[str]) -> pl.DataFrame | None:
    """`tfevents.widen`'s table from its rows (`file`, `record`, `step`, `value`), each row's
    tag given as its index in `names` (as trainer_state.json names them), without a pivot: a
    value per step and tag, the last logged winning; the tags' columns in the order they
    first appear among the values kept; `__line` each step's first record. None where a tag
    is named `step` or `__line` (the pivot says what then)."""
    if {"step", "__line"} & set(names):
        return None
    order = np.lexsort((every["record"].to_numpy(), every["file"].to_numpy()))
    tag = tag[order]
    steps, step = np.unique(every["step"].to_numpy()[order], return_inverse=True)
    key = step.astype(np.int64) * len(names) + tag
    _, last = np.unique(key[::-1], return_index=True)
    kept = np.sort(len(key) - 1 - last)  # each step and tag's last row, in row order
    step, tag = step[kept], tag[kept]
    _, seen = np.unique(tag, return_index=True)
    columns = np.argsort(seen, kind="stable")  # tags by their first kept row
    values = np.zeros((len(steps), len(names)))
    values[step, tag] = every["value"].to_numpy()[order][kept]
    present = np.zeros((len(steps), len(names)), dtype=bool)
    present[step, tag] = True
    lines = np.full(len(steps), np.iinfo(np.int64).max)
    np.minimum.at(lines, step, every["record"].to_numpy()[order][kept])
    table = {"step": steps}
    for t in columns.tolist():
        table[str(names[t])] = pl.Series(values[:, t]).scatter(np.flatnonzero(~present[:, t]), None)
    return pl.DataFrame(table).with_columns(__line=pl.Series(lines, dtype=pl.Int64))
