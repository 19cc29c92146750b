"""Aggregated evaluation results, one JSON file per evaluation: lm-evaluation-harness
`results_*.json` and lighteval `results_*.json`. Each gives a score per task and (where the
file says) the number of problems it was measured on; the training step, where there is one,
comes from the path (`checkpoint-N/`, `Exp2_N/`)."""

from __future__ import annotations

import json
from pathlib import Path

import polars as pl

from helpers import benchmark_sizes
from helpers.errors import DataError
from helpers.runs.readers._common import read_document
from helpers.runs.readers.format import Format, Where
from helpers.runs.readers.loaded import Loaded, ScoreLog, decoding_alike, decoding_of, scores_frame

# preferred metric names, in order, where a task logs several
PREFERRED = ("exact_match", "extractive_match", "acc", "accuracy", "pass@1", "math_pass@1")
RESULT_COLUMNS = {
    "benchmark": pl.String,
    "score": pl.Float64,
    "problems": pl.Int64,
    "metric": pl.String,
}


def load_json(path: Path) -> object:
    try:
        return json.loads(read_document(path))
    except (json.JSONDecodeError, UnicodeDecodeError) as e:
        raise DataError(
            path, "a JSON document", line=getattr(e, "lineno", None), got=str(e)[:80]
        ) from None


def _metric(path: Path, task: str, values: dict, wanted: str | None) -> tuple[str, float]:
    """The task's score: the metric asked for, else the first preferred one, else the first
    number that is not a standard error."""
    names = [
        k
        for k, v in values.items()
        if isinstance(v, int | float) and not isinstance(v, bool) and "stderr" not in k
    ]
    if wanted is not None:
        if wanted not in names:
            raise DataError(path, f"a metric '{wanted}' for task {task!r}", column=task, got=names)
        return wanted, float(values[wanted])
    for p in PREFERRED:
        for n in names:
            if n == p or n.split(",")[0] == p:
                return n, float(values[n])
    if not names:
        raise DataError(path, f"a numeric metric for task {task!r}", column=task, got=list(values))
    return names[0], float(values[names[0]])


def _check_fraction(path: Path, task: str, metric: str, value: float) -> None:
    if not 0 <= value <= 1:
        raise DataError(
            path, "a score between 0 and 1 (a fraction)", column=f"{task}/{metric}", got=value
        )


def _tasks(
    path: Path, metric: str | None, size, where: str, name=lambda task: task, doc=None
) -> pl.DataFrame:
    """Each task's score in a results file; `size(doc, task)` is what the file says of the
    task's problems (None where it does not; a positive whole number where it does, read
    from the section `where`), `name(task)` the benchmark's name; `doc`: the file, parsed
    already (else it is read)."""
    doc = load_json(path) if doc is None else doc
    results = doc.get("results") if isinstance(doc, dict) else None
    if not isinstance(results, dict) or not results:
        raise DataError(path, "a 'results' object with a score per task", column="results")
    rows = []
    for task, values in results.items():
        if task == "all":  # lighteval's average over tasks
            continue
        if not isinstance(values, dict):
            raise DataError(path, "an object of metrics per task", column=task)
        metric_name, value = _metric(path, task, values, metric)
        _check_fraction(path, task, metric_name, value)
        n = size(doc, task)
        if n is not None and (type(n) is not int or n < 1):
            raise DataError(
                path, f"a positive whole count of {task!r}'s problems", column=where, got=n
            )
        rows.append((benchmark_sizes.canonical(name(task)), value, n, metric_name))
    if not rows:
        raise DataError(path, "a task other than 'all' in 'results'", column="results")
    return pl.DataFrame(rows, schema=RESULT_COLUMNS, orient="row")


def _entry(doc: dict, section: str, task: str) -> dict:
    entry = (doc.get(section) or {}).get(task)
    return entry if isinstance(entry, dict) else {}


def read_lm_eval_results(path: str | Path, metric: str | None = None, *, doc=None) -> pl.DataFrame:
    """lm-evaluation-harness results: benchmark (task), score, problems (n-samples
    'effective'), metric. `doc`: the file, parsed already."""
    return _tasks(
        Path(path),
        metric,
        lambda doc, task: _entry(doc, "n-samples", task).get("effective"),
        "n-samples",
        doc=doc,
    )


def read_lighteval_results(
    path: str | Path, metric: str | None = None, *, doc=None
) -> pl.DataFrame:
    """lighteval results: benchmark (the task's name, `suite|task|shots` -> task), score,
    problems (truncated + non-truncated samples in `summary_tasks`), metric. The 'all'
    average is left out. `doc`: the file, parsed already."""

    def size(doc, task):
        s = _entry(doc, "summary_tasks", task)
        counts = [s.get("truncated", 0), s.get("non_truncated", 0)]
        if all(type(c) is int for c in counts):
            return sum(counts) or None
        return counts  # not two counts: _tasks names what the file holds

    def name(task):
        return task.split("|")[1] if task.count("|") >= 2 else task

    return _tasks(Path(path), metric, size, "summary_tasks", name, doc=doc)


def read_qwen_math_metrics(path: str | Path, benchmark: str) -> pl.DataFrame:
    """The Qwen2.5-Math harness's metrics file: `acc` in percent over `num_samples` problems."""
    path = Path(path)
    doc = load_json(path)
    acc, n = doc.get("acc"), doc.get("num_samples")
    if not isinstance(acc, int | float) or not 0 <= acc <= 100:
        raise DataError(path, "'acc' as a percentage from 0 to 100", column="acc", got=acc)
    if not isinstance(n, int) or n < 1:
        raise DataError(path, "'num_samples' as a positive count", column="num_samples", got=n)
    return pl.DataFrame([(benchmark, acc / 100, n, "acc")], schema=RESULT_COLUMNS, orient="row")


# ---- the formats ------------------------------------------------------------------------------


def lm_eval_decoding(doc: object) -> dict[str, float]:
    """The generation settings an lm-evaluation-harness results file (parsed) states for every
    task alike (`configs.<task>.generation_kwargs`); `do_sample: false` is greedy decoding,
    which is temperature 0 whatever temperature is written beside it."""
    configs = doc.get("configs") if isinstance(doc, dict) else None
    if not isinstance(configs, dict) or not configs:
        return {}
    each = []
    for config in configs.values():
        kwargs = config.get("generation_kwargs") if isinstance(config, dict) else None
        settings = decoding_of(kwargs)
        if isinstance(kwargs, dict) and kwargs.get("do_sample") is False:
            settings["temperature"] = 0.0
        each.append(settings)
    return decoding_alike(each)


def model_named(doc: object) -> str | None:
    """The model a results file (parsed) says it evaluated: lighteval's
    `config_general.model_name`, lm-eval's `model_name`, or the `pretrained=` of lm-eval's
    `config.model_args` (a string or a mapping).

    >>> model_named({"config_general": {"model_name": "quyanh/OpenRS-GRPO"}})
    'quyanh/OpenRS-GRPO'
    >>> model_named({"config": {"model_args": "pretrained=EleutherAI/pythia-70m,dtype=float"}})
    'EleutherAI/pythia-70m'
    """
    if not isinstance(doc, dict):
        return None
    general = doc.get("config_general")
    named = general.get("model_name") if isinstance(general, dict) else None
    named = named or doc.get("model_name")
    config = doc.get("config")
    args = config.get("model_args") if isinstance(config, dict) else None
    if not named and isinstance(args, dict):
        named = args.get("pretrained")
    elif not named and isinstance(args, str):
        pairs = dict(p.split("=", 1) for p in args.split(",") if "=" in p)
        named = pairs.get("pretrained")
    return named.strip() or None if isinstance(named, str) else None


def _read_results(path: Path, where: Where) -> Loaded:
    lm_eval = where.kind == "lm-eval-results"
    read = read_lm_eval_results if lm_eval else read_lighteval_results
    doc = load_json(path)  # once: for the scores and the decoding settings
    rows = read(path, where.metric, doc=doc)
    notes = [f"{r['benchmark']}: {r['metric']}" for r in rows.iter_rows(named=True)]
    decoding = lm_eval_decoding(doc) if lm_eval else {}
    scores = scores_frame(rows, where.step)
    return ScoreLog(
        path, where.kind, scores=scores, notes=notes, decoding=decoding, model=model_named(doc)
    )


def _read_metrics(path: Path, where: Where) -> Loaded:
    rows = read_qwen_math_metrics(path, where.benchmark or path.stem)
    scores = scores_frame(rows, where.step)
    return ScoreLog(path, where.kind, scores=scores, notes=["acc (percent)"])


def _doc(ev) -> dict:
    return ev.document if isinstance(ev.document, dict) else {}


FORMATS = [
    Format(
        "lm-eval-results", "lm-evaluation-harness results_*.json (results, n-samples)",
        rank=60, read=_read_results, summary=True,
        document=lambda ev: "results" in _doc(ev)
        and ("n-samples" in _doc(ev) or "configs" in _doc(ev) or "n-shot" in _doc(ev)),
    ),
    Format(
        "lighteval-results", "lighteval results_*.json (results, summary_tasks)",
        rank=61, read=_read_results, summary=True,
        document=lambda ev: "results" in _doc(ev)
        and ("config_general" in _doc(ev) or "summary_tasks" in _doc(ev)),
    ),
    Format(
        "qwen-math-metrics", "Qwen2.5-Math / SkyThought *_metrics.json (num_samples, acc in %)",
        rank=110, read=_read_metrics, summary=True,
        document=lambda ev: {"num_samples", "acc"} <= set(_doc(ev)),
    ),
]  # fmt: skip
