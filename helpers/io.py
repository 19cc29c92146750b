"""Write outputs whole or not at all: to a temporary file beside the target, then rename."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

FORMATS = (".png", ".svg", ".html")  # what a chart is saved as (see `export.save`)


def write_bytes_atomic(path: Path, data: bytes) -> Path:
    """Write data to path so that a reader never sees a half-written file."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(tmp, 0o644)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return path


def write_text_atomic(path: Path, text: str) -> Path:
    """Text version of write_bytes_atomic (UTF-8)."""
    return write_bytes_atomic(path, text.encode("utf-8"))
