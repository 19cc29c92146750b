"""A run's chart functions (own runs, compared runs, leaderboards): what a reader must see is
in the spec; and, for these, the tests every chart function takes (`chart_checks`)."""

from __future__ import annotations

import json
import re

import polars as pl

from helpers import charts
from helpers.charts import own_run
from helpers.runs import readers, summarise
from tests.chart_checks import (  # noqa: F401 (collected here, for CHART_MODULES)
    test_chart_builds_round_trips_and_renders,
    test_chart_is_the_spec_altair_builds,
    test_every_stated_tick_is_drawn,
    test_series_are_told_apart_in_greyscale,
    test_tooltips_speak_in_words,
)
from tests.chart_examples import _data, _roundtrip, _run_curves
from tests.realdata import SKY_ACCURACY, SKY_PROBLEMS

CHART_MODULES = ("compare_runs", "leaderboard", "own_run")


def test_accuracy_by_group_spec():

    from tests.realdata import SKY

    samples = readers.read_qwen_math(SKY)
    spec = _roundtrip(
        charts.accuracy_by_group(
            summarise.accuracy_table(samples, ["level"]),
            "level",
            title="t",
            overall=summarise.accuracy_table(samples),
        )
    )
    marks = [ly["mark"]["type"] for ly in spec["layer"]]
    assert marks == ["rule", "point", "rule"]
    assert spec["layer"][0]["encoding"]["y"]["field"] == "lo"
    assert len(_data(spec, spec["layer"][1])) == 5
    # the overall line is named in the subtitle, where no label can cross a group's interval
    overall = f"dashed line: overall {SKY_ACCURACY:.1%} ({SKY_PROBLEMS} problems)"
    assert spec["title"]["subtitle"][0] == overall


def test_the_mean_of_the_benchmarks_is_drawn_apart_after_them():
    """Issue 46: one evaluation's mean of its benchmarks is not one more benchmark along the
    axis: a panel of its own after theirs, on the same accuracy scale, a dark diamond."""
    table = pl.DataFrame(
        {
            "benchmark": ["AIME24", "MATH500", "mean of 2 benchmarks"],
            "accuracy": [0.3, 0.8, 0.55],
            "lo": [0.15, 0.76, 0.48],
            "hi": [0.5, 0.84, 0.62],
            "problems": [30, 500, None],
            "average": [False, False, True],
        }
    )
    spec = _roundtrip(charts.accuracy_by_group(table, "benchmark", title="t"))
    benchmarks, mean = spec["hconcat"]
    assert spec["resolve"]["scale"]["y"] == "shared"
    drawn = [[r["benchmark"] for r in _data(spec, p["layer"][1], p)] for p in (benchmarks, mean)]
    assert drawn == [["AIME24", "MATH500"], ["mean of 2 benchmarks"]]
    assert mean["layer"][1]["encoding"]["shape"]["value"] == "diamond"
    assert mean["layer"][1]["encoding"]["x"]["title"] == "Average"
    assert mean["layer"][1]["encoding"]["y"]["axis"]["labels"] is False


def test_accuracy_vs_size_spec():

    from tests.realdata import OBS

    scores = readers.read_scores(OBS, benchmarks=["GSM8K", "MMLU"])
    spec = _roundtrip(charts.accuracy_vs_size(summarise.size_table(scores), title="t"))
    assert spec["facet"]["field"] == "benchmark"
    points, trend = spec["spec"]["layer"]
    assert points["encoding"]["x"]["scale"]["type"] == "log"
    rows = spec["datasets"][spec["data"]["name"]]
    assert sum(r["kind"] == "model" for r in rows) == scores.height
    medians = [r for r in rows if r["kind"] == "median"]
    assert medians and all(r["models"] >= 3 for r in medians)


def test_a_difference_bar_of_few_seeds_is_cut_at_the_axis_edge_and_said():
    """Issue 46: notebook 007's pair has two seeds a run, and a paired interval counting the
    seeds' spread with one or two degrees of freedom spans ±50 points where the verdict's is
    ±11: the difference panels share an axis cut at ±30 points (every difference, unpaired
    interval and last-step interval inside), each bar past it ends in a triangle at the edge,
    and the section's subtitle says so; the flips are counted from losses to gains."""
    from helpers.charts.compare_runs import difference_limit
    from helpers.runs import compare, examples
    from helpers.runs.presentation import comparison_chart

    c = compare.compare(examples.comparison_logs())
    limit = difference_limit(c.differences)
    assert limit == 0.3
    last = c.differences.filter(pl.col("step_b") == pl.col("step_b").max())
    assert (last["hi"].abs().max() < limit) and (c.differences["hi"].max() > limit)
    spec = comparison_chart(c).to_dict()
    runs_part, differences, flips = spec["vconcat"]
    said = json.dumps(differences["title"], ensure_ascii=False)
    assert "axis cut at ±30 points: a bar past it ends in a chevron" in said
    assert differences["resolve"]["scale"]["y"] == "shared"
    layers = {ly.get("name"): ly for ly in differences["spec"]["layer"]}
    assert layers["difference"]["encoding"]["y"]["scale"] == {"domain": [-0.3, 0.3], "clamp": True}
    assert layers["cut hi"]["encoding"]["y"] == {"datum": 0.3}
    assert layers["cut lo"]["mark"] | {"filled": False} == layers["cut lo"]["mark"]  # open
    assert flips["spec"]["layer"][0]["encoding"]["x"]["sort"] == "ascending"
    assert difference_limit(c.differences.with_columns(lo=pl.lit(-0.01), hi=pl.lit(0.01))) is None


def test_a_run_wide_length_is_titled_the_runs_and_a_sources_own_is_not():
    """Drawn once under the first panel, the run's length says it is the run's (it read as that
    benchmark's own); a panel with a length of its own keeps the plain title; long titles are
    broken in two, so they do not overhang their short panel."""
    curves = _run_curves()
    names = curves["benchmark"].unique(maintain_order=True).to_list()
    spec = charts.run_grid(
        curves, title="t", columns=1, one_length=True, own_lengths=[names[1]]
    ).to_dict()
    lengths = [u["vconcat"][1] for u in spec["concat"] if "vconcat" in u]
    assert [x["encoding"]["y"]["title"] for x in lengths] == [
        ["Run's mean", "tokens"],
        ["Mean", "tokens"],
    ]
    assert "vconcat" not in spec["concat"][2]  # the third benchmark: no length of its own


def test_narrow_panels_label_the_last_step_and_the_first_where_it_fits():
    """Eight checkpoints on a four-column grid: not every label fits, so labels are kept from
    the last back, each clear of the one after it, and the first (two digits) still fits."""
    steps = [50.0, 100.0, 150.0, 200.0, 250.0, 300.0, 350.0, 400.0]
    axis = own_run._labelled(steps, 4)
    kept = {int(v) for v in re.findall(r"datum.value == (\d+)", axis["labelExpr"])}
    assert kept == {50, 100, 200, 300, 400} and axis["labelFlush"] is False
    assert own_run._labelled(steps[:3], 4) == {"labelFlush": False}  # room for all three
