"""Every row of every dataset against what its description (../shared/seeds) states.

Each test parses the description's own text and compares it with the CSV both ways, so a value
missing from the data, or present in the data but not in the description, fails.
"""

from __future__ import annotations

import re

import polars as pl

import helpers


def _num(s: str) -> float:
    return float(s.replace(",", ""))


def test_rl_length_scaling_matches_description(seeds):
    text = seeds["000"]
    left, right = text.split("**Right Plot: AIME2024**")
    stated = set()
    for panel, section in (
        ("MATH500", left.split("**Left Plot: MATH500**")[1]),
        ("AIME2024", right),
    ):
        orange, blue = section.split("**Blue (Other models):**")
        for group, part in (("k1.5", orange), ("other", blue)):
            for label, x, y in re.findall(r"`([^`]+)`: \(~([\d.]+), ~([\d.]+)\)", part):
                stated.add((panel, label, group, int(_num(x)), _num(y)))
    df = helpers.load("rl_length_scaling")
    rows = set(df.select("panel", "model", "group", "token_length", "accuracy").iter_rows())
    assert len(stated) == 20
    assert rows == stated
    assert set(df.filter(group="k1.5")["colour"]) == {"orange"}
    assert set(df.filter(group="other")["colour"]) == {"blue"}


def test_training_dynamics_matches_description(seeds):
    lines = re.findall(r"^(\d+)\. \*\*(.+?):\*\* (.*)$", seeds["001"], flags=re.M)
    assert len(lines) == 13
    df = helpers.load("training_dynamics")
    assert df["benchmark"].to_list() == [name for _, name, _ in lines]
    for (pos, _name, sentence), row in zip(lines, df.iter_rows(named=True), strict=True):
        assert row["position"] == int(pos)
        trend = re.search(
            r"starting around ([\d.]+) and reaching approximately (\d+(?:\.\d+)?)", sentence
        )
        band = re.search(
            r"fluctuates between approximately (\d+(?:\.\d+)?) and (\d+(?:\.\d+)?)", sentence
        )
        tokens = re.search(r"Token Length increases steadily from (\d+) to around (\d+)", sentence)
        assert tokens, sentence
        assert (row["token_length_start"], row["token_length_end"]) == tuple(
            map(int, tokens.groups())
        )
        if trend:
            assert band is None
            assert (row["accuracy_start"], row["accuracy_end"]) == tuple(map(float, trend.groups()))
            assert row["accuracy_min"] is None and row["accuracy_max"] is None
            shape = (
                "slightly increasing" if "slight increasing" in sentence else "generally increasing"
            )
        else:
            assert band, sentence
            assert (row["accuracy_min"], row["accuracy_max"]) == tuple(map(float, band.groups()))
            assert row["accuracy_start"] is None and row["accuracy_end"] is None
            shape = "fluctuates"
        assert row["accuracy_shape"] == shape


def test_step_dpo_sizing_matches_description(seeds):
    text = seeds["002"]
    points = set()
    for size, block in re.findall(
        r"\*\*(\d+B) Size:\*\*(.*?)(?=\* \*\*\d+B Size|### Key)", text, re.S
    ):
        for colour, marker, label, acc in re.findall(
            r"\* ([A-Z][a-z]+) (Triangle|Circle)[^:]*: `([^`]+)` at ~([\d.]+)%", block
        ):
            points.add((label, size, _num(acc), marker.lower(), colour.lower()))
    baselines = {
        (label, _num(acc))
        for label, acc in re.findall(r"\* `([^`]+)` at approximately ([\d.]+)% accuracy", text)
    }
    legend = set(re.findall(r"\* ([A-Z][a-z]+(?: [a-z]+)?) circle: `([^`]+)`", text))
    df = helpers.load("step_dpo_sizing")
    got_points = set(
        df.filter(kind="point")
        .select("model", "model_size", "accuracy", "marker", "colour")
        .iter_rows()
    )
    assert len(points) == 11 and got_points == points
    assert set(df.filter(kind="baseline").select("model", "accuracy").iter_rows()) == baselines
    assert len(baselines) == 3
    got_legend = {
        (c.capitalize(), m)
        for m, c in df.filter(kind="legend only").select("model", "colour").iter_rows()
    }
    assert got_legend == legend and len(legend) == 4
    annotated = dict(
        df.filter(pl.col("annotation").is_not_null()).select("model", "annotation").iter_rows()
    )
    assert annotated == {"Qwen2-72B-Instruct†": "dagger", "Qwen2-72B-Instruct": "arrow"}


def test_prm_data_scaling_matches_description(seeds):
    text = seeds["003"].split("### Detailed Analysis")[1].split("### Key Observations")[0]
    left, right = text.split("#### Right Chart")
    stated = set()
    for label, colour, marker, block in re.findall(
        r"\*\*(.+?) \((Blue|Orange|Purple) (Line|Triangle|Square|Circle)\)\*\*:(.*?)(?=- \*\*|\Z)",
        left,
        re.S,
    ):
        patterns = {
            "stated": r"(?<!extrapolated to )~(\d+)% (?:accuracy )?(?:with|at) (\d+)k samples",
            "extrapolated": r"extrapolated to ~(\d+)% at (\d+)k samples",
        }
        for status, pattern in patterns.items():
            for acc, samples in re.findall(pattern, block):
                stated.add(
                    (
                        "training samples",
                        label,
                        f"{samples}k",
                        int(samples) * 1000,
                        None,
                        float(acc),
                        status,
                        marker.lower(),
                        colour.lower(),
                    )
                )
    for label, colour, marker, block in re.findall(
        r"\*\*(.+?) \((Blue|Orange|Purple) (Triangle|Square|Circle)\)\*\*:(.*?)(?=- \*\*|\Z)",
        right,
        re.S,
    ):
        for acc, size in re.findall(r"~(\d+)% accuracy at ([\d.]+)B parameters", block):
            stated.add(
                (
                    "PRM size",
                    label,
                    f"{size}B",
                    None,
                    float(size),
                    float(acc),
                    "stated",
                    marker.lower(),
                    colour.lower(),
                )
            )
    df = helpers.load("prm_data_scaling")
    assert len(stated) == 10
    assert set(df.iter_rows()) == stated


def test_grpo_vs_mel_matches_description(seeds):
    text = seeds["004"]
    stated = set()
    for method, block in re.findall(r"#### (GRPO|MEL) \(\w+ Line\)(.*?)(?=#### |---)", text, re.S):
        for step, score in re.findall(r"Step (\d+): ~([\d.]+)", block):
            stated.add((method, "point", int(step), None, float(score)))
        for lo, hi, s0, s1 in re.findall(
            r"[Ff]luctuates between ~([\d.]+) and ~([\d.]+) from steps (\d+)–(\d+)", block
        ):
            stated.add((method, "range low", int(s0), int(s1), float(lo)))
            stated.add((method, "range high", int(s0), int(s1), float(hi)))
    assert len(stated) == 15
    assert set(helpers.load("grpo_vs_mel").iter_rows()) == stated
