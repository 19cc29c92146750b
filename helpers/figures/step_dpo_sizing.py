"""Figure 002, Step-DPO against model size: the gains the figure shows and the gains the
paper's tables print."""

from __future__ import annotations

import polars as pl

from helpers import data


def step_dpo_gains(df: pl.DataFrame) -> pl.DataFrame:
    """Each Step-DPO point against every plotted non-Step-DPO point of the same size whose label
    starts with the same model name (e.g. Qwen2-72B-Step-DPO against both Qwen2-72B-Instruct
    points). Sizes with no such point give no row.

    Parameters
    ----------
    df : polars.DataFrame
        The 002 readings, with the columns kind (only rows of kind "point" are used), model,
        model_size and accuracy.

    Returns
    -------
    polars.DataFrame
        Columns model_size, step_dpo_model, step_dpo, base_model, base, gain (step_dpo - base,
        rounded to 2 decimals) and mid (halfway between the two), one row per pair.

    Examples
    --------
    >>> import helpers
    >>> gains = step_dpo_gains(helpers.load("step_dpo_sizing"))
    >>> gains.select("model_size", "base_model", "gain").rows()[:2]
    [('32B', 'Qwen1.5-32B-SFT', 2.0), ('57B', 'Qwen2-57B-A14B-Instruct', 7.5)]
    """
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
    in matching; a ‡ is kept, since the paper prints Qwen2-72B-Instruct with and without it).

    Parameters
    ----------
    document : str
        The document whose rows of the `published_values` resource are read, e.g. "002".
    treatment : str
        The text in a model's name that marks it treated; removed to find its untreated row.

    Returns
    -------
    polars.DataFrame
        Columns source, benchmark, base_model, treated, treated_matches (the treated row's
        `matches` label), base and gain (treated - base, rounded to 2 decimals), one row per
        treated row with an untreated row of the same source, benchmark and model.

    Examples
    --------
    >>> published_gains("002").select("base_model", "base", "treated", "gain").row(0)
    ('Qwen2-7B-Instruct', 53.0, 58.6, 5.6)
    """
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
