"""Every stated value of the five datasets as one long table (`helpers.long_view()`), so that
values can be compared across documents; notebook 006 draws its MATH500 and AIME 2024 rows."""

from __future__ import annotations

import polars as pl

from helpers import data

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
