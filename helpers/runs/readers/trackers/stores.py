"""The runs in a tracker's store (a W&B folder, a TensorBoard log dir, an MLflow store, a trackio
project, a SwanLab folder): a `Store` lists them once, names them (`PATH#RUN` picks one) and
reads each into a `Loaded` when first asked, however many times it is asked. Whoever keeps
the `Store` keeps what was read (a comparison of two runs of one store reads it once); nothing
is kept anywhere else, so a run that goes on logging is read anew by the next `Store`."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import polars as pl

from helpers.errors import DataError
from helpers.runs.readers._common import files_in
from helpers.runs.readers.formats.metrics import metric_log
from helpers.runs.readers.loaded import Loaded, ScoreLog
from helpers.runs.readers.registry import FORMATS, get

_NO_ROWS = pl.DataFrame(schema={"step": pl.Int64, "__line": pl.Int64})


@dataclass
class _Stored:
    """One run in a tracker's store: its name, what else `PATH#RUN` may call it (its id,
    its folder), and its rows and notes, read when first asked."""

    name: str
    aliases: tuple[str, ...]
    read: Callable[[], tuple]  # (rows, notes), or (rows, notes, whether the run ended)
    _rows: tuple | None = None

    def rows(self) -> tuple:
        if self._rows is None:
            self._rows = self.read()
        return self._rows


def _stored(found: list) -> list[_Stored]:
    """The runs in a tracker's store that logged anything (as its format's `runs` lists
    them), each with a name unique in it (a name two runs share gets the run's id)."""
    counts: dict[str, int] = {}
    for name, _, _ in found:
        counts[name] = counts.get(name, 0) + 1
    return [
        _Stored(
            name if counts[name] == 1 or not aliases else f"{name} ({aliases[0][:8]})",
            (name, *aliases),
            read,
        )
        for name, aliases, read in found
    ]


def _pick(path: Path, stored: list[_Stored], chosen: str) -> _Stored:
    exact = [s for s in stored if s.name == chosen]
    picked = exact or [s for s in stored if chosen in s.aliases]
    if len(picked) == 1:
        return picked[0]
    names = [s.name for s in stored]
    said = "several runs have that name; give one of" if picked else "a run named so among"
    raise DataError(
        path,
        f"the run {chosen!r} of PATH#RUN; {said} {', '.join(names[:6])}"
        + (" ..." if len(names) > 6 else ""),
    )


class Store:
    """A tracker's store at `path` of format `kind`: its runs listed (not read) when opened,
    each run's rows read once, when a `load` first asks for them."""

    def __init__(self, path: Path, kind: str, options: dict, found: list | None = None) -> None:
        """`found`: the runs as the format's `runs` lists them, where they were read already
        (a watch's); else they are listed now."""
        self.path, self.kind, self.options = path, kind, options
        if found is None:
            found = get(kind).runs(path, options.get("mapping") or {})
        self.stored = _stored(found)

    def load(self, chosen: str | None, every: bool) -> list[Loaded]:
        """The run `chosen` (PATH#RUN), else every run (`every`), else its one run (several
        are an error naming them)."""
        path, kind, options, stored = self.path, self.kind, self.options, self.stored
        if chosen is not None:
            stored = [_pick(path, stored, chosen)]
        elif len(stored) > 1 and not every:
            names = [s.name for s in stored]
            raise DataError(
                path,
                f"one run; the store holds {len(stored)} runs ({', '.join(names[:4])}"
                f"{' ...' if len(names) > 4 else ''}): give one as PATH#RUN (plot, compare and "
                "inspect take them all)",
            )
        if not stored and kind in ("mlflow-sqlite", "trackio"):
            raise DataError(path, "a run that logged metrics; the database holds none")
        runs: list[Loaded] = []
        errors: list[DataError] = []
        for s in stored or [_Stored("", (), lambda: (_NO_ROWS, []))]:
            rows, said, *ended = s.rows()  # a store that knows how its runs ended says so
            try:
                loaded = metric_log(path, kind, options, rows)
            except DataError as e:
                if len(stored) < 2:
                    raise
                errors.append(e)
                loaded = ScoreLog(path, kind, unread=str(e))
            loaded.notes[:0] = [FORMATS[kind], *said]
            loaded.run = s.name or None
            loaded.ended = ended[0] if ended else None
            runs.append(loaded)
        if errors and len(errors) == len(runs):
            raise errors[0]
        if kind == "tensorboard":
            others = files_in(path, (".parquet", ".json", ".jsonl", ".csv"))[0]
            if others:
                for loaded in runs:
                    loaded.notes.append(
                        f"left out {len(others)} other log file(s) in the folder (read them on "
                        f"their own): {', '.join(str(f.relative_to(path)) for f in others[:2])}"
                        + (" ..." if len(others) > 2 else "")
                    )
        return runs
