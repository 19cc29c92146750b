"""What a log format is, declared once in its reader's module: its name and description, how
it is recognised (each sniff looks at one kind of evidence), how a file of it is read, and for a
tracker's store how its runs are listed. `registry` lists every format in the order they are
tried; `detect`, `files.read_file`, `stores` and `inspect` only loop over it."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path

from helpers.runs.readers.loaded import Loaded, step_from_path

# a store's runs: (name, other names PATH#RUN may use, a function reading its rows and notes)
StoredRun = tuple[str, tuple[str, ...], Callable]
Sniff = Callable[["Evidence"], bool]


@dataclass
class Where:
    """Where a file is read from and what the user asked: `parts` are the path parts that may
    name its step and benchmark, nearest first (the file's name, then its folders up to the
    input given); `options` those of `load_runs` (step_pattern, mapping, problems,
    benchmarks)."""

    path: Path
    kind: str
    parts: list[str]
    options: dict

    @cached_property
    def step(self) -> int | None:
        return step_from_path(self.parts[1:], self.options.get("step_pattern"), self.path)

    @cached_property
    def benchmark(self) -> str | None:
        """The benchmark the path names (`.../math500/...`), if any."""
        from helpers import benchmark_sizes

        return benchmark_sizes.in_path(self.parts)

    @property
    def mapping(self) -> dict:
        return self.options.get("mapping") or {}

    @property
    def metric(self) -> str | None:
        return self.mapping.get("accuracy")

    @property
    def reward(self) -> str | None:
        return self.mapping.get("reward")


@dataclass
class Evidence:
    """What a file or folder shows of its format, each part read once, when a sniff first
    asks: a folder's files; a file's JSON document, first JSON line, Parquet columns or CSV
    header; and what a format's own test made of them (`once`)."""

    path: Path
    mapping: Mapping[str, str]
    _known: dict = field(default_factory=dict)

    @cached_property
    def files(self) -> list[Path]:
        from helpers.runs.readers._common import files_in

        return files_in(self.path)[0]

    @cached_property
    def document(self) -> object:
        """A .json file's document; None where it is not one JSON document."""
        import json

        from helpers.runs.readers._common import read_document

        try:
            return json.loads(read_document(self.path))
        except (json.JSONDecodeError, UnicodeDecodeError):
            return None  # perhaps JSON lines under a .json name

    @cached_property
    def first(self) -> dict:
        """A JSON-lines file's first object (a DataError where there is none)."""
        from helpers.runs.readers._common import first_json

        return first_json(self.path)

    @property
    def keys(self) -> set[str]:
        return set(self.first)

    @cached_property
    def names(self):
        """A Parquet file's column names, in order and set-like (a DataError where it cannot
        be read)."""
        import polars as pl

        from helpers.errors import DataError

        try:
            return pl.read_parquet_schema(self.path).keys()
        except (pl.exceptions.ComputeError, OSError) as e:
            raise DataError(self.path, "a readable Parquet file", got=str(e)[:80]) from None

    @cached_property
    def header(self) -> list[str]:
        from helpers.runs.readers._common import csv_header

        return csv_header(self.path)

    def once(self, key: str, compute: Callable[[], object]) -> object:
        """What a format's own test makes of this evidence (the runs-table test, the metric
        conventions, a framework's lines), computed once however many sniffs ask."""
        if key not in self._known:
            self._known[key] = compute()
        return self._known[key]


@dataclass(frozen=True)
class Format:
    """A log format. Each sniff answers for one kind of evidence (the first format that says
    yes, in the registry's order, is the file's); a sniff may raise a DataError where the
    evidence is damaged (a W&B log with a broken header). `read(path, where)` reads a file (or
    folder) of it into a `Loaded`; `runs(path, mapping)` lists a tracker's store's runs; `grows`
    says how a watch reads it on as it grows."""

    name: str
    description: str
    rank: int  # where it is tried: lower first
    read: Callable[[Path, Where], Loaded] | None = None
    # the sniffs, each given the `Evidence` and looking at one part of it:
    folder: Sniff | None = None  # a folder, by the files it holds
    magic: Sniff | None = None  # a file, by its first bytes
    document: Sniff | None = None  # a .json file's document
    line: Sniff | None = None  # a JSON-lines file's first object
    parquet: Sniff | None = None  # a Parquet file's column names
    csv: Sniff | None = None  # a CSV file's header (and what it implies)
    text: Sniff | None = None  # any other file, by its lines
    runs: Callable[[Path, dict], list[StoredRun]] | None = None  # a tracker's store's runs
    store_file: bool = True  # a single file of it is a store too (a log dir's file is not)
    per_sample: bool = False  # its files hold answers, one per sample
    summary: bool = False  # a results file, checked against the samples given beside it
    beside: str | None = None  # written beside other logs and never read alone: what to give
    # how a log of it grows, for a watch to read on from its last look (`follow.Follow`):
    # "lines" appended, "tfrecords" (TensorBoard's records) or "leveldb" (W&B's framed
    # records) appended; None: read whole at each look
    grows: str | None = None
