"""Notebook 006: every value reported for MATH500 and AIME 2024 across the documents (the five
descriptions and the papers' printed tables), with its protocol and its interval."""

from __future__ import annotations

import math
from typing import NamedTuple

import polars as pl

from helpers import benchmark_sizes, data, stats
from helpers.figures import grpo_vs_mel, training_dynamics
from helpers.figures.long_view import long_view  # also `helpers.long_view()`

# How each document's numbers were produced, as far as its description and paper say.
PROTOCOLS = {
    "000": "pass@1 of each model (Kimi k1.5 Figure 7; AIME 2024 averaged over 8 runs for "
    "k1.5-short w/ rl per Section 3.4)",
    "001": "evaluation during RL training of an internal model much smaller than k1.5 "
    "(Figure 5 caption); start and end of training as described",
    "003": "MATH500 accuracy of Qwen2.5-14B-Instruct after SFT on selected data (protocol "
    "not stated in the description)",
    "004": "validation score at a training step (scoring protocol not stated in the description)",
    "published 000": "printed in the Kimi k1.5 paper (Table 3: MATH-500 exact match, AIME 2024 "
    "pass@1)",
    "published 003": "printed in the ReasonFlux-PRM paper (Table 2: Qwen2.5-14B-Instruct after "
    "SFT on the data each source selected)",
    "published 004": "printed in the MEL paper (Table 1: Pass@1 at temperature 0 after RL with "
    "GRPO or MEL, Qwen3 base models of 4B, 8B and 14B)",
}
# what each group of values is, in words, for legends
SOURCE_NAMES = {
    "000": "Kimi k1.5 Fig 7 (description)",
    "001": "Kimi k1.5 Fig 5 (description)",
    "003": "ReasonFlux-PRM figure (description)",
    "004": "MEL validation curves (description)",
    "published 000": "Kimi k1.5 Table 3 (paper)",
    "published 003": "ReasonFlux-PRM Table 2 (paper)",
    "published 004": "MEL Table 1, Pass@1 (paper)",
}
BENCHMARK_GROUPS = {"MATH500": "MATH500", "AIME2024": "AIME 2024", "AIME24": "AIME 2024"}
# what shape a value gets: read off a figure by a description, or printed in a paper
KINDS = {"description": "as described", "published": "as published"}
# the training curves, whose values are one run's moments rather than results: only each curve's
# end and peak are drawn
CURVES = {
    "001": "the end of the Kimi Fig 5 run",
    "004": "the end and the peak of each MEL validation curve",
}


def across_papers() -> pl.DataFrame:
    """Every MATH500 and AIME 2024 value in the data package (descriptions and published), in
    percent, with the paper it belongs to, the benchmark size, a Wilson 95% interval, the
    protocol, and the resource and key of the row it comes from (and, for a description's
    reading, its series, x position, statistic and status).

    Takes no parameters: it reads the data package.

    Returns
    -------
    polars.DataFrame
        Columns group ("MATH500" or "AIME 2024"), document, origin, label, value, series, x,
        statistic, status, source, paper, n, protocol, source_name, lo and hi; sorted by group,
        then by value, highest first.

    Examples
    --------
    >>> across_papers().group_by("group").len().sort("group").rows()  # values per benchmark
    [('AIME 2024', 49), ('MATH500', 46)]
    """
    lv = long_view().filter(
        pl.col("benchmark").is_in(list(BENCHMARK_GROUPS)),
        pl.col("metric").is_in(["accuracy", "validation score"]),
        pl.col("statistic").is_in(["value", "start", "end"]),
    )
    described = lv.select(
        group=pl.col("benchmark").replace_strict(BENCHMARK_GROUPS),
        document=pl.col("document"),
        origin=pl.lit("description"),
        label=pl.when(pl.col("document") == "004")
        .then(pl.format("{} at step {}", pl.col("series"), pl.col("x").cast(pl.Int64)))
        .when(pl.col("document") == "001")
        .then(pl.format("small internal model, {} of RL (Fig 5)", pl.col("statistic")))
        .when((pl.col("document") == "003") & (pl.col("panel") == "training samples"))
        .then(pl.format("{} at {}k samples", pl.col("series"), (pl.col("x") / 1000).cast(pl.Int64)))
        .when(pl.col("document") == "003")
        .then(pl.format("{} (PRM size panel)", pl.col("series")))
        .otherwise(pl.col("series")),
        value=pl.when(pl.col("unit") == "fraction")
        .then(pl.col("value") * 100)
        .otherwise(pl.col("value")),
        series=pl.col("series"),
        x=pl.col("x"),
        statistic=pl.col("statistic"),
        status=pl.col("status"),
    )
    resources = {
        "000": "rl_length_scaling",
        "001": "training_dynamics",
        "003": "prm_data_scaling",
        "004": "grpo_vs_mel",
    }
    described = described.with_columns(
        source=pl.format(
            "{} row: {}", pl.col("document").replace_strict(resources), pl.col("label")
        )
    )
    pub = data.load("published_values").filter(
        pl.col("benchmark").is_in(list(BENCHMARK_GROUPS)),
        pl.col("metric").is_in(["accuracy", "pass@1"]),  # one answer per problem, like the rest
    )
    published = pub.select(
        group=pl.col("benchmark").replace_strict(BENCHMARK_GROUPS),
        document=pl.format("published {}", pl.col("document")),
        origin=pl.lit("published"),
        # the table or section only: the chart names the paper, the tooltip the whole source;
        # and the metric, where it is not plain accuracy (a table of several: MEL's Table 1)
        label=pl.format(
            "{} ({}{})",
            pl.col("model"),
            pl.col("source").str.replace(r" \(.*$", ""),
            pl.when(pl.col("metric") == "accuracy")
            .then(pl.lit(""))
            .otherwise(pl.format(", {}", pl.col("metric"))),
        ),
        value=pl.col("value"),
        series=pl.col("model"),
        x=pl.lit(None, pl.Float64),
        statistic=pl.lit("value"),
        status=pl.lit("printed"),
        source=pl.format("published_values row: {} / {}", pl.col("source"), pl.col("model")),
    )
    rows = pl.concat([described, published])
    sizes = {group: benchmark_sizes.size(group) for group in set(BENCHMARK_GROUPS.values())}
    # each document's paper, as published_values names it ("Kimi k1.5, arXiv ..." -> "Kimi k1.5")
    named = data.load("published_values").select("document", "paper").unique()
    papers = {d: p.split(",")[0] for d, p in named.iter_rows()}
    rows = rows.with_columns(
        paper=pl.col("document").str.strip_prefix("published ").replace_strict(papers),
        n=pl.col("group").replace_strict(sizes, return_dtype=pl.Int64),
        protocol=pl.col("document").replace_strict(PROTOCOLS),
        source_name=pl.col("document").replace_strict(SOURCE_NAMES),
    )
    # an extrapolated value is no measurement on n problems: no interval
    return _without_interval(
        stats.with_intervals(rows, "value", "n"), pl.col("status") == "extrapolated"
    ).sort("group", "value", descending=[False, True])


def _without_interval(rows: pl.DataFrame, where: pl.Expr) -> pl.DataFrame:
    """`rows` with no interval (`lo`, `hi` null) where `where` holds."""
    return rows.with_columns(
        pl.when(where).then(None).otherwise(pl.col(c)).alias(c) for c in ("lo", "hi")
    )


class ByPaper(NamedTuple):
    """One benchmark's values as notebook 006 draws them: `rows` (grouped by paper, sorted within
    it; `kind` as described or as published, `hollow` where the value is extrapolated or off the
    paper's axis, `note` what the value is), the `papers` in drawing order, an x `domain` that
    fits the values and their intervals, the benchmark's size `n`, and the `notes` the chart
    prints (which curves are cut to end and peak, why each hollow value is hollow)."""

    group: str
    rows: pl.DataFrame
    papers: list[str]
    domain: list[float]
    n: int
    notes: list[str]


def by_paper(rows: pl.DataFrame, group: str) -> ByPaper:
    """One benchmark's rows of `across_papers()` for the chart: training curves cut to their end
    and peak, each value marked hollow where it is extrapolated (003's 59k point) or where
    notebook 001 found its panel read beyond the paper's axis, rows grouped by paper (in the
    documents' order) and sorted by value within a paper, and an axis fitting them.

    Parameters
    ----------
    rows : polars.DataFrame
        The frame `across_papers()` returns.
    group : str
        The benchmark drawn: "MATH500" or "AIME 2024".

    Returns
    -------
    ByPaper
        The group, its rows (with kind, hollow and note added), the papers in drawing order,
        the x domain (multiples of 5 within 0 to 100), the benchmark size and the chart's notes.

    Examples
    --------
    >>> view = by_paper(across_papers(), "MATH500")
    >>> view.papers, view.domain, view.n
    (['Kimi k1.5', 'ReasonFlux-PRM', 'MEL'], [60, 100], 500)
    """
    sub = ends_and_peaks(rows.filter(pl.col("group") == group))
    off = off_axis().filter(pl.col("group") == group)
    beyond = off.height == 1 and bool(off["beyond_axis"].item())
    why_off = (
        "which the training-dynamics description reads as {:.0%} to {:.0%} where the paper's "
        "axis is labelled {:.0%} to {:.0%}: it cannot be right as read, and has no "
        "interval".format(*off.select("low", "high", "tick_min", "tick_max").row(0))
        if beyond
        else ""
    )
    extrapolated = pl.col("status") == "extrapolated"
    off_paper_axis = (pl.col("document") == "001") & pl.lit(beyond)
    papers = list(
        dict.fromkeys(sub.sort(pl.col("document").str.strip_prefix("published "))["paper"])
    )
    sub = sub.with_columns(
        kind=pl.col("origin").replace_strict(KINDS),
        hollow=extrapolated | off_paper_axis,
        note=pl.when(extrapolated)
        .then(pl.lit("extrapolated by the description, not read off the figure"))
        .when(off_paper_axis)
        .then(pl.lit(why_off))
        .when(pl.col("origin") == "published")
        .then(pl.lit("as printed in the paper"))
        .otherwise(pl.lit("as read off the figure by the description")),
    ).sort(
        pl.col("paper").replace_strict(papers, range(len(papers))),
        pl.col("value"),
        pl.col("label"),
        descending=[False, True, False],
    )
    # a reading that cannot be right as read: no interval around it (an extrapolated value,
    # no measurement, has none already)
    sub = _without_interval(sub, off_paper_axis)
    assert sub["label"].is_unique().all(), f"labels repeat: {sub['label'].value_counts()}"
    lo = 5 * math.floor(sub["lo"].min() / 5)
    hi = 5 * math.ceil(sub["hi"].max() / 5)
    curves = [CURVES[d] for d in CURVES if d in set(sub["document"])]
    notes = [f"From training curves only {'; '.join(curves)}."] if curves else []
    notes += [
        f"Hollow: {label}, {note}."
        for label, note in sub.filter("hollow").select("label", "note").iter_rows()
    ]
    notes += _named_twice(sub)
    return ByPaper(group, sub, papers, [max(lo, 0), min(hi, 100)], int(sub["n"].max()), notes)


def _named_twice(sub: pl.DataFrame) -> list[str]:
    """A note for the models a figure and its paper's table name differently, both drawn: each
    keeps the name its source spells (published_values' `matches`), so the pair is said once."""
    labels = " ".join(sub["label"].to_list())
    pairs = (
        data.load("published_values")
        .filter(pl.col("matches").is_not_null(), pl.col("matches") != pl.col("model"))
        .select("matches", "model")
        .unique(maintain_order=True)
    )
    both = [
        f"{shown} = {table}"
        for shown, table in pairs.iter_rows()
        if f"{table} (" in labels and shown in sub["label"].to_list()
    ]
    if not both:
        return []
    return [f"One model, a figure's name and its table's, each as spelled: {', '.join(both)}."]


def ends_and_peaks(rows: pl.DataFrame) -> pl.DataFrame:
    """`across_papers()` rows with the training curves cut to their end and peak: 001's run to
    its end (the description gives only its start and end), 004's validation curves to their
    last step and their peak (`grpo_vs_mel.method_curves`), relabelled to say which; every
    other row is kept."""
    peaks = grpo_vs_mel.method_curves(data.load("grpo_vs_mel")).peaks.select(
        series="method", x=pl.col("step").cast(pl.Float64), peak=pl.lit(True)
    )
    curve = pl.col("document") == "004"
    marked = rows.join(peaks, on=["series", "x"], how="left", maintain_order="left").with_columns(
        end=curve & (pl.col("x") == pl.col("x").max().over("document", "series")),
        peak=pl.col("peak").fill_null(False),
    )
    moment = (
        pl.when(pl.col("end") & pl.col("peak"))
        .then(pl.lit("end and peak"))
        .when(pl.col("end"))
        .then(pl.lit("end"))
        .otherwise(pl.lit("peak"))
    )
    return (
        marked.filter(
            ~curve | pl.col("end") | pl.col("peak"),
            (pl.col("document") != "001") | (pl.col("statistic") == "end"),
        )
        .with_columns(
            label=pl.when(curve)
            .then(
                pl.format(
                    "{} curve, {} (step {})", pl.col("series"), moment, pl.col("x").cast(pl.Int64)
                )
            )
            .otherwise(pl.col("label"))
        )
        .drop("end", "peak")
    )


def off_axis() -> pl.DataFrame:
    """Notebook 001's check of its readings against the paper's Figure 5 axes
    (`training_dynamics.against_published_axes`), for the panels drawn here: group, low, high,
    tick_min, tick_max, beyond_axis. MATH500 and AIME2024 carry the same names in the paper."""
    axes = training_dynamics.against_published_axes(data.load("training_dynamics"))
    return axes.filter(pl.col("benchmark").is_in(list(BENCHMARK_GROUPS))).select(
        pl.col("benchmark").replace_strict(BENCHMARK_GROUPS).alias("group"),
        "low",
        "high",
        "tick_min",
        "tick_max",
        "beyond_axis",
    )


def same_model_across_documents(names: dict[str, list[str]]) -> pl.DataFrame:
    """Labels that name the same model in different documents, after normalising spelling
    (case, punctuation, 'inst' vs 'instruct').

    Parameters
    ----------
    names : dict of str to list of str
        Each document's labels.

    Returns
    -------
    polars.DataFrame
        Columns model (the normalised label), documents (comma-separated) and labels (the
        spellings, " / "-separated), one row per normalised label found in two documents or
        more, sorted by model.

    Examples
    --------
    >>> names = {"000": ["qwen25-72B-inst"], "003": ["Qwen2.5-72B-Instruct"]}
    >>> same_model_across_documents(names).row(0)
    ('qwen2572binst', '000, 003', 'Qwen2.5-72B-Instruct / qwen25-72B-inst')
    """

    def norm(label: str) -> str:
        text = "".join(ch for ch in label.lower() if ch.isalnum())
        return text.replace("instruct", "inst")

    seen: dict[str, list[tuple[str, str]]] = {}
    for doc, labels in names.items():
        for label in labels:
            seen.setdefault(norm(label), []).append((doc, label))
    rows = [
        (key, ", ".join(sorted({d for d, _ in hits})), " / ".join(sorted({lab for _, lab in hits})))
        for key, hits in seen.items()
        if len({d for d, _ in hits}) > 1
    ]
    return pl.DataFrame(rows, schema=["model", "documents", "labels"], orient="row").sort("model")
