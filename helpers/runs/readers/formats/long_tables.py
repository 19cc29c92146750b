"""Metric tables in long form: several runs in one table (a row per run and step: an
ablation's conditions, models, seeds) and benchmarks as rows (a row per step and benchmark,
one value column), as people write them by hand or export them from a tracker.

Which column says what, by `--map` first, else by name where exactly one reading fits:

    run        condition, run_name, run, experiment, method, variant, model, seed, run_id
               (the columns of these whose value changes; together they name a run)
    benchmark  benchmark, task, dataset, data_source
    accuracy   with a benchmark column: accuracy, acc, score, exact_match, pass@1
    tokens     with a benchmark column: tokens, response_length, mean_response_length

A value written as a percentage string ("63.3%") is read as the fraction it states.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

import polars as pl

from helpers.errors import DataError
from helpers.runs.readers._common import numeric, place

RUN_NAMES = (
    "condition",
    "run_name",
    "run",
    "experiment",
    "method",
    "variant",
    "model",
    "seed",
    "run_id",
)
BENCHMARK_NAMES = ("benchmark", "task", "dataset", "data_source")
VALUE_NAMES = ("accuracy", "acc", "score", "exact_match", "pass@1")
TOKEN_NAMES = ("tokens", "response_length", "mean_response_length")


_ROLE_WORDS = {"accuracy": "accuracy", "tokens": "response length (tokens)"}


def _named(columns: list[str], names: tuple[str, ...]) -> list[str]:
    """The columns named as one of `names` (case and surrounding spaces ignored), in the
    order of `names`."""
    by_name = {c.strip().lower(): c for c in columns}
    return [by_name[n] for n in names if n in by_name]


def mapped_column(
    path: Path, columns: list[str], mapping: Mapping[str, str], role: str
) -> str | None:
    """The column `--map ROLE=COLUMN` names, which must be one of `columns`; None if not given."""
    column = mapping.get(role)
    if column is not None and column not in columns:
        raise DataError(
            path, f"a column {column!r} (--map {role}={column})", line=1, got=columns[:8]
        )
    return column


def _varying(frame, step: str, candidates: list[str]) -> list[str]:
    """Of the candidate columns, those holding several values at one step: several runs'
    rows (a column changing from step to step, a checkpoint's name, names no run)."""
    if not candidates:
        return []
    most = (
        frame.group_by(step)
        .agg(pl.col(candidates).fill_null("").n_unique())
        .select(pl.col(candidates).max())
    )
    counts = most.collect() if isinstance(most, pl.LazyFrame) else most
    return [c for c, n in zip(candidates, counts.row(0), strict=True) if (n or 0) > 1]


def run_columns(path: Path, rows: pl.DataFrame, mapping: Mapping[str, str]) -> list[str]:
    """The columns that name the run of each row: `--map run=COLUMN`, else those of
    RUN_NAMES holding several values at one step (none: the table is one run)."""
    from helpers.runs.readers.formats.metric_columns import step_column

    columns = [c for c in rows.columns if c != "__line"]
    given = mapped_column(path, columns, mapping, "run")
    if given:
        return [given]
    step = mapping.get("step") or step_column(columns)
    return _varying(rows, step, _named(columns, RUN_NAMES)) if step else []


def split(rows: pl.DataFrame, columns: list[str]) -> list[tuple[str, pl.DataFrame]]:
    """The rows of each run, in the order runs first appear, named by the first column's
    value (with the others' where that alone is not unique: 'grpo (seed=2)'); the run
    columns are dropped from each run's rows."""
    rows = rows.with_columns(  # a row naming no run is a run of its own, said so
        pl.col(c).fill_null(f"(no {c})") for c in columns
    )
    keys = rows.select(columns).unique(maintain_order=True)
    first = keys[columns[0]]
    names = []
    for key in keys.iter_rows(named=True):
        name = str(key[columns[0]])
        if (first == key[columns[0]]).sum() > 1:
            rest = ", ".join(f"{c}={key[c]}" for c in columns[1:])
            name = f"{name} ({rest})"
        names.append(name)
    parts = rows.partition_by(columns, maintain_order=True, include_key=False, as_dict=True)
    return [(n, parts[tuple(k)]) for n, k in zip(names, keys.iter_rows(), strict=True)]


def collapsed(rows: pl.DataFrame) -> tuple[pl.DataFrame, list[str]]:
    """A run's rows with rows repeated exactly (every value the same, a table pasted twice)
    read once, and a note saying how many and where; rows that repeat a step with other
    values are left for the reader's check to refuse, naming both lines."""
    values = [c for c in rows.columns if c != "__line"]
    if not values:
        return rows, []
    again = ~pl.struct(values).is_first_distinct()
    repeated = rows.filter(again)
    if not repeated.height:
        return rows, []
    lines = repeated["__line"].to_list() if "__line" in rows.columns else []
    where = f" (line {', '.join(map(str, lines[:3]))}{' ...' if len(lines) > 3 else ''})"
    said = f"{repeated.height} row(s) repeated exactly read once{where if lines else ''}"
    return rows.filter(~again), [said]


def percents(path: Path, rows: pl.DataFrame, columns: list[str]) -> pl.DataFrame:
    """Text columns whose every value is a percentage string ('63.3%') as the fractions they
    state, as text (cast later, cell by cell)."""
    schema = rows.schema
    text = [c for c in dict.fromkeys(columns) if schema.get(c) == pl.String]
    if not text:
        return rows
    # one pass over every column: which are written as percentages throughout (a log of
    # 10,000 benchmarks took 10 s column by column)
    marked = rows.select(
        (pl.col(c).str.strip_chars().str.ends_with("%").all() & pl.col(c).is_not_null().any())
        for c in text
    ).row(0)
    for column, written in zip(text, marked, strict=True):
        if written:
            rows = _percent(path, rows, column)
    return rows


def _percent(path: Path, rows: pl.DataFrame, column: str) -> pl.DataFrame:
    """'63.3%' read as 0.633, where every value of the column is written so."""
    text = rows[column].str.strip_chars()
    written = text.drop_nulls()
    if written.len() == 0 or not written.str.ends_with("%").all():
        return rows
    number = text.str.strip_suffix("%").str.strip_chars().cast(pl.Float64, strict=False)
    bad = (text.is_not_null() & number.is_null()).arg_true()
    if bad.len():
        row = int(bad[0])
        raise DataError(
            path,
            "a percentage such as 63.3%",
            got=rows[column][row],
            **place(path, int(rows["__line"][row]), column),
        )
    return rows.with_columns((number / 100).cast(pl.String).alias(column))


def widen(
    path: Path, rows: pl.DataFrame, mapping: Mapping[str, str], step: str | None
) -> tuple[pl.DataFrame, dict[str, str], list[str]]:
    """Benchmarks given as rows (a benchmark column and one value column) as one column per
    benchmark, `accuracy/<benchmark>`, with the mapping that reads them; any other table is
    returned as it is. Also the notes saying what was read how, for `inspect`."""
    columns = [c for c in rows.columns if c != "__line"]
    bench = mapped_column(path, columns, mapping, "benchmark")
    if bench is None:
        found = _named(columns, BENCHMARK_NAMES)
        if (
            not found
            or step is None
            or mapping.get("accuracy", found[0]) not in columns
            or not _rows_of_benchmarks(rows, step, found[0], columns, mapping)
        ):
            return rows, dict(mapping), []  # wide, or a template the user gave
        bench = found[0]
    values = {}
    for role, names in (("accuracy", VALUE_NAMES), ("tokens", TOKEN_NAMES)):
        column = mapping.get(role)
        if column is not None and column in columns:
            values[role] = column
        elif column is None and (found := _named(columns, names)):
            values[role] = found[0]
    if not values:
        raise DataError(
            path,
            f"a value column beside the benchmark column {bench!r} ("
            + ", ".join(VALUE_NAMES)
            + ", or --map accuracy=COLUMN)",
            line=1,
            got=columns[:8],
        )
    rows = rows.filter(pl.col(step).is_not_null() & pl.col(bench).is_not_null())
    dup = rows.filter(pl.struct(step, bench).is_duplicated())
    if dup.height:
        raise DataError(
            path,
            f"each {bench} once per {step} (also on line {dup['__line'][0]})",
            line=dup["__line"][1],
            column=bench,
            got=f"{dup[bench][1]} at {step} {dup[step][1]}",
        )
    rows = percents(path, rows, list(values.values()))
    rows = numeric(path, rows, list(values.values()))
    if "accuracy" in values:
        score = pl.col(values["accuracy"])
        outside = rows.filter(score.is_not_nan() & ~score.is_between(0, 1))
        if outside.height:
            raise DataError(
                path,
                "accuracy as a fraction from 0 to 1 (a percentage? divide it by 100)",
                got=outside[values["accuracy"]][0],
                **place(path, int(outside["__line"][0]), values["accuracy"]),
            )
    benchmarks = rows[bench].unique(maintain_order=True).to_list()
    wide = rows.group_by(step, maintain_order=True).agg(pl.col("__line").min())
    for role, column in values.items():
        part = rows.pivot(on=bench, index=step, values=column, aggregate_function=None)
        wide = wide.join(
            part.rename({b: f"{role}/{b}" for b in benchmarks if b in part.columns}),
            on=step,
            how="left",
        )
    mapping = {**mapping, **{role: f"{role}/{{benchmark}}" for role in values}}
    said = [
        f"benchmarks as rows: {bench} names the benchmark, "
        + ", ".join(f"{c} the {_ROLE_WORDS[r]}" for r, c in values.items())
    ]
    return wide, mapping, said


def _rows_of_benchmarks(frame, step: str, bench: str, header: list[str], mapping) -> bool:
    """Whether a benchmark column makes a row per benchmark: a step on several rows, or the
    column naming several benchmarks, or no accuracy column the conventions know (a `dataset`
    column naming a wide log's one data set is a label)."""
    from helpers.runs.readers.formats.metric_columns import recognise

    lazy = frame.lazy() if isinstance(frame, pl.DataFrame) else frame
    repeats, names = (
        lazy.select(pl.col(step).is_duplicated().any(), pl.col(bench).n_unique()).collect().row(0)
    )
    if repeats or names > 1:
        return True
    try:
        return not recognise(
            Path("table"), header, {k: v for k, v in mapping.items() if k == "step"}
        ).accuracy
    except DataError:
        return True


def table_kind(path: Path, header: list[str], mapping: Mapping[str, str]) -> str | None:
    """For a CSV with a step column: 'runs-table' where a run column holds several values at
    one step (a store of runs, one per value), 'metrics-csv' where benchmarks are rows (a
    benchmark column, and a step on several rows); else None (the conventions decide)."""
    from helpers.runs.readers.formats.metric_columns import step_column

    given = [mapped_column(path, header, mapping, role) for role in ("run", "benchmark")]
    step = mapping.get("step") or step_column(header)
    if step is None or step not in header:
        return None
    lf = pl.scan_csv(path, infer_schema=False)
    if given[0] or _varying(lf, step, _named(header, RUN_NAMES)):
        return "runs-table"
    if given[1]:
        return "metrics-csv"
    found = _named(header, BENCHMARK_NAMES)
    if found and _rows_of_benchmarks(lf, step, found[0], header, mapping):
        return "metrics-csv"  # benchmarks as rows
    return None


def kind_of(ev) -> str | None:
    """`table_kind` of a CSV's evidence, computed once for every format that asks."""
    return ev.once("table_kind", lambda: table_kind(ev.path, ev.header, dict(ev.mapping)))
