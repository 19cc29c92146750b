"""verl's validation generations as W&B keeps them: `trainer.log_val_generations=N` logs, at
each validation, a `wandb.Table` named `val/generations` whose columns are `step, input_1,
output_1, score_1, ..., input_N, output_N, score_N`, one row per validation so far (each table
holds every earlier row too). W&B writes each as
`files/media/table/val/generations_<n>_<hash>.table.json` ({"columns": [...], "data": [...]}).
They are the only per-prompt answers many runs keep: read as a per-sample log, problems keyed
by a whitespace-normalised hash of the prompt, so `compare` pairs two runs prompt by prompt at
every step both sampled. verl samples the same prompts at every validation (a fixed seed), a
few of the validation set: the notes say how many."""

from __future__ import annotations

import json
from pathlib import Path

import polars as pl

from helpers.errors import DataError
from helpers.runs.readers._common import files_in, read_document
from helpers.runs.readers.answer_dumps import _normalised_key

SUFFIX = ".table.json"
BENCHMARK = "validation generations"


def is_generations(doc: object) -> bool:
    """A W&B table of verl's validation generations: columns `step`, `input_1`, ..."""
    if not isinstance(doc, dict) or not isinstance(doc.get("columns"), list):
        return False
    columns = doc["columns"]
    return len(columns) >= 4 and columns[:4] == ["step", "input_1", "output_1", "score_1"]


def tables_in(folder: Path) -> list[Path]:
    """The generation tables a folder holds (W&B's `files/media/table/val/`)."""
    found = []
    for f in files_in(folder)[0]:
        if f.name.endswith(SUFFIX):
            try:
                if is_generations(json.loads(read_document(f))):
                    found.append(f)
            except (json.JSONDecodeError, UnicodeDecodeError, DataError):
                continue
    return found


def _logged_order(path: Path) -> tuple:
    """W&B names a table `generations_<n>_<hash>`, n counting as it logs: in that order."""
    part = path.name.split("_")
    return (int(part[1]), path.name) if len(part) > 2 and part[1].isdigit() else (-1, path.name)


def read_generations(path: Path) -> tuple[pl.DataFrame, list[str]]:
    """Every validation's sampled prompts as per-sample rows (step, benchmark, problem_id,
    sample_id, correct, response_tokens, and `reward` where a score is not 0 or 1), from one
    table or a folder of them (a later table's row for a step replaces an earlier one's), and
    a note of how many prompts each step sampled."""
    files = tables_in(path) if path.is_dir() else [path]
    files.sort(key=_logged_order)
    if not files:
        raise DataError(path, "W&B tables of validation generations (columns step, input_1, ...)")
    by_step: dict[int, list] = {}
    for f in files:
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
        seen: dict[str, int] = {}
        for i in range(1, (len(columns) - 1) // 3 + 1):
            prompt, score = row[columns.index(f"input_{i}")], row[columns.index(f"score_{i}")]
            if type(score) not in (int, float, bool) or score != score:
                raise DataError(f, "a number", row=number, column=f"score_{i}", got=score)
            key = _normalised_key(str(prompt))
            seen[key] = seen.get(key, -1) + 1
            rows.append((step, key, seen[key], float(score)))
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
        f"verl's validation generations ({len(files)} W&B table(s)): {counts[0]}"
        + (f"-{counts[-1]}" if len(counts) > 1 else "")
        + f" prompts a step at {frame['step'].n_unique()} steps, a sample of the validation set"
        " (trainer.log_val_generations), paired by prompt"
    )
    keep = ["step", "benchmark", "problem_id", "sample_id", "correct", "response_tokens"]
    return frame.select(*keep, *(["reward"] if not binary else [])), [said]
