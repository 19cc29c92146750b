"""python -m helpers plot: the real files chart through the command line."""

from __future__ import annotations

import json
import math
import re
import subprocess
import sys

import polars as pl
import pytest

from helpers.cli import main
from helpers.paths import ROOT
from tests.realdata import OBS, SKY, SKY14, SKY_ACCURACY, SKY_PROBLEMS, TRAIN, VAL

from .conftest import EXAMPLE


def test_wandb_export_to_html_offline(tmp_path, capsys):
    out = tmp_path / "grid.html"
    assert main(["plot", str(VAL), str(TRAIN), "-o", str(out)]) == 0
    html = out.read_text()
    assert not re.search(r"<script[^>]+src=", html)  # scripts inlined, nothing loaded
    block = re.search(r'<script type="application/json" id="vega-spec">(.*?)</script>', html, re.S)
    spec = json.loads(block.group(1))
    panels = [(u["vconcat"][0] if "vconcat" in u else u)["title"]["text"] for u in spec["concat"]]
    # a validation benchmark each, the training export's sources: 23 of 31, and their mean
    assert len(panels) == len(set(panels)) == 24
    assert panels[15].endswith(" (training)") and panels[-1] == "mean of 15 benchmarks"
    said = json.dumps(spec["title"])
    assert "panels '(training)': training scores" in said
    assert "23 of 31 benchmarks drawn (the first 23 in the log), and mean" in said
    # the eight left out, each named (all training sources)
    tail = " ".join(spec["title"]["subtitle"]).split("not drawn: ")[1].split("; each panel")[0]
    left = tail.split(", ")
    assert len(left) == 8 and not set(left) & set(panels), left
    # the validation log has no length of its own: the run's, drawn once (not under each
    # benchmark, where it read as each one's own), and said so
    assert "response length, under the first panel: the run's mean over its training" in said
    lengths = {int(i) for i in re.findall(r'"name": "length (\d+)"', json.dumps(spec))}
    assert lengths == {0} | {i for i, p in enumerate(panels) if p.endswith(" (training)")}
    assert "--" not in said  # no command-line option in the figure: the command says it
    printed = capsys.readouterr().out
    assert "note: the chart draws 24 panels at most; --benchmarks picks which" in printed
    assert "wrote" in printed


def test_skythought_to_png_and_table(tmp_path):
    png = tmp_path / "levels.png"
    assert main(["plot", str(SKY), "-o", str(png)]) == 0
    assert png.read_bytes().startswith(b"\x89PNG")
    table = tmp_path / "levels.csv"
    assert main(["plot", str(SKY), "-o", str(table)]) == 0
    levels = pl.read_csv(table, schema_overrides={"level": pl.String})
    assert levels["level"].to_list() == ["1", "2", "3", "4", "5", "all"]
    by_level, overall = levels.head(5), levels.row(5, named=True)
    assert by_level["problems"].sum() == 500 and overall["problems"] == 500
    assert overall["accuracy"] == pytest.approx(SKY_ACCURACY)  # the harness's printed accuracy


def test_a_png_says_its_resolution_and_keeps_its_size_in_inches(tmp_path, capsys):
    from PIL import Image

    sizes = {}
    for ppi in ("144", "300"):
        out = tmp_path / f"levels_{ppi}.png"
        args = ["plot", str(SKY), "-o", str(out)] + (["--ppi", ppi] if ppi != "144" else [])
        assert main(args) == 0
        image = Image.open(out)
        assert image.info["dpi"][0] == pytest.approx(float(ppi), abs=0.01)
        sizes[ppi] = image.size
    inches = [(w / float(ppi), h / float(ppi)) for ppi, (w, h) in sizes.items()]
    assert inches[0] == pytest.approx(inches[1], abs=0.02)  # the same chart, more pixels
    capsys.readouterr()
    with pytest.raises(SystemExit):
        main(["plot", str(SKY), "-o", str(tmp_path / "x.png"), "--ppi", "5000"])
    assert "expected pixels per inch from 36 to 600; got '5000'" in capsys.readouterr().err


def test_scores_to_svg(tmp_path):
    svg = tmp_path / "size.svg"
    assert main(["plot", str(OBS), "-o", str(svg), "--benchmarks", "GSM8K", "MMLU"]) == 0
    text = svg.read_text()
    assert (
        text.startswith("<svg") and "GSM8K" in text and "MMLU" in text and "HellaSwag" not in text
    )


def test_samples_with_progress(tmp_path, capsys, monkeypatch):
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True)  # progress shows on a terminal
    parts = []
    df = pl.read_parquet(EXAMPLE)
    for i, (_, part) in enumerate(df.partition_by("step", as_dict=True).items()):
        parts.append(tmp_path / f"part{i}.parquet")
        part.write_parquet(parts[-1])
    out = tmp_path / "grid.csv"
    assert main(["plot", *map(str, parts), "-o", str(out)]) == 0
    assert f"reading {len(parts)}/{len(parts)}" in capsys.readouterr().err
    summary = pl.read_csv(out)
    assert summary.height == 16 * 3 and {"accuracy", "lo", "hi", "pass_k", "p90_tokens"} <= set(
        summary.columns
    )


def test_bad_input_gives_one_clear_error_and_writes_nothing(tmp_path, capsys):
    bad = tmp_path / "bad.csv"
    bad.write_text("_step,val/test_score/a/unknown\n0,0.5\n0,0.6\n")
    out = tmp_path / "x.png"
    assert main(["plot", str(bad), "-o", str(out)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ") and "line 3, column '_step'" in err
    assert not out.exists() and list(tmp_path.iterdir()) == [bad]


def test_mixed_formats_are_refused(tmp_path, capsys):
    assert main(["plot", str(SKY), str(OBS), "-o", str(tmp_path / "x.png")]) == 2
    assert "files of one format" in capsys.readouterr().err


def test_help_explains_formats():
    out = subprocess.run(
        [sys.executable, "-m", "helpers", "plot", "--help"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    for words in (
        "W&B history export",
        "Qwen2.5-Math",
        "lm-eval",
        "per-sample table",
        "table of models",
        ".html",
        "--benchmarks",
    ):
        assert words in out


def test_start_up_leaves_scipy_until_a_statistic_needs_it():
    """scipy.stats costs about a second to import; the command line and `import helpers`
    do without it until an exact interval, a t quantile or Kendall's tau is asked for."""
    code = (
        "import sys, helpers.__main__, helpers.figures.rl_length_scaling, helpers.stats\n"
        "print('scipy' in sys.modules)\n"
        "helpers.stats.exact_interval(3, 10)\n"
        "print('scipy' in sys.modules)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["False", "True"]


def test_output_suffix_is_checked(tmp_path, capsys):
    """One error line, as for bad input: no argparse usage block before it."""
    assert main(["plot", str(SKY), "-o", str(tmp_path / "x.gif")]) == 2
    err = capsys.readouterr().err
    assert (
        err
        == f"error: {tmp_path / 'x.gif'}: expected an output ending in .html, .png, .svg, .pdf, .csv, .json or .tex; got '.gif'\n"
    )


def test_output_piped_into_head_ends_quietly():
    """`python -m helpers inspect ... | true`: the reader has left before the first line; no BrokenPipeError
    traceback, exit 0."""
    run = subprocess.run(
        f"{sys.executable} -m helpers inspect {SKY} | true; exit ${{PIPESTATUS[0]}}",
        shell=True,
        executable="/bin/bash",
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    assert (run.returncode, run.stderr) == (0, "")


def test_power_prints_and_writes_the_minimum_detectable_difference(tmp_path, capsys):
    out = tmp_path / "power.csv"
    args = ["power", "--problems", "500", "--accuracy", "0.5", "--agreement", "0.8"]
    assert main([*args, "-o", str(out)]) == 0
    printed = capsys.readouterr().out
    assert "unpaired: 500 problems at 50% detect 8.9 points" in printed
    table = pl.read_csv(out)
    assert table["design"].to_list() == ["unpaired", "paired"]
    assert table["minimum_detectable_difference"][0] == pytest.approx(0.0886, abs=1e-4)
    assert table["minimum_detectable_difference"][1] < table["minimum_detectable_difference"][0]
    assert set(table.columns) >= {"problems", "accuracy", "agreement", "power", "alpha"}


def test_power_reads_agreement_and_accuracy_from_two_real_runs(tmp_path, capsys):
    """Qwen2.5-Math-7B and Qwen2.5-14B-Instruct on the same 500 MATH500 problems: 171 won and
    31 lost, so 59.6% answered alike; the 28-point gap is far above what 500 problems detect,
    and about 36 problems would have sufficed, by the same exact power that says what 500
    detect (Connor's planning formula, which the count used before, says 38)."""
    from helpers import stats

    out = tmp_path / "p.csv"
    assert main(["power", f"7b={SKY}", f"14b={SKY14}", "-o", str(out)]) == 0
    row = pl.read_csv(out).row(0, named=True)
    assert row["agreement"] == pytest.approx(1 - (171 + 31) / 500)
    assert row["minimum_detectable_difference"] == pytest.approx(
        stats.minimum_detectable_difference(SKY_PROBLEMS, SKY_ACCURACY, agreement=row["agreement"]),
        abs=1e-9,
    )
    assert row["minimum_detectable_difference"] < row["difference"] == pytest.approx(0.28)
    assert row["problems_needed"] == stats.problems_for(0.28, 0.404, near=500) == 36
    assert stats.problems_needed(0.28, 0.404) == 38
    assert "the observed difference needs about 36 problems" in capsys.readouterr().out


def _partial_credit_table(path, problems=20, samples=3, steps=(0, 50)):
    """A tidy per-sample table with a `reward` of 0, 0.5 or 1 per answer, over two steps."""
    import numpy as np

    rng = np.random.default_rng(7)
    rows = [
        (step, "math", f"p{i:02d}", j, bool(r == 1), 200 + step, float(r))
        for step in steps
        for i in range(problems)
        for j, r in enumerate(rng.choice([0.0, 0.5, 1.0], samples))
    ]
    columns = ["step", "benchmark", "problem_id", "sample_id", "correct", "response_tokens"]
    frame = pl.DataFrame(rows, schema=[*columns, "reward"], orient="row")
    frame.write_parquet(path)
    return frame


def test_plot_shows_mean_reward_with_its_bootstrap_band(tmp_path, capsys):
    """Rewards that are not 0/1 are charted as mean reward by step (never called accuracy),
    the band the problem bootstrap's: the table's bounds are `stats.bootstrap_interval` of
    each step's per-problem means."""
    from helpers import stats
    from helpers.runs.choose import chart_for

    path = tmp_path / "r.parquet"
    frame = _partial_credit_table(path)
    out = tmp_path / "r.csv"
    assert main(["plot", str(path), "-o", str(out)]) == 0
    table = pl.read_csv(out)
    assert "accuracy" not in table.columns and table["step"].to_list() == [0, 50]
    for row in table.iter_rows(named=True):
        means = (
            frame.filter(step=row["step"])
            .group_by("problem_id")
            .agg(pl.col("reward").mean())
            .sort("problem_id")["reward"]
            .to_numpy()
        )
        assert row["mean_reward"] == pytest.approx(means.mean())
        lo, hi = stats.bootstrap_interval(means)
        assert (row["lo"], row["hi"]) == pytest.approx((lo, hi), abs=1e-11)
    chart, _ = chart_for([path])
    spec = json.dumps(chart.to_dict())
    assert "Mean reward" in spec and "bootstrap" in spec and "Accuracy" not in spec


def test_one_evaluation_with_partial_credit_is_mean_reward_by_benchmark(tmp_path):
    """One evaluation whose metric gives partial credit (an lm-eval f1) is drawn as mean
    reward with its problem-bootstrap interval, on the reward's own scale, never as accuracy."""
    from helpers import stats
    from helpers.runs.choose import chart_for

    f1 = [0.2, 0.5, 0.7, 0.9, 0.35] * 6
    lines = [{"doc_id": i, "resps": [], "metrics": ["f1"], "f1": v} for i, v in enumerate(f1)]
    path = tmp_path / "samples_squad.jsonl"
    path.write_text("\n".join(map(json.dumps, lines)) + "\n")
    assert main(["plot", str(path), "-o", str(tmp_path / "r.png")]) == 0
    chart, table = chart_for([path])
    row = table.row(0, named=True)
    assert row["mean_reward"] == pytest.approx(sum(f1) / len(f1))
    by_id = [v for _, v in sorted((str(i), v) for i, v in enumerate(f1))]  # problems by id
    lo, hi = stats.bootstrap_interval(by_id)
    assert (row["lo"], row["hi"]) == pytest.approx((lo, hi), abs=1e-11)
    spec = chart.to_dict()
    text = json.dumps(spec)
    assert "Mean reward" in text and "bootstrap" in text and "Accuracy" not in text
    point = next(layer for layer in spec["layer"] if layer["mark"]["type"] == "point")
    assert point["encoding"]["y"]["field"] == "mean_reward"
    assert "format" not in point["encoding"]["y"].get("axis", {})  # as logged, not in percent


def test_power_with_seeds_and_from_runs_with_several_samples(tmp_path, capsys):
    """--seeds with --seed-sd adds training randomness (MATH500 at 50%, 3 seeds of sd 2
    points: 10.0 points instead of 8.9); two runs with several samples per problem get the
    paired t test over their per-problem differences, and with two seeds each the seeds'
    spread read from them."""
    import numpy as np

    from helpers import stats

    out = tmp_path / "p.csv"
    args = ["power", "--problems", "500", "--accuracy", "0.5", "--seeds", "3", "--seed-sd", "0.02"]
    assert main([*args, "-o", str(out)]) == 0
    assert "3 seeds per run (seed sd 2.0 points): 500 problems at 50% detect 10.0" in (
        capsys.readouterr().out
    )
    row = pl.read_csv(out).row(0, named=True)
    assert (row["seeds"], row["seed_sd"]) == (3, 0.02)
    assert row["minimum_detectable_difference"] == pytest.approx(
        stats.seeded_detectable_difference(500, 0.5, 3, 0.02)
    )
    assert main(["power", "--problems", "500", "--accuracy", "0.5", "--seeds", "3"]) == 2
    capsys.readouterr()
    frames = {}
    for name, seed, shift in (("a1", 1, 0.0), ("a2", 2, 0.02), ("b1", 3, 0.1), ("b2", 4, 0.12)):
        rng = np.random.default_rng(seed)
        rows = [
            (0, "math", f"p{i:02d}", j, bool(rng.uniform() < 0.2 + 0.02 * i + shift), 10)
            for i in range(30)
            for j in range(4)
        ]
        columns = ["step", "benchmark", "problem_id", "sample_id", "correct", "response_tokens"]
        frames[name] = pl.DataFrame(rows, schema=columns, orient="row")
        frames[name].write_parquet(tmp_path / f"{name}.parquet")
    assert main(["power", f"a={tmp_path / 'a1.parquet'}", f"b={tmp_path / 'b1.parquet'}",
                 "-o", str(out)]) == 0  # fmt: skip
    row = pl.read_csv(out).row(0, named=True)
    share = [
        frames[n].group_by("problem_id").agg(pl.col("correct").mean()).sort("problem_id")
        for n in ("a1", "b1")
    ]
    sd = float(np.std(share[1]["correct"].to_numpy() - share[0]["correct"].to_numpy(), ddof=1))
    assert row["design"] == "paired t" and row["difference_sd"] == pytest.approx(sd)
    assert row["minimum_detectable_difference"] == pytest.approx(
        stats.paired_t_solve(sd, problems=30), abs=1e-9
    )
    assert row["problems_needed"] == stats.paired_t_solve(sd, difference=row["difference"])
    assert "(paired t test)" in capsys.readouterr().out
    seeds = [f"a={tmp_path / n}.parquet" for n in ("a1", "a2")]
    seeds += [f"b={tmp_path / n}.parquet" for n in ("b1", "b2")]
    assert main(["power", *seeds, "-o", str(out)]) == 0
    row = pl.read_csv(out).row(0, named=True)
    # the seeds' spread as compare's verdict counts it: the seed components (each run's seeds'
    # accuracies' variance less the seed x problem residual over N), over 1/2 + 1/2
    from helpers.runs.compare import compare

    logs = {r: [tmp_path / f"{r}{i}.parquet" for i in (1, 2)] for r in "ab"}
    counted = compare(logs).differences.row(0, named=True)
    assert counted["seed_variance"] is not None
    assert row["seeds"] == 2 and row["seed_sd"] == pytest.approx(
        math.sqrt(counted["seed_variance"]), abs=1e-15
    )
    assert row["minimum_detectable_difference"] == pytest.approx(
        stats.paired_t_solve(row["difference_sd"], problems=30, seeds=2, seed_sd=row["seed_sd"]),
        abs=1e-9,
    )


def test_a_band_left_out_is_said_in_the_chart_and_how_to_get_it_by_the_command(tmp_path, capsys):
    """A score log's benchmarks whose sizes are unknown get no band: the chart says why in
    words (a figure names no command-line option), the command says which option gives one."""
    from tests.realdata import VAL

    out = tmp_path / "grid.svg"
    assert main(["plot", str(VAL), "-o", str(out)]) == 0
    said = capsys.readouterr().out
    assert "note: no interval for codegen__humaneval/openai_humaneval" in said
    assert "and 12 more: give sizes with --problems NAME=N" in said
    svg = out.read_text()
    assert "no bands: the benchmarks&#39; numbers of problems are not in the log" in svg or (
        "no bands: the benchmarks' numbers of problems are not in the log" in svg
    )
    assert "--problems" not in svg and "read a band against its panel" not in svg
    assert main(["plot", str(VAL), "-o", str(out), "--problems", "math__math/unknown=500"]) == 0
    assert "and 11 more" in capsys.readouterr().out
    svg = out.read_text()  # one benchmark with a band: the others are named
    assert "its number of problems is not in the log" in svg
    assert "read a band against its panel" in svg
