"""The parameterised notebook (005) on the real logs, through papermill."""

from __future__ import annotations

import ast
import io
import json
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from contextlib import chdir, redirect_stdout
from functools import cache

import polars as pl
import pytest

from helpers.paths import NOTEBOOKS
from helpers.render.export import notebook_spec
from helpers.render.theme import VEGALITE_MIME
from tests.realdata import (
    CHECKPOINTS,
    LIGHTEVAL,
    OBS,
    SKY,
    SKY14,
    SKY14_AIME,
    SKY14_METRICS,
    SKY_ACCURACY,
    SKY_PROBLEMS,
    TRAIN,
    VAL,
)


def _charts(nb: dict) -> list[dict]:
    return [
        o["data"][VEGALITE_MIME]
        for c in nb["cells"]
        for o in c.get("outputs", [])
        if VEGALITE_MIME in o.get("data", {})
    ]


def _text(nb: dict) -> str:
    return "".join("".join(o.get("text", "")) for c in nb["cells"] for o in c.get("outputs", []))


def _rows(chart: dict) -> list[dict]:
    return chart["datasets"][chart["data"]["name"]]


def _accuracy(chart: dict, benchmark: str) -> dict[float, float]:
    """iteration -> accuracy drawn in a training grid's panel (a row per panel and step:
    `value` the accuracy, `tokens` the mean length)."""
    return {
        r["iteration"]: r["value"]
        for r in _rows(chart)
        if r["benchmark"] == benchmark and r.get("value") is not None
    }


def _harness_acc(step: int) -> float:
    path = CHECKPOINTS / f"checkpoint-{step}" / "aime24_metrics.json"
    return json.loads(path.read_text())["acc"]


CASES = {
    # and their mean, then training panels: 24 drawn
    "wandb": ({"RUN": str(VAL), "TRAIN": str(TRAIN)}, "wandb", 24),
    "wandb-train": ({"RUN": str(TRAIN)}, "wandb", 16),
    "skythought": ({"RUN": str(SKY)}, "qwen-math", None),
    "obsscaling": ({"RUN": str(OBS), "BENCHMARKS": ["GSM8K", "MMLU"]}, "scores", 2),
    "lighteval": ({"RUN": str(LIGHTEVAL)}, "folder", 3 + 1),
    "checkpoints": ({"RUN": str(CHECKPOINTS)}, "folder", 1),
    "metrics": ({"RUN": str(SKY14_METRICS)}, "qwen-math-metrics", None),
    "aime-samples": ({"RUN": str(SKY14_AIME)}, "qwen-math", None),
}


PAIR = {"RUNS": {"qwen2.5-math-7b": str(SKY), "qwen2.5-14b-instruct": str(SKY14)}}


@cache
def _in_process(case: str) -> dict:
    """005's own code cells run in this process, the parameters cell's values then replaced by
    the case's (as papermill injects them), each cell's last expression shown as a kernel
    shows it (a chart as the spec the notebook stores; the PNG beside it is not drawn, as
    nothing here reads it). Returns a notebook-shaped dict of the outputs, for the checks
    papermill's executed notebooks get; each case runs once."""
    import altair as alt

    name, parameters = "005_your_run", CASES[case][0]
    nb = json.loads((NOTEBOOKS / f"{name}.ipynb").read_text())
    namespace: dict = {}
    cells = []
    for cell in (c for c in nb["cells"] if c["cell_type"] == "code"):
        tree = ast.parse("".join(cell["source"]))
        last = tree.body.pop() if tree.body and isinstance(tree.body[-1], ast.Expr) else None
        printed = io.StringIO()
        with redirect_stdout(printed), chdir(NOTEBOOKS):
            exec(compile(tree, name, "exec"), namespace)
            shown = (
                eval(compile(ast.Expression(last.value), name, "eval"), namespace) if last else None
            )
        if "parameters" in cell["metadata"].get("tags", []):
            namespace.update(parameters)
        outputs = [{"text": printed.getvalue()}]
        if isinstance(shown, alt.TopLevelMixin):
            outputs.append({"data": {VEGALITE_MIME: notebook_spec(shown.to_dict())}})
        cells.append({"outputs": outputs})
    return {"cells": cells}


@pytest.fixture(scope="session")
def papermilled(tmp_path_factory) -> dict[str, dict]:
    """005 with the three kinds of parameter (paths, a list), and notebook 007 on a real pair
    (a dict), run by papermill's own command line two at a time (one per core); the executed
    notebooks by case. Every other case runs the same cells in process (`_in_process`), which
    `test_papermill_runs_what_the_in_process_runs_show` holds to papermill's outputs."""
    folder = tmp_path_factory.mktemp("papermill")
    runs = {case: ("005_your_run", CASES[case][0]) for case in PAPERMILLED}
    runs["pair"] = ("007_compare_runs", PAIR)

    def run(case: str) -> subprocess.CompletedProcess:
        name, parameters = runs[case]
        notebook, executed = NOTEBOOKS / f"{name}.ipynb", folder / f"{case}.ipynb"
        return subprocess.run(
            [sys.executable, "-m", "papermill", str(notebook), str(executed)]
            + ["-y", json.dumps(parameters), "-k", "python3", "--cwd", str(NOTEBOOKS)]
            + ["--no-progress-bar"],
            capture_output=True,
            text=True,
            timeout=600,
        )

    with ThreadPoolExecutor(max_workers=2) as pool:
        done = dict(zip(runs, pool.map(run, runs), strict=True))
    out = {}
    for case, result in done.items():
        assert result.returncode == 0, f"{case}: {result.stdout}{result.stderr}"
        out[case] = json.loads((folder / f"{case}.ipynb").read_text())
    return out


PAPERMILLED = ("wandb", "obsscaling")


@pytest.mark.parametrize("case", PAPERMILLED)
def test_papermill_runs_what_the_in_process_runs_show(papermilled, case):
    """The in-process runs stand for papermill's: the same printed text, the same chart."""
    by_papermill, here = papermilled[case], _in_process(case)
    assert _charts(by_papermill) == _charts(here)
    assert _text(by_papermill) == _text(here)


@pytest.mark.parametrize("case", list(CASES))
def test_notebook_charts_real_files(case):
    _, kind, panels = CASES[case]
    nb = _in_process(case)
    text = _text(nb)
    assert f": {kind}\n" in text and "SIMULATED" not in text
    [chart] = _charts(nb)
    if panels is not None:
        assert len({r["benchmark"] for r in _rows(chart)}) == panels
    drawn = json.dumps(chart)
    if case == "skythought":  # the harness's printed accuracy for this file
        assert "level" in drawn and f"overall {SKY_ACCURACY:.1%} ({SKY_PROBLEMS} problems)" in drawn
    if case == "wandb":
        assert _accuracy(chart, "math__math/unknown")[0.0] == 0.57
    if case == "wandb-train":
        raw = pl.read_csv(TRAIN, columns=["_step", "critic/scores/stem_web/mean"]).drop_nulls()
        first = raw.sort("_step").row(0)
        assert _accuracy(chart, "stem_web")[float(first[0])] == pytest.approx(first[1])
    if case == "lighteval":  # the JSON files' scores: 11 of 30 at step 150, 85.4% at step 50
        assert _accuracy(chart, "AIME24")[150.0] == pytest.approx(11 / 30)
        assert _accuracy(chart, "MATH500")[50.0] == pytest.approx(0.854)
    if case == "checkpoints":  # each checkpoint's accuracy as its harness printed it
        drawn_acc = _accuracy(chart, "AIME24")
        assert {s: round(a * 100, 1) for s, a in drawn_acc.items()} == {
            float(s): _harness_acc(s) for s in (21, 49, 84, 119, 140)
        }
    if case == "metrics":
        assert "500 problems" in text and "0.804" in text
    if case == "aime-samples":
        # one benchmark: its point, at the file's accuracy (no overall line repeating it)
        solved = sum(json.loads(line)["score"][0] for line in SKY14_AIME.open())
        assert f'"problems": 30, "samples_per_problem": 1, "accuracy": {solved / 30}' in drawn
        assert "overall" not in drawn


def test_compare_notebook_on_a_real_pair(papermilled):
    """Notebook 007 on two real evaluations of the same 500 MATH500 problems."""
    nb = papermilled["pair"]
    text = _text(nb)
    assert "SIMULATED" not in text and "no known truth for your runs" in text
    assert "MATH500" in text and "500 shared problems" in text
    [chart] = _charts(nb)
    assert "qwen2.5-14b-instruct vs qwen2.5-math-7b" in json.dumps(chart)
