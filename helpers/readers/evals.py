"""Per-sample evaluation outputs written as JSON lines: the Qwen2.5-Math harness (also used by
SkyThought) and lm-evaluation-harness `samples_*.jsonl`."""

from __future__ import annotations

from pathlib import Path

import polars as pl

from ..errors import DataError
from ._common import scan_jsonl_lines


def _frame(path: Path, rows: list[tuple], schema: dict) -> pl.DataFrame:
    if not rows:
        raise DataError(path, "at least one JSON line; the file is empty", line=1)
    return pl.DataFrame(rows, schema=schema, orient="row")


def read_qwen_math(path: str | Path) -> pl.DataFrame:
    """Qwen2.5-Math harness output as one row per sample: problem_id, level, sample_id,
    correct, response_chars (the harness stores no token counts)."""
    path = Path(path)
    rows = []
    for number, record in scan_jsonl_lines(path):
        for key in ("idx", "score", "code"):
            if key not in record:
                raise DataError(path, f"a '{key}' key on every line", line=number, column=key)
        scores, codes = record["score"], record["code"]
        if not isinstance(scores, list) or not all(isinstance(s, bool) for s in scores):
            raise DataError(
                path, "a list of true/false values", line=number, column="score", got=scores
            )
        if not isinstance(codes, list) or len(codes) != len(scores):
            raise DataError(
                path,
                f"a list of {len(scores)} responses, one per score",
                line=number,
                column="code",
                got=type(codes).__name__,
            )
        level = record.get("level")
        for i, (ok, text) in enumerate(zip(scores, codes, strict=True)):
            rows.append(
                (str(record["idx"]), level, i, ok, len(text) if isinstance(text, str) else None)
            )
    return _frame(
        path,
        rows,
        {
            "problem_id": pl.String,
            "level": pl.Int64,
            "sample_id": pl.Int64,
            "correct": pl.Boolean,
            "response_chars": pl.Int64,
        },
    )


def read_lm_eval(path: str | Path, metric: str | None = None) -> pl.DataFrame:
    """lm-evaluation-harness samples file as one row per document: problem_id, sample_id,
    correct (the metric's value above 0.5), score (the metric's value)."""
    path = Path(path)
    rows = []
    for number, record in scan_jsonl_lines(path):
        name = metric or next(iter(record.get("metrics", [])), None)
        if name is None or name not in record:
            raise DataError(
                path,
                "a metric value on every line (e.g. exact_match or acc)",
                line=number,
                column=name or "metrics",
            )
        try:
            value = float(record[name])
        except (TypeError, ValueError):
            raise DataError(path, "a number", line=number, column=name, got=record[name]) from None
        rows.append((str(record.get("doc_id")), 0, value > 0.5, value))
    return _frame(
        path,
        rows,
        {
            "problem_id": pl.String,
            "sample_id": pl.Int64,
            "correct": pl.Boolean,
            "score": pl.Float64,
        },
    )
