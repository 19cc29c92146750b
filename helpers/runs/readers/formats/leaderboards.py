"""Tables of models (no steps): a leaderboard or a paper's table, one row per model with a
column per benchmark, or one row per (model, benchmark) with one score column; with a model
size column, or the size read from the model's name.

Which column says what, by `--map` first, else by name:

    model      model, model_name, name (else the first column)
    size       the first column with 'size' in its name; else parsed from the model's name:
               "(43B)", "-7B-", "1.5B", "350M"; "8x7B" as 56B total parameters (said)
    family     a column with 'family' in its name
    benchmark  benchmark, task, dataset, data_source: scores as rows, beside one score column
               (accuracy, acc, score, exact_match, pass@1, else the one other column)

Scores are fractions from 0 to 1: "63.3%" reads as 0.633, and so does 63.3 in a column whose
name says "%"; a bare 63.3 elsewhere is an error (a percentage or a mistake cannot be told).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from pathlib import Path

import polars as pl

from helpers.errors import DataError
from helpers.runs.readers._common import csv_header, csv_lines, numeric, text_only
from helpers.runs.readers.format import Format
from helpers.runs.readers.formats.long_tables import (
    BENCHMARK_NAMES,
    VALUE_NAMES,
    _named,
    collapsed,
    mapped_column,
    percents,
)

MODEL_NAMES = ("model", "model_name", "name")
NOT_EVALUATED = ("-", "–", "—", "n/a", "N/A", "NA", "na", "")
# a size in a model's name: not inside a word or a version ("Qwen2.5" is no size, "A3B" in
# "Qwen3-30B-A3B" is the active part); experts x size is a mixture of experts
SIZE_IN_NAME = re.compile(
    r"(?<![A-Za-z0-9._])(?:(?P<experts>\d+)[xX])?(?P<size>\d+(?:[._]\d+)?)\s*(?P<unit>[BbMm])"
    r"(?![A-Za-z0-9])"
)


def model_column(header: list[str], mapping: Mapping[str, str]) -> str | None:
    """The column naming the models: `--map model=COLUMN`, else one of MODEL_NAMES."""
    return mapping.get("model") or next(iter(_named(header, MODEL_NAMES)), None)


def size_from_name(name: str) -> tuple[float | None, str | None]:
    """A model's size in billions of parameters from its name, and a note where the reading
    needs one (experts x size: the total).

    >>> size_from_name("Qwen2.5-Math-7B-Instruct"), size_from_name("Mixtral-8x7B")[0]
    ((7.0, None), 56.0)
    """
    m = SIZE_IN_NAME.search(name)
    if m is None:
        return None, None
    size = float(m["size"].replace("_", ".")) / (1000 if m["unit"] in "Mm" else 1)  # 1_8B: 1.8B
    if m["experts"]:
        total = int(m["experts"]) * size
        return total, f"{m.group(0).strip()} read as {total:g}B total parameters"
    return size, None


def _column(header: list[str], given: str | None, test) -> str | None:
    if given is not None:
        return given
    return next((c for c in header if test(c.lower())), None)


def _is_percent_name(column: str) -> bool:
    return "%" in column or "percent" in column.lower()


def _refuse(path: Path, frame: pl.DataFrame, bad: pl.Series, column: str, expected: str) -> None:
    """A DataError naming the line and column of the first row `bad` marks, if any."""
    if bad.any():
        row = int(bad.arg_true()[0])
        raise DataError(
            path, expected, line=int(frame["__line"][row]), column=column, got=frame[column][row]
        )


def _once(path: Path, frame: pl.DataFrame, key: list[str], expected: str) -> None:
    """A DataError naming the first line that repeats a key given before, and the line that
    gave it first (the same key on both: not the first two lines of any duplicated keys)."""
    repeats = ~pl.struct(key).is_first_distinct()
    if not frame.select(repeats.any()).item():
        return
    again = frame.filter(repeats).row(0, named=True)
    same = pl.all_horizontal(pl.col(c).eq_missing(again[c]) for c in key)
    first = frame.filter(same)["__line"][0]
    raise DataError(
        path,
        f"{expected} (also on line {first})",
        line=int(again["__line"]),
        column=key[0],
        got=" on ".join(str(again[c]) for c in key),
    )


def _readings(frame: pl.DataFrame, model: str, labels: list[str]) -> tuple[pl.DataFrame, list[str]]:
    """A table collected from papers, where a model may stand on several rows: each row is a
    reading. Rows repeated exactly are read once; a model's rows that differ in a label
    column (its source, its shot count) are each a reading, named by what differs ('Qwen2.5-7B
    (source=Qwen report, shots=4)'); rows that differ in scores alone are left for `_once`
    to refuse, naming both lines (a real contradiction)."""
    frame, notes = collapsed(frame)
    several = frame.filter(pl.col(model).is_duplicated())
    if not several.height or not labels:
        return frame, notes
    names = []
    for row in frame.iter_rows(named=True):
        mine = several.filter(pl.col(model) == row[model])
        differ = [c for c in labels if mine.height > 1 and mine[c].n_unique() > 1]
        said = ", ".join(f"{c}={row[c]}" for c in differ)
        names.append(f"{row[model]} ({said})" if said else row[model])
    notes.append(
        f"models on several rows read as readings each, named by what differs ({', '.join(labels)})"
    )
    return frame.with_columns(pl.Series(model, names, dtype=pl.String)), notes


def _check_fractions(path: Path, frame: pl.DataFrame, columns: Sequence[str]) -> None:
    """Scores are fractions from 0 to 1 once read: a bare 57 is an error naming its line and
    column, not a chart drawn at 5,700% or an empty one."""
    for c in columns:
        bad = frame[c].is_not_null() & ~frame[c].is_between(0, 1).fill_null(False)
        _refuse(
            path,
            frame,
            bad,
            c,
            "scores as fractions from 0 to 1 (a percentage: write 63.3% or divide by 100)",
        )
    if not columns:
        raise DataError(path, "a benchmark column of scores from 0 to 1", line=1)


def _as_fractions(path: Path, frame: pl.DataFrame, columns: Sequence[str]) -> pl.DataFrame:
    frame = numeric(path, percents(path, frame, list(columns)), list(columns))
    scaled = [c for c in columns if _is_percent_name(c) and frame[c].max() > 1]
    return frame.with_columns(pl.col(c) / 100 for c in scaled)


def read_models(
    path: str | Path,
    *,
    mapping: Mapping[str, str] | None = None,
    benchmarks: Sequence[str] | None = None,
) -> tuple[pl.DataFrame, list[str]]:
    """A models table as long rows (model, family where given, size_b, benchmark, accuracy)
    and notes saying what was read how (for `inspect`). `size_b` is null for a model whose
    size neither a column nor its name gives."""
    path = Path(path)
    mapping = dict(mapping or {})
    header = csv_header(path)
    for role in ("model", "size", "benchmark", "accuracy"):
        mapped_column(path, header, mapping, role)
    model = model_column(header, mapping) or header[0]
    size = _column(header, mapping.get("size"), lambda c: "size" in c)
    family = _column(header, None, lambda c: "family" in c)
    bench = mapping.get("benchmark") or next(iter(_named(header, BENCHMARK_NAMES)), None)
    text_only(path)
    frame = pl.read_csv(path, infer_schema=False)
    frame = frame.with_columns(__line=pl.Series(csv_lines(path, frame.height), dtype=pl.Int64))
    keys = [c for c in (model, family, size) if c]
    notes = [f"model: {model}" + (f"; size: {size}" if size else "")]
    cells = [c for c in header if c not in keys]
    blank = pl.col(cells).str.strip_chars().is_in(list(NOT_EVALUATED))
    marked = frame.select(blank.sum()).row(0) if cells else ()
    if any(marked):  # a leaderboard's "-": not evaluated, not a word in a column of scores
        frame = frame.with_columns(pl.when(blank).then(None).otherwise(pl.col(cells)).name.keep())
        notes.append(f"{sum(marked)} cells marked not evaluated (-, n/a) read as missing")
    if size:
        frame = numeric(path, frame, [size])
    if bench:  # one row per (model, benchmark)
        rest = [c for c in header if c not in {*keys, bench}]
        value = mapping.get("accuracy") or next(iter(_named(rest, VALUE_NAMES)), None)
        if value is None and len(rest) == 1:
            value = rest[0]
        if value is None:
            raise DataError(
                path,
                f"one score column beside {bench!r} (or --map accuracy=COLUMN)",
                line=1,
                got=rest[:8],
            )
        if benchmarks is not None:  # the rows asked for: a repeat elsewhere is not read
            frame = frame.filter(pl.col(bench).is_in(list(benchmarks)))
        _once(path, frame, [model, bench], f"each {model} once per {bench}")
        frame = _as_fractions(path, frame, [value])
        _check_fractions(path, frame, [value])
        rows = frame.select(*keys, benchmark=pl.col(bench), accuracy=pl.col(value))
        notes.append(f"benchmarks as rows: {bench} names the benchmark, {value} its score")
    else:  # one row per model, a column per benchmark
        names = [c for c in header if c != model and c.lower() in MODEL_NAMES]
        if names:  # a model named only in a second name column (the first blank)
            frame = frame.with_columns(pl.coalesce(model, *names).alias(model))
        scores, others = _benchmark_columns(path, frame, [c for c in header if c not in names],
                                            keys, benchmarks)  # fmt: skip
        labels = [c for c in header if c not in {*keys, *names, *scores}]
        frame, said = _readings(frame, model, labels)
        notes += said
        _once(path, frame, [model], "each model once, or a column telling its readings apart")
        if others:
            notes.append(f"left out (numbers, not scores from 0 to 1): {', '.join(others[:4])}")
        frame = _as_fractions(path, frame, scores)
        _check_fractions(path, frame, scores)
        rows = frame.unpivot(
            index=keys, on=scores, variable_name="benchmark", value_name="accuracy"
        )
    rows = rows.rename({model: "model", **({family: "family"} if family else {})})
    if size:
        rows = rows.rename({size: "size_b"})
    else:
        rows, said = _sizes_from_names(rows)
        notes += said
    return rows.drop_nulls("accuracy"), notes


def _benchmark_columns(
    path: Path,
    frame: pl.DataFrame,
    header: list[str],
    keys: list[str],
    benchmarks: Sequence[str] | None,
) -> tuple[list[str], list[str]]:
    """The score columns: those given, else every column whose values all read as fractions,
    as percentages ('63.3%', or numbers under a name saying '%'); and the numeric columns left
    out (a data size, FLOPs). No score column but numbers: the first of them, to be refused."""
    if benchmarks is not None:
        missing = [b for b in benchmarks if b not in header]
        if missing:
            raise DataError(
                path, f"the benchmark columns {list(benchmarks)}", line=1, column=missing[0]
            )
        return list(benchmarks), []
    scores, others = [], []
    for c in header:
        if c in keys or c == "__line":
            continue
        text = frame[c].str.strip_chars()
        written = text.is_not_null().sum()
        marked = text.str.ends_with("%")
        if written and marked.sum() == written:
            scores.append(c)
            continue
        if marked.any():  # 63.3% beside 0.5: which scale the others are on cannot be told
            _refuse(
                path,
                frame,
                text.is_not_null() & ~marked,
                c,
                "every score of the column written as a percentage (63.3%), as its others are",
            )
        values = text.cast(pl.Float64, strict=False)
        if not written or values.is_not_null().sum() < written:
            continue  # words: not scores
        top = 100 if _is_percent_name(c) else 1
        (scores if values.min() >= 0 and values.max() <= top else others).append(c)
    if not scores:
        return others[:1], []
    return scores, others


def _sizes_from_names(rows: pl.DataFrame) -> tuple[pl.DataFrame, list[str]]:
    """size_b parsed from each model's name, and notes: the readings, the readings that
    needed a word, the models with no size in their name."""
    names = rows["model"].unique(maintain_order=True).to_list()
    parsed = {n: size_from_name(str(n)) for n in names}
    sizes = {n: s for n, (s, _) in parsed.items()}
    rows = rows.with_columns(
        size_b=pl.col("model").replace_strict(sizes, default=None, return_dtype=pl.Float64)
    )
    read = [f"{n} {s:g}B" for n, s in sizes.items() if s is not None]
    notes = []
    if read:
        notes.append(
            f"sizes from the model names ({len(read)}): {', '.join(read[:4])}"
            + (" ..." if len(read) > 4 else "")
        )
    notes += [f"{n}: {note}" for n, (_, note) in parsed.items() if note]
    unsized = [str(n) for n, s in sizes.items() if s is None]
    if unsized:
        notes.append(
            f"no size in {len(unsized)} model name{'s' * (len(unsized) != 1)}: "
            f"{', '.join(unsized[:4])}" + (" ..." if len(unsized) > 4 else "")
        )
    return rows, notes


def read_scores(
    path: str | Path, *, benchmarks: Sequence[str] | None = None, **mapping: str
) -> pl.DataFrame:
    """A models table as long rows: model, family, size_b, benchmark, accuracy (see
    `read_models`); `mapping` names columns (model=, size=, benchmark=, accuracy=)."""
    return read_models(path, mapping=mapping, benchmarks=benchmarks)[0]


def _read(path: Path, where) -> object:
    from helpers.runs.readers.loaded import ModelTable

    options = where.options
    models, notes = read_models(
        path, mapping=options.get("mapping"), benchmarks=options.get("benchmarks")
    )
    return ModelTable(path, where.kind, models=models, notes=notes)


FORMAT = Format(
    "scores",
    "table of models (a row per model, or per model and benchmark; a model or a model-size column)",
    rank=250,
    read=_read,
    csv=lambda ev: (
        any("size" in c.lower() for c in ev.header)
        or bool(model_column(ev.header, dict(ev.mapping)))
    ),
)
