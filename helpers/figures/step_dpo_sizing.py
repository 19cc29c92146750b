"""Figure 002, Step-DPO against model size: the gains the figure shows and the gains the
paper's tables print."""

from __future__ import annotations

import polars as pl

from helpers import data


def step_dpo_gains(df: pl.DataFrame) -> pl.DataFrame:
    """Each Step-DPO point against every plotted non-Step-DPO point of the same size whose label
    starts with the same model name (e.g. Qwen2-72B-Step-DPO against both Qwen2-72B-Instruct
    points). Sizes with no such point give no row."""
    points = df.filter(pl.col("kind") == "point")
    dpo = points.filter(pl.col("model").str.ends_with("-Step-DPO")).select(
        "model_size",
        pl.col("model").alias("step_dpo_model"),
        pl.col("model").str.strip_suffix("-Step-DPO").alias("stem"),
        pl.col("accuracy").alias("step_dpo"),
    )
    others = points.filter(~pl.col("model").str.ends_with("-Step-DPO")).select(
        "model_size", pl.col("model").alias("base_model"), pl.col("accuracy").alias("base")
    )
    return (
        dpo.join(others, on="model_size", how="inner", maintain_order="left")
        .filter(pl.col("base_model").str.starts_with(pl.col("stem") + "-"))
        .with_columns(
            gain=(pl.col("step_dpo") - pl.col("base")).round(2),
            mid=(pl.col("step_dpo") + pl.col("base")) / 2,
        )
        .drop("stem")
    )


def published_gains(document: str, treatment: str = " + Step-DPO") -> pl.DataFrame:
    """Gains the paper prints: each `<model> + Step-DPO` row against its `<model>` row in the
    same table (a † on the untreated row, the paper's mark for its own SFT models, is ignored
    in matching; a ‡ is kept, since the paper prints Qwen2-72B-Instruct with and without it)."""
    pub = data.load("published_values").filter(pl.col("document") == document)
    key = (
        pl.col("model")
        .str.replace(treatment, "", literal=True)
        .str.replace("†", "")
        .str.strip_chars()
    )
    treated = pub.filter(pl.col("model").str.contains(treatment, literal=True)).select(
        "source",
        "benchmark",
        base_model=key,
        treated=pl.col("value"),
        treated_matches=pl.col("matches"),
    )
    base = pub.filter(~pl.col("model").str.contains(treatment, literal=True)).select(
        "source", "benchmark", base_model=key, base=pl.col("value")
    )
    return treated.join(
        base, on=["source", "base_model", "benchmark"], how="inner", maintain_order="left"
    ).with_columns(gain=(pl.col("treated") - pl.col("base")).round(2))
