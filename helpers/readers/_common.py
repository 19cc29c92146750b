"""What every reader shares: JSON lines and CSV headers read with line numbers, numeric casts
that name the bad cell."""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from pathlib import Path

import polars as pl

from ..errors import DataError


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


def scan_jsonl_lines(path: Path) -> Iterable[tuple[int, dict]]:
    """(line number, object) for every non-blank line of a JSONL file."""
    with path.open("rb") as handle:
        for number, raw in enumerate(handle, 1):
            if raw.strip():
                yield number, json_line(path, number, raw)


def first_json(path: Path) -> dict:
    for _, record in scan_jsonl_lines(path):
        return record
    raise DataError(path, "at least one JSON line; the file is empty", line=1)


def csv_header(path: Path) -> list[str]:
    try:
        return pl.read_csv(path, n_rows=0, infer_schema=False).columns
    except pl.exceptions.NoDataError:
        raise DataError(path, "a CSV header row; the file is empty", line=1) from None


def numeric(path: Path, frame: pl.DataFrame, columns: Sequence[str]) -> pl.DataFrame:
    """Cast columns to Float64; a cell that is not a number raises DataError naming its line
    (from a `__line` column where the frame has one, else its CSV line) and column. A
    trainer_state.json is one document: there the place is its log_history entry."""
    out = {}
    for c in columns:
        cast = frame[c].cast(pl.Float64, strict=False)
        bad = frame[c].is_not_null() & cast.is_null()
        if bad.any():
            row = int(bad.arg_true()[0])
            line = int(frame["__line"][row]) if "__line" in frame.columns else row + 2
            if path.suffix == ".json":
                where = {"column": f"log_history[{line}].{c}"}
            else:
                where = {"line": line, "column": c}
            raise DataError(path, "a number", got=frame[c][row], **where)
        out[c] = cast
    return frame.with_columns(**out)
