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

_RUN_ID = re.compile(r"^run_id:\s*'?([0-9a-f]+)'?\s*$", re.MULTILINE)
_RUN_NAME = re.compile(r"^run_name:\s*'?(.*?)'?\s*$", re.MULTILINE)


@dataclass
class Run:
    path: Path
    run_id: str
    name: str
    parent: str | None


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
    return Run(meta.parent, run_id.group(1), named or run_id.group(1), parent)


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
            rows.append((step, name, value, stamp))
    return rows


def _root(run: Run, by_id: dict[str, Run]) -> Run:
    seen = {run.run_id}
    while run.parent in by_id and run.parent not in seen:
        run = by_id[run.parent]
        seen.add(run.run_id)
    return run


def wide(folder: Path) -> tuple[pl.DataFrame, list[str]]:
    """One run's metrics, one row per step and one column per metric (a later value for a
    step replaces an earlier one), with `__line` numbering the rows; nested runs are stitched
    under their parent. Several unrelated runs with metrics are an error naming them (give
    one run's folder). Returns the table and what was read, for `inspect`."""
    every = runs(folder)
    by_id = {r.run_id: r for r in every}
    points = {r.run_id: _points(r) for r in every}
    roots = {}
    for r in every:
        if points[r.run_id]:
            root = _root(r, by_id)
            roots.setdefault(root.run_id, (root, []))[1].append(r)
    if len(roots) > 1:
        names = sorted(root.name for root, _ in roots.values())
        raise DataError(
            folder,
            f"one run's metrics: the store holds {len(roots)} runs ({', '.join(names[:4])}"
            f"{' ...' if len(names) > 4 else ''}); give one run's folder or its parent's",
        )
    schema = {"step": pl.Int64, "metric": pl.String, "value": pl.Float64, "stamp": pl.Int64}
    rows = [p for members in roots.values() for r in members[1] for p in points[r.run_id]]
    frame = pl.DataFrame(rows, schema=schema, orient="row")
    if frame.height == 0:
        return pl.DataFrame(schema={"step": pl.Int64, "__line": pl.Int64}), []
    ((root, members),) = roots.values()
    frame = frame.sort("stamp").unique(["step", "metric"], keep="last", maintain_order=True)
    table = frame.pivot(on="metric", index="step", values="value", aggregate_function="last")
    table = table.sort("step").with_columns(__line=pl.int_range(1, pl.len() + 1, dtype=pl.Int64))
    children = [m for m in members if m.run_id != root.run_id]
    said = [f"run {root.name!r}"]
    if children:
        said.append(f"{len(children)} nested runs stitched by step")
    return table, ["; ".join(said)]
