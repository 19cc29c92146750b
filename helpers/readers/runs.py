"""One run's logs in one shape, whatever wrote them: per-sample rows where the log has them,
per-step scores where it has only those. This is what comparisons and curves start from."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import polars as pl

from .. import benchmarks as bench
from ..errors import DataError
from . import wandb
from .evals import read_lm_eval, read_qwen_math
from .tables import SAMPLE_COLUMNS, scan_samples

# checkpoint-120, ckpt_120, global_step120, step=120, iter_120; Exp2_120 (an experiment number,
# then the step)
STEP_PATTERN = r"(?i)^(?:.*[^a-z])?(?:checkpoint|ckpt|global_step|step|iter|iteration)[-_=]?(\d+)$"
EXP_PATTERN = r"(?i)^exp\d*[-_](\d+)$"
SCORE_COLUMNS = {"step": pl.Int64, "benchmark": pl.String, "score": pl.Float64}


@dataclass(frozen=True)
class Loaded:
    """What one input holds: `samples` (lazy; SAMPLE_COLUMNS, step null where the log has
    none) or `scores` (step, benchmark, score as a fraction)."""

    path: Path
    format: str
    samples: pl.LazyFrame | None = None
    scores: pl.DataFrame | None = None


def step_from_path(parts: list[str], pattern: str | None = None) -> int | None:
    """The training step named by a path part (nearest first), e.g. `checkpoint-120` or
    `Exp2_120`; `pattern` (one group: the step) replaces the default patterns."""
    patterns = [pattern] if pattern else [STEP_PATTERN, EXP_PATTERN]
    for part in parts:
        for p in patterns:
            m = re.search(p, part)
            if m:
                return int(m.group(1))
    return None


def _eval_file(path: Path, kind: str, parts: list[str], step_pattern: str | None) -> pl.DataFrame:
    """A per-sample JSONL file as SAMPLE_COLUMNS rows; step and benchmark from its path."""
    frame = read_qwen_math(path) if kind == "qwen-math" else read_lm_eval(path)
    benchmark = bench.in_path(parts) or path.stem
    return frame.select(
        step=pl.lit(step_from_path(parts[1:], step_pattern), pl.Int64),
        benchmark=pl.lit(benchmark, pl.String),
        problem_id=pl.col("problem_id"),
        sample_id=pl.col("sample_id"),
        correct=pl.col("correct"),
        response_tokens=pl.lit(None, pl.Int64),
    )


def _folder(path: Path, step_pattern: str | None) -> Loaded:
    from . import detect

    if detect(path) == "samples":
        return Loaded(path, "samples", samples=scan_samples([path]))
    files = sorted(path.rglob("*.jsonl"))
    frames = []
    for f in files:
        kind = detect(f)
        if kind not in ("qwen-math", "lm-eval"):
            raise DataError(f, "per-sample evaluation output (Qwen2.5-Math or lm-eval JSONL)")
        # the file's name and the folders between it and `path`, nearest first
        parts = [f.name, *reversed(f.relative_to(path).parent.parts)]
        frames.append(_eval_file(f, kind, parts, step_pattern))
    return Loaded(path, "evals", samples=pl.concat(frames).lazy())


def load(path: str | Path, *, step_pattern: str | None = None) -> Loaded:
    """Read one input (file or folder) into a `Loaded` run."""
    from . import detect

    path = Path(path)
    if path.is_dir():
        return _folder(path, step_pattern)
    kind = detect(path)
    if kind == "samples":
        return Loaded(path, kind, samples=scan_samples([path]))
    if kind in ("qwen-math", "lm-eval"):
        parts = [path.name, path.parent.name]
        return Loaded(path, kind, samples=_eval_file(path, kind, parts, step_pattern).lazy())
    if kind == "wandb":
        scores = wandb.read_scores(path).select(list(SCORE_COLUMNS))
        return Loaded(path, kind, scores=scores)
    raise DataError(path, "a run's log (per-sample or per-step); a table of models is not a run")


__all__ = ["SAMPLE_COLUMNS", "Loaded", "load", "step_from_path"]
