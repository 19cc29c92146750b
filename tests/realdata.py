"""The real logs in ../shared/realdata (its README says what each is) and what they should
give: each expected reading is stated here once, and every test that checks it imports it."""

from __future__ import annotations

from helpers.paths import ROOT

SHARED = ROOT.parent / "shared"
SEEDS = SHARED / "seeds"
REALDATA = SHARED / "realdata"

VAL = REALDATA / "reasoning360_guru18k_mix_val_by_step.csv"
TRAIN = REALDATA / "reasoning360_guru18k_mix_train_by_step.csv"
SKY = REALDATA / "skythought_qwen2.5-math-7b_math500_samples.jsonl"
SKY14 = REALDATA / "skythought_qwen2.5-14b-instruct_math500_samples.jsonl"
SKY14_AIME = REALDATA / "skythought_qwen2.5-14b-instruct_aime24_samples.jsonl"
SKY14_METRICS = REALDATA / "skythought_qwen2.5-14b-instruct_math500_metrics.json"
CHECKPOINTS = REALDATA / "skythought_sky-t1-32b_aime24_checkpoints"
LIGHTEVAL = REALDATA / "open-rs_lighteval_results_exp2"
OBS = REALDATA / "obsscaling_base_llm_benchmark_eval.csv"
VERIFIERS_MATH = REALDATA / "verifiers_math_python"
VERIFIERS_GSM8K = REALDATA / "verifiers_gsm8k"
VERIFIERS_WORDLE = REALDATA / "verifiers_wordle"
HF_TRAINER = REALDATA / "math_meme_repair_hf_trainer"
MLFLOW = REALDATA / "llm_self_training_mlflow"
GRPO_COMPLETIONS = REALDATA / "illustrated_grpo_trl_stage2"
GRPO_STATE = REALDATA / "illustrated_grpo_trl_stage4"

# ---- what they should give ---------------------------------------------------------------------

# SkyThought's MATH500 samples: Qwen2.5-Math-7B answers 262 of the 500 problems right, and
# Qwen2.5-14B-Instruct 402 (the harness's own printed accuracies)
SKY_PROBLEMS = 500
SKY_ACCURACY = 0.524
SKY14_ACCURACY = 0.804
