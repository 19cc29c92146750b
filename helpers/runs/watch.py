"""Watching runs while they train: which inputs grew since the last look, each run's newest
evaluated steps in one line each (the accuracies with their intervals), and when the runs went
quiet. `Watching` is one watch of several runs, look by look: `python -m helpers watch` polls
it from a loop and prints what it says, `helpers.watch` from the notebook kernel's event loop
(`runs.live`) and redraws. Each log that grew is read on from where its last look stopped, by
its own `readers.Follow`."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import polars as pl

from helpers.errors import DataError
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


class Watching:
    """One watch of several runs (NAME, PATH pairs), look by look: what each look says (a line
    per newly evaluated step; with a baseline the differences as `compare` gives them), the runs
    as read so far (`loaded`, by the path as given, for `plot` and `compare` to draw without
    reading them again), and whether the runs ended or went quiet. `reading` holds the reading
    options (`mapping`, `problems`, `step_pattern`)."""

    def __init__(
        self,
        runs: list[tuple[str, Path | str]],
        *,
        baseline: str | None = None,
        benchmarks: list[str] | None = None,
        **reading,
    ) -> None:
        from helpers.runs import readers

        names = [name for name, _ in runs]
        if baseline is not None and baseline not in names:
            raise DataError("--baseline", f"one of the runs {names}", got=baseline)
        self.runs, self.baseline, self.benchmarks, self.reading = (
            runs,
            baseline,
            benchmarks,
            reading,
        )
        options = {**reading, "benchmarks": benchmarks}
        self.watched = [
            Watched(name, path, follow=readers.Follow(path, **options)) for name, path in runs
        ]
        self.loaded: dict = {}  # each run as read so far, by its path as given

    def look(self, now: float) -> tuple[bool, list[str]]:
        """Whether any input grew since the last look, and what this look says."""
        from helpers.runs import results_json

        grown = [w for w in self.watched if w.grew(now)]
        said, fresh = [], False
        for w in grown:
            try:
                run = w.follow.look()
                table = results_json.run_accuracies(run)
            except DataError as e:  # a log not readable yet: looked at again next time
                if str(e) != w.waiting:
                    said.append(f"{w.name}: waiting: {e}")
                w.waiting = str(e)
                continue
            w.waiting, w.ended = None, run.ended
            if "#" not in str(w.path):  # PATH#RUN is read whole by whoever reads it
                self.loaded[str(w.path)] = run
            if self.benchmarks:
                table = table.filter(table["benchmark"].is_in(self.benchmarks))
            lines = w.new_lines(table)
            fresh = fresh or bool(lines)
            said += lines
        if fresh and self.baseline and len(self.watched) > 1:
            said += self.differences()
        return bool(grown), said

    @property
    def readable(self) -> bool:
        """Every run could be read at its last look (an output drawn now is whole)."""
        return not any(w.waiting for w in self.watched)

    def ended(self) -> bool:
        """Every run's log says its run ended: nothing more to come."""
        return all(w.ended for w in self.watched)

    def quiet_for(self, now: float, started: float) -> float:
        """How long no input has grown."""
        return min(now - (w.grew_at or started) for w in self.watched)

    def runs_as_read(self) -> list[tuple[str, object]]:
        """The runs for `compare`: each as read so far where it was, else its path."""
        return [(name, self.loaded.get(str(path), path)) for name, path in self.runs]

    def comparison(self):
        """The comparison of the runs as read so far (`compare.compare`)."""
        from helpers.runs.compare import compare

        return compare(
            self.runs_as_read(), baseline=self.baseline, benchmarks=self.benchmarks, **self.reading
        )

    def differences(self) -> list[str]:
        """The difference of each run from the baseline at the newest step both logged, as
        `compare` prints it."""
        try:
            c = self.comparison()
        except DataError as e:
            return [f"compare: waiting: {e}"]
        return [f"  {line}" for line in c.lines()]
