"""verl's validation generations, as the trackers keep them: `trainer.log_val_generations=N`
logs, at each validation, the N sampled prompts with their outputs and scores.

- W&B: a `wandb.Table` named `val/generations` whose columns are `step, input_1, output_1,
  score_1, ..., input_N, output_N, score_N`, one row per validation so far (each table holds
  every earlier row too), written as
  `files/media/table/val/generations_<n>_<hash>.table.json` ({"columns": [...], "data": [...]}).
- MLflow: an artifact `val_step<step>.json` per validation in the run's `artifacts/`, a list
  of {"input", "output", "score"} (verl since 2025 writes {"table_name", "rows": [...]}, the
  rows perhaps with `reward` too).

They are the only per-prompt answers many runs keep: read as a per-sample log, problems keyed
by a whitespace-normalised hash of the prompt, so `compare` pairs two runs prompt by prompt at
every step both sampled. verl samples the same prompts at every validation (a fixed seed), a
few of the validation set: the notes say how many."""

from __future__ import annotations

import json
import re
from pathlib import Path

import polars as pl

from helpers.errors import DataError
from helpers.runs.readers._common import files_in, read_document
from helpers.runs.readers.format import Format, Where
from helpers.runs.readers.formats.answer_dumps import _normalised_key
from helpers.runs.readers.loaded import Loaded, SampleLog

SUFFIX = ".table.json"
BENCHMARK = "validation generations"
ARTIFACT = re.compile(r"^val_step(\d+)\.json$")  # verl's name for its MLflow artifact


def is_generations(doc: object) -> bool:
    """A W&B table of verl's validation generations: columns `step`, `input_1`, ..."""
    if not isinstance(doc, dict) or not isinstance(doc.get("columns"), list):
        return False
    columns = doc["columns"]
    return len(columns) >= 4 and columns[:4] == ["step", "input_1", "output_1", "score_1"]


def artifact_rows(doc: object) -> list | None:
    """The rows of verl's MLflow artifact (a list of {"input", "output", "score"}, or
    {"table_name", "rows": [...]}), or None for any other document."""
    rows = doc.get("rows") if isinstance(doc, dict) and "table_name" in doc else doc
    if not isinstance(rows, list) or not rows:
        return None
    first = rows[0]
    return rows if isinstance(first, dict) and {"input", "output", "score"} <= set(first) else None


def is_artifact(doc: object) -> bool:
    return artifact_rows(doc) is not None


def _holding(folder: Path, named, holds) -> list[Path]:
    found = []
    for f in files_in(folder)[0]:
        if named(f.name):
            try:
                if holds(json.loads(read_document(f))):
                    found.append(f)
            except (json.JSONDecodeError, UnicodeDecodeError, DataError):
                continue
    return found


def tables_in(folder: Path) -> list[Path]:
    """The generation tables a folder holds (W&B's `files/media/table/val/`)."""
    return _holding(folder, lambda name: name.endswith(SUFFIX), is_generations)


def artifacts_in(folder: Path) -> list[Path]:
    """verl's generation artifacts a folder holds (an MLflow run's `artifacts/`)."""
    return _holding(folder, ARTIFACT.match, is_artifact)


def _logged_order(path: Path) -> tuple:
    """W&B names a table `generations_<n>_<hash>`, n counting as it logs: in that order."""
    part = path.name.split("_")
    return (int(part[1]), path.name) if len(part) > 2 and part[1].isdigit() else (-1, path.name)


def _table_rows(files: list[Path]) -> list[tuple]:
    """(step, problem key, sample id, score) of W&B tables, a later table's row for a step
    replacing an earlier one's."""
    by_step: dict[int, list] = {}
    for f in sorted(files, key=_logged_order):
        doc = json.loads(read_document(f))
        if not is_generations(doc) or not isinstance(doc.get("data"), list):
            raise DataError(f, "a W&B table with columns step, input_1, output_1, score_1, ...")
        columns = doc["columns"]
        for number, row in enumerate(doc["data"], 1):
            if not isinstance(row, list) or len(row) != len(columns):
                raise DataError(f, f"a row of {len(columns)} values", row=number, got=row)
            step = row[0]
            if type(step) is not int and not (type(step) is float and step.is_integer()):
                raise DataError(f, "a whole step", row=number, column="step", got=step)
            by_step[int(step)] = [(f, number, columns, row)]
    rows = []
    for step, ((f, number, columns, row),) in sorted(by_step.items()):
        samples = [
            (row[columns.index(f"input_{i}")], row[columns.index(f"score_{i}")], f"score_{i}")
            for i in range(1, (len(columns) - 1) // 3 + 1)
        ]
        rows += _keyed(f, number, step, samples)
    return rows


def _artifact_rows(files: list[Path]) -> list[tuple]:
    """(step, problem key, sample id, score) of verl's MLflow artifacts, the step from each
    file's name."""
    rows = []
    for f in sorted(files, key=lambda f: int(ARTIFACT.match(f.name).group(1))):
        entries = artifact_rows(json.loads(read_document(f)))
        if entries is None:
            raise DataError(f, 'a list of {"input", "output", "score"} (verl\'s artifact)')
        step = int(ARTIFACT.match(f.name).group(1))
        for number, entry in enumerate(entries, 1):
            if not isinstance(entry, dict) or "input" not in entry:
                raise DataError(f, "an object with input, output and score", row=number)
        samples = [(e["input"], e.get("score"), "score") for e in entries]
        rows += _keyed(f, None, step, samples)
    return rows


def _keyed(f: Path, number: int | None, step: int, samples: list) -> list[tuple]:
    """One validation's (prompt, score, where) as rows, a prompt sampled twice numbered."""
    seen: dict[str, int] = {}
    rows = []
    for i, (prompt, score, column) in enumerate(samples, 1):
        if type(score) not in (int, float, bool) or score != score:
            raise DataError(f, "a number", row=number or i, column=column, got=score)
        key = _normalised_key(str(prompt))
        seen[key] = seen.get(key, -1) + 1
        rows.append((step, key, seen[key], float(score)))
    return rows


def read_generations(path: Path) -> tuple[pl.DataFrame, list[str]]:
    """Every validation's sampled prompts as per-sample rows (step, benchmark, problem_id,
    sample_id, correct, response_tokens, and `reward` where a score is not 0 or 1), from W&B
    tables or verl's MLflow artifacts (one file, or a folder of them), and a note of how many
    prompts each step sampled."""
    if path.is_dir():
        tables, artifacts = tables_in(path), artifacts_in(path)
    else:
        tables, artifacts = ([], [path]) if ARTIFACT.match(path.name) else ([path], [])
    if not tables and not artifacts:
        raise DataError(
            path,
            "verl's validation generations: W&B tables (columns step, input_1, ...) or MLflow "
            "artifacts val_step<N>.json",
        )
    rows = _table_rows(tables) if tables else _artifact_rows(artifacts)
    where = f"{len(tables)} W&B table(s)" if tables else f"{len(artifacts)} MLflow artifact(s)"
    frame = pl.DataFrame(
        rows, schema=["step", "problem_id", "sample_id", "score"], orient="row"
    ).with_columns(benchmark=pl.lit(BENCHMARK), response_tokens=pl.lit(None, pl.Int64))
    binary = frame["score"].is_in([0.0, 1.0]).all()
    frame = frame.with_columns(correct=pl.col("score") == 1.0)
    if not binary:  # partial credit: compared by mean reward
        frame = frame.with_columns(reward=pl.col("score"))
    per_step = frame.group_by("step").agg(pl.col("problem_id").n_unique())["problem_id"]
    counts = sorted(set(per_step.to_list()))
    said = (
        f"verl's validation generations ({where}): {counts[0]}"
        + (f"-{counts[-1]}" if len(counts) > 1 else "")
        + f" prompts a step at {frame['step'].n_unique()} steps, a sample of the validation set"
        " (trainer.log_val_generations), paired by prompt"
    )
    keep = ["step", "benchmark", "problem_id", "sample_id", "correct", "response_tokens"]
    return frame.select(*keep, *(["reward"] if not binary else [])), [said]


# ---- the formats ------------------------------------------------------------------------------


def _read(path: Path, where: Where) -> Loaded:
    frame, said = read_generations(path)
    return SampleLog(path, where.kind, samples=frame.lazy(), notes=said)


FORMATS = [
    Format(
        "wandb-generations",
        "verl's validation generations as W&B tables (files/media/table/val/"
        "generations_*.table.json: step, input_i, output_i, score_i)",
        rank=100,
        read=_read,
        folder=lambda ev: bool(tables_in(ev.path)),  # W&B's files/media/table/val/
        document=lambda ev: is_generations(ev.document),
        per_sample=True,
    ),
    Format(
        "mlflow-generations",
        "verl's validation generations as MLflow artifacts (artifacts/val_step<N>.json: input, "
        "output, score)",
        rank=101,
        read=_read,
        folder=lambda ev: bool(artifacts_in(ev.path)),  # an MLflow run's artifacts/
        document=lambda ev: is_artifact(ev.document),
        per_sample=True,
    ),
]
