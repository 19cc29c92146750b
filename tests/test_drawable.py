"""Charts of runs of any size: panels capped, series thinned to every n-th logged value (first
and last kept), each chart's data under altair's row limit, and the subtitle saying so. First
the two operations on frames (with generated shapes), then whole runs of the sizes real logs
have, through the command line."""

from __future__ import annotations

import json
import re

import numpy as np
import polars as pl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from helpers.cli import main
from helpers.runs import drawable


def _series(lengths: list[int], with_null: bool = False) -> pl.DataFrame:
    parts = [
        pl.DataFrame({"benchmark": f"b{i}", "metric": "accuracy", "step": np.arange(n) * 5})
        for i, n in enumerate(lengths)
    ]
    frame = pl.concat(parts).with_columns(value=pl.col("step") / 1000)
    if with_null:
        once = pl.DataFrame({"benchmark": "b0", "metric": "accuracy", "step": None, "value": 0.5})
        frame = pl.concat([frame, once.cast(frame.schema)])
    return frame


def test_a_short_run_is_drawn_whole():
    frame = _series([150, 40])
    fitted = drawable.thin(frame, "step", ("benchmark", "metric"))
    assert fitted.frame.equals(frame) and fitted.notes == []


def test_a_long_run_keeps_every_nth_step_with_first_and_last():
    frame = _series([3000, 3000], with_null=True)
    fitted = drawable.thin(frame, "step", ("benchmark", "metric"))
    kept = fitted.frame.filter(pl.col("benchmark") == "b1", pl.col("step").is_not_null())
    steps = kept["step"].to_list()
    assert steps[0] == 0 and steps[-1] == 2999 * 5
    assert len(steps) <= drawable.POINTS_PER_SERIES
    gaps = set(np.diff(steps[:-1]).tolist())
    assert gaps == {16 * 5}  # every 16th logged step: ceil(2999 / 199)
    assert fitted.frame.filter(pl.col("step").is_null()).height == 1  # a run evaluated once
    # said in words a figure can hold (no output option named)
    assert fitted.notes == ["up to 3,000 steps per line: every 16th drawn, and the last"]
    # the values kept are the logged ones, untouched
    assert kept.join(frame, on=["benchmark", "metric", "step"])["value_right"].equals(
        kept["value"], check_names=False
    )


def test_many_series_share_the_row_budget():
    frame = _series([400] * 32)  # a verl training export: 16 sources x (score, length)
    fitted = drawable.thin(frame, "step", ("benchmark", "metric"))
    assert fitted.frame.height <= drawable.MAX_ROWS - 200
    assert fitted.frame.group_by("benchmark").len()["len"].min() >= 100


def test_panels_past_the_limit_are_left_out_by_name():
    frame = pl.DataFrame({"benchmark": [f"b{i}" for i in range(10_000)], "value": 0.1})
    shown = drawable.panels(frame, "benchmark")
    assert shown.order == [f"b{i}" for i in range(24)]
    assert shown.frame["benchmark"].to_list() == shown.order
    assert shown.notes == [
        "24 of 10,000 benchmarks drawn (the first 24 in the log); not drawn: "
        + ", ".join(f"b{i}" for i in range(24, 34))
        + " and 9,966 more"
    ]
    # a few left out are each named
    some = drawable.panels(frame.head(26), "benchmark")
    assert some.notes == [
        "24 of 26 benchmarks drawn (the first 24 in the log); not drawn: b24, b25"
    ]
    few = drawable.panels(frame.head(3), "benchmark", order=["b2", "b0", "b1"])
    assert few.order == ["b2", "b0", "b1"] and few.notes == [] and few.frame.height == 3


def test_ordinal():
    assert [drawable.ordinal(n) for n in (1, 2, 3, 4, 11, 12, 13, 21, 22, 111)] == [
        "1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "22nd", "111th"
    ]  # fmt: skip


@settings(max_examples=80, deadline=None)
@given(
    lengths=st.lists(st.integers(1, 6000), min_size=1, max_size=40),
    budget=st.integers(100, 4800),
)
def test_generated_sizes_fit_the_budget(lengths, budget):
    frame = _series(lengths)
    fitted = drawable.thin(frame, "step", ("benchmark", "metric"), budget=budget)
    out = fitted.frame
    assert out.height <= max(budget, 2 * len(lengths))  # two values a line at the least
    ends = frame.group_by("benchmark").agg(first=pl.col("step").min(), last=pl.col("step").max())
    got = out.group_by("benchmark").agg(first=pl.col("step").min(), last=pl.col("step").max())
    assert got.sort("benchmark").equals(ends.sort("benchmark"))
    assert out.join(frame, on=["benchmark", "step"], how="anti").height == 0
    assert (fitted.notes == []) == out.equals(frame)


# ---- whole runs through the command line -------------------------------------------------------


def _spec(html: str) -> dict:
    found = re.search(r'<script type="application/json" id="vega-spec">(.*?)</script>', html, re.S)
    return json.loads(found.group(1))


def _rows(spec: dict) -> list[int]:
    """The number of rows in every inline data set of a spec, at any depth."""
    sizes = []
    if isinstance(spec, dict):
        if isinstance(spec.get("values"), list):
            sizes.append(len(spec["values"]))
        sizes += [len(rows) for rows in spec.get("datasets", {}).values()]
        for v in spec.values():
            sizes += _rows(v)
    elif isinstance(spec, list):
        for v in spec:
            sizes += _rows(v)
    return sizes


def _subtitle(spec: dict) -> str:
    title = spec.get("title", {})
    sub = title.get("subtitle", "") if isinstance(title, dict) else ""
    return " | ".join(sub) if isinstance(sub, list) else sub


def _wandb(path, steps: int, benchmarks: int, tokens: bool = True):
    rng = np.random.default_rng(0)
    columns = {"_step": np.arange(steps)}
    for b in range(benchmarks):
        columns[f"val/test_score/bench{b}/unknown"] = rng.uniform(0.2, 0.6, steps)
    if tokens:
        columns["response_length/mean"] = 1000 + np.arange(steps) * 0.5
    pl.DataFrame(columns).write_csv(path)
    return path


def _verl_training(path, steps: int = 400, sources: int = 16):
    rng = np.random.default_rng(1)
    columns = {"_step": np.arange(1, steps + 1)}
    for s in range(sources):
        columns[f"critic/scores/src{s}/mean"] = rng.uniform(0, 1, steps)
        columns[f"response_length/src{s}/mean"] = rng.uniform(500, 900, steps)
    pl.DataFrame(columns).write_csv(path)
    return path


def _per_sample(path, steps: int = 200, benchmarks: int = 13, problems: int = 10):
    rng = np.random.default_rng(2)
    n = steps * benchmarks * problems
    pl.DataFrame(
        {
            "step": np.repeat(np.arange(steps), benchmarks * problems),
            "benchmark": np.tile(np.repeat([f"b{i}" for i in range(benchmarks)], problems), steps),
            "problem_id": np.tile(np.arange(problems), steps * benchmarks).astype(str),
            "sample_id": 0,
            "correct": rng.random(n) < 0.5,
            "response_tokens": rng.integers(100, 2000, n),
        }
    ).write_parquet(path)
    return path


def _many_benchmarks(path, benchmarks: int = 10_000):
    columns = {"_step": [0, 10]}
    columns.update({f"val/test_score/b{i}": [0.1, 0.2] for i in range(benchmarks)})
    pl.DataFrame(columns).write_csv(path)
    return path


RUNS = {
    "W&B export, 3,000 steps x 2 benchmarks": (
        lambda d: _wandb(d / "w.csv", 3000, 2),
        "every 16th drawn",
        3000,
    ),
    "W&B export, 3,000 steps x 13 benchmarks": (
        lambda d: _wandb(d / "w13.csv", 3000, 13),
        "up to 3,000 steps per line",
        3000,
    ),
    "verl training export, 16 sources x 400 steps": (
        lambda d: _verl_training(d / "train.csv"),
        "up to 400 steps per line",
        400,
    ),
    "per-sample log, 200 steps x 13 benchmarks": (
        lambda d: _per_sample(d / "samples.parquet"),
        "up to 200 steps per line: every 2nd drawn",
        200,
    ),
    "10,000 benchmarks": (
        lambda d: _many_benchmarks(d / "many.csv"),
        "23 of 10,000 benchmarks drawn (the first 23 in the log), and mean of 10000 benchmarks",
        2,
    ),
}


@pytest.mark.parametrize("case", list(RUNS))
def test_runs_of_real_sizes_chart_with_what_was_left_out_said(tmp_path, capsys, case):
    make, said, steps = RUNS[case]
    log = make(tmp_path)
    out = tmp_path / "chart.html"
    assert main(["plot", str(log), "-o", str(out)]) == 0
    spec = _spec(out.read_text())
    assert max(_rows(spec)) <= drawable.MAX_ROWS
    assert said in _subtitle(spec)
    csv = tmp_path / "all.csv"  # the numbers keep every logged row
    assert main(["plot", str(log), "-o", str(csv)]) == 0
    assert pl.read_csv(csv)["step"].n_unique() == steps


def test_a_long_run_renders_to_png_and_svg(tmp_path):
    log = _wandb(tmp_path / "w.csv", 3000, 13)
    for suffix in (".png", ".svg"):
        assert main(["plot", str(log), "-o", str(tmp_path / f"c{suffix}")]) == 0
    assert (tmp_path / "c.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert "up to 3,000 steps per line" in (tmp_path / "c.svg").read_text()


def test_a_long_comparison_is_thinned_in_every_part(tmp_path, capsys):
    runs = []
    for name, seed in (("base", 3), ("new", 4)):
        path = _per_sample(tmp_path / f"{name}.parquet", steps=300, benchmarks=2, problems=40)
        frame = pl.read_parquet(path)
        rng = np.random.default_rng(seed)
        frame.with_columns(correct=pl.Series(rng.random(frame.height) < 0.5)).write_parquet(path)
        runs.append(f"{name}={path}")
    out = tmp_path / "cmp.html"
    assert main(["compare", *runs, "-o", str(out)]) == 0
    spec = _spec(out.read_text())
    assert max(_rows(spec)) <= drawable.MAX_ROWS
    assert "up to 300 steps per line" in _subtitle(spec)


def test_flipped_problems_past_the_limit_are_counted_not_drawn():
    """The example comparison flips up to 104 MATH500-like problems in a panel: more than
    MAX_FLIPS_DRAWN, so they are counted by how much each moved (every problem counted once),
    and the subtitle says where the list is; below the limit they are drawn one by one."""
    from helpers.runs import examples
    from helpers.runs.compare import compare

    c = compare(examples.comparison_logs())
    drawn = drawable.comparison(c)
    per_panel = c.problems.group_by("comparison", "benchmark").len()["len"]
    assert per_panel.max() > drawable.MAX_FLIPS_DRAWN
    assert drawn.problems.height == 0 and drawn.counts["problems"].sum() == c.problems.height
    # said under the flips' own title, not the figure's (it read as about the whole figure)
    assert not any("counted by how much each moved" in n for n in drawn.notes)
    assert any("counted by how much each moved" in n for n in drawn.flip_notes)
    from helpers.runs.presentation import comparison_chart

    sections = comparison_chart(c).to_dict()["vconcat"]
    assert "counted by how much each moved" in json.dumps(sections[-1]["title"])
    few = compare(examples.comparison_logs(), benchmarks=["aime-like (simulated)"])
    small = drawable.comparison(few)
    assert small.counts is None and small.problems.height == few.problems.height
