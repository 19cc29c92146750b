"""W&B history records decoded many at a time (`wandb_store` gathers them as it reads a log).

A long run's log holds two million history items; read one Python call per field, they took
seconds. Here the records of a batch are walked together with numpy (`wire.bulk`): every
record's items side by side, then every item's key and value, and the values laid out as
one text table (a row per record, a column per key) that polars' CSV reader turns into
String columns at once. Only the layout wandb writes is taken so:

    HistoryRecord  (item = 1: one HistoryItem)* then at most one step = 2, in any order
    HistoryItem    key = 1 or one nested_key = 2, then value_json = 16 (not empty)

A record laid out otherwise (typed values, a nested key of several parts, bytes the text
table cannot carry) is read by `wandb_store`'s field-by-field decoder, which also names a
damaged record; the rows come out in record order either way.
"""

from __future__ import annotations

import numpy as np
import polars as pl

from helpers.runs.readers.wire.bulk import codes, lengths, spans, unaligned

PAD = 16  # zero bytes after a batch's records: word reads past the last string stay inside
ITEM, STEP = 0x0A, 0x12  # HistoryRecord's field keys: item (1) and step (2), length-delimited
KEYS = (0x0A, 0x12)  # HistoryItem's key (1) and nested_key (2)
VALUE_JSON = (0x82, 0x01)  # HistoryItem's value_json (16): a two-byte field key
SEPARATOR, NEWLINE = 0x1F, 0x0A  # the text table's: no JSON value holds either unescaped
SLOT = 32  # a batch with a value this long (a text) is laid out by spans, not `_slotted`


def _items(u8: np.ndarray, starts: np.ndarray, ends: np.ndarray) -> tuple:
    """Each record's fields, all records a field at a time: the items' (record, start, end)
    in the order they lie in `u8` (later reads go through the bytes in order, not hopping
    between records), and which records hold anything but items and a step (read slowly;
    the step is read where a record logged no `_step`)."""
    ranks, item_starts, item_ends, owners = [], [], [], []
    slow = np.zeros(len(starts), dtype=bool)
    count = np.zeros(len(starts), dtype=np.int64)  # items found in each record so far
    at = starts.copy()
    going = np.flatnonzero(at < ends)
    while going.size:
        here, limit = at[going], ends[going]
        key = u8[here]
        start, end, fits = lengths(u8, here + 1, limit)
        item, step = fits & (key == ITEM), fits & (key == STEP)
        slow[going[~(item | step)]] = True
        mine = going[item]
        owners.append(mine)
        ranks.append(count[mine])
        count[mine] += 1
        item_starts.append(start[item])
        item_ends.append(end[item])
        at[going] = end
        going = going[(item | step) & (end < limit)]
    if not owners:
        empty = np.zeros(0, dtype=np.int64)
        return empty, empty, empty, slow
    place = (np.cumsum(count) - count)[np.concatenate(owners)] + np.concatenate(ranks)
    found = []
    for parts in (item_starts, item_ends):
        laid = np.empty(len(place), dtype=np.int64)
        laid[place] = np.concatenate(parts)
        found.append(laid)
    owner = np.repeat(np.arange(len(starts)), count)
    return owner, found[0], found[1], slow


def _key_values(u8: np.ndarray, starts: np.ndarray, ends: np.ndarray) -> tuple:
    """Each item's key (start, size) and value_json (start, size), and whether it is laid
    out as the module's docstring says."""
    key = u8[starts]
    key_start, key_end, fits = lengths(u8, starts + 1, ends)
    tag = np.minimum(key_end, len(u8) - 2)
    fits &= (key == KEYS[0]) | (key == KEYS[1])
    fits &= (u8[tag] == VALUE_JSON[0]) & (u8[tag + 1] == VALUE_JSON[1])
    value_start, value_end, whole = lengths(u8, key_end + 2, ends)
    fits &= whole & (value_end == ends) & (value_end > value_start)
    return key_start, key_end - key_start, value_start, value_end - value_start, fits


def _table(u8: np.ndarray, cells: np.ndarray, value_start, value_size) -> bytes:
    """The text table of `cells` (a row per record, a column per key: the item whose value
    goes there, -1 for none): values joined by SEPARATOR, rows ended by NEWLINE; or b''
    where a value holds either byte (then the records are read slowly)."""
    rows, columns = cells.shape
    flat = cells.reshape(-1)
    some = flat >= 0
    size = np.zeros(flat.size, dtype=np.int64)
    size[some] = value_size[flat[some]]
    if size.max(initial=0) < SLOT and flat.size <= 4 * max(int(some.sum()), 1):
        out = _slotted(u8, flat, value_start, size, columns)
    else:  # a long value (a text), or keys most records lack: the marks, then the values
        ends = np.cumsum(size + 1)
        out = np.full(int(ends[-1]), SEPARATOR, dtype=np.uint8)
        out[ends[columns - 1 :: columns] - 1] = NEWLINE
        filled = np.flatnonzero(some)
        at, sizes = value_start[flat[filled]], size[filled]
        out[spans(ends[filled] - sizes - 1, sizes, len(out))] = u8[spans(at, sizes, len(u8))]
    if np.count_nonzero(out == SEPARATOR) != rows * (columns - 1):
        return b""
    if np.count_nonzero(out == NEWLINE) != rows or np.count_nonzero(out == 0x0D):
        return b""
    return out.tobytes()


def _slotted(u8: np.ndarray, flat: np.ndarray, value_start, size, columns: int) -> np.ndarray:
    """`_table`'s bytes where every value is shorter than SLOT: each cell a slot of as many
    8-byte words as the longest value and its mark take, its value copied in a word at a time
    (a number's twenty bytes are three word copies, not twenty byte ones), the mark after it
    (an empty cell keeps only its mark), and the slots' used bytes kept in order."""
    words = unaligned(u8, "<u8")
    width = int(size.max(initial=0)) // 8 + 1  # words a slot takes, the mark included
    slots = np.empty((flat.size, width), dtype="<u8")
    start = np.append(value_start, 0)[flat]  # an empty cell (-1) reads the first word
    for w in range(width):
        slots[:, w] = words[np.minimum(start + 8 * w, len(words) - 1)]
    text = slots.view(np.uint8)  # (cells, 8 * width)
    text[np.arange(flat.size), size] = SEPARATOR
    last = np.arange(columns - 1, flat.size, columns)  # each row's last cell
    text[last, size[last]] = NEWLINE
    return text[np.arange(8 * width) <= size[:, None]]


def _steps_added(u8: np.ndarray, column: np.ndarray, payloads: list, steps, starts, sizes):
    """`_step` for the records that logged none (`column` -1 there): their record's step as
    text, appended to `u8` and filled into `column` (a view into the cells)."""
    missing = np.flatnonzero(column < 0)
    if not missing.size:
        return u8, starts, sizes
    texts = [str(steps(payloads[r])).encode() for r in missing]
    added = np.fromiter(map(len, texts), dtype=np.int64, count=len(texts))
    column[missing] = np.arange(len(starts), len(starts) + len(texts))
    starts = np.concatenate([starts, len(u8) + np.cumsum(added) - added])
    u8 = np.concatenate([u8, np.frombuffer(b"".join(texts) + bytes(PAD), dtype=np.uint8)])
    return u8, starts, np.concatenate([sizes, added])


def decode(payloads: list[bytes], numbers: list[int], steps) -> tuple:
    """The history records `payloads` (their record `numbers`) as a frame of String columns
    and `__line`, a row per record read here, and the indices of those left to read slowly.
    `steps(payload)`: a record's step, where it logged no `_step` (wandb always does)."""
    sizes = np.fromiter(map(len, payloads), dtype=np.int64, count=len(payloads))
    ends = np.cumsum(sizes)
    starts = ends - sizes
    u8 = np.frombuffer(b"".join([*payloads, bytes(PAD)]), np.uint8)
    owner, item_start, item_end, slow = _items(u8, starts, ends)
    key_start, key_size, value_start, value_size, fits = _key_values(u8, item_start, item_end)
    slow[owner[~fits]] = True
    keep = ~slow[owner]
    owner, key_start, key_size = owner[keep], key_start[keep], key_size[keep]
    value_start, value_size = value_start[keep], value_size[keep]
    fast = np.flatnonzero(~slow)
    keyed = codes(u8, key_start, key_size) if owner.size else (owner, [])
    if keyed is None:
        return None, list(range(len(payloads)))
    code, raw = keyed
    names = [k.decode("utf-8", "replace") for k in raw]
    if len(set(names)) != len(names) or not fast.size:
        return None, list(range(len(payloads)))
    row = np.searchsorted(fast, owner)
    cells = np.full((fast.size, len(names) + 1), -1, dtype=np.int64)
    place = row * cells.shape[1] + code
    if np.bincount(place, minlength=cells.size).max(initial=0) > 1:  # a key twice: the later
        np.maximum.at(cells.reshape(-1), place, np.arange(place.size))
    else:
        cells.reshape(-1)[place] = np.arange(place.size)
    column = names.index("_step") if "_step" in names else len(names)
    names.append("_step")
    u8, value_start, value_size = _steps_added(
        u8, cells[:, column], [payloads[i] for i in fast], steps, value_start, value_size
    )
    if column < len(names) - 1:
        cells, names = cells[:, :-1], names[:-1]
    text = _table(u8, cells, value_start, value_size)
    if not text or text.startswith(b"\xef\xbb\xbf"):
        return None, list(range(len(payloads)))
    try:
        frame = pl.read_csv(
            text, has_header=False, separator=chr(SEPARATOR), quote_char=None,
            schema=dict.fromkeys(names, pl.String), null_values=["null"], encoding="utf8",
        )  # fmt: skip
    except pl.exceptions.ComputeError:  # a key or value not UTF-8: read slowly, replaced
        return None, list(range(len(payloads)))
    lines = pl.Series("__line", np.asarray(numbers, dtype=np.int64)[fast])
    return frame.with_columns(lines), np.flatnonzero(slow).tolist()
