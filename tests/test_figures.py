"""The figures' analyses (helpers.figures), against hand-computed answers."""

from __future__ import annotations

import re

import polars as pl
import pytest

import helpers
from helpers.figures import (
    across_papers,
    grpo_vs_mel,
    prm_data_scaling,
    published,
    rl_length_scaling,
    step_dpo_sizing,
    training_dynamics,
)
from helpers.paths import NOTEBOOKS
from tests.realdata import (
    CHECKPOINTS,
    GRPO_COMPLETIONS,
    LIGHTEVAL,
    MLFLOW,
    OBS,
    SKY,
    TRAIN,
    VAL,
    VERIFIERS_WORDLE,
)


def test_per_1k_tokens_recovers_a_known_slope():
    df = pl.DataFrame({"token_length": [1000, 2000, 3000], "accuracy": [50.0, 52.5, 55.0]})
    assert rl_length_scaling.per_1k_tokens(df) == pytest.approx(2.5)


def test_steps_along_sorts_by_length():
    df = pl.DataFrame(
        {"model": ["b", "a", "c"], "token_length": [200, 100, 400], "accuracy": [60.0, 50.0, 61.0]}
    )
    out = rl_length_scaling.steps_along(df)
    assert out.rows() == [("a", "b", 100, 10.0), ("b", "c", 200, 1.0)]


def test_rank_agreement_on_identical_and_reversed_orders():
    df = pl.DataFrame(
        {
            "panel": ["A"] * 3 + ["B"] * 3,
            "m": list("xyz") * 2,
            "v": [1.0, 2.0, 3.0, 10.0, 20.0, 30.0],
        }
    )
    tau, _, ranks = rl_length_scaling.rank_agreement(df, "panel", ("A", "B"), "v", "m")
    assert tau == pytest.approx(1.0) and ranks["m"].to_list() == ["z", "y", "x"]
    rev = df.with_columns(
        v=pl.when(pl.col("panel") == "B").then(-pl.col("v")).otherwise(pl.col("v"))
    )
    assert rl_length_scaling.rank_agreement(rev, "panel", ("A", "B"), "v", "m")[0] == pytest.approx(
        -1.0
    )


def test_adjacent_gaps():
    df = pl.DataFrame({"m": ["a", "b", "c"], "acc": [90.0, 60.0, 58.0]})
    gaps = rl_length_scaling.adjacent_gaps(df, "m", "acc", 500)
    assert gaps.rows() == [("a", "b", 30.0, True), ("b", "c", 2.0, False)]


def test_described_vs_published_for_000():
    df = helpers.load("rl_length_scaling")
    cmp = published.described_vs_published("000", df, "model", "panel", "accuracy")
    row = cmp.filter(label="qwen25-72B-inst", benchmark="AIME2024").row(0, named=True)
    assert (row["described"], row["published"], row["difference"]) == (21.0, 23.3, -2.3)
    assert cmp.height == 10


def test_published_gains_for_step_dpo():
    gains = step_dpo_sizing.published_gains("002")
    readme = gains.filter(pl.col("source").str.contains("README"))
    by_base = dict(zip(readme["base_model"], readme["gain"], strict=True))
    assert by_base["Qwen2-72B-SFT"] == 3.0 and by_base["Qwen2-72B-Instruct"] == 1.4
    assert readme.height == 8
    table1 = gains.filter(pl.col("source").str.contains("Table 1"))
    by_base = dict(zip(table1["base_model"], table1["gain"], strict=True))
    # the paper's own (+x.x) annotations: +1.5, +1.2, +1.0, +2.0, +1.9, +2.6, +3.0, +1.4
    assert by_base == {
        "DeepSeekMath-RL": 1.5,
        "DeepSeekMath-Base-SFT": 1.2,
        "Qwen2-7B-SFT": 1.0,
        "Qwen1.5-32B-SFT": 2.0,
        "Qwen2-57B-A14B-SFT": 1.9,
        "Llama-3-70B-SFT": 2.6,
        "Qwen2-72B-SFT": 3.0,
        "Qwen2-72B-Instruct ‡": 1.4,
    }


def test_described_curves_state_nothing_in_between():
    td = helpers.load("training_dynamics")
    curves = training_dynamics.described_curves(td)
    assert curves.height == 13 * 4
    aime = curves.filter(benchmark="AIME2024", metric="accuracy")
    assert aime.select("iteration", "value").rows() == [(0.0, 0.5), (150.0, 0.7)]
    gpqa = curves.filter(benchmark="GPQA", metric="accuracy")
    assert gpqa["value"].null_count() == 2 and gpqa["lo"].to_list() == [0.4, 0.4]


def test_gain_and_growth_ranks():
    gg = training_dynamics.gain_and_growth(helpers.load("training_dynamics"))
    assert gg.filter(pl.col("gain").is_not_null()).height == 5
    assert gg.filter(benchmark="AIMO2024")["growth_rank"].item() == 1
    assert set(gg.filter(gain_rank=1)["benchmark"]) == {"AIME2024", "KACYAN"}


def test_against_published_axes_flags_impossible_readings():
    td = helpers.load("training_dynamics")
    axes = training_dynamics.against_published_axes(td)
    assert set(axes.filter("beyond_axis")["benchmark"]) == {
        "Total@temp_1.0",
        "AIME2024",
        "Chemistry",
        "Physics",
    }
    assert axes.filter(~pl.col("in_paper"))["benchmark"].to_list() == ["BZ2024"]


def test_implied_slopes():
    td = helpers.load("training_dynamics")
    out = training_dynamics.implied_slopes(td)
    aime = out.filter(benchmark="AIME2024").row(0, named=True)
    assert aime["described"] == pytest.approx(0.2 / 20000)
    assert aime["published"] == pytest.approx(3.40e-05) and aime["ratio"] == 3.4


def test_smooth_matches_ema_per_group():
    df = pl.DataFrame(
        {"method": ["a", "a", "b", "b"], "step": [1, 0, 0, 1], "score": [2.0, 1.0, 4.0, 4.0]}
    )
    out = grpo_vs_mel.smooth(df, 0.5)
    assert out.filter(method="a")["smoothed"].to_list() == pytest.approx([1.0, 5 / 3])
    assert out.filter(method="b")["smoothed"].to_list() == pytest.approx([4.0, 4.0])


def test_loglinear_band_goes_through_the_readings_and_never_past_100():
    """The line runs through both readings (the straight line's slope: 7 points a tenfold);
    on the logit scale it bends: halfway, above the straight line's 86.5; far out, its band
    stays under 100% where the straight line's passes it."""
    fit, band = prm_data_scaling.loglinear_band(
        [1000, 10000], [83.0, 90.0], 500, (1000, 10000), points=3
    )
    assert fit.slope == pytest.approx(7.0)
    assert band["samples"].to_list() == pytest.approx([1000, 3162.28, 10000], rel=1e-4)
    mean = band["mean"].to_list()
    assert mean[0] == pytest.approx(83.0) and mean[2] == pytest.approx(90.0)
    assert 86.5 < mean[1] < 87.5
    _, far = prm_data_scaling.loglinear_band([1000, 10000], [83.0, 90.0], 500, (1000, 1e7))
    assert far["hi"].max() < 100 and fit.predict(1e7)[2] > 100


def test_across_papers_collects_every_math500_and_aime_value():
    rows = across_papers.across_papers()
    counts = dict(rows.group_by("group").len().iter_rows())
    # MATH500: 10 (000) + 2 (001 start/end) + 10 (003) + 7 published (000) + 8 (003 Table 2)
    # + 9 (004 Table 1, Pass@1); AIME 2024: 10 + 2 + 13 (004) + 7 + 8 + 9
    assert counts == {"MATH500": 46, "AIME 2024": 49}
    assert rows["source_name"].null_count() == 0 and rows["paper"].null_count() == 0
    assert set(rows["paper"]) == {"Kimi k1.5", "ReasonFlux-PRM", "MEL"}
    assert rows.filter(document="004")["value"].max() == pytest.approx(46.0)  # fractions -> %
    assert rows["source"].null_count() == 0 and rows["protocol"].null_count() == 0
    aime = rows.filter(group="AIME 2024")
    assert (aime["n"] == 30).all() and (
        (aime["lo"] <= aime["value"]) & (aime["value"] <= aime["hi"])
    ).all()


def test_by_paper_groups_sorts_and_flags_hollow_values():
    rows = across_papers.across_papers()
    math = across_papers.by_paper(rows, "MATH500")
    assert math.papers == ["Kimi k1.5", "ReasonFlux-PRM", "MEL"]
    assert (math.domain, math.n) == ([60, 100], 500)  # values 67.8-96.2, intervals 63.6-97.6
    # grouped by paper in the documents' order, sorted by value within a paper
    assert math.rows["paper"].to_list() == sorted(math.rows["paper"], key=math.papers.index)
    for paper in math.papers:
        values = math.rows.filter(paper=paper)["value"].to_list()
        assert values == sorted(values, reverse=True)
    assert math.rows["label"][:3].to_list() == [
        "Kimi k1.5 long-CoT (Table 2)",
        "k1.5-short w/ rl",
        "Kimi k1.5 short-CoT (Table 3)",
    ]
    # 003's extrapolated 59k value is hollow; 001's MATH500 panel fits the paper's axis
    assert math.rows.filter("hollow").select("label", "value").rows() == [
        ("ReasonFlux-PRM-7B at 59k samples", 92.0)
    ]
    # an extrapolated value is no measurement: no interval; every other value has one
    assert math.rows.filter("hollow").select("lo", "hi").rows() == [(None, None)]
    assert math.rows.filter(~pl.col("hollow"))["lo"].null_count() == 0
    # nor a reading that cannot be right as read (001's AIME end, off the paper's axis)
    aime = across_papers.by_paper(rows, "AIME 2024")
    assert aime.rows.filter("hollow").select("label", "lo").rows() == [
        ("small internal model, end of RL (Fig 5)", None)
    ]
    # a training curve gives its end only: 001's start (82) is left out
    assert math.rows.filter(document="001").select("label", "value").rows() == [
        ("small internal model, end of RL (Fig 5)", 90.0)
    ]

    aime = across_papers.by_paper(rows, "AIME 2024")
    assert (aime.domain, aime.n) == ([0, 90], 30)
    # 001 found its AIME2024 panel read 0.5-0.7 on an axis labelled 0.1-0.5
    assert aime.rows.filter("hollow").select("label", "value").rows() == [
        ("small internal model, end of RL (Fig 5)", 70.0)
    ]
    assert aime.rows.filter(document="004").select("label", "value").rows() == [
        ("MEL curve, peak (step 130)", 46.0),
        ("GRPO curve, peak (step 100)", 37.0),
        ("MEL curve, end (step 140)", 33.0),
        ("GRPO curve, end (step 140)", 30.0),
    ]
    assert aime.rows.filter(paper="ReasonFlux-PRM")["kind"].unique().to_list() == ["as published"]
    assert aime.notes == [
        "From training curves only the end of the Kimi Fig 5 run; "
        "the end and the peak of each MEL validation curve.",
        "Hollow: small internal model, end of RL (Fig 5), which the training-dynamics "
        "description reads as 50% to 70% where the paper's axis is labelled 10% to 50%: it "
        "cannot be right as read, and has no interval.",
        # one model under two names, both drawn (the figure's and Table 3's): said once
        "One model, a figure's name and its table's, each as spelled: qwen25-72B-inst = "
        "Qwen2.5 72B-Inst., deepseek-v3 = DeepSeek V3, Claude 3.5 = Claude-3.5-Sonnet-1022, "
        "gpt-4-0513 = GPT-4o 0513.",
    ]


def test_off_axis_reuses_notebook_001s_check():
    off = across_papers.off_axis()
    assert off.select("group", "beyond_axis").rows() == [("MATH500", False), ("AIME 2024", True)]


def test_same_model_across_documents():
    shared = across_papers.same_model_across_documents(
        {"a": ["Qwen2-72B-Instruct", "x"], "b": ["qwen2-72b-inst"], "c": ["Qwen2.5-72B-Instruct"]}
    )
    assert shared.rows() == [("qwen272binst", "a, b", "Qwen2-72B-Instruct / qwen2-72b-inst")]


def test_published_points_sit_at_the_described_length():
    """Table 3 of the Kimi k1.5 paper prints DeepSeek V3 at 39.2 on AIME 2024; the cross is
    drawn at the length the description gives the model it matches."""
    df = helpers.load("rl_length_scaling")
    points = rl_length_scaling.published_points(df)
    assert points.columns == ["panel", "model", "token_length", "accuracy", "source"]
    row = points.filter(panel="AIME2024", model="DeepSeek V3").row(0, named=True)
    assert (row["accuracy"], row["source"]) == (39.2, "Table 3")
    described = df.filter(panel="AIME2024", model="deepseek-v3")
    assert [row["token_length"]] == described["token_length"].to_list()


def test_detectability_reads_each_gap_from_the_data_and_sizes_it():
    """Notebook 008's table: each difference is the data package's values (004: MEL 0.33 vs
    GRPO 0.30 at step 140 on AIME24's 30 problems), and 'detectable' means at least the
    difference 80% power needs at that size."""
    from helpers import stats
    from helpers.figures import detectability

    table = detectability.gaps()
    assert table.height == len(detectability.GAPS)
    mel = table.filter(document="004").row(0, named=True)
    assert (mel["accuracy_a"], mel["accuracy_b"], mel["problems"]) == (0.3, 0.33, 30)
    assert mel["minimum_detectable_difference"] == pytest.approx(
        stats.minimum_detectable_difference(30, 0.315)
    )
    assert (
        table["detectable"].to_list()
        == (table["difference"].abs() >= table["minimum_detectable_difference"]).to_list()
    )
    dpo = table.filter(document="002").sort("difference")
    assert dpo["difference"].to_list() == pytest.approx([0.02, 0.055])
    assert dpo["detectable"].to_list() == [False, True]


# what a static figure (a PNG in the report, a PDF in a paper) cannot do: be hovered or clicked,
# or be re-run with an option
_INTERACTIVE = re.compile(r"\bhover|\bclick|(?<![\w-])--[a-z]")


def _texts(spec: object, skip=("tooltip", "$schema", "usermeta", "description")):
    """Every string a chart's spec holds, outside its tooltips."""
    if isinstance(spec, dict):
        for key, value in spec.items():
            if key not in skip:
                yield from _texts(value, skip)
    elif isinstance(spec, list):
        for value in spec:
            yield from _texts(value, skip)
    elif isinstance(spec, str):
        yield spec


@pytest.mark.parametrize("notebook", sorted(NOTEBOOKS.glob("*.ipynb")), ids=lambda p: p.stem)
def test_no_static_figure_points_to_interaction_or_an_option(notebook):
    from helpers.render import site

    said = [
        (f.stem, text)
        for f in site.figures(notebook)
        for text in _texts(f.spec)
        if _INTERACTIVE.search(text)
    ]
    assert said == []


@pytest.mark.parametrize("notebook", sorted(NOTEBOOKS.glob("*.ipynb")), ids=lambda p: p.stem)
def test_every_notebook_closes_with_references_and_versions(notebook):
    import json

    cells = json.loads(notebook.read_text())["cells"]
    markdown = ["".join(c["source"]) for c in cells if c["cell_type"] == "markdown"]
    headings = [line for text in markdown for line in text.splitlines() if line.startswith("## ")]
    assert headings[-2:] == ["## References", "## Versions"]
    assert "".join(cells[-1]["source"]).strip() == "helpers.versions()"


def _panel_title_sizes(spec: dict, default: float, header: float):
    """The font size of every title below a figure's own: panels of a concatenation or layer
    (their own size, else the theme's), and facet headers."""
    for key in ("hconcat", "vconcat", "concat", "layer"):
        for part in spec.get(key) or []:
            title = part.get("title")
            if title:
                size = title.get("fontSize") if isinstance(title, dict) else None
                yield (title if isinstance(title, str) else title["text"]), size or default
            yield from _panel_title_sizes(part, default, header)
    if "facet" in spec:  # the panels' names, as headers
        yield "facet header", header
    if "spec" in spec:
        yield from _panel_title_sizes(spec["spec"], default, header)


@pytest.mark.parametrize("notebook", sorted(NOTEBOOKS.glob("*.ipynb")), ids=lambda p: p.stem)
def test_a_figures_title_is_larger_than_its_panels_titles(notebook):
    """Issue 46: a figure's title and a panel's title never read as one heading."""
    from helpers.render import site, theme

    config = theme.theme()["config"]
    default = config["title"]["fontSize"]
    header = config["header"]["labelFontSize"]
    for f in site.figures(notebook):
        title = f.spec.get("title")
        if not title:
            continue
        top = (title.get("fontSize") if isinstance(title, dict) else None) or default
        smaller = [(t, s) for t, s in _panel_title_sizes(f.spec, default, header) if s >= top]
        assert smaller == [], (f.stem, top)


OWN_RUN_INPUTS = {  # the chart kinds `plot` draws from real logs, each with what it needs
    "levels": ([SKY], {}),
    "checkpoints": ([CHECKPOINTS], {}),
    "grid and training export": ([VAL, TRAIN], {}),
    "lighteval": ([LIGHTEVAL], {}),
    "one checkpoint": ([LIGHTEVAL / "Exp2_400"], {}),
    "model sizes": ([OBS], {}),
    "completions": ([GRPO_COMPLETIONS / "completions"], {}),
    "tensorboard": ([GRPO_COMPLETIONS / "runs"], {"mapping": {"accuracy": "reward"}}),
    "mlflow": ([MLFLOW / "mlruns"], {"mapping": {"accuracy": "avg_quality_score"}}),
    "verifiers": (
        [VERIFIERS_WORDLE / "outputs/evals/wordle--gpt-4.1-mini/816ec3b0/results.jsonl"],
        {},
    ),
}


@pytest.mark.parametrize("case", list(OWN_RUN_INPUTS))
def test_no_own_run_chart_points_to_interaction_or_an_option(case):
    """Issue 46: the charts drawn from a user's own logs, as static as the report's, say no
    'hover' and name no command-line option (the command says those), and are titled by the
    run, not a tool's folder (results, completions, runs, a date and host)."""
    from helpers.runs.choose import chart_for

    files, options = OWN_RUN_INPUTS[case]
    chart, _ = chart_for(files, **options)
    spec = chart.to_dict()
    said = [text for text in _texts(spec) if _INTERACTIVE.search(text)]
    assert said == []
    title = spec["title"]["text"] if isinstance(spec["title"], dict) else spec["title"]
    assert not re.search(r"\((results|completions|runs)\)|^(results|completions|runs)\b", title)
    assert not re.search(r"[A-Z][a-z]{2}\d{2}_\d{2}-\d{2}-\d{2}_", title), title
    assert title.startswith(TITLED.get(case, "")), title


# where the log names its run or the model it evaluated, the title says it (lighteval's
# config_general.model_name; MLflow's run name), not the folder it was copied to
TITLED = {
    "lighteval": "quyanh/OpenRS-GRPO: ",
    "one checkpoint": "Accuracy by benchmark (quyanh/OpenRS-GRPO at step 400)",
    "mlflow": "self_training_full_run: ",
}


def test_curves_with_no_band_start_their_axis_at_zero_and_say_why_there_is_none():
    """Issue 46: three MLflow iterations of a mapped score (0.92, 0.92, 0.835) with nothing to
    read their wiggle against drew on an axis from 0.83 to 0.92, a dip that looked like a
    collapse; a banded accuracy keeps its fitted axis. A mapped score's missing band is said
    as what it is (no count of answers), not as benchmarks' sizes."""
    from helpers.runs.choose import chart_for

    files, options = OWN_RUN_INPUTS["mlflow"]
    spec = chart_for(files, **options)[0].to_dict()
    assert _value_scales(spec) and all(s.get("zero") is True for s in _value_scales(spec))
    assert "no bands: the log does not say how many answers each value averages" in set(
        _texts(spec)
    )
    banded = chart_for([LIGHTEVAL])[0].to_dict()
    assert _value_scales(banded) and all(s.get("zero") is False for s in _value_scales(banded))


def _value_scales(spec) -> list[dict]:
    """The scales of every layer that draws the curves' values on y."""
    return [
        u["encoding"]["y"]["scale"]
        for u in _units(spec)
        if u.get("encoding", {}).get("y", {}).get("field") == "value"
    ]


def _units(spec):
    """Every unit and layer of a spec."""
    if isinstance(spec, dict):
        if "mark" in spec:
            yield spec
        for value in spec.values():
            yield from _units(value)
    elif isinstance(spec, list):
        for value in spec:
            yield from _units(value)


def test_a_run_wide_length_is_drawn_once_not_under_each_benchmark(tmp_path):
    """Issue 46: a training log's response length is the run's, one a step for every
    benchmark; drawn under each benchmark it read as each one's own length. It is drawn
    once, under the first panel, and the subtitle says so."""
    from helpers.runs import simulated_training
    from helpers.runs.choose import chart_for

    log = tmp_path / "train.jsonl"
    simulated_training.write(log, 10, 60)
    spec = chart_for([log])[0].to_dict()
    lengths = [u["name"] for u in _units(spec) if str(u.get("name")).startswith("length")]
    assert lengths == ["length 0"]
    assert any(t.startswith("response length, under the first panel") for t in _texts(spec))
