"""The bulk decoders (helpers.runs.readers.wire.bulk and the tracker readers built on it) give
what the one-at-a-time decoders give, on records made here to reach every path: the layout
the bulk path takes, and each way a record falls back to the field-by-field reader."""

from __future__ import annotations

import json
import struct
import zlib

import numpy as np
import polars as pl
import pytest
from crc32c import crc32c

from helpers.runs.readers.trackers import tfevents_bulk, wandb_history, wandb_store
from helpers.runs.readers.wire import bulk
from helpers.runs.readers.wire.protobuf import varint


def _varint(value: int) -> bytes:
    out = bytearray()
    while True:
        byte, value = value & 0x7F, value >> 7
        out.append(byte | (0x80 if value else 0))
        if not value:
            return bytes(out)


def _field(number: int, data: bytes) -> bytes:
    return _varint(number << 3 | 2) + _varint(len(data)) + data


def test_varints_read_as_the_one_at_a_time_reader_reads_them():
    values = [0, 1, 127, 128, 300, 2**21, 2**35 + 7, 2**63, 2**64 - 1]
    data = b"".join(_varint(v) for v in values) + bytes(4)
    at, starts = 0, []
    for v in values:
        starts.append(at)
        at += len(_varint(v))
    got, after, whole = bulk.varints(np.frombuffer(data, np.uint8), np.array(starts))
    assert got.tolist() == values and whole.all()
    assert after.tolist() == [varint(data, s)[1] for s in starts]
    cut = np.frombuffer(b"\x80\x80", np.uint8)  # runs past the end: not whole
    assert not bulk.varints(cut, np.array([0]))[2][0]


@pytest.mark.parametrize("crc", [crc32c, zlib.crc32])
def test_crc_tables_give_the_library_s_crc(crc):
    rng = np.random.default_rng(3)
    u8 = np.frombuffer(rng.bytes(5000), np.uint8)
    tables = bulk.Crcs(crc)
    for size in (1, 2, 7, 44, 127):
        starts = rng.integers(0, 5000 - size, 50)
        want = [crc(u8[s : s + size].tobytes()) for s in starts]
        assert tables.of(u8, starts, size).tolist() == want


def test_codes_tell_strings_apart_by_their_bytes():
    words = [b"", b"a", b"loss", b"val-core/src26/acc/mean@4", b"val-core/src27/acc/mean@4"]
    words += [b"x" * 40, b"x" * 41, b"\xff\xfe"]
    order = [3, 4, 0, 1, 2, 3, 5, 6, 7, 4, 1]
    data = b"".join(words[i] for i in order) + bytes(8)
    sizes = np.array([len(words[i]) for i in order])
    starts = np.cumsum(sizes) - sizes
    code, values = bulk.codes(np.frombuffer(data, np.uint8), starts, sizes)
    assert [values[c] for c in code] == [words[i] for i in order]
    assert len(values) == len(set(order))


def test_codes_of_thousands_of_strings_as_of_a_few():
    """Past the first strings' table (keys first seen late, half of them) and for few keys or
    thousands, each string's code stands for its own bytes."""
    rng = np.random.default_rng(5)
    for distinct in (5_000, 300, 40):
        keys = [f"val-core/src{i}/acc/mean@{i % 7}".encode() for i in range(distinct)]
        order = rng.integers(0, distinct, 12_000)
        order[: bulk._SAMPLE] %= max(distinct // 2, 1)  # the other half first seen after
        data = b"".join(keys[i] for i in order) + bytes(8)
        sizes = np.array([len(keys[i]) for i in order])
        code, values = bulk.codes(np.frombuffer(data, np.uint8), np.cumsum(sizes) - sizes, sizes)
        assert [values[c] for c in code] == [keys[i] for i in order]
        assert sorted(values) == sorted({keys[i] for i in order})


def test_hashes_are_found_by_their_table_or_searched_for(monkeypatch):
    """A hash is found where it is and a hash not among them is not, though it share every
    bit the table reads (it differs in the lowest, which no window holds): by the table where
    a window tells the hashes apart, by a binary search where none does."""
    rng = np.random.default_rng(8)
    hashes = np.unique(rng.integers(0, 2**63, 300, dtype=np.uint64) * np.uint64(2))  # even
    absent = hashes ^ np.uint64(1)  # odd: none of them among the hashes
    queries = np.concatenate([hashes, absent])
    want = [*range(len(hashes)), *[len(hashes)] * len(hashes)]
    searched = []
    search = np.searchsorted
    monkeypatch.setattr(bulk.np, "searchsorted", lambda *a: searched.append(1) or search(*a))
    assert bulk._lookup(hashes, queries).tolist() == want
    assert not searched  # a window told these apart
    twins = np.unique(np.concatenate([hashes, absent[:1]]))  # two share every window
    found = bulk._lookup(twins, queries)
    assert searched
    assert twins[found[found < len(twins)]].tolist() == queries[found < len(twins)].tolist()
    assert (found < len(twins)).sum() == len(hashes) + 1
    assert bulk._lookup(hashes[:0], queries[:3]).tolist() == [0, 0, 0]  # none to find


def _item(key: str | bytes, value: bytes | None = None, *, nested=(), extra=b"") -> bytes:
    body = _field(1, key.encode() if isinstance(key, str) else key) if key else b""
    body += b"".join(_field(2, part.encode()) for part in nested)
    return body + extra + (_field(16, value) if value is not None else b"")


def _record(items: list[bytes], step: int | None = None) -> bytes:
    body = b"".join(_field(1, item) for item in items)
    return body + (_field(2, b"\x08" + _varint(step)) if step is not None else b"")


def _one_at_a_time(payloads: list[bytes]) -> pl.DataFrame:
    history = wandb_store.History()
    for number, payload in enumerate(payloads, 1):
        history.add(number, *wandb_store._history(payload))
    return history.frame()


def _in_bulk(payloads: list[bytes]) -> pl.DataFrame:
    history = wandb_store.History()
    frame, slow = wandb_history.decode(payloads, list(range(1, len(payloads) + 1)), _step_of)
    rows = wandb_store.History()
    for i in slow:
        rows.add(i + 1, *wandb_store._history(payloads[i]))
    parts = [p for p in (frame, rows.frame() if rows else None) if p is not None]
    joined = pl.concat(parts, how="diagonal").sort("__line", maintain_order=True)
    history.extend(joined)
    return history.frame()


def _step_of(payload: bytes) -> int:
    return wandb_store._history(payload)[1]


def test_history_records_decoded_together_as_one_at_a_time():
    """The layout wandb writes, with what it may hold: a key logged twice (the later wins), a
    record without `_step` (its step), JSON null, NaN and text; records laid out otherwise
    (a typed number, a nested key of two parts, an empty value) or holding what the text
    table cannot carry (bytes not UTF-8, a carriage return) are read the slow way, in
    their place."""
    typed = struct.pack("<d", 0.25)
    payloads = [
        _record([_item("_step", b"0"), _item("acc", b"0.5"), _item("note", b'"a,b"')]),
        _record([_item("", b"1", nested=["_step"]), _item("acc", b"NaN"), _item("acc", b"0.7")]),
        _record([_item("acc", b"null")], step=7),
        _record([_item("_step", b"3"), _item("acc", None, extra=b"\x31" + typed)]),
        _record([_item("_step", b"4"), _item("", b"1", nested=["a", "b"])]),
        _record([_item("_step", b"5"), _item("acc", b"")]),
        _record([_item("_step", b"6"), _item(b"\xff", b"1")]),
        _record([_item("_step", b"7"), _item("long", json.dumps("x" * 300).encode())]),
        _record([]),
        _record([_item("_step", b"8"), _item("acc", b"\xff0.5"), _item("cr", b"1\r")]),
    ]
    assert _in_bulk(payloads).equals(_one_at_a_time(payloads))
    fast = payloads[:3] + payloads[7:9]
    frame, slow = wandb_history.decode(fast, list(range(1, len(fast) + 1)), _step_of)
    assert slow == [] and frame.height == len(fast)


def _event(step: int, tag: str, value: float, *, wall: float = 1.5) -> bytes:
    inner = _field(1, tag.encode()) + b"\x15" + struct.pack("<f", value)
    summary = _field(1, inner)
    head = b"\x09" + struct.pack("<d", wall) + (b"\x10" + _varint(step) if step else b"")
    return head + _field(5, summary)


def _framed(records: list[bytes]) -> bytes:
    def masked(data: bytes) -> bytes:
        c = crc32c(data)
        return struct.pack("<I", (((c >> 15) | (c << 17)) + 0xA282EAD8) & 0xFFFFFFFF)

    out = b""
    for r in records:
        length = struct.pack("<Q", len(r))
        out += length + masked(length) + r + masked(r)
    return out


def test_event_records_read_together_as_one_at_a_time(tmp_path):
    """SummaryWriter's one-scalar events (step 0 unwritten, steps past one varint byte) and
    others (two values in one event, a text summary) in one file: the rows `_scalars` gives
    one record at a time, in record order; the walk finds the same starts where sizes
    repeat and where they stop repeating."""
    from helpers.runs.readers.trackers import tfevents, tfevents_event

    records = [_event(0, "train/loss", 0.5)]
    records += [_event(s, f"t{s % 3}", s / 7) for s in range(1, 3000)]
    two = _field(1, _field(1, b"a") + b"\x15" + struct.pack("<f", 1.0))
    two += _field(1, _field(1, b"b") + b"\x15" + struct.pack("<f", 2.0))
    records.insert(1500, b"\x09" + struct.pack("<d", 2.0) + b"\x10\x05" + _field(5, two))
    records.insert(10, b"\x09" + struct.pack("<d", 2.0) + _field(5, _field(1, _field(1, b"t"))))
    path = tmp_path / "events.out.tfevents.1.host"
    path.write_bytes(_framed(records))
    rows = []
    for number, data in tfevents.records(path):
        parsed = tfevents_event._scalars(data)
        if parsed:
            rows += [(parsed[0], t, v, number) for t, v in parsed[1]]
    want = pl.DataFrame(rows, schema=tfevents_event.SCALARS, orient="row")
    frame, end, number = tfevents_bulk.scalars(path, 0, 0)
    assert frame.equals(want) and end == path.stat().st_size and number == len(records)
    starts, cut = tfevents_bulk.walk(path.read_bytes()[:-5], 0)
    assert len(starts) == len(records) - 1 and cut is not None


def test_event_records_read_in_windows_and_damage_named(tmp_path, monkeypatch):
    """Records read a few kilobytes at a time give the same rows; a record whose data or
    length was damaged, in a later window, is the error naming it, and records cut short at
    the end are left for the next look."""
    from helpers import DataError

    records = [_event(s, f"train/t{s % 5}", s / 3) for s in range(2000)]
    data = _framed(records)
    path = tmp_path / "events.out.tfevents.1.host"
    path.write_bytes(data)
    whole = tfevents_bulk.scalars(path, 0, 0)
    monkeypatch.setattr(tfevents_bulk, "WINDOW", 4096)
    windowed = tfevents_bulk.scalars(path, 0, 0)
    assert windowed[0].equals(whole[0]) and windowed[1:] == whole[1:]
    starts, _ = tfevents_bulk.walk(data, 0)
    for at, what in (
        (int(starts[1500]) + 14, "matching its checksum"),
        (int(starts[1700]) + 2, "length"),
    ):
        damaged = bytearray(data)
        damaged[at] ^= 0x10
        path.write_bytes(bytes(damaged))
        with pytest.raises(DataError, match=what) as error:
            tfevents_bulk.scalars(path, 0, 0)
        assert f"row {1501 if what != 'length' else 1701}" in str(error.value)
    path.write_bytes(data[:-7])
    frame, end, number = tfevents_bulk.scalars(path, 0, 0)
    assert number == 1999 and frame.height == 1999 and end == int(starts[-1])


def test_history_records_of_keys_few_share_decoded_as_one_at_a_time():
    """Records whose keys most others lack (a key a step) make a sparse table, laid out
    mark by mark rather than a slot a cell: the same rows."""
    payloads = [
        _record([_item("_step", str(s).encode()), _item(f"k{s}", b"0.5")]) for s in range(40)
    ]
    frame, slow = wandb_history.decode(payloads, list(range(1, 41)), _step_of)
    assert slow == [] and _in_bulk(payloads).equals(_one_at_a_time(payloads))
