"""Tables of models without steps (`readers.leaderboards`) and the ranked leaderboard drawn from
them (`runs.leaderboard`): written by polars' own CSV writer, plus the real ObsScaling table."""

from __future__ import annotations

import polars as pl
import pytest
from scipy.stats import binomtest

from helpers.cli import main
from helpers.runs.leaderboard import leaderboard
from helpers.runs.readers.detect import detect
from helpers.runs.readers.formats.leaderboards import read_models, size_from_name
from tests.realdata import OBS

# (task, model, score as the leaderboard prints it); 30 AIME problems, 500 MATH500 ones
BOARD = [
    ("AIME24", "DeepSeek-R1-Distill-Qwen-1.5B", "28.9%"),  # 28.9% is no whole count of 30
    ("AIME24", "Qwen2.5-Math-7B-Instruct", "13.3%"),
    ("AIME24", "Mixtral-8x7B-Instruct", "3.3%"),
    ("AIME24", "gpt-4o", "10%"),
    ("MATH500", "DeepSeek-R1-Distill-Qwen-1.5B", "83.8%"),
    ("MATH500", "Qwen2.5-Math-7B-Instruct", "83.6%"),
    ("MATH500", "Mixtral-8x7B-Instruct", "28.4%"),
    ("MATH500", "gpt-4o", "74.6%"),
]


@pytest.fixture
def board(tmp_path):
    path = tmp_path / "board.csv"
    task, model, score = zip(*BOARD, strict=True)
    frame = pl.DataFrame({"Task": task, "Model": model, "Score": score})
    frame.write_csv(path, include_bom=True)
    return path


@pytest.mark.parametrize(
    ("name", "size"),
    [
        ("Qwen2.5-Math-7B-Instruct", 7.0),
        ("DeepSeek-R1-Distill-Qwen-1.5B", 1.5),
        ("Nemotron (43B)", 43.0),
        ("Qwen3-30B-A3B", 30.0),  # the total, not the active part
        ("Mixtral-8x7B", 56.0),
        ("SmolLM2-360M", 0.36),
        ("gpt-4o", None),
        ("Llama-3.1-Instruct", None),
    ],
)
def test_sizes_read_from_model_names(name, size):
    got = size_from_name(name)[0]
    assert got == pytest.approx(size) if size else got is None


def test_a_leaderboard_reads_with_the_numbers_it_prints(board, capsys):
    assert detect(board) == "scores"
    models, notes = read_models(board)
    want = {(t, m): float(s.rstrip("%")) / 100 for t, m, s in BOARD}
    got = {(r["benchmark"], r["model"]): r["accuracy"] for r in models.iter_rows(named=True)}
    assert got == pytest.approx(want)
    sizes = dict(models.select("model", "size_b").unique().iter_rows())
    assert sizes["Mixtral-8x7B-Instruct"] == 56 and sizes["gpt-4o"] is None
    assert "Mixtral-8x7B-Instruct: 8x7B read as 56B total parameters" in notes
    assert main(["inspect", str(board)]) == 0
    said = capsys.readouterr().out
    assert "benchmarks as rows: Task names the benchmark, Score its score" in said
    assert "no size in 1 model name: gpt-4o" in said


def test_percent_named_columns_scale_and_bare_percentages_are_refused(tmp_path, capsys):
    path = tmp_path / "wide.csv"
    pl.DataFrame({"model": ["a", "b"], "GSM8K (%)": [91.2, 84.5], "MATH": [0.85, 0.52]}).write_csv(
        path
    )
    models, _ = read_models(path)
    assert models.sort("model", "benchmark")["accuracy"].to_list() == pytest.approx(
        [0.912, 0.85, 0.845, 0.52]
    )
    bare = tmp_path / "bare.csv"
    pl.DataFrame({"model": ["a", "b"], "GSM8K": [91.2, 84.5]}).write_csv(bare)
    assert main(["plot", str(bare), "-o", str(tmp_path / "x.png")]) == 2
    err = capsys.readouterr().err
    assert "line 2, column 'GSM8K': expected scores as fractions from 0 to 1" in err


def test_the_real_models_table_keeps_its_size_column_and_leaves_out_other_numbers():
    models, notes = read_models(OBS)
    assert models["model"].n_unique() == 148 and models["size_b"].null_count() == 0
    assert (
        "left out (numbers, not scores from 0 to 1): Pretraining Data Size (T), FLOPs (1E21)"
        in notes
    )


def _newcombe(top: int, low: int, n: int, level: float) -> tuple[float, float]:
    """Newcombe (1998) method 10 from scipy's Wilson bounds at `level`."""
    ua = binomtest(top, n).proportion_ci(level, method="wilson")
    ub = binomtest(low, n).proportion_ci(level, method="wilson")
    pa, pb = top / n, low / n
    lo = (pa - pb) - ((pa - ua.low) ** 2 + (ub.high - pb) ** 2) ** 0.5
    hi = (pa - pb) + ((ua.high - pa) ** 2 + (pb - ub.low) ** 2) ** 0.5
    return lo, hi


def test_gaps_and_tiers_are_judged_by_newcombe_at_the_bonferroni_level():
    """Against scipy: each model is judged against the one above it and against the first
    model of its tier, both by Newcombe's interval at the level Bonferroni gives for every
    judgement made; a new tier starts where the second one excludes 0, so a run of
    inseparable neighbours cannot chain far-apart models into one tier (a review found 90%
    and 24% in one)."""
    counts = {
        "AIME24": [20, 12, 11, 3],
        "MATH500": [450, 420, 419, 300, 298],
        "GSM8K": [1187 - 25 * i for i in range(30)],  # 90% down to 35%, 1.9 points apart
    }
    sizes = {"AIME24": 30, "MATH500": 500, "GSM8K": 1319}
    models = pl.DataFrame(
        [
            {"model": f"m{i}", "benchmark": b, "accuracy": c / sizes[b], "size_b": None}
            for b, cs in counts.items()
            for i, c in enumerate(cs)
        ],
        schema_overrides={"size_b": pl.Float64},
    )
    table, notes = leaderboard(models)
    judged = sum(2 * (len(cs) - 1) for cs in counts.values())
    assert f"Bonferroni over {judged} comparisons" in notes[1]
    level = 1 - 0.05 / judged
    assert table["benchmark"].unique(maintain_order=True).to_list() == list(counts)
    for b, cs in counts.items():
        n = sizes[b]
        rows = table.filter(pl.col("benchmark") == b).sort("rank")
        assert rows["model"].to_list() == [f"m{i}" for i in range(len(cs))]
        tiers, first = [1], cs[0]
        for i, row in enumerate(rows[1:].iter_rows(named=True), start=1):
            lo, hi = _newcombe(cs[i - 1], cs[i], n, level)
            assert (row["gap_lo"], row["gap_hi"]) == pytest.approx((lo, hi), abs=1e-9)
            assert row["separable"] == (lo > 0)  # the verdict is the interval's
            new_tier = _newcombe(first, cs[i], n, level)[0] > 0
            tiers.append(tiers[-1] + new_tier)
            first = cs[i] if new_tier else first
        assert rows["tier"].to_list() == tiers
    gsm = table.filter(pl.col("benchmark") == "GSM8K")
    assert not gsm["separable"].any() and gsm["tier"].max() > 3  # no gap, yet several tiers


def test_plot_draws_a_leaderboard_and_writes_its_table(board, tmp_path):
    out = tmp_path / "board_out.csv"
    assert main(["plot", str(board), "-o", str(out)]) == 0
    table = pl.read_csv(out)
    assert table.filter(pl.col("benchmark") == "MATH500")["model"].to_list() == [
        "DeepSeek-R1-Distill-Qwen-1.5B",
        "Qwen2.5-Math-7B-Instruct",
        "gpt-4o",
        "Mixtral-8x7B-Instruct",
    ]
    assert table["problems"].unique().sort().to_list() == [30, 500]
    png = tmp_path / "board.png"
    assert main(["plot", str(board), "-o", str(png)]) == 0
    assert png.stat().st_size > 10_000


def test_a_model_named_twice_is_an_error_naming_both_lines(tmp_path, capsys):
    """Found in review: with every size known, a duplicated model was drawn twice."""
    wide = tmp_path / "wide.csv"
    pl.DataFrame({"model": ["a-7B", "b-1B", "a-7B"], "GSM8K": [0.5, 0.4, 0.6]}).write_csv(wide)
    assert main(["plot", str(wide), "-o", str(tmp_path / "x.png")]) == 2
    assert (
        "line 4, column 'model': expected each model once, or a column telling its readings apart (also on line 2)"
        in (capsys.readouterr().err)
    )
    long = tmp_path / "long.csv"
    pl.DataFrame(
        {"task": ["AIME24", "AIME24"], "model": ["a", "a"], "score": ["10%", "20%"]}
    ).write_csv(long)
    assert main(["plot", str(long), "-o", str(tmp_path / "x.png")]) == 2
    err = capsys.readouterr().err
    assert "line 3, column 'model': expected each model once per task (also on line 2)" in err
    assert "got 'a on AIME24'" in err


def test_a_repeat_is_named_by_its_own_lines_and_only_where_it_is_read(tmp_path, capsys):
    """A hub export where one task holds a re-run of a model (issue 41): the error names the
    line that repeats the model and the line that gave it first (not the first two lines of
    any repeated models), and `--benchmarks` naming another task reads that task whole."""
    table = tmp_path / "board.csv"
    table.write_text(
        "model,task,acc\nA,gsm8k,0.5\nB,gsm8k,0.6\nA,math,0.2\nB,math,0.3\n"
        "C,gsm8k,0.4\nC,math,0.1\nA,math,0.25\n"
    )
    out = tmp_path / "x.csv"
    assert main(["plot", str(table), "-o", str(out)]) == 2
    err = capsys.readouterr().err
    assert "line 8, column 'model'" in err and "(also on line 4)" in err and "'A on math'" in err
    assert main(["plot", str(table), "--benchmarks", "gsm8k", "-o", str(out)]) == 0
    assert pl.read_csv(out)["model"].to_list() == ["B", "A", "C"]


def test_a_table_collected_from_papers_reads_each_row_as_a_reading(tmp_path, capsys):
    """Issue 41: a model named only in a second name column, a model read from two sources
    (each row a reading, named by what differs), a row pasted twice (read once, said so); the
    same model and source with two scores is the one contradiction refused, naming both."""
    table = tmp_path / "papers.csv"
    table.write_text(
        "model,name,source,shots,MATH,GSM8K\nQwen2.5-7B,,Qwen report,4,0.5,0.85\n"
        ",Llama-3-8B,Meta blog,8,0.3,0.79\nQwen2.5-7B,,DeepSeek paper,0,0.48,0.82\n"
        "Mistral-7B,,paper A,4,0.12,0.52\nMistral-7B,,paper A,4,0.12,0.52\n"
    )
    rows, notes = read_models(table)
    math = rows.filter(benchmark="MATH").sort("model")
    assert math["model"].to_list() == [
        "Llama-3-8B",
        "Mistral-7B",
        "Qwen2.5-7B (source=DeepSeek paper, shots=0)",
        "Qwen2.5-7B (source=Qwen report, shots=4)",
    ]
    assert math["accuracy"].to_list() == [0.3, 0.12, 0.48, 0.5]
    assert "1 row(s) repeated exactly read once (line 6)" in notes
    contradiction = tmp_path / "contradiction.csv"
    contradiction.write_text("model,source,MATH\nA,x,0.5\nB,x,0.4\nA,x,0.6\n")
    assert main(["plot", str(contradiction), "-o", str(tmp_path / "x.csv")]) == 2
    err = capsys.readouterr().err
    assert "line 4, column 'model'" in err and "(also on line 2)" in err
