"""Logs as the frameworks write them. Real files from ../shared/realdata chart through the
command line with a number checked against the file or its publisher; the frameworks with no
real file there (verl's current names, TRL, OpenRLHF, lm-eval results, lighteval details,
Inspect) are tested on small files built in the shape each one writes, named below."""

from __future__ import annotations

import json
import math

import polars as pl
import pytest

from helpers import DataError, stats
from helpers.cli import describe, main
from helpers.runs import readers
from tests.realdata import (
    CHECKPOINTS,
    GRPO_COMPLETIONS,
    GRPO_STATE,
    HF_TRAINER,
    LIGHTEVAL,
    MLFLOW,
    OBS,
    REALDATA,
    SKY,
    SKY14_AIME,
    SKY14_METRICS,
    TRAIN,
    VAL,
    VERIFIERS_GSM8K,
    VERIFIERS_MATH,
    VERIFIERS_WORDLE,
)


def _csv(tmp_path, args) -> pl.DataFrame:
    out = tmp_path / "out.csv"
    assert main(["plot", *map(str, args), "-o", str(out)]) == 0
    return pl.read_csv(out, infer_schema_length=None)


# ---- real files --------------------------------------------------------------------------------


def test_lighteval_checkpoint_folder_is_a_curve_with_intervals(tmp_path):
    """OpenRS GRPO (lighteval results per checkpoint, the step in `Exp2_<step>`): the scores
    as the JSON files print them, and each benchmark's size from the files' summary_tasks."""
    table = _csv(tmp_path, [LIGHTEVAL])
    assert sorted(table["step"].unique()) == [50, 100, 150, 200, 250, 300, 350, 400]
    # the average a paper reports: the unweighted mean of the three at each step, named so
    mean = table.filter(pl.col("benchmark") == "mean of 3 benchmarks").sort("step")
    by_hand = (
        table.filter(pl.col("averages").is_null())
        .group_by("step")
        .agg(pl.col("score").mean())
        .sort("step")
    )
    assert mean["score"].to_list() == pytest.approx(by_hand["score"].to_list(), abs=1e-11)
    each = table.filter(pl.col("averages").is_null())
    assert mean["averages"].n_unique() == 1
    assert sorted(mean["averages"][0].split(", ")) == sorted(each["benchmark"].unique())
    # the band: normal, each benchmark's variance Agresti-Coull's (z^2 / 2 right, z^2 / 2 wrong)
    z = 1.959963984540054
    half = []
    for step in mean["step"]:
        rows = each.filter(pl.col("step") == step).select("score", "problems").rows()
        var = 0.0
        for p, n in rows:
            n2 = n + z * z
            p2 = (p * n + z * z / 2) / n2
            var += p2 * (1 - p2) / n2
        half.append(z * math.sqrt(var) / 3)
    assert (mean["hi"] - mean["score"]).to_list() == pytest.approx(half, abs=1e-11)
    table = each
    assert dict(table.group_by("benchmark").agg(pl.col("problems").first()).iter_rows()) == {
        "AIME24": 30,
        "AMC23": 40,
        "MATH500": 500,
    }
    row = table.filter(step=150, benchmark="AIME24").row(0, named=True)
    assert row["score"] == pytest.approx(0.36666666666666664)  # 11 of 30
    assert (row["lo"], row["hi"]) == pytest.approx(stats.wilson_interval(11, 30))
    assert table.filter(step=50, benchmark="MATH500")["score"].item() == pytest.approx(0.854)


def test_result_files_of_one_evaluation_given_together_are_one_run(tmp_path, capsys):
    """lighteval writes a results file per task: the three of one checkpoint, given together,
    are one evaluation (the scores the folder's curve has at that step, with intervals); the
    same benchmark at the same step in two files is two runs, one line saying so."""
    files = sorted((LIGHTEVAL / "Exp2_100").glob("results_*.json"))
    table = _csv(tmp_path, files)
    curve = _csv(tmp_path, [LIGHTEVAL]).filter(step=100).sort("benchmark")
    assert table.sort("benchmark")["accuracy"].to_list() == curve["score"].to_list()
    assert table.sort("benchmark").select("lo", "hi").equals(curve.select("lo", "hi"))
    (tmp_path / "Exp2_100").mkdir()
    copy = tmp_path / "Exp2_100" / "copy.json"
    copy.write_bytes(files[0].read_bytes())
    benchmark = _csv(tmp_path, [files[0]])["benchmark"][0]
    capsys.readouterr()
    assert main(["plot", str(files[0]), str(copy), "-o", str(tmp_path / "x.csv")]) == 2
    said = capsys.readouterr().err
    assert said.startswith(f"error: {copy}: expected one log with validation scores, or several")
    assert f"got '{benchmark} again'" in said


def test_checkpoint_folder_reproduces_the_harness_accuracies(tmp_path):
    """Sky-T1 checkpoints: per-sample files in `checkpoint-N/`; each step's accuracy is the
    `acc` its harness printed beside it (36.7, 36.7, 26.7, 36.7, 30.0)."""
    table = _csv(tmp_path, [CHECKPOINTS])
    assert table["step"].to_list() == [21, 49, 84, 119, 140]
    printed = [
        json.loads((CHECKPOINTS / f"checkpoint-{s}" / "aime24_metrics.json").read_text())["acc"]
        for s in table["step"]
    ]
    assert [round(a * 100, 1) for a in table["accuracy"]] == printed
    assert (table["problems"] == 30).all()


def test_harness_metrics_file_alone(tmp_path):
    table = _csv(tmp_path, [SKY14_METRICS])
    row = table.row(0, named=True)
    assert (row["benchmark"], row["accuracy"], row["problems"]) == ("MATH500", 0.804, 500)
    assert (row["lo"], row["hi"]) == pytest.approx(stats.wilson_interval(402, 500))


def test_aime_samples_file_counts_from_the_file(tmp_path):
    solved = sum(json.loads(line)["score"][0] for line in SKY14_AIME.open())
    table = _csv(tmp_path, [SKY14_AIME])
    overall = table.filter(pl.col("level").cast(pl.String) == "all").row(0, named=True)
    assert overall["problems"] == 30 and overall["accuracy"] == pytest.approx(solved / 30)


def test_training_export_alone_charts_training_scores(tmp_path):
    raw = pl.read_csv(TRAIN, columns=["_step", "critic/scores/stem_web/mean"])
    table = _csv(tmp_path, [TRAIN])
    assert table["benchmark"].n_unique() == 16
    got = table.filter(benchmark="stem_web").sort("step")["score"].to_list()
    assert got == pytest.approx(raw.drop_nulls().sort("_step")["critic/scores/stem_web/mean"])
    svg = tmp_path / "t.svg"
    assert main(["plot", str(TRAIN), "-o", str(svg)]) == 0
    assert "Training score" in svg.read_text() and "training batches" in svg.read_text()


def test_validation_export_with_size_given(tmp_path):
    table = _csv(tmp_path, [VAL, "--problems", "math__math/unknown=500"])
    math500 = table.filter(benchmark="math__math/unknown").sort("step").row(0, named=True)
    assert (math500["score"], math500["problems"]) == (0.57, 500)
    assert (math500["lo"], math500["hi"]) == pytest.approx(stats.wilson_interval(285, 500))
    assert table.filter(benchmark="table__hitab/unknown")["lo"].is_null().all()


def test_panels_keep_the_order_of_the_log(tmp_path):
    out = tmp_path / "g.html"
    order = ["table__hitab/unknown", "math__math/unknown", "codegen__mbpp/mbpp"]
    assert main(["plot", str(VAL), "-o", str(out), "--benchmarks", *order]) == 0
    text = out.read_text()
    spec = json.loads(
        text[text.index('id="vega-spec">') + 15 : text.rindex("</script>")].split("</script>")[0]
    )
    rows = spec["datasets"][spec["data"]["name"]]
    ranks = {r["benchmark"]: r["panel"] for r in rows}
    assert sorted(ranks, key=ranks.get) == [*order, "mean of 3 benchmarks"]  # the average last


EXPECTED = {
    OBS: ["scores", "148 models"],
    LIGHTEVAL: [
        "folder",
        "24 files: lighteval-results",
        "AIME24: validation, 30 problems, 8 steps (50-400)",
    ],
    TRAIN: [
        "wandb",
        "verl training scores",
        "stem_web: training score, scored on training batches, 83 steps (1-143)",
    ],
    VAL: [
        "wandb",
        "verl val/test_score",
        "math__math/unknown: validation, size unknown",
        "ignored 4 columns",
    ],
    SKY14_AIME: [
        "qwen-math",
        "AIME24: 30 problems, 1 sample(s) per problem, one evaluation (no step)",
    ],
    SKY14_METRICS: ["qwen-math-metrics", "MATH500: validation, 500 problems, one evaluation"],
    SKY: ["qwen-math", "MATH500: 500 problems, 1 sample(s) per problem"],
    CHECKPOINTS: ["folder", "AIME24: 30 problems, 1 sample(s) per problem, 5 steps (21-140)"],
}


@pytest.mark.parametrize("path", list(EXPECTED), ids=[p.name[:30] for p in EXPECTED])
def test_inspect_describes_every_real_file(path):
    text = "\n".join(describe(path))
    for words in EXPECTED[path]:
        assert words in text


# Real runs no reader takes yet (issue 24: TRL completion dumps), runs read whose metrics no
# convention names (HF Trainer SFT, the MLflow store: --map), and a verifiers run that wrote
# no completion: until then each is refused with one line saying what was expected, never
# read as something it is not. The TRL GRPO trainer_state.json reads, but logs no accuracy.
def _results(folder):
    return next(folder.rglob("results.jsonl"))


NOT_YET_READ = {
    _results(VERIFIERS_GSM8K): "every completion is empty (the run wrote its prompts but no",
    HF_TRAINER: "expected accuracy or response-length columns",
    MLFLOW: "expected accuracy or response-length columns",  # read; its metrics need --map
}
EXPECTED[GRPO_COMPLETIONS] = [  # its TensorBoard run; the completion dumps wait for issue 24
    "tensorboard",
    "no accuracy or score column recognised",
    "response length: overall mean, 300 steps",
    "left out 300 other log file(s) in the folder (read them on their own): "
    "completions/completions_00001.parquet, completions/completions_00002.parquet ...",
]
EXPECTED[_results(VERIFIERS_MATH)] = [
    "verifiers",
    "math-python: 5 problems, 3 sample(s) per problem, one evaluation (no step)",
]
EXPECTED[_results(VERIFIERS_WORDLE)] = [
    "verifiers",
    "wordle: 5 problems, 3 sample(s) per problem, one evaluation (no step)",
]
EXPECTED[GRPO_STATE] = [
    "trl",
    "no accuracy or score column recognised",
    "response length: overall mean, 500 steps",
]


@pytest.mark.parametrize("path", list(NOT_YET_READ), ids=[p.name[:30] for p in NOT_YET_READ])
def test_real_runs_not_yet_read_are_refused_in_one_line(path, capsys):
    assert main(["inspect", str(path)]) == 2
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 1 and err[0].startswith(f"error: {path}")
    assert NOT_YET_READ[path] in err[0]


def test_every_real_file_is_covered():
    files = {p for p in REALDATA.iterdir() if p.name != "README.md"}
    files -= {REALDATA / "skythought_qwen2.5-14b-instruct_math500_samples.jsonl"}  # test_compare
    files -= {REALDATA / "SHA256SUMS-third-pass.txt"}  # checksums of the third pass, not a log
    read = [*EXPECTED, *NOT_YET_READ]
    covered = {p for p in read if p.parent == REALDATA}
    covered |= {REALDATA / p.relative_to(REALDATA).parts[0] for p in read}
    assert files == covered


def test_inspect_command(capsys):
    assert main(["inspect", str(SKY14_METRICS), str(LIGHTEVAL)]) == 0
    out = capsys.readouterr().out
    assert "qwen-math-metrics" in out and "AMC23: validation, 40 problems" in out


# ---- frameworks in the shape they write -------------------------------------------------------


def _write(path, text):
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path


def test_verl_current_names(tmp_path):
    """verl logs validation as val-core/<data source>/acc/mean@<n> (and reward, best@, maj@
    variants) with a `step` column; the largest n of mean@ is used."""
    frame = pl.DataFrame(
        {
            "step": [0, 10, 20],
            "val-core/openai/gsm8k/acc/mean@1": [0.5, 0.6, 0.7],
            "val-core/openai/gsm8k/acc/mean@8": [0.55, 0.65, 0.75],
            "val-core/openai/gsm8k/reward/mean@8": [0.1, 0.2, 0.3],
            "val-aux/openai/gsm8k/acc/best@8/mean": [0.9, 0.9, 0.9],
            "response_length/mean": [100.0, 200.0, 300.0],
        }
    )
    path = tmp_path / "verl.csv"
    frame.write_csv(path)
    assert readers.detect(path) == "metrics-csv"
    run = readers.load(path, problems={"openai/gsm8k": 1319})
    assert run.scores["score"].to_list() == [0.55, 0.65, 0.75]
    assert run.scores["k"].unique().to_list() == [8] and run.scores["problems"][0] == 1319
    table = _csv(tmp_path, [path, "--problems", "openai/gsm8k=1319"])
    assert table["tokens"].to_list() == [100.0, 200.0, 300.0]


def test_trl_trainer_state(tmp_path):
    """TRL's trainer_state.json: `log_history` holds training entries (reward, completion
    length) and evaluation entries (eval_<dataset>_<metric> with several eval datasets) at
    the same steps."""
    history = []
    for step in (50, 100):
        history.append(
            {
                "epoch": step / 100,
                "step": step,
                "loss": 0.1,
                "reward": 0.2 * step / 50,
                "completions/mean_length": 400.0 + step,
            }
        )
        history.append(
            {
                "epoch": step / 100,
                "step": step,
                "eval_math500_accuracy": 0.5 + step / 1000,
                "eval_aime24_accuracy": 0.1,
                "eval_runtime": 12.3,
            }
        )
    path = _write(
        tmp_path / "trainer_state.json", json.dumps({"global_step": 100, "log_history": history})
    )
    assert readers.detect(path) == "trl"
    run = readers.load(path)
    assert dict(run.scores.group_by("benchmark").agg(pl.col("problems").first()).iter_rows()) == {
        "math500": 500,
        "aime24": 30,
    }
    table = _csv(tmp_path, [path])
    m = table.filter(benchmark="math500").sort("step")
    assert m["score"].to_list() == [0.55, 0.6] and m["tokens"].to_list() == [450.0, 500.0]


def test_openrlhf_jsonl_needs_a_mapping_and_takes_one(tmp_path):
    lines = [
        {"global_step": s, "eval/aime24/acc": 0.1 * s, "generate_length": 1000 + s} for s in (1, 2)
    ]
    path = _write(tmp_path / "log.jsonl", "\n".join(map(json.dumps, lines)) + "\n")
    with pytest.raises(DataError, match=r"--map accuracy=TEMPLATE"):
        readers.load(path)
    table = _csv(
        tmp_path,
        [path, "--map", "accuracy=eval/{benchmark}/acc", "--map", "tokens=generate_length"],
    )
    assert table["benchmark"].unique().to_list() == ["aime24"]
    assert table["problems"][0] == 30 and table["tokens"].to_list() == [1001.0, 1002.0]


def test_ambiguous_naming_names_the_candidates_and_the_map(tmp_path):
    path = _write(
        tmp_path / "x.csv",
        "step,val/test_score/a,val-core/a/acc/mean@4\n0,0.1,0.2\n",
    )
    with pytest.raises(DataError) as e:
        readers.load(path)
    message = str(e.value)
    assert "verl val/test_score" in message and "verl val-core acc" in message
    assert "--map" in message


def test_unrecognised_csv_lists_what_was_tried(tmp_path):
    path = _write(tmp_path / "x.csv", "a,b\n1,2\n")
    with pytest.raises(DataError) as e:
        readers.detect(path)
    message = str(e.value)
    assert "per-step metric log" in message and "per-sample table" in message
    assert "table of models" in message and "lacks ['step'" in message


def _lm_eval_results(score: float, generation: dict | None = None) -> str:
    """lm-evaluation-harness results_<date>.json: per task, metric,filter keys and stderr,
    n-samples with the effective count, and the task's config (its generation_kwargs, as
    lm-eval writes them for a generate_until task, where given)."""
    return json.dumps(
        {
            "results": {
                "gsm8k": {
                    "alias": "gsm8k",
                    "exact_match,strict-match": score,
                    "exact_match_stderr,strict-match": 0.01,
                    "exact_match,flexible-extract": score + 0.02,
                }
            },
            "n-samples": {"gsm8k": {"original": 1319, "effective": 1319}},
            "configs": {"gsm8k": {} if generation is None else {"generation_kwargs": generation}},
        }
    )


def test_lm_eval_results_per_checkpoint(tmp_path):
    for step, score in ((100, 0.5), (200, 0.6)):
        _write(
            tmp_path / "run" / f"global_step{step}" / "results_2025-01-01.json",
            _lm_eval_results(score),
        )
    table = _csv(tmp_path, [tmp_path / "run"])
    assert table["step"].to_list() == [100, 200] and table["score"].to_list() == [0.5, 0.6]
    assert table["benchmark"].unique().to_list() == ["GSM8K"] and table["problems"][0] == 1319
    run = readers.load(tmp_path / "run", mapping={"accuracy": "exact_match,flexible-extract"})
    assert run.scores["score"].to_list() == pytest.approx([0.52, 0.62])
    assert run.decoding == {}  # the configs give no generation settings


@pytest.mark.parametrize(
    ("second", "decoding"),
    [
        ({"do_sample": True, "temperature": 0.6, "top_p": 0.95, "max_gen_toks": 32768},
         {"temperature": 0.6, "top_p": 0.95, "max_tokens": 32768}),
        ({"do_sample": True, "temperature": 1.0, "top_p": 0.95, "max_gen_toks": 32768},
         {"top_p": 0.95, "max_tokens": 32768}),
        ({"do_sample": False, "temperature": 0.6, "max_gen_toks": 2048}, {"temperature": 0.0}),
    ],
)  # fmt: skip
def test_lm_eval_decoding_settings_stated_alike_by_every_checkpoint(tmp_path, second, decoding):
    """A run's decoding settings are those every checkpoint's results state alike (lm-eval's
    generation_kwargs; do_sample false is greedy, temperature 0); a setting that differs
    between checkpoints is not the run's."""
    first = {"do_sample": second["do_sample"], "temperature": 0.6, "top_p": 0.95}
    first["max_gen_toks"] = 32768 if second["do_sample"] else 4096
    for step, generation in ((100, first), (200, second)):
        _write(
            tmp_path / "run" / f"global_step{step}" / "results_2025-01-01.json",
            _lm_eval_results(0.5, generation),
        )
    assert readers.load(tmp_path / "run").decoding == decoding


def _details(path, values):
    """lighteval details Parquet: one row per problem, `example` the query and `metrics` a
    struct of per-problem scores (lighteval's DetailsLogger.Detail)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    pl.DataFrame(
        {
            "example": [f"problem {i}" for i in range(len(values))],
            "predictions": [["x"] for _ in values],
            "metrics": [{"extractive_match": v} for v in values],
        }
    ).write_parquet(path)
    return path


def test_lighteval_details_parquet(tmp_path):
    path = _details(
        tmp_path / "details_custom|aime24|0_2025-03-10T00-00-00.parquet", [1.0, 0.0, 1.0, 1.0]
    )
    assert readers.detect(path) == "lighteval-details"
    table = _csv(tmp_path, [path])
    overall = table.filter(pl.col("file") == "all").row(0, named=True)
    assert overall["accuracy"] == 0.75 and overall["problems"] == 4
    again = _details(tmp_path / "b" / "details_custom|aime24|0_x.parquet", [0.0, 0.0, 1.0, 1.0])
    out = tmp_path / "d.csv"
    assert main(["compare", f"a={path}", f"b={again}", "-o", str(out)]) == 0
    row = pl.read_csv(out).row(0, named=True)
    assert (row["problems"], row["won"], row["lost"], row["tied"]) == (4, 0, 1, 3)


def test_lighteval_details_with_averaged_scores_is_an_error(tmp_path):
    path = _details(tmp_path / "details_custom|aime24|0_x.parquet", [0.375, 1.0])
    with pytest.raises(DataError, match="cannot be split into answers"):
        readers.load(path)


def _inspect_log(values, epochs=1):
    """An Inspect AI log (JSON): eval (task, dataset), results, and samples with an id, an
    epoch and per-scorer values (C correct, I incorrect)."""
    samples = [
        {"id": i + 1, "epoch": e + 1, "scores": {"match": {"value": values[e][i]}}}
        for e in range(epochs)
        for i in range(len(values[0]))
    ]
    return json.dumps(
        {
            "version": 2,
            "status": "success",
            "eval": {"task": "inspect_evals/gsm8k", "dataset": {"samples": len(values[0])}},
            "results": {
                "total_samples": len(samples),
                "completed_samples": len(samples),
                "scores": [{"name": "match", "metrics": {"accuracy": {"value": 0.5}}}],
            },
            "samples": samples,
        }
    )


def test_inspect_log_with_epochs_gives_pass_at_k(tmp_path):
    path = _write(tmp_path / "log.json", _inspect_log([["C", "I", "I"], ["C", "C", "I"]], epochs=2))
    assert readers.detect(path) == "inspect"
    text = "\n".join(describe(path))
    assert "GSM8K: 3 problems, 2 sample(s) per problem" in text
    table = _csv(tmp_path, [path])
    overall = table.filter(pl.col("file") == "all").row(0, named=True)
    assert overall["accuracy"] == pytest.approx(0.5)  # (1 + 0.5 + 0) / 3
    assert overall["pass@2"] == pytest.approx(2 / 3)


def test_inspect_partial_credit_is_an_error(tmp_path):
    path = _write(tmp_path / "log.json", _inspect_log([["C", "P"]]))
    with pytest.raises(DataError) as e:
        readers.load(path)
    assert e.value.column == "samples[1].scores.match.value" and e.value.got == "P"


def test_inspect_log_without_samples_uses_its_accuracy(tmp_path):
    log = json.loads(_inspect_log([["C", "I"]]))
    del log["samples"]
    path = _write(tmp_path / "log.json", json.dumps(log))
    run = readers.load(path)
    assert run.scores.row(0, named=True)["score"] == 0.5 and run.scores["problems"][0] == 2


def test_step_from_path_pattern_given(tmp_path):
    for step in (3, 7):
        _write(tmp_path / "run" / f"epoch{step}" / "results.json", _lm_eval_results(0.1 * step))
    out = tmp_path / "x.csv"
    assert main(["plot", str(tmp_path / "run"), "-o", str(out)]) == 2  # no step in the names
    assert not out.exists()
    table = _csv(tmp_path, [tmp_path / "run", "--step-from-path", r"^epoch(\d+)$"])
    assert table["step"].to_list() == [3, 7]
    assert table["score"].to_list() == pytest.approx([0.3, 0.7])
    assert math.isclose(table["problems"][0], 1319)


# ---- TensorBoard event files (real runs: HF Trainer SFT, TRL GRPO) ----------------------------

TB_STAGE2 = REALDATA / "illustrated_grpo_trl_stage2" / "runs"
TB_STAGE4 = REALDATA / "illustrated_grpo_trl_stage4"
TB_MEME = REALDATA / "math_meme_repair_hf_trainer"


def test_tensorboard_scalars_are_read_as_tensorboard_wrote_them():
    """TRL GRPO (stage 2): 300 steps of train/reward averaging 0.516, frac_reward_zero_std
    0.63, a runtime of 118.5 s; the HF Trainer SFT run: its six losses, as float32."""
    from helpers.runs.readers.trackers import tfevents

    (stage2,) = tfevents.event_files(TB_STAGE2)
    scalars = tfevents.read_scalars(stage2)
    reward = scalars.filter(tag="train/reward")
    assert reward.height == 300 and reward["step"].to_list() == list(range(1, 301))
    assert round(reward["value"].mean(), 3) == 0.516
    assert round(scalars.filter(tag="train/frac_reward_zero_std")["value"].mean(), 2) == 0.63
    assert scalars.filter(tag="train/train_runtime")["value"].item() == pytest.approx(118.5, 1e-3)
    (meme,) = tfevents.event_files(TB_MEME / "runs")
    loss = tfevents.read_scalars(meme).filter(tag="train/loss")
    state = json.loads((TB_MEME / "checkpoint-60" / "trainer_state.json").read_text())
    logged = [(r["step"], r["loss"]) for r in state["log_history"] if "loss" in r]
    assert loss["step"].to_list() == [s for s, _ in logged]
    assert loss["value"].to_list() == pytest.approx([v for _, v in logged], rel=1e-7)


def test_a_tensorboard_run_folder_reads_as_its_trainer_state(tmp_path):
    """TRL GRPO stage 4: its run folder holds an aborted launch's event file (text only, no
    scalar) and the run's; read as one run, it gives the same curve, to the byte, as the
    trainer_state.json written beside it."""
    mapping = ["--map", "accuracy=rewards/{benchmark}/mean"]
    tb, state = tmp_path / "tb.csv", tmp_path / "state.csv"
    assert main(["plot", str(TB_STAGE4 / "stage4_runs"), *mapping, "-o", str(tb)]) == 0
    json_state = TB_STAGE4 / "stage4_trainer_state.json"
    assert main(["plot", str(json_state), *mapping, "-o", str(state)]) == 0
    assert tb.read_bytes() == state.read_bytes()
    # the author's phase table: reward (correctness + 0.2 x format) 0.902, then the collapse
    reward = pl.read_csv(tb).group_by("step").agg(pl.col("score").sum())
    phases = reward.group_by((pl.col("step") - 1) // 50).agg(pl.col("score").mean())
    assert phases.sort("step")["score"].round(3).to_list()[:2] == [0.902, 0.528]


def test_tensorboard_files_are_known_by_content_and_checked(tmp_path, capsys):
    """A file named like an event file but holding text is not read as one; a run cut off
    mid-record keeps the records written before; a record whose checksum fails is an error
    naming the record."""
    from helpers.runs.readers.detect import detect
    from helpers.runs.readers.trackers import tfevents

    (stage2,) = tfevents.event_files(TB_STAGE2)
    fake = tmp_path / "events.out.tfevents.1.host"
    fake.write_text("step,loss\n1,0.5\n")
    assert not tfevents.is_event_file(fake)
    with pytest.raises(DataError):
        detect(fake)
    data = stage2.read_bytes()
    cut = tmp_path / "cut" / stage2.name
    cut.parent.mkdir()
    cut.write_bytes(data[: len(data) // 2])
    whole, half = tfevents.read_scalars(stage2), tfevents.read_scalars(cut)
    assert 0 < half.height < whole.height and half.equals(whole.head(half.height))
    bad = tmp_path / "bad" / stage2.name
    bad.parent.mkdir()
    damaged = bytearray(data)
    damaged[len(data) // 2] ^= 0xFF
    bad.write_bytes(bytes(damaged))
    assert main(["plot", str(bad.parent), "-o", str(tmp_path / "x.csv")]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"error: {bad}, row ") and "matching its checksum" in err


# ---- verifiers vf-eval results (real: math-python, wordle; a degenerate gsm8k run) -----------


@pytest.mark.parametrize(
    "folder, solved",
    [
        (VERIFIERS_MATH, {"0": 2, "98": 3, "4": 3, "17": 3, "6": 3}),
        (VERIFIERS_WORDLE, {"story": 3, "thing": 3, "water": 1, "voice": 2, "sleep": 2}),
    ],
)
def test_verifiers_rollouts_are_grouped_by_problem(folder, solved, tmp_path):
    """Rollouts grouped by problem (prompt and answer), not by `id`, which counts rows in the
    older schema; correctness from the correctness reward function, not the summed `reward`
    (Wordle's exceeds 1). math-python: 14 of 15 (the metadata's avg_reward 0.9333); Wordle:
    11 of 15 (its metadata says 0.0, written before the results)."""
    from helpers.runs.readers.formats import answer_dumps, problem_texts

    path = _results(folder)
    samples = answer_dumps.read_verifiers(path)
    texts = problem_texts.read_texts(path, "verifiers").unique("problem_id", keep="first")
    per_problem = (
        samples.group_by("problem_id").agg(pl.col("correct").sum()).join(texts, on="problem_id")
    )
    assert dict(zip(per_problem["reference"], per_problem["correct"], strict=True)) == solved
    out = tmp_path / "acc.csv"
    assert main(["plot", str(path), "-o", str(out)]) == 0
    overall = pl.read_csv(out).filter(pl.col("file") == "all").row(0, named=True)
    assert (overall["problems"], overall["samples_per_problem"]) == (5, 3)
    assert overall["accuracy"] == pytest.approx(sum(solved.values()) / 15)


# ---- MLflow file store (real: a parent run and three nested iteration runs) --------------------


def test_mlflow_nested_runs_are_stitched_into_one_curve(tmp_path, capsys):
    """The parent run logs no metric; its three children log one point each at step 1, 2, 3:
    read as one run, acceptance_rate is 1.0, 1.0, 0.8 and avg_quality_score 0.92, 0.92,
    0.835; the empty Default experiment is ignored; one child's folder alone is its point."""
    out = tmp_path / "m.csv"
    args = ["plot", str(MLFLOW), "--map", "accuracy=acceptance_rate", "-o", str(out)]
    assert main(args) == 0
    table = pl.read_csv(out)
    assert table.select("step", "score").rows() == [(1, 1.0), (2, 1.0), (3, 0.8)]
    assert main(["inspect", str(MLFLOW), "--map", "accuracy=avg_quality_score"]) == 0
    text = capsys.readouterr().out
    assert "run 'self_training_full_run'; 3 nested runs stitched by step" in text
    assert "avg_quality_score: validation, size unknown (--problems NAME=N), 3 steps (1-3)" in text
    # every run's meta.yaml says status 3, FINISHED: the run ended (a watch stops on it)
    assert readers.load(MLFLOW, mapping={"accuracy": "avg_quality_score"}).ended is True
    (child,) = [
        m.parent
        for m in MLFLOW.rglob("meta.yaml")
        if (m.parent / "tags" / "mlflow.runName").is_file()
        and (m.parent / "tags" / "mlflow.runName").read_text().strip() == "iteration_3"
    ]
    one = tmp_path / "one.csv"
    assert main(["plot", str(child), "--map", "accuracy=avg_quality_score", "-o", str(one)]) == 0
    # one step of a validation log is one evaluation: its benchmarks with intervals
    assert pl.read_csv(one).select("step", "accuracy").rows() == [(3, 0.835)]


def test_mlflow_store_of_several_runs_and_a_bad_metric_line(tmp_path, capsys):
    """Two unrelated runs with metrics are not merged into one curve: `inspect` lists each
    under PATH#RUN, `load` (one run) is an error naming them; a metric line that is not
    '<timestamp> <value> <step>' names its file and line."""
    import shutil

    store = tmp_path / "mlruns"
    shutil.copytree(MLFLOW / "mlruns", store)
    run = next(
        m.parent for m in sorted(store.rglob("meta.yaml")) if (m.parent / "metrics").is_dir()
    )
    other = store / "0" / "fff0"
    shutil.copytree(run, other)
    (other / "meta.yaml").write_text("run_id: fff0\nrun_name: other\n")
    for tag in (other / "tags").iterdir():
        tag.unlink()
    assert main(["inspect", str(tmp_path), "--map", "accuracy=acceptance_rate"]) == 0
    text = capsys.readouterr().out
    assert f"{tmp_path}: 2 runs (mlflow): other, self_training_full_run" in text
    assert f"{tmp_path}#other: mlflow" in text and f"{tmp_path}#self_training_full_run" in text
    with pytest.raises(DataError, match=r"the store holds 2 runs \(other, self_training_full"):
        readers.load(tmp_path, mapping={"accuracy": "acceptance_rate"})
    shutil.rmtree(other)
    metric = next(run.glob("metrics/acceptance_rate"))
    metric.write_text(metric.read_text() + "1777311567465 lots 2\n")
    assert main(["inspect", str(tmp_path), "--map", "accuracy=acceptance_rate"]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"error: {metric}, line 2: expected '<timestamp> <value> <step>'")


# ---- TRL completion dumps (real: GRPOTrainer log_completions, 300 steps x 6 generations) ------


def test_trl_completion_dumps_are_read_per_generation(tmp_path):
    """1,800 generations, mean correctness 0.516; each step's accuracy is the mean of its six
    generations and equals the train/reward TensorBoard logged for that step, at all 300 steps;
    the 50-step means rise from 0.493 to 0.637."""
    from helpers.runs.readers.trackers import tfevents

    out = tmp_path / "c.csv"
    assert main(["plot", str(GRPO_COMPLETIONS / "completions"), "-o", str(out)]) == 0
    table = pl.read_csv(out)
    assert table.height == 300 and (table["samples"] == 6).all() and (table["problems"] == 1).all()
    assert round(table["accuracy"].mean(), 3) == 0.516
    (events,) = tfevents.event_files(TB_STAGE2)
    reward = tfevents.read_scalars(events).filter(tag="train/reward").sort("step")
    assert table.sort("step")["accuracy"].to_list() == pytest.approx(reward["value"].to_list())
    phases = table.group_by((pl.col("step") - 1) // 50).agg(pl.col("accuracy").mean()).sort("step")
    assert phases["accuracy"].round(3).to_list()[0] == 0.493
    assert phases["accuracy"].round(3).to_list()[-1] == 0.637
    # the trainer's own samples: its chart says training accuracy, not an evaluation's
    svg = tmp_path / "c.svg"
    assert main(["plot", str(GRPO_COMPLETIONS / "completions"), "-o", str(svg)]) == 0
    drawn = svg.read_text()
    assert "training accuracy by step" in drawn and "(not an evaluation)" in drawn


def test_qwen_math_samples_with_k_predictions_give_maj_at_k(tmp_path):
    """Qwen2.5-Math-style lines with `pred` and `score` as lists of k samples and the level as
    the dataset spells it: maj@k is the share of problems whose most frequent answer is right
    (a tie to the answer given first; a sample with no extracted answer does not vote)."""
    lines = [  # (idx, level, preds, scores)
        (0, "Level 3", ["a", "a", "b", "c"], [True, True, False, False]),  # a: right
        (1, "Level 3", ["x", "y", "y", "x"], [False, True, True, False]),  # tie: x, wrong
        (2, "Level 5", [None, "7", " 7", "8"], [False, True, True, False]),  # 7: right
    ]
    records = [
        {"idx": i, "level": lv, "pred": p, "score": s, "code": ["..."] * 4} for i, lv, p, s in lines
    ]
    path = _write(tmp_path / "math500.jsonl", "\n".join(map(json.dumps, records)) + "\n")
    table = _csv(tmp_path, [path])
    rows = {r["level"]: r for r in table.iter_rows(named=True)}
    assert rows["3"]["maj@4"] == 0.5 and rows["5"]["maj@4"] == 1.0
    assert rows["all"]["maj@4"] == pytest.approx(2 / 3)
    assert rows["all"]["accuracy"] == pytest.approx((0.5 + 0.5 + 0.5) / 3)
    assert rows["all"]["pass@4"] == 1.0
    lo, hi = stats.wilson_interval(2, 3)
    assert (rows["all"]["maj@4_lo"], rows["all"]["maj@4_hi"]) == pytest.approx((lo, hi))
    records[1]["pred"] = ["x"]  # one answer for four scores
    _write(path, "\n".join(map(json.dumps, records)) + "\n")
    with pytest.raises(DataError, match="line 2, column 'pred': expected a list of 4"):
        readers.load(path)


def test_a_results_file_beside_its_samples_is_checked_not_read_as_a_second_run(tmp_path):
    """SkyThought's Qwen2.5-14B-Instruct MATH500 samples with the metrics file its harness
    wrote beside them (acc 80.4): one run, drawn from the samples, the stated result checked
    against them in the subtitle; a stated result the samples do not give is called so."""
    from helpers.runs.choose import chart_for
    from tests.realdata import CHECKPOINTS, SKY14, SKY14_METRICS

    alone = _csv(tmp_path, [SKY14])
    together = _csv(tmp_path, [SKY14, SKY14_METRICS])
    assert together.equals(alone) and alone.filter(pl.col("level") == "all")["accuracy"][0] == 0.804
    make, _ = chart_for([SKY14, SKY14_METRICS])
    subtitle = _said(make.to_dict()["title"])
    assert "stated result agrees: skythought_qwen2.5-14b-instruct_math500_metrics.json" in subtitle
    wrong = tmp_path / "math500_metrics.json"
    wrong.write_text(json.dumps({**json.loads(SKY14_METRICS.read_text()), "acc": 84.0}))
    make, _ = chart_for([SKY14, wrong])
    subtitle = _said(make.to_dict()["title"])
    assert "they disagree: math500_metrics.json, 84.0% on MATH500, but its samples give 80.4%" in (
        subtitle
    )
    # a folder of checkpoints, each with its harness's metrics file: all five checked
    said = "\n".join(describe(CHECKPOINTS))
    assert "checked against the samples, 5 stated results agree" in said


def test_maj_at_k_counts_unanswered_problems_and_empty_answers_do_not_vote(tmp_path):
    """Found in review: a problem with no extracted answer is not answered right (it stays in
    the count and in its level's row), and an empty extraction ("", the harness's "none")
    does not vote. Qwen2.5-Math's own `acc` is its first sample column's: a results file beside
    several samples per problem is checked against that."""
    lines = [
        (0, 1, ["", "", "4"], [False, False, True]),  # "" does not vote: 4, right
        (1, 1, [None, None, None], [False, False, True]),  # no answer: not right
        (2, 3, [None, None, None], [False, False, False]),  # alone at level 3
    ]
    records = [
        {"idx": i, "level": lv, "pred": p, "score": s, "code": ["..."] * 3} for i, lv, p, s in lines
    ]
    path = _write(tmp_path / "math500.jsonl", "\n".join(map(json.dumps, records)) + "\n")
    rows = {r["level"]: r for r in _csv(tmp_path, [path]).iter_rows(named=True)}
    assert sorted(rows) == ["1", "3", "all"]
    got = (rows["1"]["maj@3"], rows["3"]["maj@3"], rows["all"]["maj@3"])
    assert got == pytest.approx((0.5, 0.0, 1 / 3))
    assert rows["all"]["problems"] == 3
    first = tmp_path / "math500_metrics.json"  # the first samples: 0 of 3 right
    first.write_text(json.dumps({"num_samples": 3, "acc": 0.0}))
    from helpers.runs.choose import chart_for

    make, _ = chart_for([path, first])
    assert "stated result agrees: math500_metrics.json, 0.0% on MATH500" in _said(
        make.to_dict()["title"]
    )


def test_an_aggregate_the_log_holds_is_never_averaged_with_its_parts(tmp_path, capsys):
    """verl's `val-core/total@...` beside its benchmarks (issue 41): the benchmarks' mean is
    over the benchmarks alone, the total drawn as logged, and `inspect` says why."""
    log = tmp_path / "val.csv"
    log.write_text(
        "step,val-core/math500@temp_1.0/acc/mean@8,val-core/aime24@temp_1.0/acc/mean@8,"
        "val-core/total@temp_1.0/acc/mean@8\n10,0.5,0.2,0.35\n20,0.6,0.3,0.45\n"
    )
    out = tmp_path / "out.csv"
    assert main(["plot", str(log), "-o", str(out)]) == 0
    table = pl.read_csv(out)
    mean = table.filter(pl.col("benchmark").str.starts_with("mean of"))
    assert mean["benchmark"].unique().to_list() == ["mean of 2 benchmarks"]
    assert mean["averages"][0] == "math500@temp_1.0, aime24@temp_1.0"
    assert mean["score"].to_list() == pytest.approx([0.35, 0.45])
    assert table.filter(benchmark="total@temp_1.0")["score"].to_list() == [0.35, 0.45]
    capsys.readouterr()
    assert main(["inspect", str(log)]) == 0
    assert "total@temp_1.0: validation" in (said := capsys.readouterr().out)
    assert "an aggregate of the others, as its name says: left out of their mean" in said


def test_a_long_noisy_curve_is_smoothed_by_default_and_a_band_over_one_problem_left_out():
    """Issue 46: TRL's completions (one prompt a step, 300 steps) swing between 0 and 100%:
    with no --smooth the curve gets a moving average over a twentieth of its steps (weight
    0.88), said in the subtitle, and no band (an interval over one problem spans the axis);
    --smooth 0 draws the points as logged; a short curve is never smoothed unasked."""
    from helpers.runs.choose import chart_for

    completions = REALDATA / "illustrated_grpo_trl_stage2" / "completions"
    chart, _ = chart_for([completions])
    said = chart.to_dict()["title"]["subtitle"]
    assert any("moving average (EMA, weight 0.88," in s for s in said), said
    assert any(s.startswith("no band for correctness_reward") for s in said)
    assert not any(s.startswith("bands:") for s in said)
    rows = next(iter(chart.to_dict()["datasets"].values()))
    assert all(r["lo"] is None for r in rows) and any(r["smoothed"] for r in rows)
    plain, _ = chart_for([completions], smooth=0)
    assert not any("moving average" in s for s in plain.to_dict()["title"]["subtitle"])
    short, _ = chart_for([REALDATA / "open-rs_lighteval_results_exp2"])
    assert not any("moving average" in s for s in short.to_dict()["title"]["subtitle"])


def test_smooth_draws_each_curves_moving_average_over_the_logged_points():
    """`plot --smooth W` (issue 41): a TRL run's 500 noisy reward steps get their bias-corrected
    EMA (`stats.ema`, as TensorBoard smooths) drawn solid over the logged points, which fade;
    the subtitle says so, and the average runs over every logged step, not the thinned ones."""
    from helpers.runs.choose import chart_for

    log = REALDATA / "illustrated_grpo_trl_stage4" / "stage4_trainer_state.json"
    mapping = {"accuracy": "rewards/correctness_reward/mean"}
    chart, table = chart_for([log], mapping=mapping, smooth=0.9)
    spec = chart.to_dict()
    layers = [layer for unit in spec["concat"] for layer in unit["vconcat"][0]["layer"]]
    assert any(layer.get("name", "").startswith("smoothed 0") for layer in layers)
    assert any("moving average (EMA, weight 0.9," in s for s in spec["title"]["subtitle"])
    rows = next(iter(spec["datasets"].values()))
    drawn = {r["iteration"]: r["smoothed"] for r in rows if r["smoothed"] is not None}
    logged = table.filter(pl.col("benchmark") == table["benchmark"][0]).sort("step")
    ema = stats.ema(logged["score"].to_list(), 0.9)
    expected = dict(zip(logged["step"].to_list(), ema, strict=True))
    assert len(drawn) < len(expected) == 500  # thinned for drawing, averaged over all
    for step, value in drawn.items():
        assert value == pytest.approx(expected[int(step)], abs=1e-8)  # the spec keeps 8 digits


def _said(title: dict) -> str:
    """A chart's title and subtitle as one text (subtitles are wrapped to the chart's width)."""
    lines = title.get("subtitle") or []
    return " ".join([title["text"], *([lines] if isinstance(lines, str) else lines)])
