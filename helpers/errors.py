"""The package's one exception type for bad input."""

from __future__ import annotations


class DataError(ValueError):
    """Bad input: names the file, the line (or row: a Parquet file has no lines) and the
    column, and what was expected."""

    def __init__(
        self,
        path: object,
        expected: str,
        *,
        line: int | None = None,
        row: int | None = None,
        column: str | None = None,
        got: object = None,
    ) -> None:
        self.path = str(path)
        self.line = line
        self.row = row
        self.column = column
        self.expected = expected
        self.got = got
        where = self.path
        if line is not None:
            where += f", line {line}"
        if row is not None:
            where += f", row {row}"
        if column is not None:
            where += f", column '{column}'"
        message = f"{where}: expected {expected}"
        if got is not None:
            message += f"; got {got!r}"
        super().__init__(message)
