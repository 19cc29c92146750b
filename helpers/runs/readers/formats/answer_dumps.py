"""The answers RL frameworks and evaluation runners dump as they go: verifiers' `vf-eval`
results.jsonl, TRL GRPOTrainer's completions Parquet, and the per-step validation dumps of
verl, SkyRL and NeMo-RL, one row per generation, with no problem id of their own (problems are
keyed by a hash of their prompt)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import polars as pl

from helpers.errors import DataError
from helpers.runs.readers._common import scan_jsonl_lines
from helpers.runs.readers.format import Format, Where
from helpers.runs.readers.formats.evals import SAMPLE_SCHEMA, _frame, _text_key
from helpers.runs.readers.formats.tables import SAMPLE_COLUMNS
from helpers.runs.readers.loaded import Loaded, SampleLog, samples_frame

# ---- verifiers (vf-eval) results.jsonl ----------------------------------------------------------

CORRECTNESS = ("correct", "check_answer", "accuracy", "exact_match")  # in reward-function names


def _message_text(messages, role: str | None = None) -> str:
    """The text of a chat: every message's content (of one role, if given), joined."""
    if isinstance(messages, str):
        return messages
    if not isinstance(messages, list):
        return ""
    parts = [
        m.get("content") or ""
        for m in messages
        if isinstance(m, dict) and (role is None or m.get("role") == role)
    ]
    return "\n".join(p if isinstance(p, str) else json.dumps(p) for p in parts)


def _prompt_key(record: dict) -> str:
    """A problem's id from its prompt and reference answer, the same in every run of the
    environment (a game's prompt can be the same for every problem: Wordle's answers differ)."""
    return _text_key(json.dumps([record.get("prompt"), record.get("answer")], ensure_ascii=False))


def verifiers_correctness(path: Path, keys: list[str], metric: str | None = None) -> str:
    """Which column says whether a rollout was right: `metric` if given, else the reward
    function named for correctness (correct_answer_reward_func, check_answer_reward_func)."""
    if metric is not None:
        if metric not in keys:
            raise DataError(path, f"a column {metric!r} (--map accuracy)", line=1, got=keys)
        return metric
    found = [k for k in keys if k.endswith("_func") and any(w in k for w in CORRECTNESS)]
    if not found:
        raise DataError(
            path,
            "a reward function for correctness (e.g. correct_answer_reward_func), or --map "
            "accuracy=COLUMN naming a 0/1 column",
            line=1,
            got=[k for k in keys if k.endswith("_func") or k == "reward"],
        )
    return found[0]


def read_verifiers(path: str | Path, metric: str | None = None) -> pl.DataFrame:
    """A verifiers `vf-eval` results.jsonl (one line per rollout) as one row per answer:
    problem_id (a hash of the prompt and answer: the file's `id` counts rows, not problems,
    in older files), sample_id (the rollout's order among its problem's), correct (the correctness
    reward function: 0 or 1). A run that wrote no completion at all cannot be scored: an
    error, not 0% accuracy."""
    path = Path(path)
    rows, seen, column, generated = [], {}, None, 0
    for number, record in scan_jsonl_lines(path):
        column = column or verifiers_correctness(path, sorted(record), metric)
        key = _prompt_key(record)
        seen[key] = seen.get(key, -1) + 1
        value = record.get(column)
        if type(value) not in (int, float, bool) or value not in (0, 1):
            raise DataError(
                path, "a correctness of 0 or 1 per rollout", line=number, column=column, got=value
            )
        generated += bool(_message_text(record.get("completion"), "assistant").strip())
        rows.append((key, seen[key], bool(value)))
    if rows and not generated:
        raise DataError(
            path,
            "generated completions to score; every completion is empty (the run wrote its "
            "prompts but no rollout)",
            column="completion",
        )
    return _frame(path, rows, SAMPLE_SCHEMA)


# ---- TRL GRPOTrainer completion dumps (log_completions: completions/completions_<step>.parquet)

TRL_COMPLETION_COLUMNS = ("step", "prompt", "completion")


def read_trl_completions(path: str | Path, metric: str | None = None) -> pl.DataFrame:
    """One TRL completions Parquet (one row per generation: step, prompt, completion, one
    column per reward function, advantage) as one row per answer: step, problem_id (a hash of
    the prompt), sample_id (the generation's order within its prompt and step), correct (the
    correctness reward function: 0 or 1)."""
    path = Path(path)
    try:
        frame = pl.read_parquet(path)
    except (pl.exceptions.PolarsError, OSError) as e:
        raise DataError(path, "a readable Parquet file", got=str(e)[:80]) from None
    rewards = [c for c in frame.columns if c not in (*TRL_COMPLETION_COLUMNS, "advantage")]
    column = metric or next((c for c in rewards if any(w in c for w in CORRECTNESS)), None)
    if column not in frame.columns:
        raise DataError(
            path,
            "a correctness reward column (e.g. correctness_reward), or --map accuracy=COLUMN "
            "naming a 0/1 column",
            got=rewards,
        )
    values = frame[column]
    if not (values.dtype.is_numeric() or values.dtype == pl.Boolean):
        raise DataError(path, "a correctness of 0 or 1", column=column, got=str(values.dtype))
    bad = ~values.cast(pl.Float64).is_in([0.0, 1.0]).fill_null(False)
    if bad.any():
        row = int(bad.arg_true()[0])
        raise DataError(
            path, "a correctness of 0 or 1", row=row + 1, column=column, got=values[row]
        )
    keys = {p: _text_key(p) for p in frame["prompt"].unique()}
    return frame.select(
        pl.col("step").cast(pl.Int64),
        pl.col("prompt").replace_strict(keys, return_dtype=pl.String).alias("problem_id"),
        (pl.int_range(pl.len()).over("step", "prompt")).cast(pl.Int64).alias("sample_id"),
        (pl.col(column) == 1).alias("correct"),
        pl.lit(column).alias("benchmark"),
    )


# ---- RL frameworks' validation dumps: one JSON line per generation, one file per step ----------
#
# verl `trainer.validation_data_dir`: `<global_step>.jsonl`, keys input, output, gts, score, step
#   and the reward function's extra info (`reward`; math_dapo's `acc`, `pred`, its own `score`);
#   no problem id, no data source (volcengine/verl, verl/trainer/ppo/ray_trainer.py,
#   `_dump_generations`, called from `_validate`).
# SkyRL `trainer.dump_eval_results`: `dumped_evals/global_step_<N>_evals/<data_source>.jsonl`,
#   keys input_prompt, output_response, score, stop_reason, env_class, env_extras, data_source,
#   beside an `aggregated_results.jsonl` of averages (NovaSky-AI/SkyRL,
#   skyrl/train/utils/trainer_utils.py, `dump_per_dataset_eval_results`).
# NeMo-RL GRPO validation: `val_data_step<N>.jsonl`, keys content (the conversation, as a list
#   of one message list), rewards (a list of one) and idx (the row's number); training rollouts
#   go to `train_data_step<N>.jsonl` beside them (NVIDIA-NeMo/RL, nemo_rl/algorithms/grpo.py,
#   `validate`; nemo_rl/utils/logger.py, `log_batched_dict_as_jsonl`).
# AReaL `rollout.dump_to_file`: `eval-rollout/<version>/<task_id>.jsonl` (training rollouts:
#   `rollout/<version>/`), one line per sample of one prompt: task_id (a rollout counter, not
#   a problem), sample_idx, seqlen, prompt_len, head_version, tail_version (the policy version:
#   the eval after that many training steps), reward (the reward function's, unscaled),
#   prompt, completion (inclusionAI/AReaL, areal/infra/workflow_executor.py,
#   `_dump_trajectory`).

STEP_DUMPS = {  # format: (prompt key, generated-text key, correctness key)
    "verl-generations": ("input", "output", "score"),
    "skyrl-evals": ("input_prompt", "output_response", "score"),
    "nemo-rl-validation": ("content", "content", "rewards"),
    "areal-rollouts": ("prompt", "completion", "reward"),
}
STEP_KEYS = {"verl-generations": "step", "areal-rollouts": "tail_version"}  # a line's own step
# written beside the dumps, read by no one here: a folder leaves them out, alone they are refused
BESIDE_DUMPS = {
    "skyrl-eval-summary": "SkyRL's per-dataset eval files beside this aggregated_results.jsonl "
    "(it holds averages only; give its dumped_evals/ folder)",
    "nemo-rl-training": "NeMo-RL validation dumps (val_data_step<N>.jsonl); this is a training "
    "rollout dump (train_data_step<N>.jsonl)",
}
DEFAULT_BENCHMARK = "validation"  # where a dump names no data source (verl, NeMo-RL)


def dump_kind(keys: set[str]) -> str | None:
    """Which framework's dump a JSON line with these keys comes from, if any."""
    if {"input", "output", "score", "step"} <= keys:
        return "verl-generations"
    if {"input_prompt", "output_response", "score"} <= keys:
        return "skyrl-evals"
    if {"task_id", "sample_idx", "tail_version", "reward", "prompt", "completion"} <= keys:
        return "areal-rollouts"
    if "eval/all/avg_score" in keys:
        return "skyrl-eval-summary"
    if {"content", "rewards", "idx"} <= keys:
        training = {"advantages", "token_ids", "input_lengths"} & keys
        return "nemo-rl-training" if training else "nemo-rl-validation"
    return None


def _normalised_key(text: str) -> str:
    """A problem's id from its prompt with whitespace runs made one space, so a prompt
    re-rendered with other line breaks or indentation is still the same problem."""
    return _text_key(" ".join(text.split()))


def _conversation(record: dict) -> list:
    """NeMo-RL's logged conversation: a list of one message list (a batch of one)."""
    content = record.get("content")
    if isinstance(content, list) and len(content) == 1 and isinstance(content[0], list):
        return content[0]
    return content if isinstance(content, list) else []


def _nemo_prompt(messages: list) -> list:
    """The messages before the model's first turn: the problem as it was posed."""
    prompt = []
    for m in messages:
        if isinstance(m, dict) and m.get("role") == "assistant":
            break
        prompt.append(m)
    return prompt


def dump_texts(record: dict, kind: str) -> tuple[str, str | None, object, str]:
    """(problem id, question, reference answer, generated text) of one dumped generation; the
    id is a hash of the prompt with whitespace normalised."""
    if kind == "nemo-rl-validation":
        messages = _conversation(record)
        prompt = _nemo_prompt(messages)
        key = _normalised_key(
            "\n".join(
                f"{m.get('role')}: {_message_text([m])}" for m in prompt if isinstance(m, dict)
            )
        )
        return key, _message_text(prompt) or None, None, _message_text(messages, "assistant")
    prompt_key, output_key, _ = STEP_DUMPS[kind]
    prompt, output = record.get(prompt_key), record.get(output_key)
    prompt = prompt if isinstance(prompt, str) else json.dumps(prompt, ensure_ascii=False)
    if kind == "skyrl-evals":
        extras = record.get("env_extras")
        spec = extras.get("reward_spec") if isinstance(extras, dict) else None
        reference = spec.get("ground_truth") if isinstance(spec, dict) else None
    else:
        reference = record.get("gts")
    return _normalised_key(prompt), prompt, reference, output if isinstance(output, str) else ""


def _tokens(record: dict, kind: str) -> int | None:
    """A generation's length in tokens where the dump says (AReaL: seqlen - prompt_len)."""
    if kind == "areal-rollouts":
        seqlen, prompt_len = record.get("seqlen"), record.get("prompt_len")
        if type(seqlen) is int and type(prompt_len) is int and seqlen >= prompt_len:
            return seqlen - prompt_len
    return None


def _whole_step(path: Path, number: int, value, column: str = "step") -> int:
    if type(value) is float and value.is_integer():
        value = int(value)
    if type(value) is not int or not 0 <= value < 2**63:
        raise DataError(path, "a whole step from 0", line=number, column=column, got=value)
    return value


def _dump_step(path: Path, kind: str, parts: list[str], step: int | None) -> int | None:
    """The step a dump file's name or folder gives: verl `<step>.jsonl`, SkyRL
    `global_step_<N>_evals/`, NeMo-RL `val_data_step<N>.jsonl`; else `step`, read from the
    folders by the usual patterns (or --step-from-path)."""
    patterns = {
        "verl-generations": r"^(\d+)\.jsonl?$",
        "skyrl-evals": r"^global_step_(\d+)_evals$",
        "nemo-rl-validation": r"^val_data_step(\d+)\.jsonl?$",
        "areal-rollouts": r"^(\d+)$",  # the version folder (the file is <task_id>.jsonl)
    }
    for part in parts[1:] if kind == "areal-rollouts" else parts:
        m = re.match(patterns[kind], part)
        if m and int(m.group(1)) < 2**63:
            return int(m.group(1))
    return step


def _unwrapped(value, kind: str, column: str):
    """A generation's score as one value: SkyRL's token-level rewards summed, NeMo-RL's reward
    unwrapped from its batch of one."""
    if kind == "skyrl-evals" and isinstance(value, list) and column == "score":
        value = sum(v for v in value if type(v) in (int, float)) if value else None
    if kind == "nemo-rl-validation" and isinstance(value, list) and len(value) == 1:
        value = value[0]
    return value


def _correct(path: Path, number: int, column: str, value, kind: str) -> bool:
    """A generation's correctness: true/false or 0/1 (`_unwrapped`); partial credit is an
    error."""
    value = _unwrapped(value, kind, column)
    if type(value) in (int, float, bool) and value in (0, 1):
        return bool(value)
    raise DataError(
        path,
        "a correctness of 0 or 1 per generation (partial credit or a -1/1 reward cannot be "
        "split into right and wrong answers; --map accuracy=KEY names a 0/1 key such as acc, "
        "--map reward=KEY compares the score as a reward: mean reward, bootstrap interval)",
        line=number,
        column=column,
        got=value,
    )


def _reward(path: Path, number: int, column: str, value, kind: str) -> float:
    """A generation's reward (`--map reward=KEY`): any finite number, after `_unwrapped`."""
    value = _unwrapped(value, kind, column)
    if type(value) not in (int, float, bool) or value != value or abs(value) == float("inf"):
        raise DataError(
            path, "a reward (a number) per generation", line=number, column=column, got=value
        )
    return float(value)


def read_step_dump(
    path: str | Path,
    kind: str,
    parts: list[str],
    step: int | None = None,
    metric: str | None = None,
    reward: str | None = None,
) -> tuple[pl.DataFrame, str]:
    """One framework dump file (see STEP_DUMPS) as one row per generation in the columns of a
    per-sample table (step, benchmark, problem_id, sample_id, correct, response_tokens null),
    and a note saying where correctness came from. With `reward` (--map reward=KEY) each
    generation's KEY is also kept as its `reward`, any number (partial credit, a -1/1 or a
    reward model's score); correct is then `acc` or the --map accuracy key where there is one,
    else a reward of 1.

    The step is the line's own `step` (verl), else the file's or folder's name (`parts`, the
    file's name first); the benchmark the line's `data_source` (SkyRL; verl where the reward
    function logs one), else "validation"; problems are keyed by a hash of the prompt with
    whitespace normalised, and sample_id counts a problem's generations in the file. Correct
    is `acc` where the line has it (verl's math_dapo reward), else the score: it must be 0 or 1
    (--map accuracy=KEY names another key). A file in which no generation holds any text (a
    placeholder run) is an error, not 0% accuracy."""
    path = Path(path)
    _, output_key, score_key = STEP_DUMPS[kind]
    named_step = _dump_step(path, kind, parts, step)
    rows, seen, column, generated = [], {}, metric, 0
    for number, record in scan_jsonl_lines(path):
        if column is None:
            column = "acc" if kind == "verl-generations" and "acc" in record else score_key
            if reward is not None and column == score_key:
                column = reward  # no correctness key of its own: full credit is correct
        for needed in dict.fromkeys(k for k in (column, reward) if k is not None):
            if needed not in record:
                raise DataError(
                    path, f"a {needed!r} key on every line", line=number, column=needed, got=None
                )
        prompt = record.get(STEP_DUMPS[kind][0])
        if not isinstance(prompt, list if kind == "nemo-rl-validation" else str):
            raise DataError(
                path,
                "the conversation (a list of messages)"
                if kind == "nemo-rl-validation"
                else "the prompt's text",
                line=number,
                column=STEP_DUMPS[kind][0],
                got=prompt,
            )
        key, _, _, text = dump_texts(record, kind)
        if reward is None:
            correct = _correct(path, number, column, record[column], kind)
        else:
            got = _reward(path, number, reward, record[reward], kind)
            own = column != reward  # acc, or the --map accuracy key
            correct = _correct(path, number, column, record[column], kind) if own else got == 1
        own_step = STEP_KEYS.get(kind)
        if own_step in record:
            at = _whole_step(path, number, record[own_step], own_step)
        else:
            at = named_step
        source = record.get("data_source")
        benchmark = source if isinstance(source, str) and source else DEFAULT_BENCHMARK
        seen[benchmark, key] = seen.get((benchmark, key), -1) + 1
        generated += bool(text.strip())
        sample = seen[benchmark, key]
        if kind == "areal-rollouts" and type(record.get("task_id")) is int:
            # one file per task: a prompt repeated in the eval set (AIME x16) is the same
            # problem in several files, each counting its samples from 0
            sample += record["task_id"] * 2**20
        rows.append((at, benchmark, key, sample, correct, _tokens(record, kind)))
        if reward is not None:
            rows[-1] += (got,)
    if rows and not generated:
        raise DataError(
            path,
            "generated text to score; every generation is empty, so the dump has no generated "
            "text (a placeholder run), not 0% accuracy",
            column=output_key,
        )
    if reward is not None:
        said = f"reward from {reward!r}" + (
            f", correctness from {column!r}" if column != reward else ""
        )
        return _frame(path, rows, {**SAMPLE_COLUMNS, "reward": pl.Float64}), said
    return _frame(path, rows, SAMPLE_COLUMNS), f"correctness from {column!r}"


# ---- the formats ------------------------------------------------------------------------------


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


def _read_completions(path: Path, where: Where) -> Loaded:
    frame = read_trl_completions(path, where.metric)  # the step is in the data
    samples = frame.select(
        "step", "benchmark", "problem_id", "sample_id", "correct",
        pl.lit(None, pl.Int64).alias("response_tokens"),
    )  # fmt: skip
    # the answers a trainer sampled from its training prompts: a training score, not an
    # evaluation's accuracy
    return SampleLog(path, where.kind, samples=samples.lazy(), kind="training score")


def _read_dump(path: Path, where: Where) -> Loaded:
    """verl, SkyRL, NeMo-RL, AReaL: a file per validation step."""
    frame, said = read_step_dump(
        path, where.kind, where.parts, where.step, where.metric, where.reward
    )
    pairs = frame.select("step", "benchmark").unique(maintain_order=True).rows()
    texts = [(path, where.kind, s, b) for s, b in pairs]
    return SampleLog(path, where.kind, samples=frame.lazy(), notes=[said], texts=texts)


def _read_verifiers(path: Path, where: Where) -> Loaded:
    frame = read_verifiers(path, where.metric)
    benchmark = where.benchmark or _verifiers_env(path)
    samples = samples_frame(frame, where.step, benchmark).lazy()
    return SampleLog(
        path, where.kind, samples=samples, texts=[(path, where.kind, where.step, benchmark)]
    )


def _refuse(path: Path, where: Where) -> Loaded:
    raise DataError(path, BESIDE_DUMPS[where.kind], got=where.kind)


DESCRIPTIONS = {
    "verl-generations": "verl validation dumps (<step>.jsonl: input, output, gts, score, step)",
    "skyrl-evals": "SkyRL eval dumps (global_step_<N>_evals/<data_source>.jsonl)",
    "nemo-rl-validation": "NeMo-RL validation dumps (val_data_step<N>.jsonl: content, rewards)",
    "areal-rollouts": "AReaL rollout dumps (eval-rollout/<version>/<task_id>.jsonl: prompt, "
    "completion, reward, the version as the step)",
    "skyrl-eval-summary": "SkyRL aggregated_results.jsonl (averages beside the eval dumps)",
    "nemo-rl-training": "NeMo-RL training rollouts (train_data_step<N>.jsonl)",
}


def _dump(name: str, rank: int) -> Format:
    return Format(
        name,
        DESCRIPTIONS[name],
        rank=rank,
        read=_refuse if name in BESIDE_DUMPS else _read_dump,
        # before the metric logs: verl's dumps have a `step` key; before verifiers: AReaL's
        # dumps have a prompt, completion and reward too
        line=lambda ev: dump_kind(ev.keys) == name,
        per_sample=name not in BESIDE_DUMPS,
        beside=BESIDE_DUMPS.get(name),
    )


FORMATS = [
    Format(
        "trl-completions",
        "TRL completions Parquet (step, prompt, completion, rewards per generation)",
        rank=122,
        read=_read_completions,
        parquet=lambda ev: {"step", "prompt", "completion"} <= ev.names,
        per_sample=True,
    ),
    *(_dump(name, 180 + i) for i, name in enumerate(DESCRIPTIONS)),
    Format(
        "verifiers",
        "verifiers vf-eval results.jsonl (prompt, completion, reward per rollout)",
        rank=200,
        read=_read_verifiers,
        line=lambda ev: {"prompt", "completion", "reward"} <= ev.keys,
        per_sample=True,
    ),
]
