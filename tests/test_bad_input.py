"""The contract for bad input: exit 0 with a chart, or exit 2 with one `error:` line naming the
file; never a traceback, never a hang, never a partial output, never an output over an input.

First a catalogue of kinds of bad or hostile input, each written the way it turns up in
practice; then property-based tests (hypothesis) that generate malformed W&B exports, JSON
lines and per-sample tables; then inputs that could hang (pipes, devices, huge sparse files),
an interrupted write, and the data package under generated damage."""

from __future__ import annotations

import json
import math
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import polars as pl
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from helpers.cli import main
from helpers.paths import ROOT
from tests.realdata import REALDATA, SKY, SKY14

GOOD = {
    "step": [0, 0, 10, 10],
    "benchmark": ["b"] * 4,
    "problem_id": ["p0", "p1", "p0", "p1"],
    "sample_id": [0, 0, 0, 0],
    "correct": [True, False, True, True],
    "response_tokens": [10, 20, 30, 40],
}


def _samples(**changes) -> pl.DataFrame:
    return pl.DataFrame({**GOOD, **changes}, strict=False)


def _text(name, text):
    def make(d: Path) -> list[str]:
        (d / name).write_text(text)
        return [str(d / name)]

    return make


def _bytes(name, data):
    def make(d: Path) -> list[str]:
        (d / name).write_bytes(data)
        return [str(d / name)]

    return make


def _frame(name, frame, fmt="parquet"):
    def make(d: Path) -> list[str]:
        path = d / name
        frame.write_parquet(path) if fmt == "parquet" else frame.write_csv(path)
        return [str(path)]

    return make


def _eee(score: float, lower_is_better: bool = False) -> dict:
    """An Every Eval Ever aggregate of one result, as the schema spells it."""
    return {
        "schema_version": "0.3.0",
        "evaluation_id": "x/1",
        "retrieved_timestamp": "1",
        "source_metadata": {},
        "eval_library": {"name": "x", "version": "1"},
        "model_info": {"name": "m", "id": "m"},
        "evaluation_results": [
            {
                "evaluation_name": "MATH500",
                "source_data": {"dataset_name": "MATH500", "source_type": "other"},
                "metric_config": {
                    "lower_is_better": lower_is_better, "min_score": 0.0, "max_score": 1.0
                },
                "score_details": {"score": score},
            }
        ],
    }  # fmt: skip


def _eee_sample(evaluation: dict) -> dict:
    return {
        "schema_version": "0.3.0", "evaluation_id": "x/1", "evaluation_name": "MATH500",
        "sample_id": "1", "evaluation": evaluation,
    }  # fmt: skip


def _with(make, *extra):
    def wrapped(d: Path) -> list[str]:
        return [*make(d), *extra]

    return wrapped


def _hive(d: Path) -> list[str]:
    for step, sample_type in ((1, pl.Int64), (2, pl.String)):
        part = d / "hive" / f"step={step}"
        part.mkdir(parents=True)
        _samples().drop("step").with_columns(pl.col("sample_id").cast(sample_type)).write_parquet(
            part / "x.parquet"
        )
    return [str(d / "hive")]


def _empty_dir(d: Path) -> list[str]:
    (d / "empty").mkdir()
    return [str(d / "empty")]


def _truncated(d: Path) -> list[str]:
    _samples().write_parquet(d / "ok.parquet")
    data = (d / "ok.parquet").read_bytes()
    (d / "cut.parquet").write_bytes(data[: len(data) // 2])
    return [str(d / "cut.parquet")]


def _two_steps_no_name(d: Path) -> list[str]:
    for i in (1, 2):
        (d / "run" / f"epoch{i}").mkdir(parents=True)
        doc = {"results": {"gsm8k": {"acc": 0.5}}, "n-samples": {"gsm8k": {"effective": 9}}}
        (d / "run" / f"epoch{i}" / "results.json").write_text(json.dumps(doc))
    return [str(d / "run")]


def _twice(d: Path) -> list[str]:
    _samples().write_parquet(d / "a.parquet")
    return [str(d / "a.parquet"), str(d / "a.parquet")]


def _and_its_link(d: Path) -> list[str]:
    _samples().write_parquet(d / "a.parquet")
    (d / "link.parquet").symlink_to(d / "a.parquet")
    return [str(d / "a.parquet"), str(d / "link.parquet")]


def _folder_and_its_file(d: Path) -> list[str]:
    (d / "run" / "ckpt_10").mkdir(parents=True)
    (d / "run" / "ckpt_10" / "s.jsonl").write_text(json.dumps(QWEN) + "\n")
    return [str(d / "run"), str(d / "run" / "ckpt_10" / "s.jsonl")]


QWEN = {"idx": 0, "level": 1, "score": [True], "code": ["x"]}
VF = {"prompt": [{"role": "user", "content": "2+2?"}], "answer": "4", "reward": 1.0,
      "completion": [{"role": "assistant", "content": "4"}]}  # fmt: skip


def _lm_eval(values, docs=None) -> str:
    """An lm-eval samples file: one line per document with its `acc`."""
    docs = range(len(values)) if docs is None else docs
    lines = [
        {"resps": [], "metrics": ["acc"], "acc": v, **({} if d is None else {"doc_id": d})}
        for v, d in zip(values, docs, strict=True)
    ]
    return "".join(json.dumps(line) + "\n" for line in lines)


WANDB = "_step,val/test_score/a\n"


def _inspect(samples, results=None) -> str:
    """An Inspect AI log: its samples, or (none) its results' scores."""
    return json.dumps({"eval": {"task": "t"}, "samples": samples, "results": {"scores": results}})


def _in_folder(relative: str, text: str):
    def make(d: Path) -> list[str]:
        (d / relative).parent.mkdir(parents=True)
        (d / relative).write_text(text)
        return [str(d / relative.split("/")[0])]

    return make


# kind -> (files maker, extra args, words the error must hold)
def _damaged_wandb(d: Path) -> list[str]:
    """A W&B run folder whose run-<id>.wandb does not start with ':W&B'."""
    run = d / "wandb" / "run-20250101_000000-abc"
    (run / "files").mkdir(parents=True)
    (run / "run-abc.wandb").write_bytes(b"XXXXXXXjunk")
    return [str(run)]


def _mlflow_huge_step(d: Path) -> list[str]:
    """An MLflow file store (a copy of the real one in ../shared/realdata) whose metric line
    has a step of 10^20, past MLflow's 64-bit long."""
    import shutil

    store = d / "mlruns"
    shutil.copytree(REALDATA / "llm_self_training_mlflow" / "mlruns", store)
    for f in store.rglob("*"):
        f.chmod(0o755 if f.is_dir() else 0o644)
    metric = sorted(store.glob("977040650095363724/*/metrics/avg_quality_score"))[0]
    stamp, value, _ = metric.read_text().split()
    metric.write_text(f"{stamp} {value} 100000000000000000000\n")
    return [str(store)]


CATALOGUE = {
    "an MLflow metric line with step 10^20": (
        _mlflow_huge_step,
        [],
        "avg_quality_score, line 1: expected a step and timestamp that fit in 64 bits",
    ),
    "a W&B run folder whose log's header is damaged": (
        _damaged_wandb,
        [],
        "run-abc.wandb, row 1: expected a W&B transaction log (starting ':W&B')",
    ),
    "empty csv": (_text("e.csv", ""), [], "empty"),
    "the same file twice": (_twice, [], "each input once; this is the same as the input"),
    "a file and a link to it": (_and_its_link, [], "each input once; this is the same as"),
    "a folder and a file in it": (_folder_and_its_file, [], "each input once; this is inside"),
    "a duplicated row": (
        _frame("d.parquet", pl.concat([_samples(), _samples().head(1)])),
        [],
        "'p0' of b at step 0 has 2 rows for 1 sample ids",
    ),
    "a duplicated row, sparse sample ids": (
        _frame(
            "d.csv",
            pl.concat(
                [_samples(sample_id=[0, 0, 0, 0])]
                + [_samples().head(1).with_columns(sample_id=pl.lit(5, pl.Int64))] * 2
            ),
            "csv",
        ),
        [],
        "'p0' of b at step 0 has 3 rows for 2 sample ids",
    ),
    "a duplicated sample id in place of a missing one": (
        _frame(
            "d.parquet",
            pl.concat(  # problem p0 at step 0: sample ids 0, 0 and 2 (3 rows, ids 0-2)
                [
                    _samples(),
                    _samples().head(1),
                    _samples().head(1).with_columns(sample_id=pl.lit(2, pl.Int64)),
                ]
            ),
        ),
        [],
        "'p0' of b at step 0 has 3 rows for 2 sample ids",
    ),
    "two sample ids given twice in place of two missing": (
        _frame(
            "d.parquet",
            pl.concat(  # problem p0 at step 0: ids 0, 0, 3, 3 (as many rows as ids 0-3, and
                # the same sum: what a check of the ids' span and sum cannot tell apart)
                [_samples()]
                + [
                    _samples().head(1).with_columns(sample_id=pl.lit(i, pl.Int64))
                    for i in (0, 3, 3)
                ]
            ),
        ),
        [],
        "'p0' of b at step 0 has 4 rows for 2 sample ids",
    ),
    "one evaluation given twice in one file": (
        _text("q.jsonl", (json.dumps(QWEN) + "\n") * 2),
        [],
        "problem '0' of q has sample id 0 more than once",
    ),
    "header only": (_text("h.csv", WANDB), [], "empty or NaN"),
    "no step column": (_text("s.csv", "epoch,val/test_score/a\n0,0.5\n"), [], "a step column"),
    "duplicated step": (_text("d.csv", WANDB + "0,0.5\n0,0.6\n"), [], "each step once"),
    "word in a metric": (_text("w.csv", WANDB + "0,0.5\n5,oops\n"), [], "line 3"),
    "all NaN": (_text("n.csv", WANDB + "0,NaN\n5,nan\n"), [], "empty or NaN"),
    "percent not fraction": (_text("p.csv", WANDB + "0,57\n"), [], "fraction from 0 to 1"),
    "negative score": (_text("m.csv", WANDB + "0,-0.1\n"), [], "fraction from 0 to 1"),
    "duplicated column": (
        _text("c.csv", "_step,val/test_score/a,val/test_score/a\n0,1,1\n"),
        [],
        "each column name once",
    ),
    "NUL bytes": (_bytes("z.csv", b"\x00" * 100), [], "NUL byte"),
    "step a word": (_text("sw.csv", WANDB + "x,0.5\n"), [], "a number"),
    "empty step": (_text("se.csv", WANDB + ",0.5\n"), [], "a step on every row"),
    "two namings": (
        _text("a.csv", "step,val/test_score/a,val-core/a/acc/mean@4\n0,0.1,0.2\n"),
        [],
        "--map",
    ),
    "map to nothing": (
        _text("mp.csv", WANDB + "0,0.5\n"),
        ["--map", "accuracy=eval/{benchmark}"],
        "--map accuracy",
    ),
    "map without role": (_text("mr.csv", WANDB + "0,0.5\n"), ["--map", "accuracy"], "ROLE=COLUMN"),
    "unknown csv": (_text("u.csv", "a,b\n1,2\n"), [], "per-step metric log"),
    "correct as words": (
        _frame("cw.csv", _samples(correct=["True", "yes", "no", "1"]), "csv"),
        [],
        "'yes'",
    ),
    "correct one half": (
        _frame("ch.parquet", _samples(correct=[0.5, 1.0, 0.0, 1.0])),
        [],
        "0 or 1",
    ),
    "correct missing": (
        _frame("cn.parquet", _samples(correct=[True, None, True, False])),
        [],
        "a value in every row",
    ),
    "step 1.5": (_frame("sf.parquet", _samples(step=[0.0, 1.5, 2.0, 2.0])), [], "a whole number"),
    "step a word in a table": (
        _frame("st.csv", _samples(step=["0", "x", "1", "1"]), "csv"),
        [],
        "line 3",
    ),
    "missing column": (_frame("mc.parquet", _samples().drop("correct")), [], "lacks ['correct']"),
    "truncated parquet": (_truncated, [], "readable Parquet"),
    "text named parquet": (_text("t.parquet", "hello"), [], "readable Parquet"),
    "empty folder": (_empty_dir, [], "found none"),
    "partitions disagree": (_hive, [], "same column types"),
    "no step in folder names": (_two_steps_no_name, [], "--step-from-path"),
    "malformed JSON line": (
        _text("j.jsonl", json.dumps(QWEN) + "\n" + json.dumps(QWEN)[:-3] + "\n"),
        [],
        "line 2",
    ),
    "JSON line not an object": (
        _text("l.jsonl", json.dumps(QWEN) + "\n[1, 2]\n"),
        [],
        "a JSON object on every line",
    ),
    "scores not booleans": (
        _text("q.jsonl", json.dumps({**QWEN, "score": ["yes"]}) + "\n"),
        [],
        "true/false",
    ),
    "responses mismatched": (
        _text("r.jsonl", json.dumps({**QWEN, "code": []}) + "\n"),
        [],
        "responses",
    ),
    "lm-eval metric missing": (
        _text("le.jsonl", json.dumps({"doc_id": 0, "resps": [], "metrics": ["acc"]}) + "\n"),
        [],
        "metric value",
    ),
    "lm-eval metric a word": (
        _text(
            "lw.jsonl",
            json.dumps({"doc_id": 0, "resps": [], "metrics": ["acc"], "acc": "x"}) + "\n",
        ),
        [],
        "a score from 0 to 1",
    ),
    # issue 21, item 3: numbers that looked right
    "lm-eval metric NaN": (_text("nan.jsonl", _lm_eval([0, 1, "nan"])), [], "line 3, column 'acc'"),
    "lm-eval metric a percentage": (_text("pc.jsonl", _lm_eval([0, 57])), [], "got 57"),
    "lm-eval metric -1": (_text("neg.jsonl", _lm_eval([1, -1])), [], "a score from 0 to 1"),
    "lm-eval doc_id on the first line only": (
        _text("d1.jsonl", _lm_eval([1, 0, 0], docs=[0, None, None])),
        [],
        "line 2, column 'doc_id': expected a doc_id on every line",
    ),
    "lm-eval document twice": (
        _text("d2.jsonl", _lm_eval([1, 0], docs=[4, 4])),
        [],
        "line 2, column 'doc_id': expected each document once (doc 4 is also on line 1)",
    ),
    "lm-eval n-samples negative": (
        _text(
            "ns.json",
            json.dumps(
                {"results": {"gsm8k": {"acc": 0.5}}, "n-samples": {"gsm8k": {"effective": -5}}}
            ),
        ),
        [],
        "column 'n-samples': expected a positive whole count of 'gsm8k''s problems; got -5",
    ),
    "lighteval summary counts as text": (
        _text(
            "results_2025.json",
            json.dumps(
                {
                    "results": {"lighteval|aime24|0": {"extractive_match": 0.3}},
                    "summary_tasks": {
                        "lighteval|aime24|0": {"truncated": "0", "non_truncated": "30"}
                    },
                }
            ),
        ),
        [],
        "column 'summary_tasks'",
    ),
    # issue 21, items 5 and 7: steps that are not whole numbers, said with their line
    "fractional steps": (_text("fs.csv", WANDB + "0,0.1\n1.5,0.2\n1.7,0.3\n"), [], "line 3"),
    "a step of 1e30": (_text("bs.csv", WANDB + "0,0.1\n1e30,0.2\n"), [], "a whole-number step"),
    "a step of -inf": (_text("is.csv", WANDB + "0,0.1\n-inf,0.2\n"), [], "got -inf"),
    # issue 21, item 6: tracebacks before
    "inspect epoch a word": (
        _text("ie.json", _inspect([{"id": 1, "epoch": "x", "scores": {"m": {"value": "C"}}}])),
        [],
        "column 'samples[0].epoch': expected an epoch counted from 1; got 'x'",
    ),
    "inspect samples an object": (_text("io.json", _inspect({"a": 1})), [], "a list of samples"),
    "inspect accuracy a word": (
        _text("ia.json", _inspect([], results=[{"name": "m", "metrics": {"accuracy": "abc"}}])),
        [],
        "column 'results.scores[0].metrics.accuracy.value': expected an accuracy from 0 to 1",
    ),
    "step pattern not a pattern": (
        _two_steps_no_name,
        ["--step-from-path", "("],
        "error: --step-from-path: expected a regular expression; got '( (missing ),",
    ),
    "step pattern without a group": (
        _two_steps_no_name,
        ["--step-from-path", "epoch"],
        "expected a regular expression with one group, the step",
    ),
    # issue 21, item 5: percentages in a scores table
    "scores table in percent text": (
        _text("pt.csv", "model,size,acc,gsm8k\nm,7,63.3%,0.5\nn,8,0.5,0.5\n"),
        [],
        "line 3, column 'acc': expected every score of the column written as a percentage",
    ),
    "scores table in percent numbers": (
        _text("pn.csv", "model,size,acc\nm,7,30\nn,14,50\no,32,80\n"),
        [],
        "line 2, column 'acc': expected scores as fractions from 0 to 1",
    ),
    "scores table in percent, benchmarks named": (
        _text("pb.csv", "model,size,acc\nm,7,0.3\nn,14,50\n"),
        ["--benchmarks", "acc"],
        "line 3, column 'acc'",
    ),
    "scores table without a score": (
        _text("pz.csv", "model,size,note\nm,7,x\n"),
        [],
        "a benchmark column of scores from 0 to 1",
    ),
    # issue 21, item 7: errors that did not say where
    "a list column in Parquet": (
        _frame("lc.parquet", _samples(correct=[[True], [False], [True], [True]])),
        [],
        "column 'correct': expected one value per row (one row per sample); got 'List(Boolean)'",
    ),
    "a checkpoint past int64": (
        _in_folder("run/ckpt_99999999999999999999/s.jsonl", json.dumps(QWEN) + "\n"),
        [],
        "column 'path': expected a step from 0 to 2**63 - 1 in the folder name",
    ),
    "a level that is not one": (
        _text("lv.jsonl", json.dumps({**QWEN, "level": "hard"}) + "\n"),
        [],
        "line 1, column 'level': expected a level such as 3 or 'Level 3'; got 'hard'",
    ),
    "a quoted newline before a bad value": (
        _text("qn.csv", '_step,val/test_score/a,note\n0,0.5,"a\nb"\n5,oops,c\n'),
        [],
        "line 4, column 'val/test_score/a'",
    ),
    "a quoted newline before a bad sample": (
        _text(
            "qs.csv",
            ",".join(GOOD) + '\n0,b,"p\n0",0,true,1\n0,b,p1,0,yes,1\n',
        ),
        [],
        "line 4, column 'correct'",
    ),
    # verifiers vf-eval results
    "verifiers without a correctness function": (
        _text("v1.jsonl", json.dumps({**VF, "format_reward_func": 1.0}) + "\n"),
        [],
        "line 1: expected a reward function for correctness",
    ),
    "verifiers partial credit": (
        _text("v2.jsonl", json.dumps({**VF, "correct_answer_reward_func": 0.5}) + "\n"),
        [],
        "line 1, column 'correct_answer_reward_func': expected a correctness of 0 or 1",
    ),
    # found by the generated JSON lines below: a `metrics` that is not a list of names
    "lm-eval metrics null": (
        _text("ln.jsonl", json.dumps({"doc_id": 0, "resps": [], "metrics": None}) + "\n"),
        [],
        "a list of metric names",
    ),
    "lm-eval metric name a list": (
        _text("ll.jsonl", json.dumps({"doc_id": 0, "resps": [], "metrics": [["acc"]]}) + "\n"),
        [],
        "a list of metric names",
    ),
    "empty jsonl": (_text("e.jsonl", "\n\n"), [], "empty"),
    "unknown jsonl": (_text("k.jsonl", json.dumps({"a": 1}) + "\n"), [], "Qwen2.5-Math"),
    "trainer state without history": (
        _text("trainer_state.json", json.dumps({"log_history": {"a": 1}})),
        [],
        "got ['log_history']",
    ),
    "history entry not an object": (
        _text("ts.json", json.dumps({"log_history": [1]})),
        [],
        "log_history[0]",
    ),
    "results in percent": (
        _text("r.json", json.dumps({"results": {"gsm8k": {"acc": 57}}, "n-samples": {}})),
        [],
        "fraction",
    ),
    "results without a number": (
        _text("rn.json", json.dumps({"results": {"gsm8k": {"alias": "x"}}, "configs": {}})),
        [],
        "numeric metric",
    ),
    "invalid JSON document": (_text("bad.json", "{not json"), [], "JSON"),
    "harness acc over 100": (
        _text("m.json", json.dumps({"num_samples": 5, "acc": 140})),
        [],
        "percentage from 0 to 100",
    ),
    "inspect partial credit": (
        _text(
            "i.json",
            json.dumps(
                {
                    "eval": {"task": "t"},
                    "samples": [{"id": 1, "epoch": 1, "scores": {"m": {"value": "P"}}}],
                }
            ),
        ),
        [],
        "partial credit",
    ),
    "inspect without anything": (
        _text("in.json", json.dumps({"eval": {"task": "t"}, "results": {}})),
        [],
        "accuracy metric",
    ),
    "not found": (lambda d: [str(d / "nope.csv")], [], "not found"),
    "unsupported suffix": (_text("x.txt", "hello"), [], ".csv, .json"),
    "mixed formats": (
        _with(
            _text("w.csv", WANDB + "0,0.5\n"),
            str(REALDATA / "obsscaling_base_llm_benchmark_eval.csv"),
        ),
        [],
        "files of one format",
    ),
    "filter leaves nothing": (_frame("f.parquet", _samples()), ["--benchmarks", "nope"], "none"),
    "size not a number": (_text("sz.csv", "model,size,acc\nm,big,0.5\n"), [], "a number"),
    # long tables: several runs in one table, benchmarks as rows
    "long table benchmark twice at a step": (
        _text("lt.csv", "step,task,acc\n1,x,0.5\n1,x,0.6\n2,x,0.4\n"),
        [],
        "line 3, column 'task': expected each task once per step (also on line 2)",
    ),
    "long table accuracy in percent": (
        _text("lp.csv", "step,task,acc\n1,x,0.5\n2,x,57\n"),
        [],
        "line 3, column 'acc': expected accuracy as a fraction",
    ),
    "long table percent string not a number": (
        _text("ls.csv", "step,task,acc\n1,x,50%\n2,x,n/a%\n"),
        [],
        "line 3, column 'acc': expected a percentage such as 63.3%",
    ),
    "long table without a value column": (
        _text("lv.csv", "step,task,note\n1,x,ok\n"),
        [],
        "a value column beside the benchmark column 'task'",
    ),
    "a negative token count": (
        _frame("n.parquet", _samples(response_tokens=[10, -5, 20, 30])),
        [],
        "row 2, column 'response_tokens': expected a token count of 0 or more; got -5",
    ),
    # Every Eval Ever and SwanLab (issue 41)
    "eee score over its range": (
        _text("e.json", json.dumps(_eee(1.4))),
        [],
        "column 'evaluation_results[0].score_details.score': expected a score from 0 to 1",
    ),
    "eee only metrics that are no share": (
        _text("el.json", json.dumps(_eee(3.5, lower_is_better=True))),
        [],
        "expected a result whose metric is a share of right answers",
    ),
    "eee sample without a verdict": (
        _text("es.jsonl", json.dumps(_eee_sample({"num_turns": 1})) + "\n"),
        [],
        "line 1, column 'evaluation': expected evaluation.is_correct (true/false)",
    ),
    "empty swanlab log": (
        _bytes("run-x.swanlab", b""),
        [],
        "run-x.swanlab, row 1: expected a SwanLab run log (starting ':SWL'); got '0 bytes'",
    ),
    "swanlab log of an unknown version": (
        _bytes("run-y.swanlab", b":SWL\xd6\xe1\x07" + bytes(20)),
        [],
        "expected a SwanLab transaction log of version 1 or 2; got 'version 7'",
    ),
    "run column mapped but absent": (
        _text("lr.csv", "step,eval_x_accuracy\n1,0.5\n"),
        ["--map", "run=arm"],
        "expected a column 'arm' (--map run=arm)",
    ),
}


@pytest.mark.parametrize("kind", list(CATALOGUE))
def test_catalogue_of_bad_input(kind, tmp_path, capsys):
    make, extra, words = CATALOGUE[kind]
    inputs = make(tmp_path)
    out = tmp_path / "out" / "chart.png"
    assert main(["plot", *inputs, *extra, "-o", str(out)]) == 2
    err = capsys.readouterr().err
    lines = [line for line in err.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("error: "), err
    assert words in lines[0], lines[0]
    assert not out.exists()


def test_links_in_a_folder_are_read_once_and_loops_never_entered(tmp_path, capsys):
    """A `latest -> checkpoint-21` link beside its target, and a link back up (a loop): the
    run is read as if neither were there, and inspect names both."""
    run = tmp_path / "run"
    (run / "checkpoint-21").mkdir(parents=True)
    rows = "".join(json.dumps({**QWEN, "idx": i, "score": [i % 3 == 0]}) + "\n" for i in range(6))
    (run / "checkpoint-21" / "s.jsonl").write_text(rows)
    (run / "checkpoint-49").mkdir()
    (run / "checkpoint-49" / "s.jsonl").write_text(rows.replace("false", "true"))
    plain = tmp_path / "plain.csv"
    assert main(["plot", str(run), "-o", str(plain)]) == 0
    (run / "latest").symlink_to(run / "checkpoint-49")
    (run / "checkpoint-21" / "up").symlink_to(run)
    linked = tmp_path / "linked.csv"
    assert main(["plot", str(run), "-o", str(linked)]) == 0
    assert linked.read_bytes() == plain.read_bytes()
    assert pl.read_csv(linked)["accuracy"].to_list() == pytest.approx([2 / 6, 1.0])
    capsys.readouterr()
    assert main(["inspect", str(run)]) == 0
    assert "2 link(s) to what was already read, left out: checkpoint-21/up, latest" in (
        capsys.readouterr().out
    )


def test_a_link_loop_in_a_partitioned_folder_never_hangs(tmp_path):
    part = tmp_path / "hive" / "step=1"
    part.mkdir(parents=True)
    _samples().filter(step=0).drop("step").write_parquet(part / "x.parquet")
    (part / "up").symlink_to(tmp_path / "hive")
    (tmp_path / "hive" / "latest").symlink_to(part)
    result = _cli("plot", tmp_path / "hive", "-o", tmp_path / "o.csv", timeout=60)
    assert result.returncode == 0, result.stderr
    assert pl.read_csv(tmp_path / "o.csv")["samples"].to_list() == [2]


# letters, and what a terminal acts on: ESC, BEL, backspace, DEL, NEL, a direction override
CONTROLS = ["a", "Z", "9", "\x1b", "\x07", "\x08", "\x7f", "\x85", "\u202e", "\u2028"]


@given(st.text(st.sampled_from(CONTROLS), min_size=1, max_size=12))
@settings(
    max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
def test_inspect_prints_no_control_character_from_a_log(tmp_path, capsys, name):
    """A benchmark named with ESC, BEL or a direction override is printed escaped: nothing from
    a log reaches the terminal as a control sequence (issue 21, item 9)."""
    path = tmp_path / "esc.csv"
    path.write_text(f"_step,val/test_score/aime\x1b[31m{name}\x07\n0,0.1\n10,0.2\n")
    assert main(["inspect", str(path)]) == 0
    out = capsys.readouterr().out
    assert "aime\\x1b[31m" in out and "\\x07" in out
    assert all(c.isprintable() for line in out.splitlines() for c in line)


def test_catalogue_has_forty_kinds_or_more():
    assert len(CATALOGUE) >= 40


COMPARE_FAULTS = {
    "one run": (["a={0}/a.parquet", "a={0}/b.parquet"], "at least two runs"),
    "duplicated ids": (
        ["a={0}/dup.parquet", "b={0}/b.parquet"],
        "each sample of a problem once",
    ),
    "ids 0, 0, 3, 3": (["a={0}/a.parquet", "b={0}/swapped.parquet"], "4 rows for 2 sample ids"),
    "no shared benchmark": (["a={0}/a.parquet", "b={0}/other.parquet"], "a benchmark shared"),
    "output over an input": (["a={0}/a.csv", "b={0}/b.parquet"], "not one of the inputs"),
}


@pytest.mark.parametrize("kind", list(COMPARE_FAULTS))
def test_compare_faults(kind, tmp_path, capsys):
    _samples().write_parquet(tmp_path / "a.parquet")
    _samples(correct=[True] * 4).write_parquet(tmp_path / "b.parquet")
    _samples(sample_id=[0, 0, 0, 0], problem_id=["p0"] * 4).write_parquet(tmp_path / "dup.parquet")
    _samples(benchmark=["c"] * 4).write_parquet(tmp_path / "other.parquet")
    _samples(sample_id=[0, 0, 3, 3], problem_id=["p0"] * 4, step=[0] * 4).write_parquet(
        tmp_path / "swapped.parquet"
    )
    _samples().write_csv(tmp_path / "a.csv")
    runs, words = COMPARE_FAULTS[kind]
    out = tmp_path / ("a.csv" if kind == "output over an input" else "x.csv")
    before = out.read_bytes() if out.exists() else None
    assert main(["compare", *(r.format(tmp_path) for r in runs), "-o", str(out)]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("error: ") and len(err.splitlines()) == 1 and words in err
    assert (out.read_bytes() if out.exists() else None) == before


# ---- generated inputs ------------------------------------------------------------------------------

CELLS = st.one_of(
    st.floats(allow_nan=True, allow_infinity=True).map(repr),
    st.integers(-(10**12), 10**12).map(str),
    st.sampled_from(
        ["", "NaN", "inf", "-", "yes", "True", "0.5", "1e400", '"a,b"', "\u2028", "<b>"]
    ),
    st.text(max_size=8),
)
NAMES = st.one_of(
    st.sampled_from(
        [
            "_step",
            "step",
            "global_step",
            "val/test_score/a",
            "val/test_score/<b>",
            "val-core/x/acc/mean@4",
            "response_length/mean",
            "critic/scores/s/mean",
            "",
        ]
    ),
    st.text(min_size=1, max_size=12),
)
SETTINGS = settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)


def _contract(tmp_path, capsys, inputs: list[Path], suffix: str = ".csv") -> None:
    out = tmp_path / f"out{suffix}"
    out.unlink(missing_ok=True)
    code = main(["plot", *map(str, inputs), "-o", str(out)])
    err = capsys.readouterr().err
    if code == 0:
        assert out.exists() and out.stat().st_size > 0
    else:
        assert code == 2 and not out.exists()
        assert [line.startswith("error: ") for line in err.splitlines() if line.strip()] == [True]
    assert not list(tmp_path.glob(".out*.tmp"))


@SETTINGS
@given(
    header=st.lists(NAMES, min_size=1, max_size=5),
    rows=st.lists(st.lists(CELLS, min_size=0, max_size=6), max_size=6),
)
def test_generated_wandb_exports(tmp_path, capsys, header, rows):
    text = ",".join(json.dumps(h) if "," in h or '"' in h else h for h in header) + "\n"
    text += "".join(",".join(json.dumps(c) if "," in c else c for c in r) + "\n" for r in rows)
    path = tmp_path / "gen.csv"
    path.write_text(text, encoding="utf-8", errors="surrogatepass")
    _contract(tmp_path, capsys, [path])


@settings(max_examples=12, deadline=None, suppress_health_check=list(HealthCheck))
@given(
    steps=st.sampled_from([3, 5_001, 7_000]),
    benchmarks=st.integers(1, 3),
    damage=st.sampled_from([None, "NaN", "57", "-0.2", "1.5e300", ""]),
    where=st.integers(0, 10**6),
    suffix=st.sampled_from([".csv", ".png"]),
)
def test_generated_metric_logs_of_any_size(
    tmp_path, capsys, steps, benchmarks, damage, where, suffix
):
    """W&B exports past altair's 5,000-row limit, with one cell damaged (a NaN, a percentage,
    a negative or huge score, a blank): the chart is drawn with exactly the logged values
    (NaN and blank are not logged), or the error names the damaged cell's line."""
    names = [f"val/test_score/b{j}" for j in range(benchmarks)]
    values = [[round((i * 7 + j) % 100 / 100, 2) for j in range(benchmarks)] for i in range(steps)]
    cells = [[str(v) for v in row] for row in values]
    row, col = where % steps, where % benchmarks
    if damage is not None:
        cells[row][col] = damage
    text = "_step," + ",".join(names) + "\n"
    text += "".join(f"{i * 10}," + ",".join(r) + "\n" for i, r in enumerate(cells))
    path = tmp_path / "run.csv"
    path.write_text(text)
    out = tmp_path / f"out{suffix}"
    code = main(["plot", str(path), "-o", str(out)])
    err = capsys.readouterr().err
    if damage in ("57", "-0.2", "1.5e300"):
        assert code == 2 and f"line {row + 2}, column '{names[col]}'" in err, err
        return
    assert code == 0, err
    if suffix == ".csv":
        table = pl.read_csv(out).sort("benchmark", "step")
        expected = [
            (f"b{j}", i * 10, values[i][j])
            for j in range(benchmarks)
            for i in range(steps)
            if damage is None or (i, j) != (row, col)
        ]
        mean = table.filter(pl.col("benchmark").str.starts_with("mean of "))
        table = table.filter(~pl.col("benchmark").str.starts_with("mean of "))
        assert table.select("benchmark", "step", "score").rows() == expected
        # the average papers report: at each step where every benchmark was logged
        full = {i for i in range(steps) if damage is None or i != row} if benchmarks > 1 else set()
        assert set(mean["step"]) == {i * 10 for i in full}
        for r in mean.iter_rows(named=True):
            i = r["step"] // 10
            assert r["score"] == pytest.approx(sum(values[i]) / benchmarks)
    else:
        assert out.read_bytes().startswith(b"\x89PNG")


def _checkpoints(d: Path) -> dict[str, Path]:
    """A run folder of two checkpoints, a link to one file, a link to the folder."""
    run = d / "run"
    for step, right in ((10, [True, False]), (20, [True, True])):
        (run / f"ckpt_{step}").mkdir(parents=True)
        lines = [json.dumps({**QWEN, "idx": i, "score": [r]}) for i, r in enumerate(right)]
        (run / f"ckpt_{step}" / "s.jsonl").write_text("\n".join(lines) + "\n")
    (d / "link.jsonl").symlink_to(run / "ckpt_10" / "s.jsonl")
    (d / "run_link").symlink_to(run)
    return {
        "run": run,
        "ckpt_10": run / "ckpt_10" / "s.jsonl",
        "ckpt_20": run / "ckpt_20" / "s.jsonl",
        "link.jsonl": d / "link.jsonl",
        "run_link": d / "run_link",
    }


@settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck))
@given(
    picks=st.lists(
        st.sampled_from(["run", "ckpt_10", "ckpt_20", "link.jsonl", "run_link"]),
        min_size=1,
        max_size=3,
    )
)
def test_generated_inputs_given_twice_or_through_links(tmp_path_factory, capsys, picks):
    """Inputs drawn from a run, its files, a link to a file and a link to the run: the same
    data reached twice (directly, through a link, or inside a folder also given) is refused;
    otherwise every answer is counted once (accuracy 0.5 at step 10, 1.0 at step 20)."""
    d = tmp_path_factory.mktemp("given")
    paths = _checkpoints(d)
    real = {
        "run": {"ckpt_10", "ckpt_20"},
        "run_link": {"ckpt_10", "ckpt_20"},
        "ckpt_10": {"ckpt_10"},
        "link.jsonl": {"ckpt_10"},
        "ckpt_20": {"ckpt_20"},
    }
    reached = [f for p in picks for f in real[p]]
    out = d / "out.csv"
    code = main(["plot", *(str(paths[p]) for p in picks), "-o", str(out)])
    err = capsys.readouterr().err
    if len(reached) > len(set(reached)):
        assert code == 2 and "each input once" in err, err
        return
    assert code == 0, err
    table = pl.read_csv(out)
    assert table["problems"].to_list() == [2] * table.height
    accuracy = {"ckpt_10": 0.5, "ckpt_20": 1.0}
    if "step" in table.columns:  # a curve over the checkpoints, each step from its path
        step = {"ckpt_10": 10, "ckpt_20": 20, "link.jsonl": None}  # a link is named as given
        expected = {
            (step.get(p, int(f.removeprefix("ckpt_")))): accuracy[f] for p in picks for f in real[p]
        }
        assert dict(zip(table["step"], table["accuracy"], strict=True)) == expected
    else:  # one evaluation, by MATH level (all level 1 here) and overall
        assert set(table["accuracy"]) == {accuracy[reached[0]]}


VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=5),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner, max_size=3)
    ),
    max_leaves=6,
)
RECORD_KEYS = st.sampled_from(
    [
        "idx",
        "score",
        "code",
        "level",
        "doc_id",
        "resps",
        "metrics",
        "acc",
        "step",
        "global_step",
        "eval/x/acc",
        "prompt",
        "completion",
        "reward",
        "answer",
        "correct_answer_reward_func",
    ]
)


@SETTINGS
@given(
    records=st.lists(st.dictionaries(RECORD_KEYS, VALUES, max_size=6), min_size=0, max_size=5),
    junk=st.sampled_from(["", "{", "[]", "null", "\x00"]),
)
def test_generated_json_lines(tmp_path, capsys, records, junk):
    path = tmp_path / "gen.jsonl"
    path.write_text(
        "\n".join(json.dumps(r) for r in records) + ("\n" + junk if junk else "") + "\n"
    )
    _contract(tmp_path, capsys, [path], ".png")


COLUMN_VALUES = {
    "step": st.one_of(st.integers(-5, 5), st.floats(-2, 2), st.sampled_from(["x", None])),
    "benchmark": st.one_of(st.sampled_from(["a", "b", "</script>"]), st.none()),
    "problem_id": st.one_of(st.sampled_from(["p0", "p1", "p2"]), st.none()),
    "sample_id": st.one_of(st.integers(0, 2), st.sampled_from([None, "s"])),
    "correct": st.one_of(st.booleans(), st.sampled_from([0, 1, 0.5, "yes", "True", None])),
    "response_tokens": st.one_of(st.integers(0, 100), st.sampled_from([None, -1, 1.5])),
}


@SETTINGS
@given(
    rows=st.lists(st.fixed_dictionaries(COLUMN_VALUES), min_size=0, max_size=8),
    drop=st.sampled_from([None, *COLUMN_VALUES]),
    fmt=st.sampled_from(["csv", "parquet"]),
)
def test_generated_per_sample_tables(tmp_path, capsys, rows, drop, fmt):
    columns = {c: [r[c] for r in rows] for c in COLUMN_VALUES if c != drop}
    frame = pl.DataFrame(columns, strict=False) if rows else pl.DataFrame(schema=list(columns))
    path = tmp_path / f"gen.{fmt}"
    frame.write_csv(path) if fmt == "csv" else frame.write_parquet(path)
    _contract(tmp_path, capsys, [path])


# ---- what could hang, what could be cut off ------------------------------------------------------


def _cli(*args, timeout=60) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "helpers", *map(str, args)],
        capture_output=True,
        text=True,
        timeout=timeout,  # a bound on a hang, not a speed target
        cwd=ROOT,
    )


# runs the command (its output dropped) and prints the peak memory of it, its only child
MEASURED = """import resource, subprocess, sys
run = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, timeout=300)
print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss // 1024)
sys.exit(run.returncode)
"""


def _measured_cli(*args) -> tuple[int, str, int]:
    """Exit code, error output and peak memory (MB) of one `python -m helpers` process."""
    run = subprocess.run(
        [sys.executable, "-c", MEASURED, sys.executable, "-m", "helpers", *map(str, args)],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    return run.returncode, run.stderr, int(run.stdout)


HEADERS = {
    "nul-padded-tidy.csv": b"step,benchmark,problem_id,sample_id,correct,response_tokens\n0,b,p,0,1,9\n",
    "nul-padded-wandb.csv": WANDB.encode() + b"0,0.5\n",
}


@pytest.mark.parametrize(
    "kind",
    ["fifo", "device", "sparse.csv", "sparse.jsonl", "sparse.json", "sparse.parquet", *HEADERS],
)
def test_nothing_hangs_or_grows(tmp_path, kind):
    """Pipes and devices are refused; 2 GB of zero bytes (alone, or after a valid header and
    row: what a crash leaves in a preallocated log) are an error naming the line, read with
    under 1 GB of memory (polars read the NULs as one value: 8.9 GB in 36 s)."""
    if kind == "fifo":
        path = tmp_path / "pipe.csv"
        os.mkfifo(path)
    elif kind == "device":
        path = tmp_path / "zero.csv"
        path.symlink_to("/dev/zero")
    else:
        path = tmp_path / kind
        with path.open("wb") as f:
            f.write(HEADERS.get(kind, b""))
            f.truncate(2 * 2**30)  # 2 GB, zero bytes after the header, no disk used
    returncode, stderr, peak_mb = _measured_cli("plot", path, "-o", tmp_path / "x.png")
    assert returncode == 2 and stderr.startswith("error: "), stderr
    assert "Traceback" not in stderr and not (tmp_path / "x.png").exists()
    assert peak_mb < 1024
    if kind in HEADERS:
        assert "line 3: expected text (found a NUL byte" in stderr


def _kill_when(command: list[str], ready) -> None:
    """Start the command and SIGKILL it as soon as ready() holds (or when it ends)."""
    p = subprocess.Popen(command, cwd=ROOT)
    while p.poll() is None and not ready():
        time.sleep(0.002)
    p.send_signal(signal.SIGKILL)
    p.wait()


def test_killed_mid_write_leaves_no_partial_output(tmp_path):
    """Kill the process at the moments that matter, found by watching it rather than by
    sleeping: while it starts, as soon as its temporary file appears (mid-write), and as soon
    as the output appears. The output is either absent or whole (written to a temporary file,
    then renamed)."""
    out = tmp_path / "grid.html"
    source = ROOT / "data" / "examples" / "simulated_run.parquet"
    command = [sys.executable, "-m", "helpers", "plot", str(source), "-o", str(out)]
    started = time.monotonic()
    moments = {
        "starting": lambda: time.monotonic() - started > 0.3,
        "writing": lambda: any(tmp_path.glob(".grid.html.*.tmp")) or out.exists(),
        "renamed": out.exists,
    }
    for moment, ready in moments.items():
        out.unlink(missing_ok=True)
        started = time.monotonic()
        _kill_when(command, ready)
        if out.exists():
            assert moment != "starting" and out.read_text().rstrip().endswith("</html>")
    result = _cli("plot", source, "-o", out)
    assert result.returncode == 0 and out.read_text().rstrip().endswith("</html>")


def test_a_full_disk_is_one_error_line_saying_so(tmp_path, monkeypatch, capsys):
    """A CSV that polars cannot finish writing, its temporary file on a full device (/dev/full,
    polars' own error, whose reason is in its text): plot's output and compare's
    --problems-out each end in one error line naming the file and the reason, and the output
    is not there."""
    import helpers.io

    real = helpers.io.tempfile.mkstemp

    def full_for(name: str):
        def mkstemp(dir, prefix, suffix):  # noqa: A002 - tempfile's own argument name
            if name not in prefix:
                return real(dir=dir, prefix=prefix, suffix=suffix)
            return os.open("/dev/full", os.O_WRONLY), str(Path(dir) / f"{prefix}x{suffix}")

        return mkstemp

    out, flips = tmp_path / "numbers.csv", tmp_path / "flips.csv"
    cases = {
        "numbers": ["plot", str(ROOT / "data" / "examples" / "simulated_run.parquet")],
        "flips": ["compare", f"7b={SKY}", f"14b={SKY14}", "--problems-out", str(flips)],
    }
    for name, args in cases.items():
        monkeypatch.setattr(helpers.io.tempfile, "mkstemp", full_for(name))
        assert main([*args, "-o", str(out)]) == 2
        [line] = capsys.readouterr().err.strip().splitlines()
        target = out if name == "numbers" else flips
        assert line.startswith(f"error: {target}: expected a place the output can be written")
        assert "No space left on device" in line
        assert not target.exists()
        out.unlink(missing_ok=True)


# ---- arguments the command line refuses: one error line each (issue 41) -------------------------

REFUSED = {
    "compare --adjust bonferroni": (
        ["compare", "a={sky}", "b={sky}", "--adjust", "bonferroni", "-o", "{out}"],
        "argument --adjust: invalid choice: 'bonferroni'",
    ),
    "power --accuracy 1.5": (
        ["power", "--problems", "30", "--accuracy", "1.5"],
        "expected a fraction between 0 and 1; got 1.5",
    ),
    "power --agreement 2": (
        ["power", "--problems", "30", "--accuracy", "0.5", "--agreement", "2"],
        "argument --agreement: expected a fraction",
    ),
    "power --power 1": (
        ["power", "--problems", "30", "--accuracy", "0.5", "--power", "1"],
        "argument --power: expected a fraction",
    ),
    "power --alpha 0": (
        ["power", "--problems", "30", "--accuracy", "0.5", "--alpha", "0"],
        "argument --alpha: expected a fraction",
    ),
    "plot --columns 0": (
        ["plot", "{sky}", "--columns", "0", "-o", "{out}"],
        "expected a whole number of panels, 1 or more; got 0",
    ),
    "compare --columns -2": (
        ["compare", "a={sky}", "b={sky}", "--columns", "-2", "-o", "{out}"],
        "expected a whole number of panels, 1 or more; got -2",
    ),
    "plot --smooth 1": (
        ["plot", "{sky}", "--smooth", "1", "-o", "{out}"],
        "expected a weight from 0 to below 1; got 1",
    ),
    "no command": ([], "the following arguments are required: command"),
}


@pytest.mark.parametrize("kind", list(REFUSED))
def test_refused_arguments_are_one_error_line(kind, tmp_path, capsys):
    """An argument argparse refuses is one `error:` line naming the command and where help
    is, not a usage block of 6-11 lines (before, `--columns 0` even ended in a
    ZeroDivisionError traceback)."""
    args, words = REFUSED[kind]
    out = tmp_path / "x.png"
    with pytest.raises(SystemExit) as ended:
        main([a.format(sky=SKY, out=out) for a in args])
    assert ended.value.code == 2
    err = capsys.readouterr().err
    lines = [line for line in err.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("error: python -m helpers"), err
    assert words in lines[0] and "--help" in lines[0]
    assert not out.exists()


def test_power_of_runs_with_a_baseline_at_zero_and_of_a_huge_benchmark(tmp_path, capsys):
    """A baseline at 0% is a real comparison (it ended in a ValueError traceback); a benchmark
    of 10^12 problems detects about 1.25e-6 (paired at 80% agreement: Connor's formula), not
    the 1e-4 a fixed search step stopped at."""
    rows = {"step": [0] * 4, "benchmark": "m", "problem_id": list("abcd"), "sample_id": 0}
    pl.DataFrame({**rows, "correct": [False] * 4, "response_tokens": 1}).write_parquet(
        tmp_path / "zero.parquet"
    )
    pl.DataFrame(
        {**rows, "correct": [True, False, True, False], "response_tokens": 1}
    ).write_parquet(tmp_path / "half.parquet")
    assert main(["power", f"a={tmp_path / 'zero.parquet'}", f"b={tmp_path / 'half.parquet'}"]) == 0
    assert "+50.0 points on 4 problems" in capsys.readouterr().out
    from helpers import stats

    d = stats.minimum_detectable_difference(10**12, 0.5, agreement=0.8)
    connor = (1.959963984540054 + 0.8416212335729143) * math.sqrt(0.2) / 10**6
    assert d == pytest.approx(connor, rel=0.02)
