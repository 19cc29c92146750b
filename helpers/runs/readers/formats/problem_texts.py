"""The problems themselves: each problem's text, reference answer and a run's answer, read from
the per-sample files that hold them, only when a comparison asks (plotting never reads text)."""

from __future__ import annotations

import json
from pathlib import Path

import polars as pl

from helpers.runs.readers._common import scan_jsonl_lines
from helpers.runs.readers.formats.answer_dumps import (
    STEP_DUMPS,
    _message_text,
    _prompt_key,
    dump_texts,
)

TEXT_SCHEMA = {
    "problem_id": pl.String,
    "question": pl.String,
    "reference": pl.String,
    "answer": pl.String,
}
QUESTION_KEYS = ("question", "problem", "prompt", "input", "query")


def _text(value) -> str | None:
    if value is None:
        return None
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)


def read_texts(path: str | Path, kind: str) -> pl.DataFrame:
    """Each problem's text, reference answer and the run's first answer, where a per-sample
    file holds them (None where it does not): Qwen2.5-Math/SkyThought `question`, `gt` and
    `pred`; lm-evaluation-harness `doc` (its question field), `target` and `filtered_resps`;
    verifiers the prompt's user turns, `answer` and the completion's assistant turns; verl
    `input`, `gts`, `output`; SkyRL `input_prompt`, `env_extras.reward_spec.ground_truth`,
    `output_response`; NeMo-RL the turns before the model's and the model's turns. The
    files were checked when their samples were read; this pass reads only text."""
    path = Path(path)
    rows = []
    for _, record in scan_jsonl_lines(path):
        if kind in STEP_DUMPS:  # verl, SkyRL, NeMo-RL validation dumps
            key, question, reference, answer = dump_texts(record, kind)
            answers = [answer]
        elif kind == "verifiers":
            key = _prompt_key(record)
            question = _message_text(record.get("prompt"), "user") or None
            reference = record.get("answer")
            answers = [_message_text(record.get("completion"), "assistant")]
        elif kind == "qwen-math":
            key = record.get("idx")
            question = next((record[k] for k in QUESTION_KEYS if k in record), None)
            reference = record.get("gt", record.get("answer"))
            answers = record.get("pred") or []
        else:  # lm-eval
            key = record.get("doc_id")
            doc = record.get("doc") if isinstance(record.get("doc"), dict) else {}
            question = next((doc[k] for k in QUESTION_KEYS if k in doc), None)
            reference = record.get("target")
            answers = record.get("filtered_resps") or record.get("resps") or []
        answer = answers[0] if isinstance(answers, list) and answers else None
        while isinstance(answer, list):  # lm-eval nests responses per request
            answer = answer[0] if answer else None
        rows.append((str(key), _text(question), _text(reference), _text(answer)))
    return pl.DataFrame(rows, schema=TEXT_SCHEMA, orient="row")
