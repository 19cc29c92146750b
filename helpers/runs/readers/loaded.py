"""What a reader returns: one run's logs as one of three typed logs, whatever wrote them (a
`SampleLog` of answers, a `ScoreLog` of scores and lengths, a `ModelTable` of models), and the
step a path names (checkpoint-120/, Exp2_120/)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import ClassVar

import polars as pl

from helpers.errors import DataError

# checkpoint-120, ckpt_120, global_step120, step=120, iter_120; Exp2_120 (an experiment number,
# then the step)
STEP_PATTERN = r"(?i)^(?:.*[^a-z])?(?:checkpoint|ckpt|global_step|step|iter|iteration)[-_=]?(\d+)$"

EXP_PATTERN = r"(?i)^exp\d*[-_](\d+)$"

SCORE_COLUMNS = {
    "step": pl.Int64,
    "benchmark": pl.String,
    "score": pl.Float64,
    "problems": pl.Int64,
    "k": pl.Int64,
}


@dataclass
class Loaded:
    """What every log read from one input says beside its rows, whichever of the three it
    is (`SampleLog`, `ScoreLog`, `ModelTable`; `holds` names which). `notes` say what was
    recognised and what was left out, for `python -m helpers inspect`. The rows a log does
    not hold read as None (`samples` of a score log), so a loop over logs of several kinds
    asks each what it holds."""

    holds: ClassVar[str]
    samples: ClassVar[pl.LazyFrame | None] = None
    scores: ClassVar[pl.DataFrame | None] = None
    tokens: ClassVar[pl.DataFrame | None] = None
    models: ClassVar[pl.DataFrame | None] = None

    path: Path
    format: str
    notes: list[str] = field(default_factory=list)
    order: list[str] = field(default_factory=list)  # benchmarks in the log's own order
    kind: str = "validation"  # or "training score": what `scores` measure
    # per-sample files that hold problem texts: (path, format, step, benchmark), read only
    # when asked (`problem_texts.read_texts`), so that plotting a run never pays for its text
    texts: list[tuple[Path, str, int | None, str]] = field(default_factory=list)
    run: str | None = None  # the run's name in a tracker's store (`load_runs`, PATH#RUN)
    # the model the log says it evaluated (lighteval's config_general.model_name, lm-eval's
    # model_name or model_args pretrained=), as the log spells it
    model: str | None = None
    unread: str | None = None  # why this run of a store of several could not be read
    status: str | None = None  # a run that did not finish, in words (an Inspect log's status)
    # whether the log says the run ended (an exit or end record, a final status): False where
    # it has none yet (killed, or still running), None where its format cannot say
    ended: bool | None = None
    mapped: bool = False  # scores read through --map accuracy=: the "benchmarks" may be anything
    # how the answers were generated, where the log says: temperature, top_p, max_tokens
    decoding: dict[str, float] = field(default_factory=dict)


@dataclass
class SampleLog(Loaded):
    """An evaluation's answers, one row a sample: `samples` (lazy; SAMPLE_COLUMNS, step null
    where the log has none; `level` too where the log gives one)."""

    holds: ClassVar[str] = "samples"
    samples: pl.LazyFrame = field(kw_only=True)


@dataclass
class ScoreLog(Loaded):
    """Scores as logged, no answers: `scores` (SCORE_COLUMNS: a score as a fraction, the
    problems it counts where known, k samples per problem where the log says) and `tokens`
    (step, benchmark or null for every benchmark, tokens), either None where the log has
    none (a training log of lengths only; a run of a store that could not be read, its
    `unread` saying why)."""

    holds: ClassVar[str] = "scores"
    scores: pl.DataFrame | None = field(default=None, kw_only=True)
    tokens: pl.DataFrame | None = field(default=None, kw_only=True)


@dataclass
class ModelTable(Loaded):
    """A table of models' scores, one row a model (`models`)."""

    holds: ClassVar[str] = "models"
    models: pl.DataFrame = field(kw_only=True)


DECODING_KEYS = {  # a log's name for a decoding setting -> ours
    "temperature": "temperature",
    "top_p": "top_p",
    "max_tokens": "max_tokens",
    "max_new_tokens": "max_tokens",
    "max_gen_toks": "max_tokens",
}


def shared(values, default=None):
    """The one value every log of a run states alike (its model, what its scores measure),
    else `default`.

    >>> shared(["a", "a"]), shared(["a", "b"], "neither"), shared([])
    ('a', 'neither', None)
    """
    distinct = set(values)
    return distinct.pop() if len(distinct) == 1 else default


def decoding_alike(settings: list[dict[str, float]]) -> dict[str, float]:
    """The decoding settings that every one of `settings` states alike (one that states none
    leaves none): those of a run read from several files, or tasks."""
    if not settings:
        return {}
    return {k: v for k, v in settings[0].items() if all(s.get(k) == v for s in settings)}


def decoding_of(*configs: object) -> dict[str, float]:
    """The decoding settings in generation configs (later ones win): temperature, top_p and
    max_tokens where given as numbers, under the names logs use for them."""
    out: dict[str, float] = {}
    for config in configs:
        if not isinstance(config, dict):
            continue
        for key, ours in DECODING_KEYS.items():
            value = config.get(key)
            if type(value) in (int, float) and value == value:  # not a bool, not NaN
                out[ours] = value
    return out


def step_from_path(
    parts: list[str], pattern: str | None = None, path: Path | None = None
) -> int | None:
    """The training step named by a path part (nearest first), e.g. `checkpoint-120` or
    `Exp2_120`; `pattern` (one group: the step) replaces the default patterns. A step past
    what a 64-bit integer holds is a DataError naming `path`."""
    patterns = [pattern] if pattern else [STEP_PATTERN, EXP_PATTERN]
    for part in parts:
        for p in patterns:
            m = re.search(p, part)
            if m:
                if not m.group(1).isdigit() or int(m.group(1)) >= 2**63:
                    raise DataError(
                        path or part,
                        "a step from 0 to 2**63 - 1 in the folder name",
                        column="path",
                        got=m.group(1),
                    )
                return int(m.group(1))
    return None


def check_step_pattern(pattern: str | None) -> None:
    """A --step-from-path pattern must compile and hold one group (the step)."""
    if pattern is None:
        return
    try:
        groups = re.compile(pattern).groups
    except re.error as e:
        raise DataError(
            "--step-from-path", "a regular expression", got=f"{pattern} ({e})"
        ) from None
    if groups != 1:
        raise DataError(
            "--step-from-path",
            "a regular expression with one group, the step (e.g. 'epoch(\\d+)')",
            got=pattern,
        )


def samples_frame(frame: pl.DataFrame, step: int | None, benchmark: str) -> pl.DataFrame:
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


def scores_frame(rows: pl.DataFrame, step: int | None) -> pl.DataFrame:
    """Scores (benchmark, score, problems) at one step, in SCORE_COLUMNS; a `step` column of
    the rows' own, where they have one, is kept where it is not null."""
    own = rows["step"] if "step" in rows.columns else None
    frame = rows.select(
        step=pl.lit(step, pl.Int64),
        benchmark="benchmark",
        score="score",
        problems="problems",
        k=pl.lit(None, pl.Int64),
    )
    return frame if own is None else frame.with_columns(pl.coalesce(own, "step"))
