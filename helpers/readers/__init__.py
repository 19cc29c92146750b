"""Readers for your own run's logs, each format recognised from the file's content.

Formats (see `detect`):
- ``wandb``: a Weights & Biases history export (CSV, one row per step, wide metric columns).
- ``qwen-math``: per-sample JSONL from the Qwen2.5-Math evaluation harness (`idx`, `level`,
  `score: list[bool]`, `code: list[str]`).
- ``lm-eval``: lm-evaluation-harness `samples_*.jsonl` (`doc_id`, `resps`, a metric per line).
- ``samples``: a tidy per-sample table, CSV or Parquet, one file or a hive-partitioned folder,
  with columns step, benchmark, problem_id, sample_id, correct, response_tokens.
- ``scores``: a table with one row per model, a model-size column and accuracy columns.
- ``evals``: a folder of per-sample JSONL files, one per checkpoint (`checkpoint-N/...`): the
  step is read from the path.

`load` reads any run's log into one shape (`Loaded`): per-sample rows or per-step scores.

Reading never draws: the charts are chosen in `helpers.cli`, the numbers made in
`helpers.aggregate`.
"""

from __future__ import annotations

from pathlib import Path

from ..errors import DataError
from ._common import csv_header, first_json
from .evals import read_lm_eval, read_qwen_math
from .runs import Loaded, load, step_from_path  # noqa: E402  (runs uses detect)
from .tables import SAMPLE_COLUMNS, read_scores, scan_samples
from .wandb import LENGTH_COLUMN, VAL_PREFIX

__all__ = [
    "LENGTH_COLUMN",
    "Loaded",
    "load",
    "step_from_path",
    "SAMPLE_COLUMNS",
    "VAL_PREFIX",
    "detect",
    "read_lm_eval",
    "read_qwen_math",
    "read_scores",
    "scan_samples",
]


def detect(path: str | Path) -> str:
    """Which of the supported formats a file (or hive-partitioned folder) is in."""
    path = Path(path)
    if not path.exists():
        raise DataError(path, "an existing file or folder (not found)")
    if path.is_dir():
        if any(path.rglob("*.parquet")):
            return "samples"
        if any(path.rglob("*.jsonl")):
            return "evals"
        raise DataError(
            path, "a folder holding Parquet files or per-sample .jsonl files; found neither"
        )
    if path.suffix == ".parquet":
        return "samples"
    if path.suffix in (".jsonl", ".json"):
        keys = set(first_json(path))
        if {"idx", "score", "code"} <= keys:
            return "qwen-math"
        if {"doc_id", "resps"} <= keys or {"doc_id", "filtered_resps"} <= keys:
            return "lm-eval"
        raise DataError(
            path,
            "Qwen2.5-Math (idx, score, code) or lm-eval (doc_id, resps) keys",
            line=1,
            got=sorted(keys)[:8],
        )
    if path.suffix == ".csv":
        header = csv_header(path)
        if "_step" in header:
            return "wandb"
        if set(SAMPLE_COLUMNS) <= set(header):
            return "samples"
        if any("size" in c.lower() for c in header):
            return "scores"
        raise DataError(
            path,
            "a W&B export (_step column), a per-sample table "
            f"({', '.join(SAMPLE_COLUMNS)}) or a scores table (a size column)",
            line=1,
            got=header[:8],
        )
    raise DataError(
        path, "a .csv, .jsonl or .parquet file, or a folder of Parquet files", got=path.suffix
    )
