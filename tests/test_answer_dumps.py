"""The per-step answer dumps of RL frameworks (issue 24): verl's validation generations,
SkyRL's eval dumps and NeMo-RL's validation logs, charted by `plot` and paired problem by
problem at every shared step by `compare`.

The frameworks' writers import torch and ray, so the fixtures are written here exactly as
their code writes them (nothing of it is imported or copied):

- verl, volcengine/verl@b178a3cd56f58b2d502255daba591e92833930a7,
  verl/trainer/ppo/ray_trainer.py: `_validate` repeats each prompt `val_kwargs.n` times
  interleaved, scores with the reward function (its extra info, e.g. math_dapo's `score` of
  +-1, `acc` and `pred`, kept where it has one value per generation, after `reward`, the summed
  score) and calls `_dump_generations`, which writes `<global_step>.jsonl` to
  `trainer.validation_data_dir`: keys input, output, gts, score, step, then the extra info,
  lines joined by newlines with one at the end, `json.dumps(..., ensure_ascii=False)`.
- SkyRL, NovaSky-AI/SkyRL@a9564572eb8e91076be43c1bd5e4615e3de17265,
  skyrl/train/utils/trainer_utils.py `dump_per_dataset_eval_results` (called from
  skyrl/train/evaluate.py): `dumped_evals/global_step_<N>_evals/<data_source with / as _>.jsonl`
  with input_prompt, output_response, score, stop_reason, env_class, env_extras, data_source;
  `aggregated_results.jsonl` (one line of averages) beside them.
- NeMo-RL, NVIDIA-NeMo/RL@7ea279abfbeb698b092856d0dab61e7cf39bc909,
  nemo_rl/algorithms/grpo.py `validate` and nemo_rl/utils/logger.py
  `log_batched_dict_as_jsonl`: `val_data_step<N>.jsonl`, one line per generation
  `{"content": [messages], "rewards": [reward], "idx": i}` (a batch of one per line).
- AReaL, inclusionAI/AReaL@4aef98d8d818af55b43621aaadba047ae10f4e77,
  areal/infra/workflow_executor.py `_dump_trajectory` (with `rollout.dump_to_file`):
  `eval-rollout/<version>/<task_id>.jsonl` under the trial's log folder, appended, one
  `json.dumps` line per sample of one prompt: task_id, sample_idx, seqlen, prompt_len,
  head_version, tail_version, reward, prompt, completion (special tokens kept); task_id counts
  rollouts, so one problem has another at each version.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import polars as pl
import pytest

from helpers import stats
from helpers.cli import main
from helpers.runs.readers import detect
from helpers.runs.readers.formats import problem_texts

PROBLEMS = 10
ANSWERS = [str(3 * i + 1) for i in range(PROBLEMS)]


def _prompt(i: int, spacing: str = "\n") -> str:
    """A prompt as verl decodes it (special tokens skipped: the roles stay as words)."""
    return f"system{spacing}Reason step by step.{spacing}user{spacing}What is 3 * {i} + 1?"


def _verl_validation(folder, step, right, n=1, prompts=None, reward="plain", outputs=None):
    """One verl validation: each problem's prompt repeated n times interleaved; `right[i]`
    of problem i's n generations correct (the first ones); scored by a 0/1 reward function,
    or by math_dapo's (score +-1, acc, pred) with reward="dapo"; dumped as
    `_dump_generations` dumps it."""
    prompts = prompts or [_prompt(i) for i in range(PROBLEMS)]
    inputs, outputs_, gts, scores, extra = [], [], [], [], {}
    for i, p in enumerate(prompts):
        for j in range(n):
            ok = j < right[i]
            inputs.append(p)
            outputs_.append(
                outputs if outputs is not None else f"\\boxed{{{ANSWERS[i] if ok else 0}}}"
            )
            gts.append(ANSWERS[i])
            if reward == "dapo":
                scores.append(1.0 if ok else -1.0)
                for key, value in {"score": scores[-1], "acc": ok, "pred": "x"}.items():
                    extra.setdefault(key, []).append(value)
            else:
                scores.append(1.0 if ok else 0.0)
    reward_extra_infos_dict = {"reward": list(scores), **extra}
    os.makedirs(folder, exist_ok=True)
    count = len(inputs)
    base_data = {"input": inputs, "output": outputs_, "gts": gts, "score": scores}
    base_data["step"] = [step] * count
    for k, v in reward_extra_infos_dict.items():
        if len(v) == count:
            base_data[k] = v
    lines = [
        json.dumps({k: v[i] for k, v in base_data.items()}, ensure_ascii=False)
        for i in range(count)
    ]
    with open(os.path.join(folder, f"{step}.jsonl"), "w") as f:
        f.write("\n".join(lines) + "\n")


def _solved(indices):
    return [1 if i in indices else 0 for i in range(PROBLEMS)]


BASE = {10: set(range(5)), 20: set(range(6))}  # 5 of 10, then 6 of 10
NEW = {10: set(range(1, 8)), 20: set(range(9))}  # 7 of 10 (won 3, lost 1), then 9 (won 3)


@pytest.fixture
def runs(tmp_path):
    """Two runs' validation_data_dir: the new run's prompts re-rendered with other spacing."""
    for step in (10, 20):
        _verl_validation(tmp_path / "base", step, _solved(BASE[step]))
        spaced = [" " + _prompt(i, "\n\n  ") + "\n" for i in range(PROBLEMS)]
        _verl_validation(tmp_path / "new", step, _solved(NEW[step]), prompts=spaced)
    return tmp_path / "base", tmp_path / "new"


def test_a_folder_of_step_files_is_recognised_as_verl(runs):
    base, _ = runs
    assert detect(base / "10.jsonl") == "verl-generations"  # not a metric log: it has `step`


def test_plot_gives_each_steps_accuracy(runs, tmp_path):
    base, _ = runs
    out = tmp_path / "a.csv"
    assert main(["plot", str(base), "-o", str(out)]) == 0
    table = pl.read_csv(out).sort("step")
    assert table.select("step", "benchmark", "problems", "samples").rows() == [
        (10, "validation", 10, 10),
        (20, "validation", 10, 10),
    ]
    assert table["accuracy"].to_list() == pytest.approx([0.5, 0.6])
    assert table["lo"][0] == pytest.approx(stats.wilson_interval(5, 10)[0])


def test_compare_is_paired_at_every_step_whatever_the_spacing(runs, tmp_path, capsys):
    base, new = runs
    out = tmp_path / "d.csv"
    assert main(["compare", f"base={base}", f"new={new}", "-o", str(out)]) == 0
    table = pl.read_csv(out).sort("step")
    assert table["step"].to_list() == [10, 20]
    assert table["difference"].to_list() == pytest.approx([0.2, 0.3])
    assert table.select("won", "lost", "tied", "problems").rows() == [(3, 1, 6, 10), (3, 0, 7, 10)]
    for row, (won, lost) in zip(table.iter_rows(named=True), [(3, 1), (3, 0)], strict=True):
        tango = stats.tango_interval(won, lost, 10)
        assert (row["paired_lo"], row["paired_hi"]) == pytest.approx(tango)
        # the interval shown is Tango's at the level of the two steps' Holm adjustment
        z = stats.differences.z_for(row["level"])
        assert (row["lo"], row["hi"]) == pytest.approx(stats.tango_interval(won, lost, 10, z))
        assert row["interval"].startswith("paired")
    assert "validation, step 20: new vs base: +30.0 points" in capsys.readouterr().out


def test_two_checkpoints_of_one_run_compare_paired(runs, tmp_path, capsys):
    """PATH@STEP pins a run to one step: step 20 of the base run against its step 10 is paired
    problem by problem (5 of 10, then 6: one won, none lost); pinned against a whole run it
    meets every step of that run; a step the run did not log is an error naming its steps."""
    base, new = runs
    out = tmp_path / "d.csv"
    assert main(["compare", f"early={base}@10", f"late={base}@20", "-o", str(out)]) == 0
    row = pl.read_csv(out).row(0, named=True)
    assert (row["step_a"], row["step_b"], row["at"]) == (10, 20, "step 20 vs step 10")
    assert (row["won"], row["lost"], row["tied"], row["problems"]) == (1, 0, 9, 10)
    assert row["difference"] == pytest.approx(0.1)
    assert (row["lo"], row["hi"]) == pytest.approx(stats.tango_interval(1, 0, 10))
    assert main(["compare", f"start={base}@10", f"new={new}", "-o", str(out)]) == 0
    table = pl.read_csv(out).sort("step_b")
    assert table.select("step_a", "step_b").rows() == [(10, 10), (10, 20)]
    assert table["difference"].to_list() == pytest.approx([0.7 - 0.5, 0.9 - 0.5])
    assert main(["compare", f"a={base}@15", f"b={new}", "-o", str(out)]) == 2
    assert "expected step 15 among the run's steps; got [10, 20]" in capsys.readouterr().err


def test_flipped_problems_carry_the_dumps_text(runs, tmp_path):
    base, new = runs
    flips = tmp_path / "flips.csv"
    args = ["compare", f"base={base}", f"new={new}", "--problems-out", str(flips)]
    assert main([*args, "-o", str(tmp_path / "d.csv")]) == 0
    table = pl.read_csv(flips, schema_overrides={"reference": pl.String}).sort("reference")
    # step 20: problems 6, 7 and 8 won
    assert table["reference"].to_list() == [ANSWERS[i] for i in (6, 7, 8)]
    assert table["question"].to_list() == [_prompt(i) for i in (6, 7, 8)]
    assert table["answer_a"].to_list() == ["\\boxed{0}"] * 3
    assert table["answer_b"].to_list() == [f"\\boxed{{{ANSWERS[i]}}}" for i in (6, 7, 8)]


def test_several_samples_per_problem(tmp_path):
    """Four generations per problem, interleaved as verl repeats them: 4, 3, 2, 1 and then 0
    right; accuracy 10/40, pass@4 4/10; against a run right on 1 more of each problem's four,
    won on the nine problems below four (per-problem differences of 1/4), tied on one."""
    right = [4, 3, 2, 1, 0, 0, 0, 0, 0, 0]
    _verl_validation(tmp_path / "a", 5, right, n=4)
    _verl_validation(tmp_path / "b", 5, [min(r + 1, 4) for r in right], n=4)
    out = tmp_path / "a.csv"
    assert main(["plot", str(tmp_path / "a"), "-o", str(out)]) == 0
    row = pl.read_csv(out).row(0, named=True)
    assert (row["problems"], row["samples"], row["k"]) == (10, 40, 4)
    assert row["accuracy"] == pytest.approx(10 / 40) and row["pass_k"] == pytest.approx(0.4)
    d = tmp_path / "d.csv"
    assert main(["compare", f"a={tmp_path / 'a'}", f"b={tmp_path / 'b'}", "-o", str(d)]) == 0
    row = pl.read_csv(d).row(0, named=True)
    assert row["difference"] == pytest.approx(9 / 40)
    assert (row["won"], row["lost"], row["tied"]) == (9, 0, 1)
    assert row["interval"].startswith("paired: t")


def test_math_dapo_reward_is_read_from_acc(tmp_path, capsys):
    """math_dapo scores -1 or 1 and logs `acc`: correctness comes from `acc`."""
    _verl_validation(tmp_path / "r", 30, _solved(range(3)), reward="dapo")
    out = tmp_path / "a.csv"
    assert main(["plot", str(tmp_path / "r" / "30.jsonl"), "-o", str(out)]) == 0
    assert pl.read_csv(out)["accuracy"].to_list() == pytest.approx([0.3])
    assert main(["inspect", str(tmp_path / "r" / "30.jsonl")]) == 0
    assert "correctness from 'acc'" in capsys.readouterr().out


def _error(args, capsys) -> str:
    assert main(args) == 2
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 1 and err[0].startswith("error: ")
    return err[0]


def test_a_score_that_is_not_0_or_1_is_refused(tmp_path, capsys):
    """A -1/1 reward without `acc` (or partial credit) names its line and asks for --map."""
    _verl_validation(tmp_path / "r", 30, _solved(range(3)), reward="dapo")
    path = tmp_path / "r" / "30.jsonl"
    lines = [json.loads(x) for x in path.read_text().splitlines()]
    for line in lines:
        del line["acc"]
    path.write_text("".join(json.dumps(x) + "\n" for x in lines))
    err = _error(["plot", str(path), "-o", str(tmp_path / "x.csv")], capsys)
    assert f"{path}, line 4, column 'score'" in err  # lines 1-3 are right: +1
    assert "--map accuracy=KEY" in err and "got -1.0" in err
    out = tmp_path / "a.csv"
    assert main(["plot", str(path), "--map", "accuracy=reward", "-o", str(out)]) == 2
    capsys.readouterr()


def test_empty_outputs_are_no_generated_text_not_zero_accuracy(tmp_path, capsys):
    _verl_validation(tmp_path / "r", 10, _solved(()), outputs="")
    err = _error(["plot", str(tmp_path / "r"), "-o", str(tmp_path / "x.csv")], capsys)
    assert "no generated text" in err and "column 'output'" in err
    assert not (tmp_path / "x.csv").exists()


def test_a_bad_step_names_its_line(tmp_path, capsys):
    _verl_validation(tmp_path / "r", 10, _solved(range(2)))
    path = tmp_path / "r" / "10.jsonl"
    lines = path.read_text().splitlines()
    lines[2] = lines[2].replace('"step": 10', '"step": "ten"')
    path.write_text("\n".join(lines) + "\n")
    err = _error(["plot", str(path), "-o", str(tmp_path / "x.csv")], capsys)
    assert f"{path}, line 3, column 'step': expected a whole step from 0; got 'ten'" in err


# ---- SkyRL ----------------------------------------------------------------------------------


def _skyrl_eval(export, step, sources):
    """`dump_per_dataset_eval_results`: one file per data source, then the averages."""
    folder = export / "dumped_evals" / f"global_step_{step}_evals"
    folder.mkdir(parents=True, exist_ok=True)
    metrics = {}
    for source, right in sources.items():
        with open(folder / f"{source.replace('/', '_')}.jsonl", "w") as f:
            for i, ok in enumerate(right):
                entry = {
                    "input_prompt": f"<|im_start|>user\n{source} problem {i}<|im_end|>\n",
                    "output_response": f"answer {int(ok)}<|im_end|>",
                    "score": float(ok),
                    "stop_reason": "stop",
                    "env_class": "gsm8k",
                    "env_extras": {
                        "data_source": source,
                        "reward_spec": {"method": "rule", "ground_truth": str(i)},
                    },
                    "data_source": source,
                }
                f.write(json.dumps(entry, ensure_ascii=False) + "\n")
        metrics[f"eval/{source.replace('/', '_')}/avg_score"] = sum(right) / len(right)
    metrics["eval/all/avg_score"] = 0.0
    with open(folder / "aggregated_results.jsonl", "w") as f:
        f.write(json.dumps(metrics, ensure_ascii=False) + "\n")


def test_skyrl_eval_dumps_per_step_and_data_source(tmp_path, capsys):
    """Steps from the global_step_<N>_evals folders, benchmarks from data_source (with its
    slash, as logged); aggregated_results.jsonl is left out, and refused alone."""
    _skyrl_eval(tmp_path, 5, {"openai/gsm8k": [1, 1, 0, 0], "aime": [1, 0, 0]})
    _skyrl_eval(tmp_path, 10, {"openai/gsm8k": [1, 1, 1, 0], "aime": [1, 1, 0]})
    out = tmp_path / "a.csv"
    assert main(["plot", str(tmp_path / "dumped_evals"), "-o", str(out)]) == 0
    table = pl.read_csv(out).sort("benchmark", "step")
    assert table.select("benchmark", "step", "problems").rows() == [
        ("aime", 5, 3),
        ("aime", 10, 3),
        ("openai/gsm8k", 5, 4),
        ("openai/gsm8k", 10, 4),
    ]
    assert table["accuracy"].to_list() == pytest.approx([1 / 3, 2 / 3, 0.5, 0.75])
    assert main(["inspect", str(tmp_path / "dumped_evals")]) == 0
    assert "left out 2 file(s) beside the dumps" in capsys.readouterr().out
    summary = tmp_path / "dumped_evals" / "global_step_5_evals" / "aggregated_results.jsonl"
    err = _error(["plot", str(summary), "-o", str(tmp_path / "x.csv")], capsys)
    assert "holds averages only" in err
    texts = problem_texts.read_texts(summary.parent / "openai_gsm8k.jsonl", "skyrl-evals")
    question, reference, answer = texts.select("question", "reference", "answer").row(2)
    assert (reference, answer) == ("2", "answer 0<|im_end|>")
    assert question == "<|im_start|>user\nopenai/gsm8k problem 2<|im_end|>\n"


# ---- NeMo-RL --------------------------------------------------------------------------------


def _nemo_validation(log_dir, step, right):
    """`validate` then `log_batched_dict_as_jsonl`: a batch of one per line, with its idx."""
    log_dir.mkdir(parents=True, exist_ok=True)
    with open(log_dir / f"val_data_step{step}.jsonl", "w") as f:
        for i, ok in enumerate(right):
            messages = [
                {"role": "user", "content": f"Solve: {i} + {i}"},
                {"role": "assistant", "content": f"{2 * i if ok else -1}"},
            ]
            sample = {"content": [messages], "rewards": [float(ok)]}
            f.write(json.dumps({**sample, "idx": i}, default=str) + "\n")


def test_nemo_rl_validation_dumps(tmp_path, capsys):
    """Steps from val_data_step<N>.jsonl; a training rollout dump beside them is left out."""
    _nemo_validation(tmp_path / "logs", 0, [1, 0, 0, 0, 0])
    _nemo_validation(tmp_path / "logs", 10, [1, 1, 1, 0, 0])
    train = {"content": ["x"], "rewards": [1.0], "advantages": [0.0], "idx": 0}
    (tmp_path / "logs" / "train_data_step1.jsonl").write_text(json.dumps(train) + "\n")
    out = tmp_path / "a.csv"
    assert main(["plot", str(tmp_path / "logs"), "-o", str(out)]) == 0
    table = pl.read_csv(out).sort("step")
    assert table.select("step", "benchmark", "problems").rows() == [
        (0, "validation", 5),
        (10, "validation", 5),
    ]
    assert table["accuracy"].to_list() == pytest.approx([0.2, 0.6])
    d = tmp_path / "d.csv"
    _nemo_validation(tmp_path / "other", 10, [0, 1, 1, 1, 1])
    args = ["compare", f"a={tmp_path / 'logs'}", f"b={tmp_path / 'other'}", "-o", str(d)]
    assert main(args) == 0
    table = pl.read_csv(d)
    assert table["step"].to_list() == [10]  # the one step both runs evaluated
    assert table.select("won", "lost", "tied").row(0) == (2, 1, 2)
    path = tmp_path / "other" / "val_data_step10.jsonl"
    texts = problem_texts.read_texts(path, "nemo-rl-validation")
    assert texts.select("question", "reference", "answer").row(1) == ("Solve: 1 + 1", None, "2")


def _areal_eval(folder, version, right, first_task, n=2, reward=(1.0, 0.0)):
    """One AReaL evaluation at a policy version: problem i's n samples in
    `<version>/<task_id>.jsonl` (task ids counting on from `first_task`), the first right[i]
    of them right; rewards as the reward function gives them (`reward`: right, wrong)."""
    for i in range(PROBLEMS):
        prompt = f"<|im_start|>user\nWhat is 3 * {i} + 1?<|im_end|>\n<|im_start|>assistant\n"
        lines = []
        for j in range(n):
            ok = j < right[i]
            completion = f"#### {ANSWERS[i] if ok else 0}<|im_end|>"
            record = {
                "task_id": first_task + i,
                "sample_idx": j,
                "seqlen": 20 + 3 * j + i,
                "prompt_len": 20,
                "head_version": -1,
                "tail_version": version,
                "reward": reward[0] if ok else reward[1],
                "prompt": prompt,
                "completion": completion,
            }
            lines.append(json.dumps(record))
        path = folder / str(version) / f"{first_task + i}.jsonl"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("\n".join(lines) + "\n")


def _plotted_and_compared(tmp_path, a: Path, b: Path) -> tuple[pl.DataFrame, pl.DataFrame]:
    """`plot a` (by step) and `compare a=... b=...` written as CSV and read back."""
    plotted, compared = tmp_path / "a.csv", tmp_path / "d.csv"
    assert main(["plot", str(a), "-o", str(plotted)]) == 0
    assert main(["compare", f"a={a}", f"b={b}", "-o", str(compared)]) == 0
    return pl.read_csv(plotted).sort("step"), pl.read_csv(compared)


def test_areal_eval_rollouts_by_version_paired_across_task_ids(tmp_path, capsys):
    """The version folder is the step; a problem keeps its prompt while its task id changes
    from one evaluation to the next, so the steps of two runs pair problem by problem; the
    response length is seqlen - prompt_len."""
    base, new = tmp_path / "base" / "eval-rollout", tmp_path / "new" / "eval-rollout"
    right_base = [2, 1, 0, 0, 1, 2, 0, 0, 1, 0]
    _areal_eval(base, 5, right_base, first_task=0)
    _areal_eval(base, 10, [2] * 5 + [0] * 5, first_task=10)
    _areal_eval(new, 10, [2] * 8 + [0] * 2, first_task=37)
    assert detect(base / "5" / "0.jsonl") == "areal-rollouts"
    table, compared = _plotted_and_compared(tmp_path, base, new)
    assert table.select("step", "benchmark", "problems").rows() == [
        (5, "validation", 10),
        (10, "validation", 10),
    ]
    assert table["accuracy"].to_list() == pytest.approx([sum(right_base) / 20, 0.5])
    # lengths: sample j of problem i is 3j + i tokens long
    mean = sum(3 * j + i for i in range(PROBLEMS) for j in range(2)) / 20
    assert table["mean_tokens"].to_list() == pytest.approx([mean, mean])
    assert compared["step"].to_list() == [10] and compared["problems"].to_list() == [10]
    assert compared["difference"][0] == pytest.approx(0.8 - 0.5)


def test_areal_rewards_of_plus_minus_one_are_compared_as_rewards(tmp_path, capsys):
    """A reward function of +1/-1 is not a correctness: refused as one, read with
    --map reward=reward as a mean reward."""
    _areal_eval(tmp_path / "r", 3, [1] * PROBLEMS, first_task=0, reward=(1.0, -1.0))
    assert main(["plot", str(tmp_path / "r"), "-o", str(tmp_path / "x.csv")]) == 2
    assert "column 'reward': expected a correctness of 0 or 1" in capsys.readouterr().err
    out = tmp_path / "r.csv"
    args = ["plot", str(tmp_path / "r"), "--map", "reward=reward", "-o", str(out)]
    assert main(args) == 0
    assert pl.read_csv(out)["mean_reward"].to_list() == pytest.approx([0.0])


def _prime_episode(step, env, i, ok, rewards=None, n_tokens=5):
    """One episode as prime-rl's file monitor writes it (verifiers' `Episode.to_record()`,
    PrimeIntellect-ai/prime-rl@559b44772e471d1538537b8805cc77f3824a5e64 with verifiers
    @a60a606ecc4d309247edf9ff92c3eabca362781f): problem i of `env`, its answer right or not;
    fields left None are dropped by the writer."""
    data = {"idx": i, "prompt": f"What is 3 * {i} + 1?", "answer": ANSWERS[i]}
    key = f"{env}-task-{i:04d}"  # the writer's default is a sha256 of the data
    answer = ANSWERS[i] if ok else "0"
    trace = {
        "version": 1,
        "id": f"trace-{step}-{i}",
        "task": {"type": "Task", "data": data, "key": key, "hash": key},
        "agent": {"config": {}, "name": "agent", "trainable": True},
        "tools": [],
        "nodes": [
            {"message": {"role": "user", "content": data["prompt"]}, "sampled": False},
            {
                "parent": 0,
                "message": {"role": "assistant", "content": f"#### {answer}"},
                "sampled": True,
            },
        ],
        "calls": [{"node": 1, "usage": {"prompt_tokens": 9, "completion_tokens": n_tokens}}],
        "rewards": rewards
        if rewards is not None
        else {"correct": {"score": float(ok), "weight": 1.0}},
        "metrics": {},
        "is_completed": True,
        "ok": True,
        "errors": [],
    }
    return {
        "id": f"episode-{step}-{i}",
        "env": {"id": env, "name": env},
        "task": trace["task"],
        "group": {"id": f"group-{i}"},
        "run": {"type": "train", "id": "r", "work": {"type": "eval", "step": step}},
        "ok": True,
        "errors": [],
        "traces": [trace],
    }


def _prime_rollouts(root, step, right, env="gsm8k", n=2, split="eval"):
    """One step's eval episodes: problem i's n samples, the first right[i] right, written to
    all/ and again to effective/ (the same episodes), as the monitor writes both."""
    episodes = [
        _prime_episode(step, env, i, j < right[i], n_tokens=4 + j)
        for i in range(PROBLEMS)
        for j in range(n)
    ]
    for kept in ("all", "effective"):
        path = root / "rollouts" / f"step_{step}" / split / kept / "traces.jsonl"
        path.parent.mkdir(parents=True, exist_ok=True)
        with path.open("a") as f:
            f.writelines(json.dumps(e, separators=(",", ":")) + "\n" for e in episodes)


def test_prime_rl_eval_traces_per_step_read_once_and_compared(tmp_path, capsys):
    """all/ is read and effective/ (the same episodes again) left out, as is train/ beside
    eval/; the environment is the benchmark and the task key the problem; two runs pair at
    their shared step."""
    base, new = tmp_path / "base", tmp_path / "new"
    right = [2, 2, 1, 0, 0, 2, 1, 0, 0, 0]
    _prime_rollouts(base, 1, right)
    _prime_rollouts(base, 50, [2] * 6 + [0] * 4)
    _prime_rollouts(base, 50, [0] * PROBLEMS, split="train")
    _prime_rollouts(new, 50, [2] * 9 + [0])
    assert detect(base / "rollouts" / "step_1" / "eval" / "all" / "traces.jsonl") == (
        "prime-rl-traces"
    )
    table, compared = _plotted_and_compared(tmp_path, base / "rollouts", new / "rollouts")
    assert table.select("step", "benchmark", "problems").rows() == [
        (1, "gsm8k", 10),
        (50, "gsm8k", 10),
    ]
    assert table["accuracy"].to_list() == pytest.approx([sum(right) / 20, 0.6])
    assert table["mean_tokens"].to_list() == pytest.approx([4.5, 4.5])  # 4 and 5 tokens
    capsys.readouterr()
    assert main(["inspect", str(base / "rollouts")]) == 0
    assert "left out 4 traces file(s)" in capsys.readouterr().out
    assert compared["step"].to_list() == [50] and compared["problems"].to_list() == [10]
    assert compared["difference"][0] == pytest.approx(0.9 - 0.6)


def test_prime_rl_errored_episodes_and_rewards_that_are_not_correctness(tmp_path, capsys):
    path = tmp_path / "traces.jsonl"
    lines = [
        _prime_episode(3, "math", 0, True),
        _prime_episode(3, "math", 1, False),
        _prime_episode(3, "math", 2, True, rewards={"correct": None}),  # errored: no reward
    ]
    path.write_text("".join(json.dumps(e) + "\n" for e in lines))
    out = tmp_path / "a.csv"
    assert main(["plot", str(path), "-o", str(out)]) == 0
    assert pl.read_csv(out).select("problems", "accuracy").row(0) == (2, 0.5)
    assert main(["inspect", str(path)]) == 0
    assert "1 episode(s) with no reward computed (errored) left out" in capsys.readouterr().out
    scaled = {
        "format": {"score": 0.5, "weight": 0.2},
        "answer_match": {"score": 1.0, "weight": 1.0},
    }
    path.write_text(json.dumps(_prime_episode(3, "math", 0, True, rewards=scaled)) + "\n")
    assert main(["plot", str(path), "-o", str(out)]) == 2
    err = capsys.readouterr().err
    assert "column 'traces.rewards.total': expected a correctness of 0 or 1" in err
    assert main(["plot", str(path), "--map", "reward=total", "-o", str(out)]) == 0
    assert pl.read_csv(out)["mean_reward"].to_list() == pytest.approx([1.1])


def test_review_findings_on_dumps_and_pins(tmp_path, capsys):
    """Found in review: a prime-rl run kept under a folder named `eval` is judged by its own
    folders; rewards whose weights sum to 0.999... are 1; an AReaL eval set that repeats a
    prompt (AIME x16) is one problem with more samples; a pinned checkpoint meets a run
    evaluated once."""
    root = tmp_path / "eval" / "myrun"
    _prime_rollouts(root, 10, [2] * PROBLEMS)
    _prime_rollouts(root, 10, [0] * PROBLEMS, split="train")
    out = tmp_path / "p.csv"
    assert main(["plot", str(root / "rollouts"), "-o", str(out)]) == 0
    assert pl.read_csv(out).select("problems", "accuracy").row(0) == (10, 1.0)
    parts = {n: {"score": 1.0, "weight": w} for n, w in (("a", 0.7), ("b", 0.2), ("c", 0.1))}
    path = tmp_path / "w.jsonl"
    path.write_text(json.dumps(_prime_episode(3, "math", 0, True, rewards=parts)) + "\n")
    assert main(["plot", str(path), "-o", str(out)]) == 0
    assert pl.read_csv(out)["accuracy"].to_list() == [1.0]
    areal = tmp_path / "areal"
    _areal_eval(areal, 4, [2] * PROBLEMS, first_task=0)
    _areal_eval(areal, 4, [0] * PROBLEMS, first_task=PROBLEMS)  # the same prompts again
    assert main(["plot", str(areal), "-o", str(out)]) == 0
    assert pl.read_csv(out).select("problems", "samples", "accuracy").row(0) == (10, 40, 0.5)
    once = tmp_path / "once"
    _verl_validation(once, 0, _solved(set(range(3))))
    fixed = once / "0.jsonl"
    fixed.rename(tmp_path / "start.jsonl")
    _verl_validation(tmp_path / "run", 10, _solved(set(range(6))))
    _verl_validation(tmp_path / "run", 20, _solved(set(range(8))))
    args = ["compare", f"start={tmp_path / 'start.jsonl'}", f"late={tmp_path / 'run'}@20"]
    assert main([*args, "-o", str(out)]) == 0
    row = pl.read_csv(out).row(0, named=True)
    assert (row["step_b"], row["won"], row["lost"]) == (20, 5, 0)
