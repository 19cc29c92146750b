"""Files told by their first bytes (a format's magic number), as the readers of binary stores
recognise theirs: SQLite databases, W&B transaction logs."""

from __future__ import annotations

from pathlib import Path


def starts_with(path: Path, magic: bytes) -> bool:
    """Whether the file at `path` begins with `magic`; a pipe or a device (which would block)
    or a file that cannot be read does not."""
    if not path.is_file():
        return False
    try:
        with path.open("rb") as handle:
            return handle.read(len(magic)) == magic
    except OSError:
        return False
