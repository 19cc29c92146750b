"""Notebook 008, could the benchmark see it: the differences the five figures show, each beside
the smallest difference its benchmark's size can detect, and the power curves behind them."""

from __future__ import annotations

import polars as pl

from helpers import data, stats

# (document, resource, benchmark, problems, what is compared, baseline, method): each value is
# read from the data package by `_value` (a model or series name, or a described quantity)
GAPS = (
    ("000", "rl_length_scaling", "MATH500", 500, "long2short: k1.5-long vs k1.5-short w/ rl",
     "k1.5-short w/ rl", "k1.5-long"),
    ("000", "rl_length_scaling", "AIME2024", 30, "long2short: k1.5-long vs k1.5-short w/ rl",
     "k1.5-short w/ rl", "k1.5-long"),
    ("001", "training_dynamics", "MATH500", 500, "end of training vs its start", "start", "end"),
    ("001", "training_dynamics", "AIME2024", 30, "end of training vs its start", "start", "end"),
    ("002", "step_dpo_sizing", "MATH", 5000, "Qwen1.5-32B-Step-DPO vs Qwen1.5-32B-SFT",
     "Qwen1.5-32B-SFT", "Qwen1.5-32B-Step-DPO"),
    ("002", "step_dpo_sizing", "MATH", 5000, "Qwen2-72B-Step-DPO vs Qwen2-72B-Instruct",
     "Qwen2-72B-Instruct", "Qwen2-72B-Step-DPO"),
    ("003", "prm_data_scaling", "MATH500", 500, "ReasonFlux-PRM-7B vs Qwen2.5-Math-PRM-72B",
     "Qwen2.5-Math-PRM-72B", "ReasonFlux-PRM-7B"),
    ("003", "prm_data_scaling", "MATH500", 500, "ReasonFlux-PRM-7B vs Skywork-PRM-7B",
     "Skywork-PRM-7B", "ReasonFlux-PRM-7B"),
    ("004", "grpo_vs_mel", "AIME24", 30, "MEL vs GRPO at step 140", "GRPO", "MEL"),
)  # fmt: skip


# each document's figure, as the chart's legend names it: by its paper and what it shows (a
# reader of the PNG alone does not know the notebooks' numbers)
FIGURES = {
    "000": "Kimi k1.5: long2short",
    "001": "Kimi k1.5: training",
    "002": "Step-DPO: sizing",
    "003": "ReasonFlux-PRM: data scaling",
    "004": "MEL vs GRPO",
}
# each comparison as its point's label says it, short (the colour and the legend name the figure)
SHORT = {
    "long2short: k1.5-long vs k1.5-short w/ rl": "long vs short w/ rl",
    "end of training vs its start": "end vs start",
    "Qwen1.5-32B-Step-DPO vs Qwen1.5-32B-SFT": "32B Step-DPO vs SFT",
    "Qwen2-72B-Step-DPO vs Qwen2-72B-Instruct": "72B Step-DPO vs Instruct",
    "ReasonFlux-PRM-7B vs Qwen2.5-Math-PRM-72B": "vs Qwen2.5-Math-PRM-72B",
    "ReasonFlux-PRM-7B vs Skywork-PRM-7B": "vs Skywork-PRM-7B",
    "MEL vs GRPO at step 140": "MEL vs GRPO",
}
# one benchmark spelled two ways by the descriptions (000 and 001 say AIME2024, 004 AIME24):
# one panel, both spellings in its name
SPELLINGS = {"AIME2024": "AIME2024 / AIME24", "AIME24": "AIME2024 / AIME24"}


def _value(resource: str, benchmark: str, name: str) -> float:
    """One accuracy, as a fraction, as the data package holds it."""
    df = data.load(resource)
    if resource == "rl_length_scaling":
        row = df.filter(panel=benchmark, model=name)["accuracy"] / 100
    elif resource == "training_dynamics":
        row = df.filter(benchmark=benchmark)[f"accuracy_{name}"]
    elif resource == "step_dpo_sizing":
        row = df.filter(model=name, kind="point")["accuracy"] / 100
    elif resource == "prm_data_scaling":
        row = df.filter(panel="PRM size", series=name)["accuracy"] / 100
    else:  # grpo_vs_mel: the last described point
        row = df.filter(method=name, kind="point").sort("step")["score"].tail(1)
    return float(row.item())


def _past_the_axis() -> list[str]:
    """The benchmarks whose 001 reading lies past the paper's own axis (notebook 001)."""
    from helpers.figures import training_dynamics

    axes = training_dynamics.against_published_axes(data.load("training_dynamics"))
    return axes.filter("beyond_axis")["benchmark"].to_list()


def gaps(alpha: float = 0.05, power: float = 0.8) -> pl.DataFrame:
    """Each difference a figure shows, its benchmark's size, the smallest difference that size
    detects (two runs compared unpaired: the papers give no per-problem answers) and the power
    to see the difference shown.

    Parameters
    ----------
    alpha : float
        Two-sided level.
    power : float
        The power the smallest detectable difference is found at.

    Returns
    -------
    polars.DataFrame
        One row per comparison in `GAPS`: document, benchmark, problems, comparison, accuracy_a
        (the baseline) and accuracy_b (the method) as fractions, difference (b - a),
        minimum_detectable_difference and power (both at the two accuracies' mean), detectable
        (the difference, either way, at least that minimum), figure (the legend's name for
        the document), panel (the benchmark, its spellings joined, and its size), label
        (the comparison in short, with its signed difference in points) and doubtful (a
        001 reading past the paper's own axis: it cannot be right as read).

    Examples
    --------
    >>> table = gaps()
    >>> table.height, table.filter("detectable").select("document", "benchmark").rows()
    (9, [('001', 'MATH500'), ('002', 'MATH'), ('003', 'MATH500')])
    """
    rows = []
    for document, resource, benchmark, n, what, base, method in GAPS:
        a, b = _value(resource, benchmark, base), _value(resource, benchmark, method)
        p = (a + b) / 2
        rows.append(
            {
                "document": document,
                "benchmark": benchmark,
                "problems": n,
                "comparison": what,
                "accuracy_a": a,
                "accuracy_b": b,
                "difference": b - a,
                "minimum_detectable_difference": stats.minimum_detectable_difference(
                    n, p, alpha=alpha, power=power
                ),
                "power": stats.unpaired_power(n, p, b - a, alpha),
            }
        )
    return pl.DataFrame(rows).with_columns(
        doubtful=(pl.col("document") == "001") & pl.col("benchmark").is_in(_past_the_axis()),
        detectable=pl.col("difference").abs() >= pl.col("minimum_detectable_difference"),
        figure=pl.col("document").replace_strict(FIGURES),
        label=pl.format(
            "{} ({})",
            pl.col("comparison").replace_strict(SHORT),
            # a true minus, as the other figures print a loss
            (pl.col("difference") * 100).map_elements(
                lambda d: f"{d:+g}".replace("-", "\u2212"), return_dtype=pl.String
            ),
        ),
        panel=pl.format(
            "{} ({} problems)",
            pl.col("benchmark").replace(SPELLINGS),
            pl.col("problems").map_elements(lambda n: f"{n:,}", return_dtype=pl.String),
        ),
    )


def power_curves(table: pl.DataFrame) -> pl.DataFrame:
    """Power against difference for each row of `gaps()`, at that row's size and accuracy:
    every quarter point up to 6 points (where 500 and 5,000 problems' curves rise steepest),
    every half point up to 12 and every point up to 40 beyond. Each curve of a panel ends
    where the panel's axis does: where its last curve has stayed at 99.9% for a while (a
    quarter past where it got there) or past its figures' differences, whichever is further:
    a panel's axis spans what its curves do, not 40 points of a flat line, and no curve stops
    short of it.

    Parameters
    ----------
    table : polars.DataFrame
        Rows as `gaps()` gives, with the columns document, figure, panel, benchmark, problems,
        comparison, accuracy_a and accuracy_b; the accuracy is their mean.

    Returns
    -------
    polars.DataFrame
        Columns document, figure, panel, benchmark, problems, comparison, difference (a
        fraction) and power (unpaired, at 5%), up to 65 rows per row of `table`.

    Examples
    --------
    >>> curves = power_curves(gaps().head(1))  # 000 on MATH500: 500 problems, accuracy 0.945
    >>> curves.height, round(curves.filter(difference=0.05)["power"].item(), 3)
    (31, 0.934)
    """
    grid = [i / 400 for i in range(24)] + [i / 200 for i in range(12, 24)]
    grid += [i / 100 for i in range(12, 41)]
    powers, reach = [], {}
    for r in table.iter_rows(named=True):
        near = (r["accuracy_a"] + r["accuracy_b"]) / 2
        power = [stats.unpaired_power(r["problems"], near, d) for d in grid]
        flat = next((d for d, p in zip(grid, power, strict=True) if p >= 0.999), grid[-1])
        own = max(flat * 1.25, abs(r["difference"]) * 1.25)
        reach[r["panel"]] = max(reach.get(r["panel"], 0.0), own)
        powers.append(power)
    rows = []
    for r, power in zip(table.iter_rows(named=True), powers, strict=True):
        rows += [
            {
                "document": r["document"],
                "figure": r["figure"],
                "panel": r["panel"],
                "benchmark": r["benchmark"],
                "problems": r["problems"],
                "comparison": r["comparison"],
                "difference": d,
                "power": p,
            }
            for d, p in zip(grid, power, strict=True)
            if d <= reach[r["panel"]] + 1e-12
        ]
    return pl.DataFrame(rows)
