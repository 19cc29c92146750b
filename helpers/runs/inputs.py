"""What a user types to name a log, parsed in one place for the command line, notebooks and
the API.

    [NAME=]PATH[#RUN][@STEP]

- `PATH`: a local file or folder, or a URI (`s3a://...`, `file://...`) kept as written, which
  only Spark reads (`location`, `local`);
- `NAME=`: what `compare` calls the run (else the file's stem; a path may itself hold `=`);
- `#RUN`: one run of a tracker's store of several, by name or id (`run_named`);
- `@STEP`: the run at that one checkpoint (`pinned`).

A path that exists as written is never split, whatever it holds.
"""

from __future__ import annotations

from pathlib import Path

from helpers.errors import DataError


def location(where: str | Path) -> Path | str:
    """A local path, or a URI (s3a://..., file://...) kept as written: only Spark reads URIs."""
    return where if isinstance(where, str) and "://" in where else Path(where)


def local(where: str | Path) -> Path:
    """A local path for the polars engine; a URI is an error that points to Spark."""
    where = location(where)
    if isinstance(where, str):
        raise DataError(where, "a local file or folder (a URI is read by --engine spark)")
    return where


def named(text: str) -> tuple[str, Path | str]:
    """NAME=PATH, or a bare PATH named after its file (a path may itself hold '=')."""
    name, sep, path = text.partition("=")
    if sep and name and "/" not in name and not Path(text).exists():
        return name, location(path)
    return Path(text).stem or text, location(text)


def run_named(path: Path) -> tuple[Path, str | None]:
    """`PATH#RUN`: one run of a store of several, by its name or id."""
    text = str(path)
    if "#" not in text or path.exists():
        return path, None
    store, _, run = text.rpartition("#")
    return Path(store), run


def pinned(given: str | Path) -> tuple[str | Path, int | None]:
    """PATH@STEP: the run at that one step, a checkpoint of it (`early=run/@100`)."""
    text = str(given)
    path, at, step = text.rpartition("@")
    if not at or not step.isdigit() or Path(text).exists() or len(step) > 18:
        return given, None
    return path, int(step)
