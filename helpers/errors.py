"""The package's one exception type for bad input."""

from __future__ import annotations


def printable(text: str) -> str:
    """`text` safe to print on one terminal line: every character Python does not count as
    printable (a newline, U+0085, ESC, BEL, a direction override) written as its escape."""
    return "".join(c if c.isprintable() else c.encode("unicode_escape").decode() for c in text)


def _cut(value: object, limit: int = 100) -> str:
    """The repr of a value, cut to about `limit` characters (a bad cell can be 2 GB long)."""
    if isinstance(value, str | bytes) and len(value) > limit:
        return repr(value[:limit]) + f"... ({len(value):,} characters)"
    text = repr(value)
    return text if len(text) <= limit else text[:limit] + "..."


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
            message += f"; got {_cut(got)}"
        # one line, whatever a file name or column holds (a newline, U+0085, a terminal escape)
        super().__init__(printable(message))
