"""Shared fixtures: a scratch copy of the data package, and where ../shared lives."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

import helpers
from helpers.paths import DATA, ROOT

helpers.setup()  # charts in the tests are drawn as the notebooks draw them

SHARED = ROOT.parent / "shared"
SEEDS = SHARED / "seeds"
REALDATA = SHARED / "realdata"

# The real logs in ../shared/realdata (its README says what each is and what it should give).
VAL = REALDATA / "reasoning360_guru18k_mix_val_by_step.csv"
TRAIN = REALDATA / "reasoning360_guru18k_mix_train_by_step.csv"
SKY = REALDATA / "skythought_qwen2.5-math-7b_math500_samples.jsonl"
SKY14 = REALDATA / "skythought_qwen2.5-14b-instruct_math500_samples.jsonl"
SKY14_AIME = REALDATA / "skythought_qwen2.5-14b-instruct_aime24_samples.jsonl"
SKY14_METRICS = REALDATA / "skythought_qwen2.5-14b-instruct_math500_metrics.json"
CHECKPOINTS = REALDATA / "skythought_sky-t1-32b_aime24_checkpoints"
LIGHTEVAL = REALDATA / "open-rs_lighteval_results_exp2"
OBS = REALDATA / "obsscaling_base_llm_benchmark_eval.csv"
# added in the third pass (see its README): the readers of issues 23 and 24 are still to come
VERIFIERS_MATH = REALDATA / "verifiers_math_python"
VERIFIERS_GSM8K = REALDATA / "verifiers_gsm8k"
VERIFIERS_WORDLE = REALDATA / "verifiers_wordle"
HF_TRAINER = REALDATA / "math_meme_repair_hf_trainer"
MLFLOW = REALDATA / "llm_self_training_mlflow"
GRPO_COMPLETIONS = REALDATA / "illustrated_grpo_trl_stage2"
GRPO_STATE = REALDATA / "illustrated_grpo_trl_stage4"
EXAMPLE = DATA / "examples" / "simulated_run.parquet"


@pytest.fixture
def package(tmp_path: Path) -> Path:
    """A writable copy of data/; returns the path of its datapackage.json."""
    target = tmp_path / "data"
    shutil.copytree(DATA, target)
    return target / "datapackage.json"


@pytest.fixture(scope="session")
def seeds() -> dict[str, str]:
    """The five figure descriptions, keyed by their three-digit number."""
    assert SEEDS.is_dir(), f"the figure descriptions are expected in {SEEDS}"
    return {p.name[:3]: p.read_text(encoding="utf-8") for p in sorted(SEEDS.glob("*.txt"))}
