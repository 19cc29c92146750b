"""Every Eval Ever (EvalEval's interchange schema for evaluation results, schema 0.2-0.3):
an aggregate JSON per evaluated model (`schema_version`, `model_info`, `evaluation_results`:
a score per benchmark and metric, with its uncertainty and sample count) and, beside it, the
instance-level JSONL it names in `detailed_evaluation_results` (a line per sample: its id,
`evaluation.is_correct` or `score`, the epoch in `metadata`, `token_usage`).

Read: only metrics that are a share of right answers (bounded 0-1 or 0-100, higher better)
become accuracies; others are named in the notes. The aggregate's samples file, where it lies
beside it with the checksum the aggregate names, is read as the run's per-sample answers."""

from __future__ import annotations

import hashlib
from pathlib import Path

import polars as pl

from helpers import benchmark_sizes
from helpers.errors import DataError
from helpers.runs.readers._common import scan_jsonl_lines
from helpers.runs.readers.format import Format, Where
from helpers.runs.readers.formats.results import PREFERRED, RESULT_COLUMNS, load_json
from helpers.runs.readers.loaded import Loaded, SampleLog, ScoreLog, scores_frame

INSTANCE_KEYS = {"schema_version", "evaluation_id", "sample_id", "evaluation"}
SAMPLE_SCHEMA = {
    "benchmark": pl.String,
    "problem_id": pl.String,
    "sample_id": pl.Int64,
    "correct": pl.Boolean,
    "reward": pl.Float64,
    "response_tokens": pl.Int64,
}


def is_aggregate(doc: object) -> bool:
    return (
        isinstance(doc, dict)
        and "schema_version" in doc
        and isinstance(doc.get("evaluation_results"), list)
        and isinstance(doc.get("model_info"), dict)
    )


def is_instances(keys: set[str]) -> bool:
    return keys >= INSTANCE_KEYS


def model_name(doc: dict) -> str | None:
    info = doc.get("model_info") or {}
    name = info.get("id") or info.get("name")
    return str(name) if name else None


def _number(value: object) -> bool:
    return type(value) in (int, float) and value == value


def _scale(result: dict) -> float | None:
    """What a metric's values are out of (1 or 100) where it is a share of right answers:
    higher is better and its range is 0-1 or 0-100 (or its unit says proportion or
    percent); None for any other metric (a time, a cost, an Elo)."""
    config = result.get("metric_config") if isinstance(result.get("metric_config"), dict) else {}
    if config.get("lower_is_better") is not False:
        return None
    unit = str(config.get("metric_unit") or "").lower()
    low, high = config.get("min_score"), config.get("max_score")
    if unit in ("proportion", "fraction") or (low == 0 and high == 1):
        return 1.0
    if unit in ("percent", "percentage", "%") or (low == 0 and high == 100):
        return 100.0
    return None


def _metric_name(result: dict) -> str:
    config = result.get("metric_config") if isinstance(result.get("metric_config"), dict) else {}
    return str(
        config.get("metric_id")
        or config.get("metric_name")
        or result.get("evaluation_result_id")
        or "score"
    )


def _pick(results: list[tuple[int, dict]], wanted: str | None) -> tuple[int, dict]:
    """Of one benchmark's metrics, the one asked for, else the first preferred name, else
    the first."""
    names = [(_metric_name(r).split(":")[-1].lower(), (i, r)) for i, r in results]
    if wanted is not None:
        for name, entry in names:
            if name == wanted.lower() or _metric_name(entry[1]) == wanted:
                return entry
        return results[0]
    for preferred in PREFERRED:
        for name, entry in names:
            if name == preferred:
                return entry
    return results[0]


def _step(path: Path, i: int, result: dict) -> int | None:
    """The training step a result was measured at, where its details say (as
    `reasoning-figures` writes them: `score_details.details.step`)."""
    details = result["score_details"].get("details")
    step = details.get("step") if isinstance(details, dict) else None
    if step is None:
        return None
    if not str(step).isdecimal() or int(step) >= 2**63:
        where = f"evaluation_results[{i}].score_details.details.step"
        raise DataError(path, "a step from 0 to 2**63 - 1", column=where, got=step)
    return int(step)


def read_aggregate(
    path: Path, metric: str | None = None, doc: object = None
) -> tuple[pl.DataFrame, list[str]]:
    """The aggregate's accuracies: step (where a result's details name one), benchmark, score
    (a fraction), problems (the sample count the result names), metric; and notes naming
    what was left out."""
    doc = load_json(path) if doc is None else doc  # `doc`: the file's document, read already
    if not is_aggregate(doc):
        raise DataError(path, "an Every Eval Ever log (schema_version, evaluation_results)")
    by_benchmark: dict[tuple[str, int | None], list[tuple[int, dict]]] = {}
    left_out = []
    for i, result in enumerate(doc["evaluation_results"]):
        if not isinstance(result, dict) or not isinstance(result.get("score_details"), dict):
            raise DataError(path, "a result with score_details", column=f"evaluation_results[{i}]")
        name = result.get("evaluation_name")
        if not isinstance(name, str) or not name:
            raise DataError(
                path,
                "an evaluation_name",
                column=f"evaluation_results[{i}].evaluation_name",
                got=name,
            )
        if _scale(result) is None:
            left_out.append(f"{name} {_metric_name(result)}")
            continue
        by_benchmark.setdefault((name, _step(path, i, result)), []).append((i, result))
    rows, notes = [], []
    for (name, step), results in by_benchmark.items():
        i, result = _pick(results, metric)
        where = f"evaluation_results[{i}].score_details"
        details = result["score_details"]
        scale = _scale(result)
        score = details.get("score")
        if not _number(score) or not 0 <= score <= scale:
            raise DataError(
                path, f"a score from 0 to {scale:g}", column=f"{where}.score", got=score
            )
        n = (details.get("uncertainty") or {}).get("num_samples")
        if n is None:
            n = (result.get("source_data") or {}).get("samples_number")
        if n is not None and (type(n) is not int or n < 1):
            raise DataError(path, "a positive whole sample count", column=where, got=n)
        rows.append((step, benchmark_sizes.canonical(name), score / scale, n, _metric_name(result)))
        if len(results) > 1 and step is None:
            notes.append(f"{name}: {_metric_name(result)} of {len(results)} metrics")
    if left_out:
        shown = ", ".join(left_out[:4]) + (" ..." if len(left_out) > 4 else "")
        notes.append(f"left out {len(left_out)} metric(s) that are not a share right: {shown}")
    if not rows:
        raise DataError(
            path,
            "a result whose metric is a share of right answers (0-1 or 0-100, higher better)",
            column="evaluation_results",
            got=left_out[:4],
        )
    who = model_name(doc)
    if who:
        notes.insert(0, f"model: {who}")
    schema = {"step": pl.Int64} | RESULT_COLUMNS
    return pl.DataFrame(rows, schema=schema, orient="row"), notes


def samples_beside(path: Path, doc: object) -> tuple[Path | None, str | None]:
    """The instance-level file an aggregate names, where it lies beside the aggregate (the
    schema's path is relative to the datastore's root, so only its name is looked for), and
    why it is not used where it is there but differs from the checksum the aggregate gives."""
    detail = doc.get("detailed_evaluation_results") if isinstance(doc, dict) else None
    if not isinstance(detail, dict) or not isinstance(detail.get("file_path"), str):
        return None, None
    beside = path.parent / Path(detail["file_path"]).name
    if not beside.is_file():
        return None, None
    algorithm, checksum = detail.get("hash_algorithm"), detail.get("checksum")
    if algorithm in ("sha256", "md5") and isinstance(checksum, str):
        digest = hashlib.new(algorithm, beside.read_bytes()).hexdigest()
        if digest != checksum.lower():
            return None, f"{beside.name} differs from the {algorithm} the results name: not read"
    return beside, None


def _outcome(path: Path, number: int, evaluation: object) -> tuple[bool, float | None]:
    """A sample's verdict: `is_correct` where given, else a score of 0 or 1; a score between
    is partial credit (kept as the reward, right when at least 0.5)."""
    if not isinstance(evaluation, dict):
        raise DataError(path, "an evaluation object", line=number, column="evaluation")
    verdict, score = evaluation.get("is_correct"), evaluation.get("score")
    if isinstance(verdict, bool):
        return verdict, None if not _number(score) or score in (0, 1) else float(score)
    if _number(score) and 0 <= score <= 1:
        return score >= 0.5, None if score in (0, 1) else float(score)
    raise DataError(
        path,
        "evaluation.is_correct (true/false) or a score from 0 to 1",
        line=number,
        column="evaluation",
        got=evaluation,
    )


def read_instances(path: Path, metric: str | None = None) -> tuple[pl.DataFrame, list[str]]:
    """The instance-level log as one row per answer: benchmark (evaluation_name), problem_id
    (sample_id), sample_id (the epoch, from 0), correct, reward (partial credit, else null),
    response_tokens. Where several results score each sample, the one `metric` names (else
    the first in the file) is kept."""
    rows, results, keep = [], {}, {}
    for number, record in scan_jsonl_lines(path):
        missing = [k for k in sorted(INSTANCE_KEYS) if k not in record]
        if missing:
            raise DataError(path, "an instance-level record", line=number, column=missing[0])
        benchmark = str(record.get("evaluation_name") or record["evaluation_id"].split("/")[0])
        result = str(record.get("evaluation_result_id") or "")
        seen = results.setdefault(benchmark, [])
        if result not in seen:
            seen.append(result)
        if benchmark not in keep or (metric is not None and result.split(":")[-1] == metric):
            keep[benchmark] = result
        meta = record.get("metadata") if isinstance(record.get("metadata"), dict) else {}
        epoch = str(meta.get("epoch", "1"))
        if not epoch.isdigit() or not 1 <= int(epoch) < 2**31:
            raise DataError(path, "an epoch counted from 1", line=number, column="metadata.epoch")
        usage = record.get("token_usage") if isinstance(record.get("token_usage"), dict) else {}
        tokens = usage.get("output_tokens")
        if tokens is not None and (type(tokens) is not int or tokens < 0):
            raise DataError(
                path, "a count of output tokens", line=number, column="token_usage", got=tokens
            )
        right, reward = _outcome(path, number, record["evaluation"])
        sample = str(record["sample_id"])
        rows.append((benchmark, result, sample, int(epoch) - 1, right, reward, tokens))
    if not rows:
        raise DataError(path, "at least one JSON line; the file is empty", line=1)
    schema = {"benchmark": pl.String, "result": pl.String} | dict(list(SAMPLE_SCHEMA.items())[1:])
    frame = pl.DataFrame(rows, schema=schema, orient="row")
    frame = frame.filter(pl.col("result") == pl.col("benchmark").replace_strict(keep))
    notes = [
        f"{b}: scored by {keep[b]}, one of {len(r)} results per sample"
        for b, r in results.items()
        if len(r) > 1
    ]
    if frame["reward"].is_null().all():
        frame = frame.drop("reward")
    else:  # a right/wrong sample beside partial credit counts 1 or 0
        frame = frame.with_columns(pl.col("reward").fill_null(pl.col("correct").cast(pl.Float64)))
        notes.append("partial-credit scores: compared as a mean reward")
    names = {b: benchmark_sizes.canonical(b) for b in keep}
    return frame.drop("result").with_columns(pl.col("benchmark").replace_strict(names)), notes


# ---- the formats ------------------------------------------------------------------------------


def _read_instances(path: Path, where: Where) -> Loaded:
    frame, said = read_instances(path, where.metric)
    columns = ["benchmark", "problem_id", "sample_id", "correct", "response_tokens"]
    samples = frame.select(
        pl.lit(where.step, pl.Int64).alias("step"), *columns, pl.exclude(columns)
    )
    return SampleLog(path, where.kind, samples=samples.lazy(), notes=said)


def _read_aggregate(path: Path, where: Where) -> Loaded:
    """The aggregate's scores, or, where its instance-level file lies beside it (and the
    input is not a folder that reads that file anyway), the answers there, checked against
    the scores."""
    from helpers.runs.readers.stated import checked

    doc = load_json(path)
    rows, said = read_aggregate(path, where.metric, doc)
    scores = ScoreLog(path, where.kind, scores=scores_frame(rows, where.step), notes=said)
    beside, why = samples_beside(path, doc)
    if beside is None or where.options.get("summary"):
        scores.notes += [why] if why else []
        return scores
    parts = [beside.name, *where.parts[1:]]
    loaded = _read_instances(beside, Where(beside, "eee-samples", parts, where.options))
    loaded.format = where.kind
    loaded.notes = [f"answers from {beside.name}", *said, *loaded.notes]
    loaded.notes += checked(loaded.samples, [scores])
    return loaded


FORMATS = [
    Format(
        "eee-results",
        "Every Eval Ever aggregate (schema_version, model_info, evaluation_results; its "
        "instance-level JSONL read where it lies beside it)",
        rank=90,
        read=_read_aggregate,
        document=lambda ev: is_aggregate(ev.document),
        summary=True,
    ),
    Format(
        "eee-samples",
        "Every Eval Ever instance-level JSONL (sample_id, evaluation, metadata.epoch)",
        rank=150,
        read=_read_instances,
        line=lambda ev: is_instances(ev.keys),
        per_sample=True,
    ),
]
