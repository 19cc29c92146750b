"""The logs verl and prime-rl write themselves (`readers.framework_logs`), and the key names of
verl, OpenRLHF, NeMo-RL and prime-rl (`readers.metric_columns.CONVENTIONS`, issue 23 item 2).

Neither framework's writer can run here: importing verl.utils.tracking or verl.utils.logger
imports verl/__init__.py, which imports torch (verl.protocol), and prime-rl's FileMonitor
imports its configs and verifiers. So each fixture is written the way the writer's code writes
it, read at these commits:

- verl b178a3cd56f58b2d502255daba591e92833930a7 (volcengine/verl):
  verl/utils/tracking.py `FileLogger.log`: `orjson.dumps({"step": step, "data": data},
  option=orjson.OPT_SERIALIZE_NUMPY) + b"\\n"`, one unbuffered write per call (compact JSON;
  numpy scalars as numbers; NaN and infinity as null; a value orjson cannot write stops the
  run). orjson prints 1e-5 where json prints 1e-05: the same number.
  verl/utils/logger/aggregate_logger.py `concat_dict_to_str` and `LocalLogger.log`:
  `print("step:{step}" + " - ".join("{k}:{pprint.pformat(v)}" for every numbers.Number v),
  flush=True)`, run inside Ray's TaskRunner, whose lines Ray prefixes `(TaskRunner pid=N) `
  (coloured on a terminal). The metric names are those of verl/trainer/ppo/ray_trainer.py
  `_val_metrics_update` and verl/trainer/ppo/metric_utils.py `process_validation_metrics`.
- prime-rl 559b44772e471d1538537b8805cc77f3824a5e64 (PrimeIntellect-ai/prime-rl):
  src/prime_rl/monitors/file.py `FileMonitor.log_metrics`: `json.dumps({"step": step, "time":
  time.time(), **sanitized}) + "\\n"`, appended line-buffered, where `sanitize`
  (src/prime_rl/utils/utils.py) drops NaN and infinity; the names are those of
  src/prime_rl/orchestrator/metrics.py (`EvalMetrics.to_wandb`: `eval/<env>/<all|effective>/
  <agent>/avg@<k>`, pass@k on the effective subset) and orchestrator.py (`finalize_eval_batch`
  logs `step` as a float; training lines `train/agg/<subset>/...`); the agent is named `agent`
  as in its tests/unit/orchestrator/test_metrics.py.
"""

from __future__ import annotations

import json
import math
import numbers
import pprint
from pathlib import Path

import numpy as np
import polars as pl
import pytest

from helpers import DataError
from helpers.cli import describe, main
from helpers.runs import readers

GSM8K = "openai/gsm8k"


# ---- the writers, as their code writes -----------------------------------------------------


def _orjson_value(value):
    """A value as orjson writes it with OPT_SERIALIZE_NUMPY: numpy scalars as numbers, arrays
    as lists, NaN and infinity as null."""
    if isinstance(value, np.ndarray):
        return [_orjson_value(v) for v in value.tolist()]
    if isinstance(value, np.generic):
        value = value.item()
    if isinstance(value, float) and not math.isfinite(value):
        return None
    return value


def verl_file_line(step: int, data: dict) -> str:
    doc = {"step": step, "data": {k: _orjson_value(v) for k, v in data.items()}}
    return json.dumps(doc, separators=(",", ":")) + "\n"


def verl_console_line(step: int, data: dict, prefix: str = "(TaskRunner pid=2426) ") -> str:
    parts = [f"step:{step}"]
    parts += [f"{k}:{pprint.pformat(v)}" for k, v in data.items() if isinstance(v, numbers.Number)]
    return prefix + " - ".join(parts) + "\n"


def prime_rl_line(step, when: float, metrics: dict) -> str:
    kept = {k: v for k, v in metrics.items() if not (isinstance(v, float) and not math.isfinite(v))}
    return json.dumps({"step": step, "time": when, **kept}) + "\n"


# ---- a verl run: validation at steps 0 and 2, training at 1 and 2 --------------------------

VAL_0 = {
    f"val-core/{GSM8K}/acc/mean@4": np.float64(0.25),
    f"val-core/{GSM8K}/acc/best@4/mean": np.float64(0.5),
    f"val-core/{GSM8K}/acc/best@4/std": np.float64(0.125),
    f"val-core/{GSM8K}/acc/maj@4/mean": np.float64(0.3125),
    f"val-aux/{GSM8K}/acc/std@4": np.float64(0.4330127018922193),
    f"val-aux/{GSM8K}/acc/worst@4/mean": np.float64(0.0625),
    f"val-aux/{GSM8K}/reward/mean@4": np.float64(0.25),
    "val-core/HuggingFaceH4/MATH-500/acc/mean@4": np.float64(0.5615),
    "val-aux/num_turns/mean": np.float64(2.0),
}
TRAIN_1 = {
    "training/global_step": 1,
    "actor/entropy": 0.5990142822265625,
    "critic/score/mean": np.float64(0.40625),
    "response_length/mean": 812.5,
    "response_length/max": np.int64(4096),
    "timing_s/gen": np.float64(12.75),
    "actor/pg_loss": float("nan"),
}
TRAIN_2 = {
    "training/global_step": 2,
    "response_length/mean": 1264.0,
    f"val-core/{GSM8K}/acc/mean@4": np.float64(0.375),
    "val-core/HuggingFaceH4/MATH-500/acc/mean@4": np.float64(0.6005),
    f"val-aux/{GSM8K}/reward/mean@4": np.float64(0.375),
    "actor/grad_norm_by_layer": np.array([0.5, 0.25]),  # a numpy array: a list in the file
}
VERL = [(0, VAL_0), (1, TRAIN_1), (2, TRAIN_2)]
SCORES = [
    (0, GSM8K, 0.25),
    (2, GSM8K, 0.375),
    (0, "HuggingFaceH4/MATH-500", 0.5615),
    (2, "HuggingFaceH4/MATH-500", 0.6005),
]


def _scores(run) -> list[tuple]:
    return run.scores.select("step", "benchmark", "score").rows()


def _plot_csv(tmp_path, *args) -> pl.DataFrame:
    out = tmp_path / "out.csv"
    assert main(["plot", *map(str, args), "-o", str(out)]) == 0
    return pl.read_csv(out)


def _verl_file(tmp_path, name="exp.jsonl"):
    path = tmp_path / name
    path.write_text("".join(verl_file_line(s, d) for s, d in VERL))
    return path


def test_verl_file_logger(tmp_path):
    path = _verl_file(tmp_path)
    assert readers.detect(path) == "verl-file"
    run = readers.load(path, problems={GSM8K: 1319})
    assert _scores(run) == SCORES
    assert run.scores["k"].to_list() == [4] * 4
    assert run.scores["problems"].to_list() == [1319, 1319, None, None]
    assert run.tokens.rows() == [(1, None, 812.5), (2, None, 1264.0)]
    notes = "\n".join(run.notes)
    assert "1 values logged as null" in notes  # actor/pg_loss, NaN: orjson writes null
    assert "keys holding lists or objects, not numbers: actor/grad_norm_by_layer" in notes
    table = _plot_csv(tmp_path, path)
    gsm8k = table.filter(benchmark=GSM8K).sort("step")
    assert gsm8k.select("step", "score", "k").rows() == [(0, 0.25, 4), (2, 0.375, 4)]
    assert gsm8k["tokens"].to_list() == [None, 1264.0]  # no training length at step 0


def test_verl_file_logger_inspect_names_each_role_and_what_was_left_out(tmp_path):
    text = "\n".join(describe(_verl_file(tmp_path), problems={GSM8K: 1319}))
    for words in (
        "verl-file",
        "step: step",
        f"validation: val-core/{GSM8K}/acc/mean@4 ({GSM8K})",
        "response length (tokens): response_length/mean (every benchmark)",
        "mean@k with k = 4 samples per problem",
        f"(best@k, worst@k or maj@k: a statistic over k samples, not an accuracy): "
        f"val-core/{GSM8K}/acc/best@4/mean",
        f"(a standard deviation, not a mean): val-aux/{GSM8K}/acc/std@4",
        f"(a reward, not an accuracy; if it is 1 for a correct answer and 0 otherwise: "
        f"--map 'accuracy=val-core/{{benchmark}}/reward/mean@{{k}}'): "
        f"val-aux/{GSM8K}/reward/mean@4",
        f"{GSM8K}: validation, 1319 problems, mean@4, 2 steps (0-2)",
    ):
        assert words in text, words


@pytest.mark.parametrize("name", ["metrics.log", "exp.json", "run_output"])
def test_verl_file_logger_under_any_name(tmp_path, name):
    """VERL_FILE_LOGGER_PATH names the file: the content says what it is."""
    path = _verl_file(tmp_path, name)
    assert readers.detect(path) == "verl-file"
    assert _scores(readers.load(path)) == SCORES


def _console(tmp_path, lines: list[str], name="train.log"):
    path = tmp_path / name
    path.write_text("".join(lines))
    return path


CONSOLE = [
    "2026-01-29 11:20:04,123 INFO worker.py:1832 -- Started a local Ray instance.\n",
    "(TaskRunner pid=2426) Using LocalLogger is deprecated.\n",
    # a terminal run: Ray colours its prefix
    verl_console_line(0, VAL_0, "\x1b[36m(TaskRunner pid=2426)\x1b[0m "),
    "Training Progress:   0%|          | 0/2 [00:00<?, ?it/s]\n",
    verl_console_line(1, TRAIN_1),
    "(WorkerDict pid=2519) [rank0]: some warning: step: not a metric line\n",
    verl_console_line(2, TRAIN_2),
]


def test_verl_console_log(tmp_path):
    path = _console(tmp_path, CONSOLE)
    text = path.read_text()
    assert f"val-core/{GSM8K}/acc/mean@4:np.float64(0.25) - " in text  # numpy 2's repr
    assert "response_length/mean:812.5 - response_length/max:np.int64(4096)" in text
    assert "actor/pg_loss:nan" in text and "grad_norm_by_layer" not in text  # not a number
    assert readers.detect(path) == "verl-console"
    run = readers.load(path)
    assert _scores(run) == SCORES
    assert run.tokens.rows() == [(1, None, 812.5), (2, None, 1264.0)]
    assert "3 step lines read; 4 other lines of the log skipped" in run.notes
    table = _plot_csv(tmp_path, path)
    assert table.filter(benchmark=GSM8K).sort("step").select("step", "score", "tokens").rows() == [
        (0, 0.25, None),
        (2, 0.375, 1264.0),
    ]
    text = "\n".join(describe(path))
    assert "verl-console" in text and f"val-core/{GSM8K}/acc/mean@4 ({GSM8K})" in text
    assert "a reward, not an accuracy" in text and "best@k, worst@k or maj@k" in text


def test_verl_console_plain_numbers_and_truths(tmp_path):
    """numpy before 2 prints a float64 as 0.49; Python numbers print as themselves; a bool is
    a number to verl's check and prints True."""
    data = {
        f"val-core/{GSM8K}/acc/mean@1": 0.49,
        "response_length/mean": np.float32(512.0),
        "flag": True,
        "note": "not a number: verl leaves it out",
    }
    line = verl_console_line(7, data, prefix="")
    assert line == (
        f"step:7 - val-core/{GSM8K}/acc/mean@1:0.49 - response_length/mean:np.float32(512.0)"
        " - flag:True\n"
    )
    path = _console(tmp_path, [line], name="stdout.txt")
    run = readers.load(path)
    assert _scores(run) == [(7, GSM8K, 0.49)] and run.scores["k"].to_list() == [1]
    assert run.tokens["tokens"].to_list() == [512.0]


# ---- prime-rl --------------------------------------------------------------------------------


def _prime(tmp_path, extra: list[str] = ()):
    eval_0 = {
        "eval/gsm8k/all/num_output_tokens/mean": 310.5,
        "eval/gsm8k/all/agent/avg@4": 0.625,
        "eval/gsm8k/effective/agent/avg@4": 0.65,
        "eval/gsm8k/effective/agent/pass@4": 0.9,
        "eval/gsm8k/effective/agent/pass^4": 0.375,
        "eval/math500/all/num_output_tokens/mean": 1020.25,
        "eval/math500/all/agent/avg@4": 0.4375,
        "eval/gsm8k/policy_version": 0.0,
    }
    trainer = {"loss/mean": 0.125, "optim/lr": 1e-6, "time/step": 3.5, "step": 1}
    orchestrator = {
        "train/agg/all/num_output_tokens/mean": 400.25,
        "train/agg/all/reward/mean": 0.5,
        "progress/tokens": 1000,
        "time/step": 5.0,
        "off_policy/mean": float("nan"),  # dropped by sanitize
        "step": 1,
    }
    eval_2 = {
        "eval/gsm8k/all/num_output_tokens/mean": 280.0,
        "eval/gsm8k/all/agent/avg@4": 0.75,
        "eval/math500/all/num_output_tokens/mean": 990.0,
        "eval/math500/all/agent/avg@4": 0.5,
        "step": 2.0,
    }
    path = tmp_path / "metrics.jsonl"
    path.write_text(
        prime_rl_line(0, 1.76e9, {**eval_0, "step": 0.0})
        + prime_rl_line(1, 1.76e9 + 4.5, trainer)
        + prime_rl_line(1, 1.76e9 + 5.25, orchestrator)
        + prime_rl_line(2, 1.76e9 + 9.0, eval_2)
        + "".join(extra)
    )
    return path


PRIME_SCORES = [
    (0, "gsm8k", 0.625),
    (2, "gsm8k", 0.75),
    (0, "math500", 0.4375),
    (2, "math500", 0.5),
]


def test_prime_rl_metrics_jsonl(tmp_path):
    path = _prime(tmp_path)
    assert '"step": 2.0' in path.read_text()  # an eval line's step, as prime-rl writes it
    assert readers.detect(path) == "prime-rl"
    run = readers.load(path)
    assert _scores(run) == PRIME_SCORES and run.scores["k"].to_list() == [4] * 4
    assert run.scores.filter(benchmark="math500")["problems"].to_list() == [500, 500]
    tokens = run.tokens.sort("benchmark", "step", nulls_last=True).rows()
    assert tokens == [
        (0, "gsm8k", 310.5),
        (2, "gsm8k", 280.0),
        (0, "math500", 1020.25),
        (2, "math500", 990.0),
        (1, None, 400.25),
    ]
    table = _plot_csv(tmp_path, path)
    rows = table.sort("benchmark", "step").select("step", "benchmark", "score", "tokens").rows()
    assert rows == [
        (0, "gsm8k", 0.625, 310.5),
        (2, "gsm8k", 0.75, 280.0),
        (0, "math500", 0.4375, 1020.25),
        (2, "math500", 0.5, 990.0),
        (0, "mean of 2 benchmarks", (0.625 + 0.4375) / 2, (310.5 + 1020.25) / 2),
        (2, "mean of 2 benchmarks", (0.75 + 0.5) / 2, (280.0 + 990.0) / 2),
    ]
    text = "\n".join(describe(path))
    for words in (
        "prime-rl",
        "validation: eval/gsm8k/all/agent/avg@4 (gsm8k), eval/math500/all/agent/avg@4 (math500)",
        "eval/gsm8k/all/num_output_tokens/mean (gsm8k)",
        "train/agg/all/num_output_tokens/mean (every benchmark)",
        "(prime-rl's effective subset (errored rollouts dropped); all is read): "
        "eval/gsm8k/effective/agent/avg@4",
        "(pass@k or pass^k over several samples, not an accuracy): "
        "eval/gsm8k/effective/agent/pass@4, eval/gsm8k/effective/agent/pass^4",
    ):
        assert words in text, words


def test_prime_rl_several_agents_are_each_a_line(tmp_path):
    path = tmp_path / "metrics.jsonl"
    path.write_text(
        prime_rl_line(
            0.0,
            1.0,
            {"eval/x/all/proposer/avg@2": 0.5, "eval/x/all/solver/avg@2": 0.25, "time/step": 1},
        )
    )
    run = readers.load(path)
    assert _scores(run) == [(0, "x/proposer", 0.5), (0, "x/solver", 0.25)]


# ---- bad input -------------------------------------------------------------------------------


def test_cut_off_last_line_keeps_every_complete_line(tmp_path):
    """A run killed while writing: the last line has no end of line. The complete lines are
    read, the cut one is left out and said so."""
    verl = _verl_file(tmp_path)
    verl.write_text(verl.read_text() + verl_file_line(3, {"response_length/mean": 1.5})[:20])
    console = _console(tmp_path, [*CONSOLE, verl_console_line(3, TRAIN_2)[:-30]])
    prime = _prime(tmp_path, [prime_rl_line(3, 2.0, {"eval/gsm8k/all/agent/avg@4": 1.0})[:-9]])
    for path, line, scores in ((verl, 4, SCORES), (console, 8, SCORES), (prime, 5, PRIME_SCORES)):
        run = readers.load(path)
        assert _scores(run) == scores
        assert run.tokens["step"].max() <= 2
        cut = f"line {line}, the last, is cut off (no end of line: the run was stopped while "
        assert any(n.startswith(cut) for n in run.notes), run.notes


@pytest.mark.parametrize(
    "name, text, words",
    [
        (
            "train.log",
            verl_console_line(0, {f"val-core/{GSM8K}/acc/mean@1": 0.5})
            + f"(TaskRunner pid=1) step:1 - val-core/{GSM8K}/acc/mean@1:Decimal('0.5')\n",
            f"train.log, line 2, column 'val-core/{GSM8K}/acc/mean@1': expected a number as "
            "verl prints it",
        ),
        (
            "train.log",
            "step:0 - a/b:0.5\nstep:1 - a/b:np.float64(0.5) acc\n",
            "train.log, line 2, column 'a/b': expected a number as verl prints it",
        ),
        (
            "exp.jsonl",
            verl_file_line(0, {"response_length/mean": 5.0}) + "step:1 - a:1\n",
            "exp.jsonl, line 2, column 'character 1': expected one JSON object per line",
        ),
        (
            "exp.jsonl",
            verl_file_line(0, {f"val-core/{GSM8K}/acc/mean@1": 0.5})
            + verl_file_line(1, {f"val-core/{GSM8K}/acc/mean@1": "0.5 (of 8)"}),
            f"exp.jsonl, line 2, column 'val-core/{GSM8K}/acc/mean@1': expected a number; "
            "got '0.5 (of 8)'",
        ),
        (
            "exp.jsonl",
            verl_file_line(0, {"response_length/mean": 5.0}) + '{"step": 1, "metrics": {}}\n',
            "exp.jsonl, line 2, column 'data': expected a verl file-logger line",
        ),
        (
            "exp.jsonl",
            verl_file_line(0, {f"val-core/{GSM8K}/acc/mean@1": 0.5})
            + verl_file_line(1, {f"val-core/{GSM8K}/acc/mean@1": 57.0}),
            "line 2, column 'val-core/openai/gsm8k/acc/mean@1': expected accuracy as a fraction",
        ),
        (
            "metrics.jsonl",
            prime_rl_line(0, 1.0, {"eval/g/all/agent/avg@1": 0.5, "time/step": 1.0})
            + '{"step": 1, "time": 2.0, "eval/g/all/agent/avg@1": 0.5\n',  # ends: not cut off
            "metrics.jsonl, line 2",
        ),
    ],
    ids=[
        "console value not a number",
        "console value with text after it",
        "verl file line not JSON",
        "verl file value not a number",
        "verl file line without data",
        "verl file percentage",
        "prime-rl line not JSON",
    ],
)
def test_bad_lines_name_file_line_and_key(tmp_path, capsys, name, text, words):
    path = tmp_path / name
    path.write_text(text)
    with pytest.raises(DataError) as error:
        readers.load(path)
    assert words in str(error.value), str(error.value)
    out = tmp_path / "out.csv"
    assert main(["plot", str(path), "-o", str(out)]) == 2
    err = [line for line in capsys.readouterr().err.splitlines() if line.strip()]
    assert len(err) == 1 and err[0].startswith("error: ") and words in err[0], err
    assert not out.exists()


def test_a_log_with_no_step_line_is_not_taken_for_one(tmp_path):
    path = _console(tmp_path, ["INFO starting\n", "Error: CUDA out of memory\n"], name="x.log")
    with pytest.raises(DataError, match="a verl console log"):
        readers.detect(path)


# ---- key names of the frameworks logged through W&B or TensorBoard ---------------------------


def _export(tmp_path, name: str, columns: dict[str, list]) -> Path:
    """A W&B export (CSV) of these columns, as a framework's keys name them."""
    path = tmp_path / name
    pl.DataFrame(columns).write_csv(path)
    return path


def test_verl_reward_is_not_an_accuracy(tmp_path):
    """Where verl's reward function returns no `acc`, val-core holds reward/mean@k: a reward,
    read as an accuracy only when asked."""
    key = f"val-core/{GSM8K}/reward/mean@1"
    columns = {"step": [0, 5], key: [0.5, 0.75], "response_length/mean": [300.0, 320.0]}
    path = _export(tmp_path, "verl.csv", columns)
    run = readers.load(path)
    assert run.scores is None and run.tokens["tokens"].to_list() == [300.0, 320.0]
    assert any("a reward, not an accuracy" in n and key in n for n in run.notes)
    mapped = readers.load(path, mapping={"accuracy": "val-core/{benchmark}/reward/mean@{k}"})
    assert _scores(mapped) == [(0, GSM8K, 0.5), (5, GSM8K, 0.75)]


def test_openrlhf_names(tmp_path):
    """OpenRLHF's evaluation (openrlhf/trainer/ppo_trainer.py at 3c3be623): `eval_<ds>_pass1`
    (the mean over its samples), `eval_<ds>_pass<k>`, `eval_<ds>_response_length_mean`,
    logged to W&B under `eval/`."""
    path = _export(
        tmp_path,
        "openrlhf.csv",
        {
            "_step": [0, 1],
            "eval/global_step": [0, 10],
            "eval/eval_aime24_pass1": [0.2, 0.3],
            "eval/eval_aime24_pass8": [0.4, 0.5],
            "eval/eval_aime24_response_length_mean": [5000.5, 4000.0],
            "eval/eval_response_length_mean": [5000.5, 4000.0],
        },
    )
    run = readers.load(path)
    assert _scores(run) == [(0, "aime24", 0.2), (1, "aime24", 0.3)]
    assert run.scores["problems"].to_list() == [30, 30]  # AIME24's size, known
    assert run.tokens.filter(pl.col("benchmark").is_not_null())["tokens"].to_list() == [
        5000.5,
        4000.0,
    ]
    assert any("pass@k" in n and "eval/eval_aime24_pass8" in n for n in run.notes)


def test_nemo_rl_names(tmp_path):
    """NeMo-RL's validation (nemo_rl/algorithms/grpo.py at 7ea279ab, logged with prefix
    `validation`): `accuracy` the mean reward, `avg_length` the mean generated tokens."""
    logged = {"step": [0, 10], "validation/accuracy": [0.5, 0.625]}
    logged |= {"validation/avg_length": [300.0, 320.5], "validation/pass_k": [0.7, 0.8]}
    run = readers.load(_export(tmp_path, "nemo.csv", logged))
    assert _scores(run) == [(0, "validation/accuracy", 0.5), (10, "validation/accuracy", 0.625)]
    assert run.tokens["tokens"].to_list() == [300.0, 320.5]
    assert any("pass@k" in n and "validation/pass_k" in n for n in run.notes)
