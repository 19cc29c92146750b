"""The parameterised notebook (005) on the real logs, through papermill."""

from __future__ import annotations

import json

import papermill as pm
import pytest

from helpers.paths import NOTEBOOKS
from helpers.theme import VEGALITE_MIME

from .test_readers import OBS, SKY, TRAIN, VAL


def _run(tmp_path, **parameters) -> dict:
    out = tmp_path / "out.ipynb"
    pm.execute_notebook(
        str(NOTEBOOKS / "005_your_run.ipynb"),
        str(out),
        parameters=parameters,
        cwd=str(NOTEBOOKS),
        kernel_name="python3",
        progress_bar=False,
    )
    return json.loads(out.read_text())


def _charts(nb: dict) -> list[dict]:
    return [
        o["data"][VEGALITE_MIME]
        for c in nb["cells"]
        for o in c.get("outputs", [])
        if VEGALITE_MIME in o.get("data", {})
    ]


def _text(nb: dict) -> str:
    return "".join("".join(o.get("text", "")) for c in nb["cells"] for o in c.get("outputs", []))


@pytest.mark.parametrize(
    "params, expect",
    [
        ({"RUN": str(VAL), "TRAIN": str(TRAIN)}, ("wandb", 15)),
        ({"RUN": str(SKY)}, ("qwen-math", None)),
        ({"RUN": str(OBS), "BENCHMARKS": ["GSM8K", "MMLU"]}, ("scores", 2)),
    ],
    ids=["wandb", "skythought", "obsscaling"],
)
def test_notebook_charts_real_files(tmp_path, params, expect):
    nb = _run(tmp_path, **params)
    kind, panels = expect
    assert f"({kind})" in _text(nb) and "SIMULATED" not in _text(nb)
    [chart] = _charts(nb)
    if panels is not None:
        rows = chart["datasets"][chart["data"]["name"]]
        assert len({r["benchmark"] for r in rows}) == panels
    if kind == "qwen-math":
        assert "level" in json.dumps(chart) and "overall 52.4% (500 problems)" in json.dumps(chart)


def test_compare_notebook_on_a_real_pair(tmp_path):
    """Notebook 007 on two real evaluations of the same 500 MATH500 problems."""
    from .test_compare import SKY7, SKY14

    out = tmp_path / "out.ipynb"
    pm.execute_notebook(
        str(NOTEBOOKS / "007_compare_runs.ipynb"),
        str(out),
        parameters={"RUNS": {"qwen2.5-math-7b": str(SKY7), "qwen2.5-14b-instruct": str(SKY14)}},
        cwd=str(NOTEBOOKS),
        kernel_name="python3",
        progress_bar=False,
    )
    nb = json.loads(out.read_text())
    text = _text(nb)
    assert "SIMULATED" not in text and "no known truth for your runs" in text
    assert "MATH500" in text and "500 shared problems" in text
    [chart] = _charts(nb)
    assert "qwen2.5-14b-instruct vs qwen2.5-math-7b" in json.dumps(chart)
