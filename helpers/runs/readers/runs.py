"""Read any run: one input (a log file, a folder of per-checkpoint files, a tracker's store) into
one `Loaded` run, or every run a store holds. This is what curves and comparisons start from;
the formats are read by `files` and `stores`, the shape is `loaded.Loaded`."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

import polars as pl

from helpers import benchmark_sizes
from helpers.errors import DataError
from helpers.runs.inputs import run_named
from helpers.runs.readers._common import reading
from helpers.runs.readers.detect import FORMATS, detect
from helpers.runs.readers.files import read_file, read_folder
from helpers.runs.readers.formats.tables import SAMPLE_COLUMNS
from helpers.runs.readers.loaded import (
    SCORE_COLUMNS,
    Loaded,
    check_step_pattern,
    step_from_path,
)
from helpers.runs.readers.registry import PER_SAMPLE, is_store
from helpers.runs.readers.trackers.stores import Store


def open_store(path: str | Path, **options) -> Store | None:
    """The tracker's store (a W&B folder, a TensorBoard log dir, an MLflow store, a trackio
    project) that `path` is, or that `PATH#RUN` names, with its runs listed and none read;
    None for any other input, read no further than its format. Give it to `load_runs` to
    read several of its runs with each read once (a `Store` keeps what it read)."""
    where = run_named(Path(path))[0]
    options = reading_options(**options)
    with reading(where):
        kind = detect(where, options["mapping"])
        return Store(where, kind, options) if is_store(where, kind) else None


def _load(path: str | Path, options: dict, every: bool, store: Store | None = None) -> list[Loaded]:
    path, chosen = run_named(Path(path))
    check_step_pattern(options["step_pattern"])
    with reading(path):
        if store is not None:
            found = store.load(chosen, every)
        else:
            found = _read(path, chosen, options, every)
    for loaded in found:
        with_sizes(loaded, options["problems"])
    return found


def _read(path: Path, chosen: str | None, options: dict, every: bool) -> list[Loaded]:
    kind = detect(path, options["mapping"])
    if is_store(path, kind):
        return Store(path, kind, options).load(chosen, every)
    if chosen is not None:
        raise DataError(path, f"a tracker's store of runs to pick {chosen!r} from", got=kind)
    if kind == "folder":
        return [read_folder(path, options)]
    loaded = read_file(path, kind, [path.name, path.parent.name], options)
    loaded.notes.insert(0, FORMATS[kind])
    return [loaded]


def with_sizes(loaded: Loaded, problems: dict) -> None:
    """Each benchmark's size: the user's, else the log's, else the known ones (looked up once
    a benchmark, not once a row: a long log has a row per step)."""
    if loaded.scores is None:
        return
    names = loaded.scores["benchmark"].unique().to_list()
    given = {b: benchmark_sizes.override(b, problems) for b in names}
    known = {b: benchmark_sizes.size(b) for b in names}
    benchmark = pl.col("benchmark")
    loaded.scores = loaded.scores.with_columns(
        problems=pl.coalesce(
            benchmark.replace_strict(given, default=None, return_dtype=pl.Int64),
            "problems",
            benchmark.replace_strict(known, default=None, return_dtype=pl.Int64),
        )
    )


def reading_options(
    *,
    step_pattern: str | None = None,
    mapping: Mapping[str, str] | None = None,
    problems: Mapping[str, int] | None = None,
    benchmarks=None,
) -> dict:
    return {
        "step_pattern": step_pattern,
        "mapping": dict(mapping or {}),
        "problems": dict(problems or {}),
        "benchmarks": benchmarks,
    }


def load(path: str | Path, **options) -> Loaded:
    """Read one input (file or folder) into a `Loaded` run, with the options of `load_runs`.
    A tracker's store of several runs is an error naming them: `PATH#RUN` reads one,
    `load_runs` all."""
    (loaded,) = _load(path, reading_options(**options), every=False)
    return loaded


def load_runs(
    path: str | Path,
    *,
    step_pattern: str | None = None,
    mapping: Mapping[str, str] | None = None,
    problems: Mapping[str, int] | None = None,
    benchmarks=None,
    store: Store | None = None,
) -> list[Loaded]:
    """Every run an input holds: one for a log or one run's files; for a tracker's store of
    several (a `wandb/` folder, a TensorBoard log dir with a folder per run, an MLflow store,
    a trackio project) one per run, named in `Loaded.run`. A run of several that cannot be
    read (no metric recognised) is kept with `unread` saying why, unless none can be.
    `mapping` names columns no convention knows (see `readers.metrics`), `problems` gives
    benchmark sizes, `step_pattern` reads the step from file names, `benchmarks` keeps
    only these. `store`, what `open_store` gave for `path` (or for its PATH of PATH#RUN),
    is read from as it stands: what it read before is not read again."""
    options = reading_options(
        step_pattern=step_pattern, mapping=mapping, problems=problems, benchmarks=benchmarks
    )
    return _load(path, options, every=True, store=store)


__all__ = [
    "PER_SAMPLE",
    "SAMPLE_COLUMNS",
    "SCORE_COLUMNS",
    "Loaded",
    "load",
    "load_runs",
    "Store",
    "open_store",
    "step_from_path",
]
