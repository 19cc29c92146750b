"""Every log format, in the order they are tried: each is declared once, as a `Format` in its
reader's module (its sniffs, its reader, a store's runs); this list is all that `detect`,
`files.read_file`, `stores` and `inspect` know of them."""

from __future__ import annotations

from helpers.runs.readers.format import Format
from helpers.runs.readers.formats import (
    answer_dumps,
    evals,
    every_eval_ever,
    framework_logs,
    inspect_eval,
    leaderboards,
    metrics,
    prime_rl_traces,
    results,
    tables,
    verl_generations,
)
from helpers.runs.readers.trackers import (
    mlflow_sqlite,
    mlflow_store,
    swanlab_store,
    trackio_store,
    wandb_store,
)

SUFFIXES = (".parquet", ".json", ".jsonl", ".csv")

# a folder of logs (one per checkpoint, or per benchmark): read by `files.read_folder`
FOLDER = Format(
    "folder",
    "a folder of logs (per checkpoint: the step from the path)",
    rank=1000,
    folder=lambda ev: any(f.suffix.lower() in SUFFIXES for f in ev.files),
)

REGISTRY: list[Format] = sorted(
    [
        *answer_dumps.FORMATS,
        *every_eval_ever.FORMATS,
        *evals.FORMATS,
        *framework_logs.FORMATS,
        inspect_eval.FORMAT,
        leaderboards.FORMAT,
        *metrics.FORMATS,
        mlflow_sqlite.FORMAT,
        mlflow_store.FORMAT,
        prime_rl_traces.FORMAT,
        *results.FORMATS,
        swanlab_store.FORMAT,
        tables.FORMAT,
        trackio_store.FORMAT,
        *verl_generations.FORMATS,
        wandb_store.FORMAT,
        FOLDER,
    ],
    key=lambda f: f.rank,
)
BY_NAME = {f.name: f for f in REGISTRY}
assert len(BY_NAME) == len(REGISTRY), "two formats of one name"

# what each format is, for messages and for `python -m helpers inspect`
FORMATS = {f.name: f.description for f in REGISTRY}
PER_SAMPLE = tuple(f.name for f in REGISTRY if f.per_sample)
RESULTS = tuple(f.name for f in REGISTRY if f.summary)  # checked against samples beside them
BESIDE = {f.name: f.beside for f in REGISTRY if f.beside}  # never read alone


def get(name: str) -> Format:
    return BY_NAME[name]


def is_store(path, kind: str) -> bool:
    """Whether an input of format `kind` is a tracker's store, which may hold several runs (a
    folder of TensorBoard event files is one; a single event file is not)."""
    fmt = BY_NAME[kind]
    return fmt.runs is not None and (fmt.store_file or path.is_dir())
