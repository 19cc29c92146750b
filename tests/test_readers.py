"""Bring your own run: the real public logs in ../shared/realdata, synthetic inputs with known
answers, and one clear error for each kind of bad input."""

from __future__ import annotations

import json
import math
import subprocess
import sys

import numpy as np
import polars as pl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from helpers import DataError, stats
from helpers.runs import examples, readers, score_logs, summarise
from helpers.runs.readers.formats import metric_columns
from tests.realdata import OBS, SKY, SKY_ACCURACY, SKY_PROBLEMS, TRAIN, VAL

from .conftest import EXAMPLE


def test_formats_are_recognised():
    assert [readers.detect(p) for p in (VAL, TRAIN, SKY, OBS, EXAMPLE)] == [
        "wandb",
        "wandb",
        "qwen-math",
        "scores",
        "samples",
    ]


def test_each_log_reads_as_the_typed_log_of_what_it_holds():
    """Per-sample answers, per-step scores and a table of models each come back as their own
    type, `holds` naming it, the rows of the other kinds None."""
    frames = {"samples": "samples", "scores": "scores", "models": "models"}
    for path, kind, want in [
        (SKY, readers.SampleLog, "samples"),
        (VAL, readers.ScoreLog, "scores"),
        (OBS, readers.ModelTable, "models"),
    ]:
        log = readers.load(path)
        assert type(log) is kind and log.holds == want
        assert [k for k in frames if getattr(log, k) is not None] == [want]
    lengths_only = readers.ScoreLog(VAL, "wandb")  # a training log of lengths, no score
    assert lengths_only.scores is None and lengths_only.samples is None


# ---- W&B ------------------------------------------------------------------------------------------


def _score_curves(*paths, benchmarks=None):
    curves, _, _ = score_logs.score_curves([readers.load(p) for p in paths], benchmarks)
    return curves


def test_reasoning360_export_gives_15_benchmarks_with_response_length():
    curves = _score_curves(VAL, TRAIN)
    # and their mean, and the training export's 16 sources in panels of their own
    assert curves["benchmark"].n_unique() == 15 + 1 + 16
    training = curves.filter(pl.col("benchmark").str.ends_with(" (training)"))
    logged = readers.load(TRAIN).scores.filter(benchmark="math__deepscaler_preview")
    drawn = training.filter(benchmark="math__deepscaler_preview (training)", metric="accuracy")
    assert drawn.sort("iteration")["value"].to_list() == logged.sort("step")["score"].to_list()
    assert drawn["lo"].is_null().all()  # no band: a batch's size is not logged
    curves = curves.filter(
        pl.col("benchmark") != "mean of 15 benchmarks",
        ~pl.col("benchmark").str.ends_with(" (training)"),
    )
    acc = curves.filter(metric="accuracy")
    assert acc.height == 15 * 30  # 30 validation steps (0, 5, ..., 140, 144)
    math500 = acc.filter(benchmark="math__math/unknown").sort("iteration")
    assert math500["value"][0] == pytest.approx(0.57)
    tokens = curves.filter(metric="token length")
    # step 0 has no training step at or before it (training logs start at step 1)
    assert tokens.height == 15 * 29 and tokens["iteration"].min() == 5.0


def test_nearest_earlier_step_matching():
    val = pl.DataFrame({"step": [0, 5, 10, 15]})
    train = pl.DataFrame({"step": [1, 4, 9, 16], "value": [10.0, 40.0, 90.0, 160.0]})
    out = score_logs.join_nearest_earlier(val, train)
    assert out["value"].to_list() == [None, 40.0, 90.0, 90.0]


def _searched(left, right):
    """The lengths attached by the nearest-earlier search, whatever the rows' layout."""
    return left.sort("step").join_asof(
        right.sort("step"), on="step", by="benchmark", strategy="backward", check_sortedness=False
    )


@pytest.mark.parametrize(
    "steps, names",
    [
        ([0, 5, 10, 0, 5, 10], list("aaabbb")),  # aligned: each row's own step, no search
        ([0, 5, 5, 0, 5, 10], list("aaabbb")),  # a step twice in a benchmark
        ([0, 5, 10, 0, 5, 10], list("aabbaa")),  # a benchmark's rows apart
        ([0, 10, 5, 0, 5, 10], list("aaabbb")),  # steps falling
    ],
)
def test_lengths_by_benchmark_the_same_with_or_without_the_search(steps, names):
    """`with_lengths` attaches a log's own lengths without the search where they hold its
    scores' (benchmark, step) pairs row for row: the same values as the search, in the
    scores' order; otherwise it searches."""
    rng = np.random.default_rng(len(set(zip(steps, names, strict=True))))
    left = pl.DataFrame({"step": steps, "benchmark": names, "score": rng.random(6)})
    right = left.select("step", "benchmark", tokens=pl.Series(rng.random(6)))
    aligned = steps == [0, 5, 10, 0, 5, 10] and names == list("aaabbb")
    assert score_logs._aligned(left, right, "step", "benchmark") == aligned
    out = score_logs.with_lengths(left, right)
    searched = _searched(left, right)
    if aligned:  # the scores' own order, their own lengths
        assert out.select(left.columns).equals(left)
        assert out["tokens"].equals(right["tokens"])
    keys = ["benchmark", "step", "score"]
    assert out.sort(keys).equals(searched.select(out.columns).sort(keys))
    # and a later length (step 6) for a score at 10 where the steps differ
    shifted = right.with_columns(pl.col("step") - (pl.col("step") == 10) * 4)
    out = score_logs.with_lengths(left, shifted)
    assert out.equals(_searched(left, shifted).select(out.columns))


@settings(max_examples=200, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.sampled_from(["b", "a", "B", "é", "a b", "ä", "\U0001f600", ""]), st.integers(-3, 3)
        ),
        min_size=1,
        max_size=30,
    ),  # fmt: skip
    st.sampled_from(["as drawn", "in blocks", "sorted"]),
)
def test_a_score_table_sorted_by_benchmark_and_step_as_polars_sorts_it(rows, layout):
    """`score_logs.by_benchmark` moves blocks, ranks names or lets polars sort; whichever it
    does, the table comes out as polars' own sort leaves it (rows with one benchmark and step
    twice excepted: polars leaves their order open)."""
    frame = pl.DataFrame(rows, schema={"benchmark": pl.String, "step": pl.Int64}, orient="row")
    frame = frame.with_row_index("row")
    if layout == "in blocks":  # each benchmark's rows together, steps rising, names unsorted
        frame = frame.unique(["benchmark", "step"], keep="first").sort("step")
        frame = frame.sort(pl.col("benchmark").rank("dense").mul(7).mod(5), maintain_order=True)
    elif layout == "sorted":
        frame = frame.sort("benchmark", "step")
    out = score_logs.by_benchmark(frame)
    assert out.height == frame.height and set(out["row"]) == set(frame["row"])
    expected = frame.sort("benchmark", "step")
    assert out.select("benchmark", "step").equals(expected.select("benchmark", "step"))
    if not frame.select(pl.struct("benchmark", "step").is_duplicated().any()).item():
        assert out.equals(expected)


@pytest.mark.parametrize("benchmarks", [3, 7, 40])
def test_the_benchmarks_mean_is_the_same_bits_whatever_the_rows_order(benchmarks):
    """A log's own scores and lengths come in its order (a benchmark's rows together), a
    searched join's by step: the mean of the benchmarks, in the CSV and the chart, is the same
    to the last bit either way (polars sums a group's rows in another order where the steps
    are not sorted)."""
    rng = np.random.default_rng(benchmarks)
    steps, names = np.arange(60) * 10, [f"bench{i}" for i in range(benchmarks)]
    blocks = pl.DataFrame(
        {
            "step": np.tile(steps, benchmarks),
            "benchmark": np.repeat(names, len(steps)),
            "score": rng.random(len(steps) * benchmarks),
            "problems": rng.integers(30, 500, len(steps) * benchmarks),
            "tokens": rng.random(len(steps) * benchmarks) * 3000,
        }
    )
    by_step = blocks.sort("step", maintain_order=True)
    mean = score_logs.mean_of_benchmarks(blocks, names)
    assert mean.height == len(steps)
    assert mean.equals(score_logs.mean_of_benchmarks(by_step, names))


def test_train_export_step_matches_the_real_file():
    tokens = readers.load(TRAIN).tokens
    length = tokens.filter(pl.col("benchmark").is_null())
    assert length.height == 83 and length["step"].min() == 1 and length["step"].max() == 143
    raw = pl.read_csv(TRAIN, columns=["_step", "response_length/mean"])
    assert (
        length.sort("step")["tokens"].to_list()
        == raw.sort("_step")["response_length/mean"].to_list()
    )
    curves = _score_curves(VAL, TRAIN, benchmarks=["math__math/unknown"])
    at5 = curves.filter(metric="token length", iteration=5.0)["value"].item()
    earlier = length.filter(pl.col("step") <= 5).sort("step")["tokens"][-1]
    assert at5 == earlier


def test_wandb_quoted_commas_do_not_break_columns():
    scores = readers.load(VAL).scores
    assert scores["score"].dtype == pl.Float64 and scores["score"].is_between(0, 1).all()


def _write(tmp_path, name, text):
    path = tmp_path / name
    path.write_text(text)
    return path


def test_wandb_missing_step_column(tmp_path):
    path = _write(tmp_path, "x.csv", "epoch,val/test_score/a/unknown\n0,0.5\n")
    with pytest.raises(DataError) as e:
        readers.read_metric_log(path)
    assert (e.value.line, e.value.column) == (1, "step") and "_step, step, global_step" in str(
        e.value
    )


def test_step_or_underscore_step(tmp_path):
    path = _write(tmp_path, "x.csv", "step,val/test_score/a/unknown\n0,0.5\n")
    assert readers.load(path).scores["score"].to_list() == [0.5]


def test_wandb_non_numeric_metric(tmp_path):
    path = _write(tmp_path, "x.csv", "_step,val/test_score/a/unknown\n0,0.5\n5,oops\n")
    with pytest.raises(DataError) as e:
        readers.load(path)
    assert (e.value.line, e.value.column, e.value.got) == (3, "val/test_score/a/unknown", "oops")


def test_wandb_duplicated_step(tmp_path):
    path = _write(tmp_path, "x.csv", "_step,val/test_score/a/unknown\n0,0.5\n5,0.6\n5,0.7\n")
    with pytest.raises(DataError) as e:
        readers.load(path)
    assert (e.value.line, e.value.column) == (4, "_step") and "also on line 3" in str(e.value)


@pytest.mark.parametrize("benchmarks, steps", [(60, 2000), (metric_columns.PARTS + 44, 40)])
def test_a_long_log_reads_benchmark_by_benchmark_in_the_logs_column_order(
    tmp_path, benchmarks, steps
):
    """Sixty benchmarks (their columns in no sorted order) over 2,000 steps, with NaN and empty
    cells: the scores come benchmark by benchmark in the header's order, steps in order, the
    gaps left out, and the run's one length (no benchmark) likewise. Past PARTS benchmarks the
    same rows, held as one part (a lookup by benchmark then runs once, not once a benchmark)."""
    rng = np.random.default_rng(7)
    names = [f"b{i:03d}" for i in rng.permutation(benchmarks)]
    values = rng.random((steps, benchmarks)).round(3)
    values[rng.random(values.shape) < 0.1] = np.nan
    lengths = rng.integers(100, 900, steps)
    frame = pl.DataFrame({"step": np.arange(steps) * 5})
    frame = frame.with_columns(
        *(pl.Series(f"val/test_score/{n}", values[:, j]) for j, n in enumerate(names)),
        pl.Series("response_length/mean", lengths.astype(float)),
    )
    path = tmp_path / "long.csv"
    frame.with_columns(pl.col(f"val/test_score/{names[0]}").fill_nan(None)).write_csv(path)
    log = readers.read_metric_log(path)
    want = [
        (step * 5, name, values[step, j])
        for j, name in enumerate(names)
        for step in range(steps)
        if not np.isnan(values[step, j])
    ]
    scores = log.scores()
    assert scores.select("step", "benchmark", "score").rows() == want
    assert set(scores.n_chunks("all")) == ({1} if benchmarks > metric_columns.PARTS else {60})
    tokens = log.token_lengths()
    assert tokens["benchmark"].null_count() == steps
    assert tokens["step"].to_list() == [s * 5 for s in range(steps)]
    assert tokens["tokens"].to_list() == lengths.astype(float).tolist()


def test_wandb_unknown_benchmark(tmp_path):
    with pytest.raises(DataError, match="benchmarks among"):
        _score_curves(VAL, benchmarks=["nope"])


# ---- per-sample JSONL -------------------------------------------------------------------------------


def test_skythought_file_gives_52_4_percent_with_interval_and_levels():
    samples = readers.read_qwen_math(SKY)
    overall = summarise.accuracy_table(samples).row(0, named=True)
    assert overall["problems"] == SKY_PROBLEMS and overall["accuracy"] == pytest.approx(
        SKY_ACCURACY
    )
    lo, hi = stats.wilson_interval(262, 500)
    assert (overall["lo"], overall["hi"]) == pytest.approx((lo, hi))
    levels = summarise.accuracy_table(samples, ["level"])
    assert levels["level"].to_list() == [1, 2, 3, 4, 5]
    assert levels["problems"].sum() == 500
    weighted = (levels["accuracy"] * levels["problems"]).sum() / 500
    assert weighted == pytest.approx(SKY_ACCURACY)
    assert "pass@1" not in levels.columns  # one sample per problem: no pass@k


def test_pass_at_k_with_several_samples():
    samples = pl.DataFrame(
        {
            "problem_id": ["a"] * 4 + ["b"] * 4,
            "correct": [True, False, False, False, False, False, False, False],
        }
    )
    table = summarise.accuracy_table(samples)
    assert table["accuracy"].item() == pytest.approx(0.125)
    assert table["pass@4"].item() == pytest.approx(0.5)
    assert stats.pass_at_k(4, 1, 2) == pytest.approx(1 - math.comb(3, 2) / math.comb(4, 2))


def test_malformed_json_line(tmp_path):
    good = json.dumps({"idx": 0, "level": 1, "score": [True], "code": ["x"]})
    path = _write(tmp_path, "s.jsonl", good + "\n" + good[:-5] + "\n")
    with pytest.raises(DataError) as e:
        readers.read_qwen_math(path)
    assert e.value.line == 2 and "one JSON object per line" in str(e.value)


def test_qwen_scores_must_be_booleans(tmp_path):
    path = _write(
        tmp_path, "s.jsonl", json.dumps({"idx": 0, "score": ["yes"], "code": ["x"]}) + "\n"
    )
    with pytest.raises(DataError) as e:
        readers.read_qwen_math(path)
    assert (e.value.line, e.value.column) == (1, "score")


def test_lm_eval_samples(tmp_path):
    lines = [
        {
            "doc_id": i,
            "resps": [["x"]],
            "filtered_resps": ["x"],
            "metrics": ["exact_match"],
            "exact_match": float(i % 2),
        }
        for i in range(10)
    ]
    path = _write(tmp_path, "samples_gsm8k.jsonl", "\n".join(map(json.dumps, lines)) + "\n")
    assert readers.detect(path) == "lm-eval"
    samples = readers.read_lm_eval(path)
    assert summarise.accuracy_table(samples)["accuracy"].item() == pytest.approx(0.5)


def test_lm_eval_partial_credit_is_a_mean_reward_not_a_cut_at_half(tmp_path, capsys):
    """A metric between 0 and 1 (f1) is each document's reward: compared by mean reward (the
    paired t over per-problem differences), never turned into right/wrong at 0.5; `compare`
    says so in its last note."""
    from helpers.cli import main
    from helpers.runs import compare

    f1 = {"base": [0.4, 0.45, 0.9, 0.1, 0.3] * 8, "new": [0.6, 0.55, 0.95, 0.2, 0.45] * 8}
    paths = {}
    for name, values in f1.items():
        lines = [
            {"doc_id": i, "resps": [["x"]], "metrics": ["f1"], "f1": v}
            for i, v in enumerate(values)
        ]
        (tmp_path / name).mkdir()
        paths[name] = _write(
            tmp_path / name, "samples_squad.jsonl", "\n".join(map(json.dumps, lines))
        )
    loaded = readers.load(paths["new"])
    assert loaded.samples.collect()["reward"].to_list() == f1["new"]
    assert "mean reward" in " ".join(loaded.notes)
    row = compare.compare(paths).differences.row(0, named=True)
    assert row["unit"] == "mean reward" and row["interval"].startswith("paired: t")
    assert row["difference"] == pytest.approx(0.12)  # cut at 0.5: 0.6 - 0.2 = 0.4
    capsys.readouterr()
    out = tmp_path / "d.csv"
    assert main(["compare", f"base={paths['base']}", f"new={paths['new']}", "-o", str(out)]) == 0
    said = [line for line in capsys.readouterr().out.splitlines() if line.startswith("note: ")]
    assert said[-1] == (
        "note: rewards that are not 0/1 are compared as mean rewards, not accuracy "
        "(t over per-problem differences)"
    )


def test_unknown_format(tmp_path):
    path = _write(tmp_path, "x.jsonl", json.dumps({"a": 1}) + "\n")
    with pytest.raises(DataError, match="Qwen2.5-Math"):
        readers.detect(path)
    with pytest.raises(DataError, match=r"\.csv, \.json, \.jsonl or \.parquet"):
        readers.detect(_write(tmp_path, "x.txt", "hi"))


# ---- tidy per-sample tables -------------------------------------------------------------------------


def test_example_run_is_the_documented_simulation():
    assert pl.read_parquet(EXAMPLE).equals(examples.example_samples(seed=7))


def test_aggregate_known_answers(tmp_path):
    rows = []
    for step in (0, 10):
        for p in range(4):
            for s in range(2):
                rows.append((step, "b", f"p{p}", s, (p + s + step // 10) % 2 == 0, 100 * (p + 1)))
    df = pl.DataFrame(rows, schema=list(readers.SAMPLE_COLUMNS), orient="row")
    df.write_parquet(tmp_path / "t.parquet")
    out = summarise.aggregate_samples(readers.scan_samples([tmp_path / "t.parquet"]), bin_tokens=50)
    first = out.filter(step=0).row(0, named=True)
    assert (first["problems"], first["samples"], first["k"]) == (4, 8, 2)
    assert first["accuracy"] == pytest.approx(0.5)
    assert first["pass_k"] == pytest.approx(1.0)  # every problem has one correct of two
    assert first["mean_tokens"] == pytest.approx(250)
    # lengths 100,100,200,200,300,300,400,400 in 50-token bins: median bin [200,250) -> 250
    assert first["p50_tokens"] == 250 and first["p90_tokens"] == 450
    lo, hi = stats.wilson_interval(2, 4)
    assert (first["lo"], first["hi"]) == pytest.approx((lo, hi))


def test_hive_partitioned_folder_and_many_files(tmp_path):
    df = examples.example_samples(steps=(0, 10, 20))
    folder = tmp_path / "hive"
    for (step,), part in df.partition_by("step", as_dict=True).items():
        target = folder / f"step={step}"
        target.mkdir(parents=True)
        part.drop("step").write_parquet(target / "part.parquet")
    seen = []
    lf = readers.scan_samples([folder], progress=lambda i, n, p: seen.append((i, n)))
    out = summarise.aggregate_samples(lf)
    assert sorted(out["step"].unique().to_list()) == [0, 10, 20] and seen == [(1, 1)]
    files = []
    for (step,), part in df.partition_by("step", as_dict=True).items():
        files.append(tmp_path / f"s{step}.csv")
        part.write_csv(files[-1])
    out2 = summarise.aggregate_samples(readers.scan_samples(files))
    assert out2.drop("p50_tokens", "p90_tokens").equals(out.drop("p50_tokens", "p90_tokens"))


def test_samples_missing_column(tmp_path):
    path = tmp_path / "x.csv"
    examples.example_samples(steps=(0, 10)).drop("correct").write_csv(path)
    with pytest.raises(DataError) as e:
        readers.scan_samples([path])
    assert (e.value.line, e.value.column) == (1, "correct")


# ---- scores tables ----------------------------------------------------------------------------------


def test_obsscaling_scores_table():
    scores = readers.read_scores(OBS)
    assert set(scores["benchmark"]) == {
        "MMLU",
        "ARC-C",
        "HellaSwag",
        "Winograd",
        "TruthfulQA",
        "GSM8K",
        "XWinograd",
        "HumanEval",
    }
    assert scores["model"].n_unique() == 148 and scores["family"].n_unique() == 47
    assert scores["size_b"].min() > 0


def test_pass_at_k_when_problems_have_different_sample_counts(tmp_path):
    # p0: 2 samples, 1 correct; p1: 3 samples, 1 correct -> k = 2
    rows = [
        (0, "b", "p0", 0, True, 10),
        (0, "b", "p0", 1, False, 10),
        (0, "b", "p1", 0, False, 10),
        (0, "b", "p1", 1, True, 10),
        (0, "b", "p1", 2, False, 10),
    ]
    pl.DataFrame(rows, schema=list(readers.SAMPLE_COLUMNS), orient="row").write_parquet(
        tmp_path / "u.parquet"
    )
    out = summarise.aggregate_samples(readers.scan_samples([tmp_path / "u.parquet"])).row(
        0, named=True
    )
    assert out["k"] == 2
    expected = (stats.pass_at_k(2, 1, 2) + stats.pass_at_k(3, 1, 2)) / 2
    assert out["pass_k"] == pytest.approx(expected)
    assert out["accuracy"] == pytest.approx((1 / 2 + 1 / 3) / 2)


def test_aggregation_in_step_ranges_equals_one_pass():
    lf = readers.scan_samples([EXAMPLE])
    whole = summarise.aggregate_samples(lf, rows_per_pass=10**9)
    ranged = summarise.aggregate_samples(lf, rows_per_pass=2000)  # ~2 steps per pass
    assert ranged.equals(whole) and whole.height == 48


def test_reading_does_not_draw():
    """Readers and aggregation never import the chart code."""
    code = "import sys, helpers.runs.readers, helpers.runs.summarise; print('helpers.charts' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"
