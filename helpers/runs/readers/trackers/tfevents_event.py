"""One TensorBoard `Event` record decoded: its step and its scalars (tensorflow/core/util/
event.proto). Scalars are `Summary.Value`s holding either a `simple_value` (TensorFlow 1
style, and PyTorch's SummaryWriter) or a scalar `tensor` (TF 2); only the fields read here are
decoded, the rest of a message skipped by its wire type. `tfevents` reads the records one at a
time and `tfevents_bulk` many at a time; both decode an event here."""

from __future__ import annotations

import struct

import polars as pl

from helpers.runs.readers.wire.protobuf import fields, varint

SCALARS = {"step": pl.Int64, "tag": pl.String, "value": pl.Float64, "record": pl.Int64}

# TensorProto dtypes that hold a number, with the struct format of one element
_DTYPES = {1: "<f", 2: "<d", 3: "<i", 9: "<q", 4: "<B", 5: "<h", 6: "<b"}


def _tensor_scalar(data: bytes) -> float | None:
    """The number a scalar TensorProto holds, or None (text, a shape with elements, no data)."""
    dtype, content, values = None, None, []
    for number, wire, value in fields(data):
        if number == 1:
            dtype = value
        elif number == 2 and value:  # a shape with dimensions: not a scalar
            return None
        elif number == 4:
            content = value
        elif number == 5:  # float_val, packed or not
            values += struct.unpack(f"<{len(value) // 4}f", value) if wire == 2 else [value]
        elif number == 6:
            values += struct.unpack(f"<{len(value) // 8}d", value) if wire == 2 else [value]
        elif number in (7, 10) and wire == 0:  # int_val, int64_val unpacked
            values.append(value)
    if dtype not in _DTYPES:
        return None
    if content is not None and len(content) == struct.calcsize(_DTYPES[dtype]):
        return float(struct.unpack(_DTYPES[dtype], content)[0])
    if len(values) == 1:
        value = values[0]
        if isinstance(value, bytes):
            return float(struct.unpack("<f" if len(value) == 4 else "<d", value)[0])
        return float(value)
    return None


_TAGS: dict[bytes, str] = {}  # a log repeats its few tags a million times: decoded once each


def _simple_scalars(event: bytes) -> tuple[int, list[tuple[str, float]]] | None:
    """The layout every SummaryWriter writes for scalars, read without the general decoder
    (a million scalars spent three quarters of their reading time there): wall_time, step and
    a summary of values that each hold a tag and a simple_value. None for anything else, which
    `_scalars` then reads field by field."""
    at, n, step, summary = 0, len(event), 0, None
    while at < n:
        key = event[at]
        if key == 0x09:  # wall_time, fixed64
            at += 9
        elif key == 0x10:  # step, varint (one byte below 128)
            step = event[at + 1]
            step, at = (step, at + 2) if step < 0x80 else varint(event, at + 1)
        elif key == 0x2A:  # summary, length-delimited
            length, at = varint(event, at + 1)
            summary, at = event[at : at + length], at + length
        else:
            return None
    if summary is None or at != n:
        return None
    found, at, n = [], 0, len(summary)
    while at < n:
        if summary[at] != 0x0A:
            return None
        length = summary[at + 1]
        length, at = (length, at + 2) if length < 0x80 else varint(summary, at + 1)
        value, at = summary[at : at + length], at + length
        if len(value) < 2 or value[0] != 0x0A:
            return None
        tag_length, inner = (value[1], 2) if value[1] < 0x80 else varint(value, 1)
        tag = value[inner : inner + tag_length]
        inner += tag_length
        if inner + 5 != len(value) or value[inner] != 0x15:
            return None
        found.append(
            (tag.decode("utf-8", "replace"), struct.unpack_from("<f", value, inner + 1)[0])
        )
    if at != n:
        return None
    return (step if step < 2**63 else step - 2**64), found


def _scalars(event: bytes) -> tuple[int, list[tuple[str, float]]] | None:
    """The step and (tag, value) scalars of one Event, or None for an event without them."""
    fast = _simple_scalars(event)
    if fast is not None:
        return fast
    step, summary = 0, None
    for number, _, value in fields(event):
        if number == 2:
            step = value if value < 2**63 else value - 2**64
        elif number == 5:
            summary = value
    if summary is None:
        return None
    found = []
    for number, _, value in fields(summary):
        if number != 1:
            continue
        tag, scalar = None, None
        for vn, vw, v in fields(value):
            if vn == 1:
                tag = v.decode("utf-8", "replace")
            elif vn == 2 and vw == 5:
                scalar = struct.unpack("<f", v)[0]
            elif vn == 8:
                scalar = _tensor_scalar(v)
        if tag is not None and scalar is not None:
            found.append((tag, float(scalar)))
    return step, found
