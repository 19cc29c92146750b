"""The protocol-buffer wire format, as far as the trackers' logs need it: TensorBoard's event
records and W&B's transaction log are protobuf messages, read here field by field (no protobuf
package, no generated classes; each reader names the few fields it uses)."""

from __future__ import annotations

from collections.abc import Iterator


def varint(data: bytes, at: int) -> tuple[int, int]:
    """The base-128 varint at `at`, and where the next field starts."""
    value = shift = 0
    while True:
        byte = data[at]
        at += 1
        value |= (byte & 0x7F) << shift
        if byte < 0x80:
            return value, at
        shift += 7


def fields(data: bytes) -> Iterator[tuple[int, int, object]]:
    """(field number, wire type, value) of a message: an int for varints, raw bytes for
    fixed-width fields and length-delimited ones. A field that runs past the message's end, or
    a wire type the format no longer uses (groups), is a ValueError."""
    at, n = 0, len(data)
    while at < n:
        key, at = varint(data, at)
        number, wire = key >> 3, key & 7
        if wire == 0:
            value, at = varint(data, at)
        elif wire == 1:
            value, at = data[at : at + 8], at + 8
        elif wire == 2:
            size, at = varint(data, at)
            value, at = data[at : at + size], at + size
        elif wire == 5:
            value, at = data[at : at + 4], at + 4
        else:
            raise ValueError(f"wire type {wire}")
        if at > n:
            raise ValueError("a field past the message's end")
        yield number, wire, value
