"""An example of every public chart function of `helpers.charts` (a builder and a check of its
own spec), and helpers that read a spec: shared by the tests every chart function takes
(`chart_checks`, run from `test_charts` and `test_run_charts`), `test_paper` and
`test_overlaps`. A new chart function without an example here fails
`test_every_public_chart_function_has_an_example`."""

from __future__ import annotations

import functools
import json
import re

import altair as alt
import polars as pl

import helpers
from helpers import charts
from helpers.figures import (
    across_papers,
    detectability,
    grpo_vs_mel,
    rl_length_scaling,
    training_dynamics,
)
from helpers.runs import drawable, readers, summarise


def _layers(spec: dict) -> list[dict]:
    return spec.get("layer", [spec])


def _data(spec: dict, layer: dict, parent: dict | None = None) -> list[dict]:
    """Rows a layer draws (its own data, else its parent's)."""
    source = layer.get("data") or (parent or {}).get("data")
    return spec["datasets"][source["name"]]


def _named(spec: dict) -> dict[str, dict]:
    """A layered spec's layers by their names, in drawing order (Altair suffixes `_1`, `_2` to a
    name repeated in another panel)."""
    return {re.sub(r"_\d+$", "", ly["name"]): ly for ly in spec["layer"] if "name" in ly}


def _text(title) -> str:
    """A title's text, whether given as a string or a Title (with its anchor)."""
    return title["text"] if isinstance(title, dict) else title


def _centred(title) -> bool:
    return isinstance(title, dict) and title.get("anchor") == "middle"


def _roundtrip(chart: alt.TopLevelMixin) -> dict:
    spec = chart.to_dict()
    assert json.loads(json.dumps(spec)) == spec
    return spec


# ---- every public chart function's example -----------------------------------------------------
# Each example builds, survives JSON and `from_dict`, and renders to PNG and SVG (`chart_checks`).

EXAMPLES: dict[str, tuple] = {}


def example(name: str):
    def register(build):
        def check(check_spec):
            EXAMPLES[name] = (build, check_spec)
            return check_spec

        return check

    return register


@functools.cache  # one comparison for every example that draws it
def _compared():
    from helpers.runs import examples
    from helpers.runs.compare import compare

    return compare(examples.comparison_logs())


@example("rl_length_scaling")(lambda: charts.rl_length_scaling(helpers.load("rl_length_scaling")))
def _(spec):
    assert [_text(p["title"]) for p in spec["hconcat"]] == ["MATH500", "AIME2024"]
    assert all(_centred(p["title"]) for p in spec["hconcat"])  # centred above each, as described


@example("rl_length_scaling_panel")(
    lambda: charts.rl_length_scaling_panel(
        rl_length_scaling.with_benchmark_intervals(helpers.load("rl_length_scaling")), "AIME2024"
    )
)
def _(spec):
    assert list(_named(spec))[:2] == ["intervals", "points"]


@example("step_dpo_sizing")(lambda: charts.step_dpo_sizing(helpers.load("step_dpo_sizing")))
def _(spec):
    assert _text(spec["title"]) == "Accuracy on the MATH test set" and _centred(spec["title"])


@example("prm_data_scaling")(lambda: charts.prm_data_scaling(helpers.load("prm_data_scaling")))
def _(spec):
    assert [p["layer"][0]["encoding"]["y"]["field"] for p in spec["hconcat"]] == ["accuracy"] * 2


@example("training_dynamics")(
    lambda: charts.training_dynamics(
        training_dynamics.described_curves(helpers.load("training_dynamics")), title="t"
    )
)
def _(spec):
    assert spec["facet"]["field"] == "benchmark" and spec["columns"] == 4


@example("gain_vs_growth")(
    lambda: charts.gain_vs_growth(
        training_dynamics.gain_and_growth(helpers.load("training_dynamics"))
    )
)
def _(spec):
    points = spec["layer"][0]
    assert points["encoding"]["x"]["field"] == "token_growth"
    rows = _data(spec, points, spec)
    assert rows and all(r["gain"] is not None for r in rows)
    # every point is named by a label layer
    texts = [ly for ly in spec["layer"] if ly["mark"]["type"] == "text"]
    named = {r["benchmark"] for t in texts for r in _data(spec, t, spec)}
    assert named == {r["benchmark"] for r in rows}


@example("grpo_vs_mel")(
    lambda: charts.grpo_vs_mel(grpo_vs_mel.method_curves(helpers.load("grpo_vs_mel")))
)
def _(spec):
    assert _named(spec)["points"]["encoding"]["shape"]["legend"] is not None


@example("accuracy_by_group")(
    lambda: charts.accuracy_by_group(
        summarise.accuracy_table(readers.read_qwen_math(_sky()), ["level"]), "level", title="t"
    )
)
def _(spec):
    assert list(_named(spec)) == ["intervals"]


def _sky():
    from tests.realdata import SKY

    return SKY


def _scores():
    from tests.realdata import OBS

    return readers.read_scores(OBS, benchmarks=["GSM8K"])


@example("accuracy_vs_size")(
    lambda: charts.accuracy_vs_size(summarise.size_table(_scores()), title="t", columns=1)
)
def _(spec):
    assert list(_named(spec["spec"])) == ["models", "medians"]


def _leaderboard():
    from helpers.runs.leaderboard import leaderboard

    models = pl.DataFrame(
        {
            "model": ["a-7B", "b-1.5B", "c", "a-7B", "b-1.5B", "c"],
            "benchmark": ["AIME24"] * 3 + ["MATH500"] * 3,
            "accuracy": [0.5, 0.3, 0.1, 0.9, 0.6, 0.58],
            "size_b": [7.0, 1.5, None] * 2,
        }
    )
    return leaderboard(models)


@example("leaderboard")(
    lambda: charts.leaderboard(_leaderboard()[0], title="t", notes=_leaderboard()[1])
)
def _(spec):
    panels = spec["concat"]
    assert [p["title"] for p in panels] == ["AIME24", "MATH500"]
    assert [list(_named(p)) for p in panels] == [["tiers", "intervals", "models"]] * 2
    y = panels[1]["layer"][2]["encoding"]["y"]
    assert y["sort"] == ["a-7B", "b-1.5B", "c"]  # ranked from the top
    assert "shading" in spec["title"]["subtitle"][1]


def _run_curves():
    from .conftest import EXAMPLE

    return summarise.sample_curves(summarise.aggregate_samples(pl.scan_parquet(EXAMPLE)))


@example("run_grid")(lambda: charts.run_grid(_run_curves(), title="t", columns=2))
def _(spec):
    """Per benchmark, accuracy (percent, with its band) above mean length, one x axis; panels
    named by number (a benchmark's name never enters an expression), layers uniquely named."""
    units = spec["concat"]
    assert spec["columns"] == 2 and len(units) == 3
    accuracy, length = units[0]["vconcat"]
    band, line = accuracy["layer"]
    assert line["encoding"]["y"]["axis"]["format"] == ".0%" and band["mark"]["type"] == "area"
    assert _text(accuracy["title"]) == "aime-like (simulated)"
    assert line["encoding"]["y"]["title"] == "Accuracy"  # the first column only
    assert units[1]["vconcat"][0]["layer"][1]["encoding"]["y"]["title"] is None
    assert length["encoding"]["y"]["title"] == ["Mean", "tokens"]  # no taller than its panel
    assert "datum.panel === 0" in json.dumps(length["transform"])
    names = [x["name"] for u in units for c in u["vconcat"] for x in c.get("layer", [c])]
    assert len(names) == len(set(names)) == 9
    x = line["encoding"]["x"]["scale"]["domain"]
    assert x == [0, 150]


@example("across_papers")(
    lambda: charts.across_papers(across_papers.by_paper(across_papers.across_papers(), "MATH500"))
)
def _(spec):
    points = _named(spec["vconcat"][0])["points"]
    assert points["encoding"]["color"]["legend"]["title"] == "paper"
    assert points["encoding"]["x"]["scale"]["domain"] == [60, 100]
    labels = [r["label"] for panel in spec["vconcat"] for r in _data(spec, panel)]
    assert len(labels) == len(set(labels)) == 45  # 001's start left out: a curve gives its end


@example("run_curves")(lambda: charts.run_curves(_compared().curves, _compared().runs))
def _(spec):
    assert spec["facet"]["field"] == "benchmark"
    assert spec["spec"]["layer"][0]["encoding"]["color"]["legend"]["title"] == "run"


@example("paired_differences")(lambda: charts.paired_differences(_compared().differences))
def _(spec):
    layers = _named(spec["spec"])
    assert {"paired", "unpaired", "zero", "difference"} <= set(layers)
    # differences of accuracies are labelled in percentage points, not as relative percentages
    y = layers["difference"]["encoding"]["y"]
    assert "percentage points" in y["title"] and "* 100" in y["axis"]["labelExpr"]


@example("detectability")(
    lambda: charts.detectability(
        detectability.power_curves(detectability.gaps()), detectability.gaps()
    )
)
def _(spec):
    rows = spec["datasets"][spec["data"]["name"]]
    points = [r for r in rows if r["layer"] == "gap"]
    assert len(points) == len(detectability.GAPS)
    assert all(r["difference"] >= 0 for r in points)  # a gap's size; its sign in the tooltip
    assert {r["panel"] for r in rows} == {
        "AIME2024 / AIME24 (30 problems)", "MATH500 (500 problems)", "MATH (5,000 problems)",
    }  # fmt: skip
    assert {r["figure"] for r in points} == set(detectability.FIGURES.values())
    # each point labelled (a reader of the PNG cannot hover): what it compares, signed
    for r in points:
        assert r["label"].startswith(detectability.SHORT[r["comparison"]])
        signed = f"{r['shown_points']:+g}".replace("-", "\u2212")  # a true minus
        assert r["label"].endswith(f"({signed})") and r["label_x"] is not None
    texts = [x for x in spec["spec"]["layer"] if x["mark"]["type"] == "text"]
    assert texts and all(x["encoding"]["text"]["field"] == "label" for x in texts)


def _design_power():
    from helpers import stats
    from helpers.runs import power_curves

    rows = [
        {"design": design, "problems": 500, "accuracy": 0.5, "agreement": agreement,
         "alpha": 0.05, "power": 0.8,
         "minimum_detectable_difference": stats.minimum_detectable_difference(
             500, 0.5, agreement=agreement)}
        for design, agreement in (("unpaired", None), ("paired", 0.8))
    ]  # fmt: skip
    return power_curves.design_curves(rows, 0.05)


@example("power_against_difference")(
    lambda: charts.power_against_difference(
        *_design_power(), power=0.8, title="t", subtitle=["line: power"]
    )
)
def _(spec):
    """Each design's curve crosses the power asked for at its smallest detectable difference
    (the same formula found both), where its circle is drawn."""
    rows = spec["datasets"][spec["data"]["name"]]
    for design in ("unpaired", "paired, 80% answered alike"):
        curve = [r for r in rows if r["series"] == design and r["layer"] == "curve"]
        (smallest,) = [
            r for r in rows if r["series"] == design and r.get("point") == "smallest detectable"
        ]
        below = max((r for r in curve if r["power"] <= 0.8), key=lambda r: r["power"])
        above = min((r for r in curve if r["power"] >= 0.8), key=lambda r: r["power"])
        assert below["difference"] <= smallest["difference"] + 0.05
        assert smallest["difference"] <= above["difference"] + 0.05
    asked = [r for r in rows if r.get("point") == "asked"]
    assert [r["difference"] for r in asked] == [5.0, 5.0]


@example("problem_flips")(lambda: charts.problem_flips(_compared().problems))
def _(spec):
    assert {"bars", "problems"} <= set(_named(spec["spec"]))


@example("flip_counts")(lambda: charts.flip_counts(drawable.flip_counts(_compared().problems)))
def _(spec):
    """Counted by how much each problem moved: one bar per amount, its count written on it,
    and the counts add up to the problems that flipped."""
    assert {"bars", "counts"} <= set(_named(spec["spec"]))
    rows = spec["datasets"][spec["data"]["name"]]
    assert sum(r["problems"] for r in rows) == _compared().problems.height
    assert {r["better"] for r in rows} == {"method better", "baseline better"}


@example("comparison")(
    lambda: charts.comparison(
        _compared().curves,
        _compared().differences,
        _compared().problems,
        _compared().runs,
        title="t",
    )
)
def _(spec):
    assert len(spec["vconcat"]) == 3


def chart_functions(modules: tuple[str, ...] | None = None) -> list[str]:
    """The names of the public chart functions of `helpers.charts`: of the chart modules named
    (such as "own_run"), or of every one."""
    return sorted(
        name
        for name in charts.__all__
        if callable(f := getattr(charts, name))
        and not isinstance(f, type)
        and (modules is None or f.__module__.rsplit(".", 1)[-1] in modules)
    )


@functools.cache
def built(name: str) -> tuple[alt.TopLevelMixin, dict]:
    """The example chart of a chart function and its spec, built once for the tests."""
    chart = EXAMPLES[name][0]()
    return chart, chart.to_dict()
