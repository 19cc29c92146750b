"""Metric tables in long form (`readers.long_tables`): several runs in one table, benchmarks as
rows, percentages written as text. The tables are written by polars' own CSV writer."""

from __future__ import annotations

import polars as pl
import pytest

from helpers.cli import main
from helpers.runs import readers
from helpers.runs.readers.detect import detect
from tests.realdata import VAL

CONDITIONS = ["baseline", "grpo", "grpo+kl"]
STEPS = [0, 50, 100]
TASKS = ["AIME24", "MATH500"]


def _ablation() -> pl.DataFrame:
    """One row per (condition, step, task): accuracy and mean response length."""
    rows = [
        {
            "condition": c,
            "step": s,
            "task": t,
            "acc": round(0.1 + 0.5 * ti + s / 1000 * (ci + 1), 4),
            "tokens": 1000 + 10 * s + ci,
        }
        for ci, c in enumerate(CONDITIONS)
        for s in STEPS
        for ti, t in enumerate(TASKS)
    ]
    return pl.DataFrame(rows)


@pytest.fixture
def ablation(tmp_path):
    path = tmp_path / "ablation.csv"
    _ablation().write_csv(path, include_bom=True)  # as spreadsheets save it
    return path


def test_an_ablation_table_is_one_run_per_condition_with_its_values(ablation, capsys):
    assert detect(ablation) == "runs-table"
    runs = readers.load_runs(ablation)
    assert [r.run for r in runs] == CONDITIONS
    table = _ablation()
    for run in runs:
        want = table.filter(pl.col("condition") == run.run)
        assert run.order == TASKS
        got = run.scores.sort("benchmark", "step")
        assert got["score"].to_list() == want.sort("task", "step")["acc"].to_list()
        assert got["problems"].to_list() == [30] * 3 + [500] * 3  # known benchmark sizes
        tokens = run.tokens.sort("benchmark", "step")["tokens"].to_list()
        assert tokens == want.sort("task", "step")["tokens"].cast(pl.Float64).to_list()
    assert main(["inspect", str(ablation)]) == 0
    said = capsys.readouterr().out
    assert "3 runs (runs-table): baseline, grpo, grpo+kl" in said
    assert "runs named by condition" in said
    assert "benchmarks as rows: task names the benchmark, acc the accuracy" in said


def test_plot_draws_and_writes_every_run(ablation, tmp_path, capsys):
    out = tmp_path / "runs.csv"
    assert main(["plot", str(ablation), "-o", str(out)]) == 0
    written = pl.read_csv(out)
    assert written["run"].unique(maintain_order=True).to_list() == CONDITIONS
    merged = written.join(
        _ablation(),
        left_on=["run", "step", "benchmark"],
        right_on=["condition", "step", "task"],
    )
    assert merged.height == len(CONDITIONS) * len(STEPS) * len(TASKS)
    assert (merged["score"] == merged["acc"]).all()
    png = tmp_path / "runs.png"
    assert main(["plot", str(ablation), "-o", str(png)]) == 0
    assert png.stat().st_size > 10_000


def test_two_conditions_of_one_table_compare_at_every_step(ablation, tmp_path):
    out = tmp_path / "compared.csv"
    runs = [f"base={ablation}#baseline", f"new={ablation}#grpo"]
    assert main(["compare", *runs, "-o", str(out)]) == 0
    got = pl.read_csv(out).sort("benchmark", "step")
    table = _ablation()
    base = table.filter(pl.col("condition") == "baseline").sort("task", "step")["acc"]
    new = table.filter(pl.col("condition") == "grpo").sort("task", "step")["acc"]
    assert got["difference"].to_list() == pytest.approx((new - base).to_list())
    assert got["interval"].str.starts_with("unpaired").all()  # scores only: said so


def test_run_columns_by_map_and_by_several_names(tmp_path):
    table = _ablation().rename({"condition": "arm"})
    path = tmp_path / "arms.csv"
    table.write_csv(path)
    runs = readers.load_runs(path, mapping={"run": "arm"})
    assert [r.run for r in runs] == CONDITIONS
    # two seeds of each condition: a run is a (condition, seed), named by both
    seeded = pl.concat([_ablation().with_columns(seed=pl.lit(s)) for s in (1, 2)])
    path = tmp_path / "seeded.csv"
    seeded.write_csv(path)
    names = [r.run for r in readers.load_runs(path)]
    assert names == [f"{c} (seed={s})" for s in (1, 2) for c in CONDITIONS]


def test_percent_strings_and_a_capitalised_step_read_as_fractions(tmp_path):
    path = tmp_path / "pct.csv"
    pl.DataFrame(
        {
            "Method": ["a", "a", "b", "b"],
            "Step": [10, 20, 10, 20],
            "aime24": ["10%", "13.3%", "20%", " 26.7 %"],
        }
    ).write_csv(path)
    runs = readers.load_runs(path, mapping={"accuracy": "{benchmark}"})
    assert [r.run for r in runs] == ["a", "b"]
    assert runs[1].scores["score"].to_list() == pytest.approx([0.2, 0.267])
    assert runs[0].scores["benchmark"].to_list() == ["aime24", "aime24"]


def test_a_wandb_export_naming_its_one_run_stays_one_run():
    # Reasoning360's export has run_id and run_name columns, one value each
    assert detect(VAL) == "wandb"
    assert len(readers.load_runs(VAL)) == 1


def test_columns_that_name_no_run_leave_a_log_as_it_is(tmp_path):
    """Found in review: a `model` column naming each step's checkpoint is no run column (a run
    column holds several values at one step); a constant `dataset` label beside verl's columns
    is no benchmark column; a blank run name is a run of its own, named so."""
    path = tmp_path / "ckpt.csv"
    pl.DataFrame(
        {
            "step": [0, 100, 200],
            "model": ["ckpts/global_step_0", "ckpts/global_step_100", "ckpts/global_step_200"],
            "dataset": ["deepscaler"] * 3,
            "val/test_score/math500": [0.5, 0.6, 0.7],
            "acc": [0.1, 0.2, 0.3],
        }
    ).write_csv(path)
    assert detect(path) == "metrics-csv"
    (run,) = readers.load_runs(path)
    assert run.scores["benchmark"].unique().to_list() == ["math500"]
    assert run.scores["score"].to_list() == [0.5, 0.6, 0.7]
    blank = tmp_path / "blank.csv"
    table = _ablation().with_columns(
        condition=pl.when(pl.col("condition") == "grpo").then(None).otherwise("condition")
    )
    table.write_csv(blank)
    assert [r.run for r in readers.load_runs(blank)] == ["baseline", "(no condition)", "grpo+kl"]


def test_a_mapped_long_table_gets_no_mean(tmp_path, capsys):
    """Reward parts as rows through --map are not benchmarks a paper averages."""
    path = tmp_path / "parts.csv"
    pl.DataFrame(
        {"step": [1, 1, 2, 2], "part": ["format", "answer"] * 2, "value": [0.9, 0.4, 1.0, 0.5]}
    ).write_csv(path)
    out = tmp_path / "p.csv"
    args = ["plot", str(path), "--map", "benchmark=part", "--map", "accuracy=value", "-o", str(out)]
    assert main(args) == 0
    assert sorted(pl.read_csv(out)["benchmark"].unique()) == ["answer", "format"]


def test_seeds_in_a_table_of_runs_are_seeds_of_their_method(tmp_path):
    """A method and a seed column: `compare TABLE` takes each method's runs as its seeds (the
    interval across seeds beside the others), not seeds compared as methods."""
    rows = [
        {"method": m, "seed": s, "step": 100, "task": "MATH500", "acc": base + s / 100}
        for m, base in (("baseline", 0.5), ("grpo", 0.6))
        for s in (1, 2, 3)
    ]
    path = tmp_path / "seeds.csv"
    pl.DataFrame(rows).write_csv(path)
    assert [r.run for r in readers.load_runs(path)][:2] == [
        "baseline (seed=1)",
        "baseline (seed=2)",
    ]
    out = tmp_path / "d.csv"
    assert main(["compare", str(path), "--baseline", "baseline", "-o", str(out)]) == 0
    row = pl.read_csv(out).row(0, named=True)
    assert (row["comparison"], row["seeds_a"], row["seeds_b"]) == ("grpo vs baseline", 3, 3)
    assert row["difference"] == pytest.approx(0.1)
    assert row["seed_lo"] < 0.1 < row["seed_hi"]


def _conditions(path, repeat: str) -> None:
    """Nine conditions over three steps in a column named `accuracy`, and one row of cond3
    at step 100 given again, `repeat` saying with what value."""
    rows = ["step,condition,accuracy"]
    for c in range(9):
        rows += [f"{s},cond{c},{0.3 + 0.02 * c + s / 2000:.3f}" for s in (0, 100, 200)]
    rows.append(f"100,cond3,{repeat}")
    path.write_text("\n".join(rows) + "\n")


def test_a_table_of_conditions_with_an_accuracy_column(tmp_path, capsys):
    """Issue 41: a column literally named `accuracy` is read with no flag; a row repeated
    exactly is read once and said so (it dropped the run, blaming its accuracy); every run is
    in the CSV; `--runs` picks the runs drawn, and the subtitle says how many of how many."""
    table, out = tmp_path / "conditions.csv", tmp_path / "out.csv"
    _conditions(table, "0.410")  # cond3 at step 100 is 0.410: the same row again
    assert main(["plot", str(table), "-o", str(out)]) == 0
    written = pl.read_csv(out)
    assert written["run"].unique(maintain_order=True).to_list() == [f"cond{c}" for c in range(9)]
    assert written.filter(run="cond3")["score"].to_list() == [0.36, 0.41, 0.46]
    assert main(["inspect", f"{table}#cond3"]) == 0
    assert "1 row(s) repeated exactly read once (line 29)" in capsys.readouterr().out
    from helpers.runs.choose import chart_for

    chart, _ = chart_for([table], runs=["cond8", "cond0"])
    spec = chart.to_dict()
    assert "2 of 9 runs drawn, as chosen" in spec["title"]["subtitle"]
    assert not any("--" in line for line in spec["title"]["subtitle"])  # no option in a figure
    drawn = {r["run"] for rows in spec["datasets"].values() for r in rows if "run" in r}
    assert drawn == {"cond8", "cond0"}
    assert main(["plot", str(table), "--runs", "cond9", "-o", str(out)]) == 2
    assert "expected runs among" in capsys.readouterr().err


def test_a_repeated_step_with_another_value_names_both_lines(tmp_path, capsys):
    table = tmp_path / "conditions.csv"
    _conditions(table, "0.500")
    assert main(["inspect", f"{table}#cond3"]) == 2
    err = capsys.readouterr().err
    assert "line 29" in err and "line 12" in err
