"""MLflow file stores (`mlruns/`), read without MLflow.

The store MLflow writes for `file:` tracking URIs: `mlruns/<experiment id>/<run id>/` holding
`meta.yaml` (the run's id, name and status), `metrics/<name>` (one line per logged value:
`<timestamp ms> <value> <step>`; a name with '/' is a subfolder), `params/` and `tags/` (one
file each; `mlflow.parentRunId` makes a run a child of another). A nested run, one per
iteration or evaluation, holds one point each: the children of one parent are stitched into
one curve by step.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import polars as pl

from helpers.errors import DataError
from helpers.runs.readers._common import files_in
from helpers.runs.readers.format import Format
from helpers.runs.readers.formats import verl_generations

_RUN_ID = re.compile(r"^run_id:\s*'?([0-9a-f]+)'?\s*$", re.MULTILINE)
_RUN_NAME = re.compile(r"^run_name:\s*'?(.*?)'?\s*$", re.MULTILINE)
# a run deleted in MLflow keeps its folder, marked so (until `mlflow gc` moves it out)
_DELETED = re.compile(r"^lifecycle_stage:\s*'?deleted'?\s*$", re.MULTILINE)
_STATUS = re.compile(r"^status:\s*'?(\w+)'?\s*$", re.MULTILINE)
# MLflow's RunStatus: the file store writes the number, the SQLite store the name
STATUSES = {"1": "RUNNING", "2": "SCHEDULED", "3": "FINISHED", "4": "FAILED", "5": "KILLED"}
ENDED = {"FINISHED", "FAILED", "KILLED"}


@dataclass
class Run:
    path: Path
    run_id: str
    name: str
    parent: str | None
    deleted: bool = False
    status: str | None = None  # RUNNING, FINISHED, FAILED, KILLED (None: not written)


def _tag(run: Path, name: str) -> str | None:
    tag = run / "tags" / name
    return tag.read_text(encoding="utf-8").strip() if tag.is_file() else None


def run_of(meta: Path) -> Run | None:
    """The run a `meta.yaml` describes, or None (another file, or an experiment's meta.yaml)."""
    if meta.name != "meta.yaml":
        return None
    text = meta.read_text(encoding="utf-8", errors="replace")
    run_id = _RUN_ID.search(text)
    if run_id is None:
        return None
    named = _tag(meta.parent, "mlflow.runName") or (_RUN_NAME.search(text) or [None, ""])[1]
    parent = _tag(meta.parent, "mlflow.parentRunId")
    deleted = _DELETED.search(text) is not None
    status = _STATUS.search(text)
    status = None if status is None else STATUSES.get(status.group(1), status.group(1))
    return Run(meta.parent, run_id.group(1), named or run_id.group(1), parent, deleted, status)


def runs(folder: Path) -> list[Run]:
    """Every run under a folder (a store, an experiment or one run's folder)."""
    found = [r for r in map(run_of, files_in(folder)[0]) if r is not None]
    return sorted(found, key=lambda r: str(r.path))


def _points(run: Run) -> list[tuple[int, str, float, int]]:
    """(step, metric, value, timestamp) of each logged value of one run."""
    metrics = run.path / "metrics"
    rows = []
    for file in files_in(metrics)[0] if metrics.is_dir() else []:
        name = file.relative_to(metrics).as_posix()
        for number, line in enumerate(file.read_text(encoding="utf-8").splitlines(), 1):
            parts = line.split()
            if not parts:
                continue
            try:
                stamp, value = int(parts[0]), float(parts[1])
                step = int(parts[2]) if len(parts) > 2 else 0
            except (ValueError, IndexError):
                raise DataError(
                    file, "'<timestamp> <value> <step>' (MLflow's metric line)", line=number,
                    got=line[:80],
                ) from None  # fmt: skip
            if not (-(2**63) <= step < 2**63 and -(2**63) <= stamp < 2**63):
                raise DataError(
                    file, "a step and timestamp that fit in 64 bits (MLflow logs them as longs)",
                    line=number, got=line[:80],
                )  # fmt: skip
            rows.append((step, name, value, stamp))
    return rows


def _root(run: Run, by_id: dict[str, Run]) -> Run:
    seen = {run.run_id}
    while run.parent in by_id and run.parent not in seen:
        run = by_id[run.parent]
        seen.add(run.run_id)
    return run


def stitch(
    every: list[Run], points: dict[str, list[tuple[int, str, float, int]]]
) -> list[tuple[Run, pl.DataFrame, list[str]]]:
    """Each top-level run that has metrics, itself or through its nested runs, as (run,
    table, what was read): one row per step and one column per metric (a later value for a
    step replaces an earlier one; nested runs' points stitched under their top-level run by
    step), `__line` numbering the rows. verl writes '@' as '_at_' in MLflow's keys
    (`mean@4` as `mean_at_4`): read as '@' again. Shared by the file store and the SQLite
    store (`mlflow_sqlite`); `points` are each run's (step, metric, value, timestamp)."""
    by_id = {r.run_id: r for r in every}
    roots: dict[str, tuple[Run, list[Run]]] = {}
    for r in every:
        if points[r.run_id]:
            root = _root(r, by_id)
            roots.setdefault(root.run_id, (root, []))[1].append(r)
    schema = {"step": pl.Int64, "metric": pl.String, "value": pl.Float64, "stamp": pl.Int64}
    found = []
    for root, members in roots.values():
        rows = [p for r in members for p in points[r.run_id]]
        frame = pl.DataFrame(rows, schema=schema, orient="row")
        verl = frame["metric"].filter(frame["metric"].str.contains(r"_at_\d")).n_unique()
        frame = frame.with_columns(pl.col("metric").str.replace_all(r"_at_(\d)", "@$1"))
        frame = frame.sort("stamp", maintain_order=True).unique(
            ["step", "metric"], keep="last", maintain_order=True
        )
        table = frame.pivot(on="metric", index="step", values="value", aggregate_function="last")
        table = table.sort("step").with_columns(
            __line=pl.int_range(1, pl.len() + 1, dtype=pl.Int64)
        )
        children = [m for m in members if m.run_id != root.run_id]
        said = [f"run {root.name!r}"]
        if children:
            said.append(f"{len(children)} nested runs stitched by step")
        if verl:
            said.append(f"'_at_' read as '@' in {verl} keys (verl writes '@' so)")
        notes = ["; ".join(said)]
        artifacts = root.path / "artifacts"
        if artifacts.is_dir() and verl_generations.artifacts_in(artifacts):
            notes.append(
                "verl's validation generations are logged as MLflow artifacts: compare two runs "
                f"prompt by prompt as NAME={artifacts}"
            )
        found.append((root, table, notes))
    return found


def tables(folder: Path) -> list[tuple[Run, pl.DataFrame, list[str]]]:
    """Each top-level run with metrics under a folder (a store, an experiment or one run's
    folder), nested runs stitched under it (`stitch`), in the order of the runs' folders."""
    every = runs(folder)
    live = [r for r in every if not r.deleted]
    found = stitch(live, {r.run_id: _points(r) for r in live})
    if len(live) < len(every) and found:  # said as the SQLite store says it
        root, table, said = found[0]
        found[0] = (
            root,
            table,
            [*said, f"{len(every) - len(live)} deleted run(s) in the store left out"],
        )
    return found


def ended(root: Run, notes: list[str]) -> tuple[list[str], bool | None]:
    """Whether MLflow says the run ended (FINISHED, FAILED or KILLED), a run that did not
    finish said so in its notes; None where its status is not written."""
    if root.status is None:
        return notes, None
    if root.status in ("FAILED", "KILLED"):
        notes = [*notes, f"the run did not finish (MLflow status {root.status})"]
    return notes, root.status in ENDED


def listed(found: list[tuple[Run, pl.DataFrame, list[str]]]) -> list:
    """An MLflow store's runs (`tables`' answer) as a tracker's store lists them: each run's
    name, its id, and what reading it gives (its table, its notes, whether it ended)."""
    return [
        (root.name, (root.run_id,), lambda t=t, s=s, r=root: (t, *ended(r, s)))
        for root, t, s in found
    ]


def _runs(path: Path, mapping: dict) -> list:
    return listed(tables(path))


FORMAT = Format(
    "mlflow",
    "MLflow file store (mlruns/: metrics/<name> per run; nested runs by step)",
    rank=20,
    folder=lambda ev: any(map(run_of, ev.files)),
    runs=_runs,
)
