"""The protocol-buffer wire format read for many messages at once, with numpy: a log of a
million records decoded one Python call per field spent seconds where these array operations
over every record together spend a few hundredths. Each function takes the bytes of a log as
a uint8 array and positions in it (one per message, field or string) and answers arrays; what
does not fit the expected layout is flagged, for the caller to read the slow, general way.
"""

from __future__ import annotations

import numpy as np

MAX_VARINT = 10  # bytes: a 64-bit value; a longer varint is no protocol buffer's
_HASH = np.uint64(0x9E3779B97F4A7C15)  # odd: multiplying by it mixes a word's bits upward


def unaligned(u8: np.ndarray, dtype: str) -> np.ndarray:
    """`u8` read as `dtype` (little-endian, "<u8" and the like) starting at every byte: a
    field's number is read where the field lies, whatever the alignment."""
    size = np.dtype(dtype).itemsize
    return np.ndarray((len(u8) - size + 1,), dtype=dtype, buffer=u8, strides=(1,))


def varints(u8: np.ndarray, at: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The base-128 varint at each position `at`: its value (uint64), where the next field
    starts, and whether it was whole (at most 10 bytes, fitting 64 bits, within the array).
    Most varints here are one byte: the longer ones are followed on their own."""
    last = len(u8) - 1
    byte = u8[np.minimum(at, last)]
    value = (byte & 0x7F).astype(np.uint64)
    after = at + 1
    going = np.flatnonzero(byte >= 0x80)
    for shift in range(7, 7 * MAX_VARINT, 7):
        if not going.size:
            break
        byte = u8[np.minimum(after[going], last)]
        value[going] |= (byte & 0x7F).astype(np.uint64) << np.uint64(shift)
        after[going] += 1
        if shift == 63:  # the tenth byte holds one bit
            going = going[byte > 1]
            break
        going = going[byte >= 0x80]
    whole = after <= last + 1
    whole[going] = False
    return value, after, whole


def lengths(u8: np.ndarray, at: np.ndarray, limit: np.ndarray) -> tuple:
    """A length-delimited field's length varint at `at`: (start, end, fits), where `fits` says
    the varint was whole and the field ends within `limit`."""
    first = u8[np.minimum(at, len(u8) - 1)]
    if first.max(initial=0) < 0x80:  # every length one byte, as short fields' are
        end = at + 1 + first
        return at + 1, end, (end <= limit) & (at < len(u8))
    size, start, whole = varints(u8, at)
    fits = whole & (size <= np.uint64(2**40))
    end = start + np.where(fits, size, 0).astype(np.int64)
    return start, end, fits & (end <= limit)


_MASKS = np.array([(1 << (8 * n)) - 1 for n in range(8)] + [2**64 - 1], dtype=np.uint64)
_SAMPLE = 4096  # strings whose hashes make the first table of distinct ones
_BITS = 20  # a window of a hash's bits addresses `_lookup`'s table
_WINDOWS = (44, 24, 4)  # where the windows start: the top 20 bits, else lower ones


def _lookup(hashes: np.ndarray, mixed: np.ndarray) -> np.ndarray:
    """Where each of `mixed` is among the sorted, distinct `hashes` (len(hashes) where it is
    not). A few hundred hashes are told apart by a window of 20 of their bits, the top ones or,
    where two share those, another: a table of a million places read once per string, and the
    hash found there checked whole, where a binary search took about eight comparisons; where
    every window has two hashes sharing it, the binary search."""
    absent = len(hashes)
    if not absent:
        return np.zeros(len(mixed), dtype=np.intp)
    mask = np.uint64((1 << _BITS) - 1)
    for shift in map(np.uint64, _WINDOWS):
        place = ((hashes >> shift) & mask).astype(np.intp)
        if len(np.unique(place)) == absent:
            table = np.full(1 << _BITS, absent, dtype=np.int32)
            table[place] = np.arange(absent, dtype=np.int32)
            code = table[((mixed >> shift) & mask).astype(np.intp)]
            break
    else:
        code = np.searchsorted(hashes, mixed)
    found = hashes[np.minimum(code, absent - 1)] == mixed
    return np.where(found, code, absent)


def codes(u8: np.ndarray, starts: np.ndarray, sizes: np.ndarray) -> tuple | None:
    """The strings at `starts` (of `sizes` bytes) as codes into their distinct values: (codes,
    the distinct values as bytes), or None where two differ yet share a hash (never seen; the
    caller then reads them one by one). Each string is read as 8-byte words, so a log that
    repeats its few hundred keys two million times compares words, not bytes: a hash of the
    words is looked up among those of the distinct strings (`_lookup`), and each string's
    words are then checked against those of the one its code stands for. `u8` must hold 8
    bytes after the last string's end."""
    words = unaligned(u8, "<u8")
    last = len(words) - 1
    mixed = sizes.astype(np.uint64) * _HASH
    kept = []
    for at in range(0, int(sizes.max(initial=0)), 8):
        word = words[np.minimum(starts + at, last)]
        short = np.flatnonzero(sizes < at + 8)
        word[short] &= _MASKS[np.maximum(sizes[short] - at, 0)]
        kept.append(word)
        mixed ^= word
        mixed *= _HASH
    hashes, first = np.unique(mixed[:_SAMPLE], return_index=True)
    code = _lookup(hashes, mixed)
    missed = np.flatnonzero(code == len(hashes))
    if missed.size:  # keys the first strings did not hold
        more, where = np.unique(mixed[missed], return_index=True)
        hashes, order = np.unique(np.concatenate([hashes, more]), return_index=True)
        first = np.concatenate([first, missed[where]])[order]
        code = _lookup(hashes, mixed)
    same = sizes[first][code] == sizes
    for word in kept:
        same &= word[first][code] == word
    if not same.all():
        return None
    values = [u8[s : s + n].tobytes() for s, n in zip(starts[first], sizes[first], strict=True)]
    return code, values


def spans(starts: np.ndarray, sizes: np.ndarray, bound: int) -> np.ndarray:
    """The indices of the ranges [starts[i], starts[i] + sizes[i]) one after another (all
    below `bound`): each is one more than the last, except where a range begins, so they
    are a running sum of ones and jumps."""
    some = sizes > 0
    starts, sizes = starts[some], sizes[some]
    kind = np.int32 if bound < 2**31 else np.int64
    if not starts.size:
        return np.zeros(0, dtype=kind)
    ends = np.cumsum(sizes)
    step = np.ones(int(ends[-1]), dtype=kind)
    step[0] = starts[0]
    step[ends[:-1]] = starts[1:] - (starts[:-1] + sizes[:-1] - 1)
    return np.cumsum(step, dtype=kind)


class Crcs:
    """CRCs of many equal-length byte strings at once, from tables the CRC function itself
    fills (`crc`: crc32c's or zlib's, called as crc(data)). A CRC is affine in its input's
    bits: crc(x) = crc(zeros) ^ (the XOR over x's bytes of what each byte adds where it
    stands), and what byte value b adds depends only on how many bytes follow it: the tables
    hold that, for b's eight bits, and records of one length are checked a byte position at a
    time over all of them."""

    def __init__(self, crc) -> None:
        self.crc = crc
        self.tables = np.zeros((0, 256), dtype=np.uint32)
        self.zeros: dict[int, int] = {}
        self.pairs: dict[int, np.ndarray] = {}

    def _grow(self, size: int) -> None:
        """Tables for bytes followed by up to `size` - 1 others."""
        have = len(self.tables)
        if size <= have:
            return
        crc, bits = self.crc, []
        for after in range(have, size):
            base = crc(bytes(after + 1))
            bits.append([crc(bytes([1 << k]) + bytes(after)) ^ base for k in range(8)])
        basis = np.array(bits, dtype=np.uint32)  # (positions, 8 bits)
        value = np.arange(256)
        table = np.zeros((len(bits), 256), dtype=np.uint32)
        for k in range(8):
            table ^= np.where((value >> k) & 1, basis[:, k : k + 1], np.uint32(0))
        self.tables = np.concatenate([self.tables, table])

    def _pair(self, after: int) -> np.ndarray:
        """What two bytes read as one little-endian uint16 add, followed by `after` others."""
        table = self.pairs.get(after)
        if table is None:
            high, low = self.tables[after], self.tables[after + 1]
            table = self.pairs[after] = np.bitwise_xor.outer(high, low).reshape(-1)
        return table

    def of(self, u8: np.ndarray, starts: np.ndarray, size: int) -> np.ndarray:
        """The CRC of each `size` bytes at `starts` (uint32), two bytes a step."""
        self._grow(size)
        if size not in self.zeros:
            self.zeros[size] = self.crc(bytes(size))
        out = np.full(len(starts), self.zeros[size], dtype=np.uint32)
        first = size % 2
        if first:
            out ^= self.tables[size - 1][u8[starts]]
        pairs = unaligned(u8, "<u2")
        for j in range(first, size, 2):
            out ^= self._pair(size - 2 - j)[pairs[starts + j]]
        return out
