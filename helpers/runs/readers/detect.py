"""Which format a file is in, from its content (never from its name alone)."""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path

import polars as pl

from helpers.errors import DataError
from helpers.runs.readers import (
    answer_dumps,
    every_eval_ever,
    framework_logs,
    inspect_eval,
    leaderboards,
    long_tables,
    mlflow_store,
    prime_rl_traces,
    sqlite,
    swanlab_store,
    tfevents,
    verl_generations,
    wandb_store,
)
from helpers.runs.readers._common import (
    csv_header,
    files_in,
    first_json,
    read_document,
    regular_file,
)
from helpers.runs.readers.metric_columns import CONVENTIONS, STEP_NAMES, recognise
from helpers.runs.readers.tables import SAMPLE_COLUMNS

# what each format is, for messages and for `python -m helpers inspect`
FORMATS = {
    "wandb": "W&B history export (CSV with _step; verl, TRL or any logger's metrics)",
    "metrics-csv": "per-step metric log (CSV with a step column)",
    "metrics-jsonl": "per-step metric log (JSON lines, one object per logged step)",
    "trl": "TRL trainer_state.json (log_history)",
    "verl-file": 'verl file logger (JSON lines: {"step": N, "data": {metric: value}})',
    "verl-console": "verl console log (lines 'step:N - key:value - ...'; other lines skipped)",
    "prime-rl": "prime-rl metrics.jsonl (its file monitor: step, time and metrics per line)",
    "mlflow": "MLflow file store (mlruns/: metrics/<name> per run; nested runs by step)",
    "mlflow-sqlite": "MLflow SQLite store (mlflow.db: runs, metrics and tags tables; nested runs "
    "by step; verl's '_at_' read as '@')",
    "trackio": "trackio database (<project>.db: a row per logged step, metrics as JSON; runs "
    "by name)",
    "wandb-run": "W&B run folder (wandb/run-*/, offline-run-*/: run-<id>.wandb history, "
    "CRC-checked; run name and config)",
    "swanlab": "SwanLab run log (swanlog/run-*/: run-<id>.swanlab, or backup.swanlab before "
    "SwanLab 0.10; CRC-checked; run name, how it ended)",
    "tensorboard": "TensorBoard event files (scalars; Trainer/TRL tags train/... and eval/...)",
    "qwen-math": "Qwen2.5-Math / SkyThought per-sample JSONL (idx, score, code)",
    "lm-eval": "lm-evaluation-harness samples_*.jsonl (doc_id, resps, metrics)",
    "trl-completions": "TRL completions Parquet (step, prompt, completion, rewards per generation)",
    "verifiers": "verifiers vf-eval results.jsonl (prompt, completion, reward per rollout)",
    "verl-generations": "verl validation dumps (<step>.jsonl: input, output, gts, score, step)",
    "skyrl-evals": "SkyRL eval dumps (global_step_<N>_evals/<data_source>.jsonl)",
    "nemo-rl-validation": "NeMo-RL validation dumps (val_data_step<N>.jsonl: content, rewards)",
    "prime-rl-traces": "prime-rl rollout dumps (rollouts/step_<N>/eval/all/traces.jsonl: an "
    "episode per line, task key, environment, rewards)",
    "areal-rollouts": "AReaL rollout dumps (eval-rollout/<version>/<task_id>.jsonl: prompt, "
    "completion, reward, the version as the step)",
    "skyrl-eval-summary": "SkyRL aggregated_results.jsonl (averages beside the eval dumps)",
    "nemo-rl-training": "NeMo-RL training rollouts (train_data_step<N>.jsonl)",
    "qwen-math-metrics": "Qwen2.5-Math / SkyThought *_metrics.json (num_samples, acc in %)",
    "lm-eval-results": "lm-evaluation-harness results_*.json (results, n-samples)",
    "lighteval-results": "lighteval results_*.json (results, summary_tasks)",
    "lighteval-details": "lighteval details Parquet (example, metrics)",
    "inspect": "Inspect AI log (.eval, or JSON: eval, samples or results)",
    "wandb-generations": "verl's validation generations as W&B tables (files/media/table/val/"
    "generations_*.table.json: step, input_i, output_i, score_i)",
    "eee-results": "Every Eval Ever aggregate (schema_version, model_info, evaluation_results; "
    "its instance-level JSONL read where it lies beside it)",
    "eee-samples": "Every Eval Ever instance-level JSONL (sample_id, evaluation, metadata.epoch)",
    "mlflow-generations": "verl's validation generations as MLflow artifacts (artifacts/"
    "val_step<N>.json: input, output, score)",
    "samples": "tidy per-sample table (" + ", ".join(SAMPLE_COLUMNS) + ")",
    "scores": "table of models (a row per model, or per model and benchmark; a model or a "
    "model-size column)",
    "runs-table": "table of several runs (a row per run and step; the run named by a column: "
    + ", ".join(long_tables.RUN_NAMES)
    + ", or --map run=COLUMN)",
    "folder": "a folder of logs (per checkpoint: the step from the path)",
}


def _json_kind(doc: object) -> str | None:
    if not isinstance(doc, dict):
        return None
    if isinstance(doc.get("log_history"), list):
        return "trl"
    if "results" in doc and ("n-samples" in doc or "configs" in doc or "n-shot" in doc):
        return "lm-eval-results"
    if "results" in doc and ("config_general" in doc or "summary_tasks" in doc):
        return "lighteval-results"
    if isinstance(doc.get("eval"), dict) and ("samples" in doc or "results" in doc):
        return "inspect"
    if every_eval_ever.is_aggregate(doc):
        return "eee-results"
    if verl_generations.is_generations(doc):
        return "wandb-generations"
    if verl_generations.is_artifact(doc):
        return "mlflow-generations"
    if {"num_samples", "acc"} <= set(doc):
        return "qwen-math-metrics"
    return None


def _line_kind(keys: set[str]) -> str | None:
    if every_eval_ever.is_instances(keys):
        return "eee-samples"
    if {"idx", "score", "code"} <= keys:
        return "qwen-math"
    if {"doc_id", "resps"} <= keys or {"doc_id", "filtered_resps"} <= keys:
        return "lm-eval"
    if prime_rl_traces.is_traces(keys):
        return "prime-rl-traces"
    dump = answer_dumps.dump_kind(keys)  # before metrics: verl's dumps have a `step` key
    if dump:  # and before verifiers: AReaL's dumps have a prompt, completion and reward too
        return dump
    if {"prompt", "completion", "reward"} <= keys:
        return "verifiers"
    if keys & set(STEP_NAMES):
        return "metrics-jsonl"
    return None


def _closest(path: Path, tried: str, got: object) -> DataError:
    return DataError(path, f"one of the formats: {tried}", line=1, got=got)


def detect(path: str | Path, mapping: Mapping[str, str] | None = None) -> str:
    """The format of a file or folder (see FORMATS). An unrecognised file gets a DataError
    listing the formats tried and what the closest one lacked."""
    path = Path(path)
    if not path.exists():
        raise DataError(path, "an existing file or folder (not found)")
    if not path.is_dir():
        regular_file(path)
    if path.is_dir():  # walked once: a tracker's store first, else a folder of logs
        files = files_in(path)[0]
        if any(map(tfevents.is_event_file, files)):
            return "tensorboard"
        if any(map(mlflow_store.run_of, files)):
            return "mlflow"
        logs = [f for f in files if f.suffix == wandb_store.SUFFIX]
        if any(map(wandb_store.is_wandb_file, logs)):
            return "wandb-run"
        if logs:  # a W&B run folder whose log is damaged: the file, not the folder, is named
            with logs[0].open("rb") as handle:
                head = handle.read(7)
            raise DataError(logs[0], "a W&B transaction log (starting ':W&B')", row=1, got=head)
        swanlab = [f for f in files if f.suffix == swanlab_store.SUFFIX]
        if any(map(swanlab_store.is_swanlab_file, swanlab)):
            return "swanlab"
        if swanlab:  # SwanLab writes through a buffer: a run killed early leaves an empty file
            size = swanlab[0].stat().st_size
            raise DataError(
                swanlab[0], "a SwanLab run log (starting ':SWL')", row=1, got=f"{size} bytes"
            )
        if verl_generations.tables_in(path):  # W&B's files/media/table/val/
            return "wandb-generations"
        if verl_generations.artifacts_in(path):  # an MLflow run's artifacts/
            return "mlflow-generations"
        if any(f.suffix.lower() in (".parquet", ".json", ".jsonl", ".csv") for f in files):
            return "folder"
        raise DataError(path, "a folder holding .parquet, .jsonl, .json or .csv logs; found none")
    if tfevents.is_event_file(path):  # by content: the name ends in the writer's host name
        return "tensorboard"
    if wandb_store.is_wandb_file(path):  # by content: the ':W&B' header
        return "wandb-run"
    if swanlab_store.is_swanlab_file(path):  # by content: the ':SWL' header
        return "swanlab"
    if path.suffix == swanlab_store.SUFFIX:
        size = path.stat().st_size
        raise DataError(path, "a SwanLab run log (starting ':SWL')", row=1, got=f"{size} bytes")
    if inspect_eval.is_eval_log(path):  # a zip holding Inspect's start record or header
        return "inspect"
    if sqlite.is_sqlite(path):  # by content: the SQLite header, then the tracker's tables
        return sqlite.tracker(path)
    suffix = path.suffix.lower()
    if suffix == ".parquet":
        try:
            names = pl.read_parquet_schema(path).keys()
        except (pl.exceptions.ComputeError, OSError) as e:
            raise DataError(path, "a readable Parquet file", got=str(e)[:80]) from None
        if set(SAMPLE_COLUMNS) <= set(names):
            return "samples"
        if {"example", "metrics"} <= set(names):
            return "lighteval-details"
        if {"step", "prompt", "completion"} <= set(names):
            return "trl-completions"
        missing = [c for c in SAMPLE_COLUMNS if c not in names]
        raise DataError(
            path,
            f"{FORMATS['samples']} or {FORMATS['lighteval-details']}; the per-sample table "
            f"lacks {missing}",
            got=list(names)[:8],
        )
    if suffix in (".json", ".jsonl"):
        if suffix == ".json":
            try:
                kind = _json_kind(json.loads(read_document(path)))
            except (json.JSONDecodeError, UnicodeDecodeError):
                kind = None  # perhaps JSON lines under a .json name: try line by line
            if kind:
                return kind
        try:
            first = first_json(path)
            keys = set(first)
        except DataError:
            if suffix == ".json":
                raise DataError(
                    path,
                    "a TRL trainer_state.json, lm-eval or lighteval results, an Inspect log, "
                    "or JSON lines",
                ) from None
            raise
        kind = framework_logs.json_kind(first) or _line_kind(keys)
        if kind:
            return kind
        raise _closest(
            path,
            "Qwen2.5-Math JSONL (idx, score, code), lm-eval samples (doc_id, resps), a per-step "
            f"log (a step key: {', '.join(STEP_NAMES)}), TRL trainer_state.json (log_history), "
            "lm-eval/lighteval results (results), an Inspect log (eval, samples)",
            sorted(keys)[:8],
        )
    if suffix == ".csv":
        header = csv_header(path)
        if set(SAMPLE_COLUMNS) <= set(header):
            return "samples"
        long = long_tables.table_kind(path, header, dict(mapping or {}))
        if long:
            return long
        try:
            recognise(path, header, mapping)
            return "wandb" if "_step" in header else "metrics-csv"
        except DataError as metric_error:
            if any("size" in c.lower() for c in header) or leaderboards.model_column(
                header, dict(mapping or {})
            ):
                return "scores"
            missing = [c for c in SAMPLE_COLUMNS if c not in header]
            raise DataError(
                path,
                "a per-step metric log (a step column and "
                + ", ".join(t for _, _, t in CONVENTIONS[:5])
                + f", or --map): {metric_error.expected}; a per-sample table (lacks {missing}); "
                "or a table of models (a model column, or one with 'size' in its name)",
                line=1,
                got=header[:8],
            ) from None
    kind = framework_logs.sniff(path)  # a log under any other name: by its lines
    if kind:
        return kind
    raise DataError(
        path,
        "a .csv, .json, .jsonl or .parquet file, a verl console log (lines 'step:N - "
        "key:value'), or a folder of them",
        got=path.suffix,
    )
