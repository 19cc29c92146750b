"""Watching runs while they train: which inputs grew since the last look, each run's newest
evaluated steps in one line each (the accuracies with their intervals), and when the runs went
quiet. `python -m helpers watch` polls with these; each log that grew is read on from where
its last look stopped, by its own `readers.Follow`."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import polars as pl

from helpers.runs.inputs import run_named
from helpers.runs.readers._common import files_in


def signature(path: Path | str) -> tuple:
    """What changes when a log grows or is replaced: each file's size, modification time and
    inode (a folder's files, sorted; of PATH#RUN, the store's); a URI (read elsewhere) never
    changes here."""
    if isinstance(path, Path):
        path = run_named(path)[0]
    if not isinstance(path, Path) or not path.exists():
        return ()
    files = files_in(path)[0] if path.is_dir() else [path]
    found = []
    for f in sorted(files):
        try:
            st = f.stat()
        except OSError:  # gone between the listing and the look: seen next time
            continue
        found.append((str(f), st.st_size, st.st_mtime_ns, st.st_ino))
    return tuple(found)


def _percent(x: float | None) -> str:
    return "?" if x is None else f"{x * 100:.1f}%"


def step_line(name: str, step: int | None, rows: pl.DataFrame) -> str:
    """One evaluated step of a run: `NAME: step N  BENCH 52.4% [48.0%, 56.7%]; ...`."""
    said = []
    for r in rows.sort("benchmark").iter_rows(named=True):
        interval = "" if r["lo"] is None else f" [{_percent(r['lo'])}, {_percent(r['hi'])}]"
        said.append(f"{r['benchmark']} {_percent(r['accuracy'])}{interval}")
    at = "one evaluation" if step is None else f"step {step}"
    return f"{name}: {at}  " + "; ".join(said)


@dataclass
class Watched:
    """One run being watched: its input, what it looked like last, the steps already said."""

    name: str
    path: Path | str
    seen: tuple = ()
    said_up_to: int | None = None
    said_once: bool = False
    waiting: str | None = None  # why the last look could not read it, said once
    grew_at: float = 0.0
    lines: list[str] = field(default_factory=list)
    ended: bool | None = None  # what the last look read of how the run ended (`Loaded.ended`)
    follow: Any = None  # its `readers.Follow`: this log's own (a run's seeds share a name)

    def grew(self, now: float) -> bool:
        found = signature(self.path)
        if found == self.seen:
            return False
        self.seen, self.grew_at = found, now
        return True

    def new_lines(self, table: pl.DataFrame) -> list[str]:
        """A line per evaluated step not said before (the first look says the newest only)."""
        if not table.height:
            return []
        steps = sorted({s for s in table["step"] if s is not None})
        if not steps:  # one evaluation, no step: said once
            if self.said_once:
                return []
            self.said_once = True
            return [step_line(self.name, None, table)]
        first = self.said_up_to is None  # the first look says the newest step only
        new = steps[-1:] if first else [s for s in steps if s > self.said_up_to]
        if new:
            self.said_up_to = new[-1]
        return [step_line(self.name, s, table.filter(pl.col("step") == s)) for s in new]
