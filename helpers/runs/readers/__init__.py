"""Readers for your own run's logs, each format recognised from the file's content.

`detect` names a file's format (see `detect.FORMATS`): per-step metric logs (W&B exports and
other CSV, JSON lines, TRL's trainer_state.json; verl's and TRL's names recognised, others by
`--map`), per-sample evaluation outputs (Qwen2.5-Math/SkyThought and lm-eval JSONL, lighteval
details, Inspect logs, tidy per-sample tables), aggregated results (lm-eval, lighteval) and
scores tables (one row per model). A folder of per-checkpoint files is one run, its steps read
from the folder names.

`load` reads any run's log into one of three typed logs (each a `Loaded`): a `SampleLog` of
per-sample rows, a `ScoreLog` of per-step scores and lengths, a `ModelTable` of models;
`load_runs` reads each run of a tracker's store of several (W&B, TensorBoard, MLflow, trackio),
and `PATH#RUN` names one of them.
Reading never draws: the charts are chosen in `helpers.cli`, the numbers made in
`helpers.runs.summarise` and `helpers.runs.compare`.
"""

from __future__ import annotations

from helpers.runs.readers._common import distinct_inputs
from helpers.runs.readers.detect import FORMATS, detect
from helpers.runs.readers.follow import Follow
from helpers.runs.readers.formats.evals import read_lm_eval, read_qwen_math
from helpers.runs.readers.formats.leaderboards import read_scores
from helpers.runs.readers.formats.metrics import read_metric_log
from helpers.runs.readers.formats.tables import SAMPLE_COLUMNS, scan_samples
from helpers.runs.readers.loaded import ModelTable, SampleLog, ScoreLog
from helpers.runs.readers.runs import (
    Loaded,
    Store,
    load,
    load_runs,
    open_store,
    step_from_path,
)

__all__ = [
    "FORMATS",
    "Follow",
    "SAMPLE_COLUMNS",
    "Loaded",
    "ModelTable",
    "SampleLog",
    "ScoreLog",
    "Store",
    "detect",
    "distinct_inputs",
    "load",
    "load_runs",
    "read_lm_eval",
    "read_metric_log",
    "read_qwen_math",
    "read_scores",
    "scan_samples",
    "step_from_path",
    "open_store",
]
