"""Runs' results in the Every Eval Ever schema (0.3.0), so they travel to other tools: one
evaluation log per run, a result per benchmark and step with its accuracy, the number of
problems, and the 95% interval with the method that gave it; for a comparison, the
difference from the baseline, its interval, p-value and verdict in each result's details
(the schema keeps details as strings). `plot`/`compare -o results.json`."""

from __future__ import annotations

import json
import re
import time
from collections.abc import Sequence
from pathlib import Path

import polars as pl

from helpers.errors import DataError
from helpers.io import write_text_atomic

SCHEMA_VERSION = "0.3.0"
WILSON = "Wilson score interval over problems"
UNKNOWN = {"deployment_type": "unknown", "model_availability": "unknown"}


def _text(value: object) -> str:
    return f"{value:.12g}" if isinstance(value, float) else str(value)


def _result(row: dict, details: dict[str, object]) -> dict:
    """One benchmark at one step: the accuracy, and where the problems are known, its interval
    and sample count."""
    step = row.get("step")
    score: dict = {"score": float(row["accuracy"])}
    lo, hi = row.get("lo"), row.get("hi")
    if row.get("problems") is not None and lo is not None and hi is not None and lo == lo:
        score["uncertainty"] = {
            "confidence_interval": {
                "lower": float(lo),
                "upper": float(hi),
                "confidence_level": 0.95,
                "method": row.get("band") or WILSON,
            },
            "num_samples": int(row["problems"]),
        }
    extra = {"step": step} if step is not None else {}
    if row.get("k"):
        extra["samples_per_problem"] = row["k"]
    extra |= details
    if extra:
        score["details"] = {k: _text(v) for k, v in extra.items() if v is not None}
    where = f"@step{step}" if step is not None else ""
    source: dict = {"dataset_name": row["benchmark"], "source_type": "other"}
    return {
        "evaluation_result_id": f"{row['benchmark']}{where}:accuracy",
        "evaluation_name": row["benchmark"],
        "source_data": source,
        "metric_config": {
            "evaluation_description": f"accuracy on {row['benchmark']}",
            "metric_id": "accuracy",
            "metric_name": "accuracy",
            "metric_kind": "accuracy",
            "metric_unit": "proportion",
            "lower_is_better": False,
            "score_type": "continuous",
            "min_score": 0.0,
            "max_score": 1.0,
        },
        "score_details": score,
    }


def log(run: str, table: pl.DataFrame, wrote: str, logs: Sequence[str], details=None) -> dict:
    """One run's evaluation log. `table` has a row per benchmark and step (benchmark, step,
    accuracy, problems, k, lo, hi, band where known); `wrote` is the format the run was read
    from (or "unknown"); `details(row)` adds a row's comparison."""
    now = f"{time.time():.6f}"
    results = [_result(row, details(row) if details else {}) for row in table.iter_rows(named=True)]
    return {
        "schema_version": SCHEMA_VERSION,
        "evaluation_id": f"{run}/{now}",
        "retrieved_timestamp": now,
        "source_metadata": {
            "source_name": "reasoning-figures",
            "source_type": "evaluation_run",
            "source_organization_name": "unknown",
            "evaluator_relationship": "other",
            "additional_details": {"read_from": ", ".join(map(str, logs))},
        },
        "eval_library": {"name": wrote, "version": "unknown"},
        "model_info": {"name": run, "id": run, "additional_details": dict(UNKNOWN)},
        "evaluation_results": results,
    }


def run_accuracies(run) -> pl.DataFrame:
    """A run's accuracy per benchmark and step, with a Wilson 95% interval over problems where
    the log says how many problems (a `SampleLog` or a `ScoreLog`)."""
    from helpers.runs import summarise

    if run.samples is not None:
        table = summarise.aggregate_samples(run.samples, where=run.path)
        return table.select("step", "benchmark", "problems", "k", "accuracy", "lo", "hi")
    if run.scores is not None:  # no interval where the log does not say how many problems
        table = summarise.with_wilson(run.scores.rename({"score": "accuracy"}))
        return table.select("step", "benchmark", "problems", "k", "accuracy", "lo", "hi")
    raise DataError(run.path, "accuracies per benchmark (a results.json holds no other metric)")


def for_runs(runs: Sequence) -> list[tuple[str, dict]]:
    """(name, log) for each run read (`Loaded`)."""
    named = []
    for run in runs:
        name = run.run or Path(run.path).name
        wrote = "unknown" if run.format == "folder" else run.format
        named.append((name, log(name, run_accuracies(run), wrote, [Path(run.path).name])))
    return named


def for_comparison(c) -> list[tuple[str, dict]]:
    """(name, log) for each run of a `Comparison`: its accuracy at every step it was measured
    (the mean over its seeds, with the band the comparison drew), and for each run against
    the baseline, at the step compared, the difference and its verdict."""
    mean = c.curves.filter(pl.col("kind") == "mean")
    named = []
    for run in c.runs:
        rows = {}
        for d in c.differences.filter(pl.col("run_b") == run).iter_rows(named=True):
            rows[(d["benchmark"], d["step_b"] if d["step_b"] is not None else d["step"])] = {
                "baseline": d["run_a"],
                "compared_at": d["at"],
                "difference": d["difference"],
                "difference_lower": d["lo"],
                "difference_upper": d["hi"],
                "difference_interval": d["interval"],
                "difference_level": d["level"],
                "p_value": d["p_value"],
                "p_adjusted": d["p_adjusted"],
                "separable": str(bool(d["separable"])).lower(),
                "seeds": d["seeds_b"],
                "status": d["status_b"],
            }

        def details(row, rows=rows) -> dict:
            return rows.get((row["benchmark"], row["step"]), {})

        table = mean.filter(pl.col("run") == run)
        named.append((run, log(run, table, "unknown", c.logs.get(run, []), details)))
    return named


def _slug(name: str) -> str:
    return re.sub(r"[^A-Za-z0-9._-]+", "_", name).strip("_") or "run"


def write(out: Path, named: list[tuple[str, dict]]) -> list[Path]:
    """One run: `out` itself; several: `out`'s name with each run's (`results.<run>.json`),
    each file one evaluation log as the schema has it. Written atomically."""
    if len(named) == 1:
        targets = [out]
    else:
        targets = [out.with_name(f"{out.stem}.{_slug(name)}{out.suffix}") for name, _ in named]
        if len(set(targets)) < len(targets):
            raise DataError(out, "run names that differ once made file names", got=named[0][0])
    for target, (_, doc) in zip(targets, named, strict=True):
        write_text_atomic(target, json.dumps(doc, indent=2, allow_nan=False) + "\n")
    return targets
