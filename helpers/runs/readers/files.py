"""One run's files into a `Loaded`: a log file of any format `detect` names, or a folder of
per-checkpoint files (the step from the folder names), combined into one run."""

from __future__ import annotations

import json
import re
from pathlib import Path

import polars as pl

from helpers import benchmark_sizes
from helpers.errors import DataError
from helpers.runs.readers import (
    answer_dumps,
    evals,
    every_eval_ever,
    framework_logs,
    inspect_eval,
    prime_rl_traces,
    results,
    verl_generations,
)
from helpers.runs.readers._common import files_in
from helpers.runs.readers.detect import detect
from helpers.runs.readers.leaderboards import read_models
from helpers.runs.readers.loaded import PER_SAMPLE, SCORE_COLUMNS, Loaded, step_from_path
from helpers.runs.readers.metrics import read_metric_log
from helpers.runs.readers.stated import RESULTS, checked
from helpers.runs.readers.tables import SAMPLE_COLUMNS, scan_samples, scan_table


def _samples_frame(frame: pl.DataFrame, step: int | None, benchmark: str) -> pl.DataFrame:
    """An evaluation's answers in SAMPLE_COLUMNS, keeping what else the reader found that a
    chart groups by (the difficulty `level` of Qwen2.5-Math outputs), averages (a `reward`
    with partial credit) or votes on (each sample's extracted `answer`)."""
    return frame.select(
        pl.lit(step, pl.Int64).alias("step"),
        pl.lit(benchmark, pl.String).alias("benchmark"),
        "problem_id",
        "sample_id",
        "correct",
        pl.lit(None, pl.Int64).alias("response_tokens"),
        *[c for c in ("level", "reward", "answer") if c in frame.columns],
    )


def _scores_frame(rows: pl.DataFrame, step: int | None) -> pl.DataFrame:
    return rows.select(
        step=pl.lit(step, pl.Int64),
        benchmark="benchmark",
        score="score",
        problems="problems",
        k=pl.lit(None, pl.Int64),
    )


def _verifiers_env(path: Path) -> str:
    """The environment a vf-eval run evaluated: `env` or `env_id` in metadata.json beside it,
    else its folder's name (`outputs/evals/<env>--<model>/<run id>/`)."""
    meta = path.parent / "metadata.json"
    try:
        doc = json.loads(meta.read_text(encoding="utf-8")) if meta.is_file() else {}
    except (OSError, ValueError):
        doc = {}
    env = doc.get("env") or doc.get("env_id") if isinstance(doc, dict) else None
    return str(env) if env else path.parent.parent.name.split("--")[0]


def read_file(path: Path, kind: str, parts: list[str], options: dict) -> Loaded:
    """One file; `parts` are the path parts that may name its step and benchmark, nearest
    first (the file's name, then its folders up to the input given)."""
    step = step_from_path(parts[1:], options.get("step_pattern"), path)
    name = benchmark_sizes.in_path(parts)
    metric = options.get("mapping", {}).get("accuracy")
    if kind == "samples":
        return Loaded(path, kind, samples=scan_samples([path]))
    if kind in ("qwen-math", "lm-eval"):
        frame = evals.read_qwen_math(path) if kind == "qwen-math" else evals.read_lm_eval(path)
        benchmark = name or path.stem
        notes = []
        if kind == "lm-eval" and not frame["score"].is_in([0.0, 1.0]).all():
            # a metric with partial credit (f1, a BLEU): its value is the sample's reward, so
            # charts and comparisons take its mean, never a right/wrong cut at 0.5
            frame = frame.with_columns(reward=pl.col("score"))
            notes.append("metric values between 0 and 1: compared as a mean reward")
        samples = _samples_frame(frame, step, benchmark).lazy()
        texts = [(path, kind, step, benchmark)]
        return Loaded(path, kind, samples=samples, notes=notes, texts=texts)
    if kind == "trl-completions":  # the step is in the data
        frame = answer_dumps.read_trl_completions(path, metric)
        samples = frame.select(
            "step", "benchmark", "problem_id", "sample_id", "correct",
            pl.lit(None, pl.Int64).alias("response_tokens"),
        )  # fmt: skip
        return Loaded(path, kind, samples=samples.lazy())
    if kind in answer_dumps.STEP_DUMPS:  # verl, SkyRL, NeMo-RL: a file per validation step
        reward = options.get("mapping", {}).get("reward")
        frame, said = answer_dumps.read_step_dump(path, kind, parts, step, metric, reward)
        pairs = frame.select("step", "benchmark").unique(maintain_order=True).rows()
        texts = [(path, kind, s, b) for s, b in pairs]
        return Loaded(path, kind, samples=frame.lazy(), notes=[said], texts=texts)
    if kind == "prime-rl-traces":
        reward = options.get("mapping", {}).get("reward")
        frame, said = prime_rl_traces.read_traces(path, metric, reward)
        return Loaded(path, kind, samples=frame.lazy(), notes=[said])
    if kind in answer_dumps.BESIDE_DUMPS:
        raise DataError(path, answer_dumps.BESIDE_DUMPS[kind], got=kind)
    if kind == "verifiers":
        frame = answer_dumps.read_verifiers(path, metric)
        benchmark = name or _verifiers_env(path)
        samples = _samples_frame(frame, step, benchmark).lazy()
        return Loaded(path, kind, samples=samples, texts=[(path, kind, step, benchmark)])
    if kind == "lighteval-details":
        frame = evals.read_lighteval_details(path, metric)
        task = re.sub(r"^details_", "", path.stem).split("|")
        benchmark = benchmark_sizes.canonical(task[1] if len(task) > 2 else name or path.stem)
        return Loaded(path, kind, samples=_samples_frame(frame, step, benchmark).lazy())
    if kind in ("wandb-generations", "mlflow-generations"):
        frame, said = verl_generations.read_generations(path)
        return Loaded(path, kind, samples=frame.lazy(), notes=said)
    if kind == "inspect":
        log = evals.load_inspect(path)
        benchmark = benchmark_sizes.canonical(evals.inspect_task(log))
        status = inspect_eval.unfinished(log)
        said = [f"the run did not finish ({status})"] if status else []
        if log.get("samples"):
            frame = evals.read_inspect_samples(path, log, metric)
            samples = _samples_frame(frame, step, benchmark).lazy()
            return Loaded(path, kind, samples=samples, notes=said, status=status)
        if status and not isinstance(log.get("results"), dict):
            raise DataError(path, "a completed sample or results", got=status)
        score, n, scorer = evals.read_inspect_results(path, log)
        rows = pl.DataFrame({"benchmark": [benchmark], "score": [score], "problems": [n]})
        notes = [f"no samples in the log: the accuracy of scorer {scorer!r} over {n} samples"]
        return Loaded(
            path, kind, scores=_scores_frame(rows, step), notes=said + notes, status=status
        )
    if kind == "eee-samples":
        frame, said = every_eval_ever.read_instances(path, metric)
        columns = ["benchmark", "problem_id", "sample_id", "correct", "response_tokens"]
        samples = frame.select(pl.lit(step, pl.Int64).alias("step"), *columns, pl.exclude(columns))
        return Loaded(path, kind, samples=samples.lazy(), notes=said)
    if kind == "eee-results":
        rows, said = every_eval_ever.read_aggregate(path, metric)
        rows = _scores_frame(rows, step).with_columns(pl.coalesce(rows["step"], "step"))
        scores = Loaded(path, kind, scores=rows, notes=said)
        beside, why = every_eval_ever.samples_beside(path)
        if beside is None or options.get("summary"):  # in a folder its samples are read anyway
            scores.notes += [why] if why else []
            return scores
        loaded = read_file(beside, "eee-samples", [beside.name, *parts[1:]], options)
        loaded.format = kind
        loaded.notes = [f"answers from {beside.name}", *said, *loaded.notes]
        loaded.notes += checked(loaded.samples, [scores])
        return loaded
    if kind == "qwen-math-metrics":
        rows = results.read_qwen_math_metrics(path, name or path.stem)
        return Loaded(path, kind, scores=_scores_frame(rows, step), notes=["acc (percent)"])
    if kind in ("lm-eval-results", "lighteval-results"):
        read = (
            results.read_lm_eval_results
            if kind == "lm-eval-results"
            else results.read_lighteval_results
        )
        rows = read(path, metric)
        notes = [f"{r['benchmark']}: {r['metric']}" for r in rows.iter_rows(named=True)]
        return Loaded(path, kind, scores=_scores_frame(rows, step), notes=notes)
    if kind in ("wandb", "metrics-csv", "metrics-jsonl", "trl", "tensorboard"):
        return metric_log(path, kind, options)
    if kind in framework_logs.KINDS:  # verl's and prime-rl's own logs, read as rows
        rows, said = framework_logs.read(path, kind)
        loaded = metric_log(path, kind, options, rows)
        loaded.notes += said
        return loaded
    if kind == "scores":
        models, notes = read_models(
            path, mapping=options.get("mapping"), benchmarks=options.get("benchmarks")
        )
        return Loaded(path, kind, models=models, notes=notes)
    raise DataError(path, "a run's log", got=kind)


def metric_log(path: Path, kind: str, options: dict, rows: pl.DataFrame | None = None) -> Loaded:
    log = read_metric_log(path, options.get("mapping"), rows)
    scores = log.scores()
    if log.accuracy and not scores.height:
        raise DataError(
            path,
            "a number in at least one accuracy column; every value is empty or NaN",
            column=next(iter(log.accuracy.values())),
        )
    if scores.height:
        scores = scores.with_columns(problems=pl.lit(None, pl.Int64)).select(list(SCORE_COLUMNS))
    notes = [f"convention: {log.convention or 'none'} ({log.kind})"]
    notes += log.said + log.roles()
    if log.k:
        ks = sorted(set(log.k.values()))
        notes.append(f"mean@k with k = {', '.join(map(str, ks))} samples per problem")
    for reason, columns in log.ignored.items():
        notes.append(f"ignored {len(columns)} columns ({reason}): {', '.join(columns[:4])}")
    tokens = log.token_lengths()
    return Loaded(
        path,
        kind,
        scores=scores if scores.height else None,
        tokens=tokens if tokens.height else None,
        notes=notes,
        order=list(log.accuracy),
        kind=log.kind,
        mapped="--map accuracy" in log.convention,
    )


def read_folder(path: Path, options: dict) -> Loaded:
    """Every log in a folder: a hive-partitioned per-sample table, or one file per checkpoint
    (and benchmark), the step read from the folder names."""
    files, links = files_in(path, (".parquet", ".json", ".jsonl"))
    if files and all(p.suffix == ".parquet" for p in files):
        names = scan_table(path).collect_schema().names()  # hive partitions included
        if set(SAMPLE_COLUMNS) <= set(names):
            return Loaded(path, "samples", samples=scan_samples([path]), notes=links)
    kinds = {f: detect(f, options.get("mapping")) for f in files}
    beside = [f for f, k in kinds.items() if k in answer_dumps.BESIDE_DUMPS]
    if beside and len(beside) < len(kinds):  # a dump's averages, training rollouts: not read
        kinds = {f: k for f, k in kinds.items() if f not in beside}
        files = [f for f in files if f not in beside]
        names = ", ".join(str(f.relative_to(path)) for f in beside[:2])
        links = [*links, f"left out {len(beside)} file(s) beside the dumps (not read): {names}"]
    traces = [f for f, k in kinds.items() if k == "prime-rl-traces"]
    if traces:  # effective/ repeats all/; train/ beside eval/: read one set
        _, out = prime_rl_traces.kept(traces, path)
        if out:
            kinds = {f: k for f, k in kinds.items() if f not in out}
            names = ", ".join(str(f.relative_to(path).parent) for f in out[:2])
            links = [*links, f"left out {len(out)} traces file(s) (repeats, or training): {names}"]
    bad = next((f for f, k in kinds.items() if k in ("samples", "scores")), None)
    if bad is not None:
        raise DataError(bad, "one checkpoint's evaluation file in a folder of them", got=kinds[bad])
    # where per-sample files are there, the harness's summaries beside them are checked
    # against them, not read as scores
    summaries = {f: k for f, k in kinds.items() if k in RESULTS}
    if summaries and any(k in PER_SAMPLE for k in kinds.values()):
        kinds = {f: k for f, k in kinds.items() if k not in RESULTS}
    else:
        summaries = {}

    def read(f: Path, k: str) -> Loaded:
        return read_file(f, k, [f.name, *reversed(f.relative_to(path).parent.parts)], options)

    loaded = [read(f, k) for f, k in kinds.items()]
    if not loaded:
        raise DataError(path, "log files (.parquet, .json, .jsonl) in the folder; found none")
    run = combine(path, loaded)
    run.notes += links
    if summaries:
        options = {**options, "summary": True}
        run.notes += checked(run.samples, [read(f, k) for f, k in summaries.items()])
    return run


def combine(path: Path, loaded: list[Loaded]) -> Loaded:
    """Several logs of one run (one per checkpoint or benchmark) as one. The same benchmark
    evaluated twice at one step is averaged (for scores) and said so."""
    kinds = sorted({x.format for x in loaded})
    per_sample = [x for x in loaded if x.samples is not None]
    scored = [x for x in loaded if x.scores is not None]
    if per_sample and scored:
        raise DataError(path, "logs of one kind (per-sample or scores) in the folder", got=kinds)
    notes = [f"{len(loaded)} files: {', '.join(kinds)}"]
    if per_sample:
        samples = pl.concat([x.samples for x in per_sample])
        texts = [t for x in per_sample for t in x.texts]
        return Loaded(path, "folder", samples=samples, notes=notes, texts=texts)
    scores = pl.concat([x.scores.with_columns(folder=pl.lit(str(x.path.parent))) for x in scored])
    repeats = (
        scores.group_by("step", "benchmark")
        .agg(pl.len(), folders=pl.col("folder").n_unique())
        .filter(pl.col("len") > 1)
    )
    unread = repeats.filter(pl.col("step").is_null(), pl.col("folders") > 1)
    if unread.height:
        raise DataError(
            path,
            f"a step in each folder's name ({unread['benchmark'][0]} is evaluated in "
            f"{unread['folders'][0]} folders with no step read from their names); give the "
            "pattern with --step-from-path REGEX",
        )
    if repeats.height:
        notes.append(
            f"{repeats.height} benchmark-step pairs evaluated more than once: scores averaged"
        )
        scores = scores.group_by("step", "benchmark").agg(
            pl.col("score").mean(), pl.col("problems").first(), pl.col("k").first()
        )
    scores = scores.sort("benchmark", "step").select(list(SCORE_COLUMNS))
    return Loaded(path, "folder", scores=scores, notes=notes)
