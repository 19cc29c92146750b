"""The answers RL frameworks and evaluation runners dump as they go: verifiers' `vf-eval`
results.jsonl and TRL GRPOTrainer's completions Parquet, one row per generation, with no
problem id of their own (problems are keyed by a hash of their prompt)."""

from __future__ import annotations

import json
from pathlib import Path

import polars as pl

from helpers.errors import DataError
from helpers.runs.readers._common import scan_jsonl_lines
from helpers.runs.readers.evals import SAMPLE_SCHEMA, _frame, _text_key

# ---- verifiers (vf-eval) results.jsonl ----------------------------------------------------------

CORRECTNESS = ("correct", "check_answer", "accuracy", "exact_match")  # in reward-function names


def _message_text(messages, role: str | None = None) -> str:
    """The text of a chat: every message's content (of one role, if given), joined."""
    if isinstance(messages, str):
        return messages
    if not isinstance(messages, list):
        return ""
    parts = [
        m.get("content") or ""
        for m in messages
        if isinstance(m, dict) and (role is None or m.get("role") == role)
    ]
    return "\n".join(p if isinstance(p, str) else json.dumps(p) for p in parts)


def _prompt_key(record: dict) -> str:
    """A problem's id from its prompt and reference answer, the same in every run of the
    environment (a game's prompt can be the same for every problem: Wordle's answers differ)."""
    return _text_key(json.dumps([record.get("prompt"), record.get("answer")], ensure_ascii=False))


def verifiers_correctness(path: Path, keys: list[str], metric: str | None = None) -> str:
    """Which column says whether a rollout was right: `metric` if given, else the reward
    function named for correctness (correct_answer_reward_func, check_answer_reward_func)."""
    if metric is not None:
        if metric not in keys:
            raise DataError(path, f"a column {metric!r} (--map accuracy)", line=1, got=keys)
        return metric
    found = [k for k in keys if k.endswith("_func") and any(w in k for w in CORRECTNESS)]
    if not found:
        raise DataError(
            path,
            "a reward function for correctness (e.g. correct_answer_reward_func), or --map "
            "accuracy=COLUMN naming a 0/1 column",
            line=1,
            got=[k for k in keys if k.endswith("_func") or k == "reward"],
        )
    return found[0]


def read_verifiers(path: str | Path, metric: str | None = None) -> pl.DataFrame:
    """A verifiers `vf-eval` results.jsonl (one line per rollout) as one row per answer:
    problem_id (a hash of the prompt and answer: the file's `id` counts rows, not problems,
    in older files), sample_id (the rollout's order among its problem's), correct (the correctness
    reward function: 0 or 1). A run that wrote no completion at all cannot be scored: an
    error, not 0% accuracy."""
    path = Path(path)
    rows, seen, column, generated = [], {}, None, 0
    for number, record in scan_jsonl_lines(path):
        column = column or verifiers_correctness(path, sorted(record), metric)
        key = _prompt_key(record)
        seen[key] = seen.get(key, -1) + 1
        value = record.get(column)
        if type(value) not in (int, float, bool) or value not in (0, 1):
            raise DataError(
                path, "a correctness of 0 or 1 per rollout", line=number, column=column, got=value
            )
        generated += bool(_message_text(record.get("completion"), "assistant").strip())
        rows.append((key, seen[key], bool(value)))
    if rows and not generated:
        raise DataError(
            path,
            "generated completions to score; every completion is empty (the run wrote its "
            "prompts but no rollout)",
            column="completion",
        )
    return _frame(path, rows, SAMPLE_SCHEMA)


# ---- TRL GRPOTrainer completion dumps (log_completions: completions/completions_<step>.parquet)

TRL_COMPLETION_COLUMNS = ("step", "prompt", "completion")


def read_trl_completions(path: str | Path, metric: str | None = None) -> pl.DataFrame:
    """One TRL completions Parquet (one row per generation: step, prompt, completion, one
    column per reward function, advantage) as one row per answer: step, problem_id (a hash of
    the prompt), sample_id (the generation's order within its prompt and step), correct (the
    correctness reward function: 0 or 1)."""
    path = Path(path)
    try:
        frame = pl.read_parquet(path)
    except (pl.exceptions.PolarsError, OSError) as e:
        raise DataError(path, "a readable Parquet file", got=str(e)[:80]) from None
    rewards = [c for c in frame.columns if c not in (*TRL_COMPLETION_COLUMNS, "advantage")]
    column = metric or next((c for c in rewards if any(w in c for w in CORRECTNESS)), None)
    if column not in frame.columns:
        raise DataError(
            path,
            "a correctness reward column (e.g. correctness_reward), or --map accuracy=COLUMN "
            "naming a 0/1 column",
            got=rewards,
        )
    values = frame[column]
    if not (values.dtype.is_numeric() or values.dtype == pl.Boolean):
        raise DataError(path, "a correctness of 0 or 1", column=column, got=str(values.dtype))
    bad = ~values.cast(pl.Float64).is_in([0.0, 1.0]).fill_null(False)
    if bad.any():
        row = int(bad.arg_true()[0])
        raise DataError(
            path, "a correctness of 0 or 1", row=row + 1, column=column, got=values[row]
        )
    keys = {p: _text_key(p) for p in frame["prompt"].unique()}
    return frame.select(
        pl.col("step").cast(pl.Int64),
        pl.col("prompt").replace_strict(keys, return_dtype=pl.String).alias("problem_id"),
        (pl.int_range(pl.len()).over("step", "prompt")).cast(pl.Int64).alias("sample_id"),
        (pl.col(column) == 1).alias("correct"),
        pl.lit(column).alias("benchmark"),
    )
