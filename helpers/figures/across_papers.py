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


# ---- the long view: every stated value of every resource, one row each ---------------------------


_LONG_SCHEMA = {
    "document": pl.String,
    "benchmark": pl.String,
    "panel": pl.String,
    "series": pl.String,
    "x_name": pl.String,
    "x": pl.Float64,
    "metric": pl.String,
    "statistic": pl.String,
    "value": pl.Float64,
    "unit": pl.String,
    "status": pl.String,
}


def long_view() -> pl.DataFrame:
    """All five datasets as one long table, so values can be compared across documents.

    One row per stated value: document (seed number), benchmark, panel, series (model or method),
    x_name and x (the figure's x position, null where the description gives none), metric,
    statistic (value, start, end, min, max, baseline, range low, range high), value, unit, status.
    """
    step_dpo = data.load("step_dpo_sizing").filter(pl.col("kind") != "legend only")
    prm_x = pl.coalesce(pl.col("training_samples").cast(pl.Float64), pl.col("prm_params_b"))
    parts = [
        _long(
            data.load("rl_length_scaling"),
            "000",
            benchmark=pl.col("panel"),
            series=pl.col("model"),
            x_name="token length (tokens)",
            x=pl.col("token_length"),
            value=pl.col("accuracy"),
        ),
        _training_dynamics_long(),
        _long(
            step_dpo,
            "002",
            benchmark="MATH",
            panel="Accuracy on the MATH test set",
            series=pl.col("model"),
            x_name="model size (B parameters)",
            x=pl.col("model_size").str.strip_suffix("B"),
            value=pl.col("accuracy"),
            statistic=_when(pl.col("kind") == "baseline", "baseline", "value"),
        ),
        _long(
            data.load("prm_data_scaling"),
            "003",
            benchmark="MATH500",
            series=pl.col("series"),
            x_name=_when(
                pl.col("panel") == "PRM size", "PRM size (B parameters)", "training samples"
            ),
            x=prm_x,
            value=pl.col("accuracy"),
            status=pl.col("status"),
        ),
        _long(
            data.load("grpo_vs_mel"),
            "004",
            benchmark="AIME24",
            panel="Benchmark: AIME24",
            series=pl.col("method"),
            x_name="training step",
            x=pl.col("step"),
            value=pl.col("score"),
            metric="validation score",
            statistic=_when(pl.col("kind") == "point", "value", pl.col("kind")),
            unit="fraction",
        ),
    ]
    return pl.concat(parts, how="vertical")


def _when(condition: pl.Expr, then: str, otherwise: str | pl.Expr) -> pl.Expr:
    other = pl.lit(otherwise) if isinstance(otherwise, str) else otherwise
    return pl.when(condition).then(pl.lit(then)).otherwise(other)


def _long(
    frame: pl.DataFrame,
    document: str,
    *,
    benchmark: str | pl.Expr,
    series: str | pl.Expr,
    x_name: str | pl.Expr,
    x: pl.Expr | None,
    value: pl.Expr,
    panel: str | pl.Expr | None = None,
    metric: str | pl.Expr = "accuracy",
    statistic: str | pl.Expr = "value",
    unit: str | pl.Expr = "%",
    status: str | pl.Expr = "stated",
) -> pl.DataFrame:
    """One dataset in the long shape: a string is the same for every row, an expression is
    computed per row (the panel defaults to the frame's `panel` column)."""
    given = {
        "document": document,
        "benchmark": benchmark,
        "panel": pl.col("panel") if panel is None else panel,
        "series": series,
        "x_name": x_name,
        "x": x if x is not None else pl.lit(None),
        "metric": metric,
        "statistic": statistic,
        "value": value,
        "unit": unit,
        "status": status,
    }
    return frame.select(
        (pl.lit(v) if isinstance(v, str) else v).cast(_LONG_SCHEMA[k]).alias(k)
        for k, v in given.items()
    )


def _training_dynamics_long() -> pl.DataFrame:
    td = data.load("training_dynamics")
    value_columns = {
        "accuracy_start": ("accuracy", "start", "fraction"),
        "accuracy_end": ("accuracy", "end", "fraction"),
        "accuracy_min": ("accuracy", "min", "fraction"),
        "accuracy_max": ("accuracy", "max", "fraction"),
        "token_length_start": ("token length", "start", "tokens"),
        "token_length_end": ("token length", "end", "tokens"),
    }
    melted = td.unpivot(
        index=["position", "benchmark"], on=list(value_columns), variable_name="column"
    ).drop_nulls("value")
    lookup = pl.DataFrame(
        [(c, *v) for c, v in value_columns.items()],
        schema=["column", "metric", "statistic", "unit"],
        orient="row",
    )
    ordered = melted.join(lookup, on="column", how="left").sort(
        "position", pl.col("column").replace_strict(list(value_columns), range(6))
    )
    return _long(
        ordered,
        "001",
        benchmark=pl.col("benchmark"),
        panel=pl.col("benchmark"),
        series="Kimi k1.5 (RL training)",
        x_name="iteration",
        x=None,
        value=pl.col("value"),
        metric=pl.col("metric"),
        statistic=pl.col("statistic"),
        unit=pl.col("unit"),
    )
