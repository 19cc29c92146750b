"""Per-sample evaluation outputs written as JSON lines: the Qwen2.5-Math harness (also used by
SkyThought) and lm-evaluation-harness `samples_*.jsonl`."""

from __future__ import annotations

from pathlib import Path

import polars as pl

from helpers.errors import DataError
from helpers.runs.readers._common import scan_jsonl_lines
from helpers.runs.readers.format import Format, Where
from helpers.runs.readers.loaded import Loaded, SampleLog, samples_frame


def _text_key(text: str) -> str:
    """A problem's id from its text, the same in every run that was given the same text (where
    a log has no id of its own, or one that counts rows)."""
    import hashlib

    return hashlib.sha1(text.encode("utf-8")).hexdigest()[:16]


def _frame(path: Path, rows: list[tuple], schema: dict) -> pl.DataFrame:
    if not rows:
        raise DataError(path, "at least one JSON line; the file is empty", line=1)
    return pl.DataFrame(rows, schema=schema, orient="row")


def _level(path: Path, number: int, value) -> int | None:
    """A MATH difficulty level: 3, or as the dataset spells it, "Level 3"; "Level ?" (a few
    MATH problems have no level) and a missing level are unknown."""
    if value is None or type(value) is int and 0 <= value < 2**31:
        return value
    if isinstance(value, str):
        text = value.strip().lower().removeprefix("level").strip()
        if text.isdecimal() and len(text) < 10:
            return int(text)
        if text == "?":
            return None
    raise DataError(path, "a level such as 3 or 'Level 3'", line=number, column="level", got=value)


def read_qwen_math(path: str | Path) -> pl.DataFrame:
    """Qwen2.5-Math harness output as one row per sample: problem_id, level, sample_id,
    correct, response_chars (the harness stores no token counts), answer (the sample's entry
    of `pred`, the answer extracted from it, for majority voting; null where not logged)."""
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
        for column, what in (("code", "responses"), ("pred", "extracted answers")):
            value = record.get(column)
            if (column == "code" or value is not None) and (
                not isinstance(value, list) or len(value) != len(scores)
            ):
                raise DataError(
                    path,
                    f"a list of {len(scores)} {what}, one per score",
                    line=number,
                    column=column,
                    got=type(value).__name__,
                )
        level = _level(path, number, record.get("level"))
        preds = record.get("pred")
        # an empty extraction ("") is the harness's "no answer": it does not vote
        answers = [
            str(p).strip() or None if p is not None else None for p in preds or [None] * len(scores)
        ]
        for i, (ok, text, answer) in enumerate(zip(scores, codes, answers, strict=True)):
            chars = len(text) if isinstance(text, str) else None
            rows.append((str(record["idx"]), level, i, ok, chars, answer))
    return _frame(
        path,
        rows,
        {
            "problem_id": pl.String,
            "level": pl.Int64,
            "sample_id": pl.Int64,
            "correct": pl.Boolean,
            "response_chars": pl.Int64,
            "answer": pl.String,
        },
    )


def read_lm_eval(path: str | Path, metric: str | None = None) -> pl.DataFrame:
    """lm-evaluation-harness samples file as one row per document: problem_id (its doc_id),
    sample_id, correct (the metric's value above 0.5), score (the metric's value, from 0 to 1).
    Every line names its document, once in the file; a value outside 0-1 (a percentage, a
    NaN, a -1 for a failed parse) is an error naming its line, not an answer counted wrong."""
    path = Path(path)
    rows, seen = [], {}
    for number, record in scan_jsonl_lines(path):
        listed = record.get("metrics", [])
        if not isinstance(listed, list) or not all(isinstance(m, str) for m in listed):
            raise DataError(
                path, "a list of metric names", line=number, column="metrics", got=listed
            )
        name = metric or next(iter(listed), None)
        if name is None or name not in record:
            raise DataError(
                path,
                "a metric value on every line (e.g. exact_match or acc)",
                line=number,
                column=name or "metrics",
            )
        value = record[name]
        if type(value) not in (int, float, bool) or not 0 <= value <= 1:  # NaN fails too
            raise DataError(path, "a score from 0 to 1", line=number, column=name, got=value)
        doc = record.get("doc_id")
        if type(doc) not in (int, str):
            raise DataError(path, "a doc_id on every line", line=number, column="doc_id", got=doc)
        if str(doc) in seen:
            raise DataError(
                path,
                f"each document once (doc {doc!r} is also on line {seen[str(doc)]})",
                line=number,
                column="doc_id",
            )
        seen[str(doc)] = number
        rows.append((str(doc), 0, value > 0.5, float(value)))
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


# ---- lighteval details and Inspect logs ---------------------------------------------------------

SAMPLE_SCHEMA = {
    "problem_id": pl.String,
    "sample_id": pl.Int64,
    "correct": pl.Boolean,
}


def _binary(path: Path, value, where: str, line: int | None = None) -> bool:
    """A per-answer score as correct or not: booleans, 0/1, Inspect's C (correct) and I
    (incorrect); anything else (partial credit, averages of several samples) is an error."""
    if isinstance(value, bool):
        return value
    if isinstance(value, int | float) and value in (0, 1):
        return bool(value)
    if value in ("C", "I"):
        return value == "C"
    raise DataError(
        path,
        "a correct/incorrect score per answer (true/false, 1/0, C/I); partial credit or an "
        "average over samples cannot be split into answers",
        line=line,
        column=where,
        got=value,
    )


def read_lighteval_details(path: str | Path, metric: str | None = None) -> pl.DataFrame:
    """lighteval details Parquet (one row per problem, a `metrics` struct) as one row per
    problem: problem_id (a hash of the `example` text, so the same problem pairs across runs
    whatever its position), sample_id 0, correct (the metric: 0 or 1)."""
    path = Path(path)
    try:
        frame = pl.read_parquet(path, columns=["example", "metrics"])
    except pl.exceptions.ColumnNotFoundError:
        raise DataError(path, "lighteval details columns 'example' and 'metrics'") from None
    except (pl.exceptions.ComputeError, OSError) as e:
        raise DataError(path, "a readable Parquet file", got=str(e)[:80]) from None
    if frame.schema["metrics"] != pl.Struct or not frame.height:
        raise DataError(path, "a 'metrics' struct on at least one row", column="metrics")
    names = [f.name for f in frame.schema["metrics"].fields]
    name = metric or next(
        (p for p in ("extractive_match", "exact_match", "acc") if p in names), None
    )
    name = name or (names[0] if names else None)
    if name not in names:
        raise DataError(path, f"a metric {metric or 'in metrics'}", column="metrics", got=names)
    rows = []
    for i, (example, metrics) in enumerate(frame.iter_rows()):
        key = _text_key(str(example))
        rows.append((key, 0, _binary(path, metrics[name], f"metrics.{name}", line=i + 1)))
    return _frame(path, rows, SAMPLE_SCHEMA)


# ---- the formats ------------------------------------------------------------------------------


def _read_lines(path: Path, where: Where) -> Loaded:
    """Qwen2.5-Math or lm-eval samples: the benchmark from the path, else the file's name."""
    kind = where.kind
    frame = read_qwen_math(path) if kind == "qwen-math" else read_lm_eval(path)
    benchmark = where.benchmark or path.stem
    notes = []
    if kind == "lm-eval" and not frame["score"].is_in([0.0, 1.0]).all():
        # a metric with partial credit (f1, a BLEU): its value is the sample's reward, so
        # charts and comparisons take its mean, never a right/wrong cut at 0.5
        frame = frame.with_columns(reward=pl.col("score"))
        notes.append("metric values between 0 and 1: compared as a mean reward")
    samples = samples_frame(frame, where.step, benchmark).lazy()
    texts = [(path, kind, where.step, benchmark)]
    decoding = {}
    if kind == "qwen-math":  # the harness names its output ..._seed{S}_t{temperature}_s...
        import re

        found = re.search(r"_seed\d+_t(\d+(?:\.\d+)?)_s", path.name)
        decoding = {"temperature": float(found.group(1))} if found else {}
    return SampleLog(path, kind, samples=samples, notes=notes, texts=texts, decoding=decoding)


def _read_details(path: Path, where: Where) -> Loaded:
    import re

    from helpers import benchmark_sizes

    frame = read_lighteval_details(path, where.metric)
    task = re.sub(r"^details_", "", path.stem).split("|")
    name = task[1] if len(task) > 2 else where.benchmark or path.stem
    benchmark = benchmark_sizes.canonical(name)
    samples = samples_frame(frame, where.step, benchmark).lazy()
    return SampleLog(path, where.kind, samples=samples)


FORMATS = [
    Format(
        "qwen-math", "Qwen2.5-Math / SkyThought per-sample JSONL (idx, score, code)",
        rank=160, read=_read_lines, line=lambda ev: {"idx", "score", "code"} <= ev.keys,
        per_sample=True,
    ),
    Format(
        "lm-eval", "lm-evaluation-harness samples_*.jsonl (doc_id, resps, metrics)",
        rank=161, read=_read_lines, per_sample=True,
        line=lambda ev: {"doc_id", "resps"} <= ev.keys or {"doc_id", "filtered_resps"} <= ev.keys,
    ),
    Format(
        "lighteval-details", "lighteval details Parquet (example, metrics)",
        rank=121, read=_read_details, parquet=lambda ev: {"example", "metrics"} <= ev.names,
        per_sample=True,
    ),
]  # fmt: skip
