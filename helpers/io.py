"""Write outputs whole or not at all: to a temporary file beside the target, then rename."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

FORMATS = (".png", ".svg", ".pdf", ".html")  # what a chart is saved as (see `export.save`)
# A PNG's pixels per inch: twice the 72 of a chart's CSS pixels, so a chart 880 px wide is
# 1,760 pixels (sharp on a slide or a high-density screen) and 6.1 inches in a document.
PPI = 144.0


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
