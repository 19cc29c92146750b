"""Notebook 006: every value reported for MATH500 and AIME 2024 across the documents (the five
descriptions and the papers' printed tables), with its protocol and its interval."""

from __future__ import annotations

import polars as pl

from helpers import benchmark_sizes, data, stats

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


def across_papers() -> pl.DataFrame:
    """Every MATH500 and AIME 2024 value in the data package (descriptions and published), in
    percent, with the benchmark size, a Wilson 95% interval, the protocol, and the resource and
    key of the row it comes from."""
    lv = data.long_view().filter(
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
        .then(pl.format("Kimi RL run, {} of training", pl.col("statistic")))
        .when((pl.col("document") == "003") & (pl.col("panel") == "training samples"))
        .then(pl.format("{} at {} training samples", pl.col("series"), pl.col("x").cast(pl.Int64)))
        .when(pl.col("document") == "003")
        .then(pl.format("{} (PRM size panel)", pl.col("series")))
        .otherwise(pl.col("series")),
        value=pl.when(pl.col("unit") == "fraction")
        .then(pl.col("value") * 100)
        .otherwise(pl.col("value")),
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
        # the table or section only: the legend names the paper, the tooltip the whole source
        label=pl.format(
            "{} ({}, paper)", pl.col("model"), pl.col("source").str.replace(r" \(.*$", "")
        ),
        value=pl.col("value"),
        source=pl.format("published_values row: {} / {}", pl.col("source"), pl.col("model")),
    )
    rows = pl.concat([described, published])
    sizes = {group: benchmark_sizes.size(group) for group in set(BENCHMARK_GROUPS.values())}
    rows = rows.with_columns(
        n=pl.col("group").replace_strict(sizes, return_dtype=pl.Int64),
        protocol=pl.col("document").replace_strict(PROTOCOLS),
        source_name=pl.col("document").replace_strict(SOURCE_NAMES),
    )
    return stats.with_intervals(rows, "value", "n").sort("group", "value", descending=[False, True])


def same_model_across_documents(names: dict[str, list[str]]) -> pl.DataFrame:
    """Labels that name the same model in different documents, after normalising spelling
    (case, punctuation, 'inst' vs 'instruct'). `names` maps document -> labels."""

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
