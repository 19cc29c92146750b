"""Per-step metric logs as the trainers write them: one row per step, one column per metric.

Files: a W&B history export or any CSV; JSON lines with one object per logged step (OpenRLHF,
plain loggers); TRL's `trainer_state.json` (its `log_history`); the rows other readers make of
a tracker's store or a framework's own log (`framework_logs`). Columns are recognised by the
naming conventions of `metric_columns` (verl, TRL, OpenRLHF, NeMo-RL, prime-rl), tried in
order, or by a mapping the user gives (`--map`).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path

import polars as pl

from helpers.errors import DataError
from helpers.runs.readers._common import (
    csv_header,
    csv_lines,
    numeric,
    place,
    read_document,
    scan_jsonl_lines,
    text_only,
)
from helpers.runs.readers.format import Format
from helpers.runs.readers.formats import long_tables
from helpers.runs.readers.formats.metric_columns import (
    STEP_NAMES,
    MetricLog,
    recognise,
    step_column,
)
from helpers.runs.readers.loaded import SCORE_COLUMNS, Loaded, ScoreLog
from helpers.runs.readers.trackers import tfevents

# ---- reading the rows ---------------------------------------------------------------------------


def rows_frame(path: Path, rows: list[tuple[int, dict]], where: str) -> pl.DataFrame:
    """Logged objects as one row per object, every value as text (cast later, per column)."""
    if not rows:
        raise DataError(path, f"at least one logged step in {where}", line=1)
    flat = [{k: v for k, v in r.items() if not isinstance(v, dict | list)} for _, r in rows]
    columns = list(dict.fromkeys(k for r in flat for k in r))
    return pl.DataFrame(
        {c: [None if r.get(c) is None else str(r[c]) for r in flat] for c in columns},
        schema={c: pl.String for c in columns},
    ).with_columns(__line=pl.Series([n for n, _ in rows], dtype=pl.Int64))


def read_rows(path: Path) -> pl.DataFrame:
    """A metric log's rows, every column as text; `__line` holds each row's line in the file
    (for JSON, the position in `log_history`; for TensorBoard, a record number)."""
    if path.is_dir() or tfevents.NAME_MARK in path.name:
        return tfevents.wide(path)
    if path.suffix == ".csv":
        header = csv_header(path)
        if len(set(header)) < len(header):
            dup = next(c for c in header if header.count(c) > 1)
            raise DataError(path, "each column name once", line=1, column=dup)
        text_only(path)
        frame = pl.read_csv(path, infer_schema=False)
        return frame.with_columns(__line=pl.Series(csv_lines(path, frame.height), dtype=pl.Int64))
    if path.suffix == ".json":
        try:
            state = json.loads(read_document(path))
        except (json.JSONDecodeError, UnicodeDecodeError) as e:
            line = getattr(e, "lineno", None)
            raise DataError(path, "a JSON document", line=line, got=str(e)[:80]) from None
        history = state.get("log_history") if isinstance(state, dict) else None
        if not isinstance(history, list):
            raise DataError(
                path, "a 'log_history' list (TRL trainer_state.json)", column="log_history"
            )
        bad = next((i for i, r in enumerate(history) if not isinstance(r, dict)), None)
        if bad is not None:
            raise DataError(path, "an object per log_history entry", column=f"log_history[{bad}]")
        return rows_frame(path, list(enumerate(history)), "log_history")
    return rows_frame(path, list(scan_jsonl_lines(path)), "the file")


def read_metric_log(
    path: str | Path, mapping: Mapping[str, str] | None = None, rows: pl.DataFrame | None = None
) -> MetricLog:
    """Read and recognise a per-step metric log; numbers are checked cell by cell (a cell that
    is not a number is an error naming its line and column), and a step logged on several
    rows is merged (trainers log training and evaluation metrics on separate rows). `rows`:
    the log's rows where the caller read them already (a tracker's store)."""
    mapping_given = mapping
    path = Path(path)
    rows = read_rows(path) if rows is None else rows
    step = (mapping or {}).get("step") or step_column(rows.columns)
    rows, mapping, said = long_tables.widen(path, rows, mapping or {}, step)
    log = recognise(path, rows.columns, mapping)
    if said:
        given = (mapping_given or {}).get("accuracy")
        log.said = said
        log.convention = "benchmarks as rows" + (f", --map accuracy={given}" if given else "")
    wanted = [log.step, *log.accuracy.values(), *log.tokens.values()]
    rows = long_tables.percents(path, rows, list(dict.fromkeys(log.accuracy.values())))
    frame = numeric(
        path, rows.select("__line", *dict.fromkeys(wanted)), list(dict.fromkeys(wanted))
    )
    missing = frame.filter(pl.col(log.step).is_null())
    if missing.height:
        raise DataError(
            path, "a step on every row", line=missing["__line"][0], column=log.step, got=""
        )
    step = pl.col(log.step)
    whole = step.is_finite() & (step == step.round()) & (step.abs() < 2.0**63)
    bad = frame.filter(~whole)
    if bad.height:  # 1.5 and 1.7 would both be step 1; 1e30 or inf is no step
        raise DataError(
            path,
            "a whole-number step",
            got=bad[log.step][0],
            **place(path, int(bad["__line"][0]), log.step),
        )
    if frame[log.step].is_duplicated().any() and path.suffix == ".csv":
        dup = frame.filter(pl.col(log.step).is_duplicated())
        raise DataError(
            path,
            f"each step once (also on line {dup['__line'][0]})",
            line=dup["__line"][1],
            column=log.step,
            got=dup[log.step][1],
        )
    # NaN is a value not logged; 57 is a percentage. One pass over every score column (a log
    # of 10,000 benchmarks took a filter per column: 50 s), then the first offender is found.
    scores = list(dict.fromkeys(log.accuracy.values()))
    if scores:
        outside_any = frame.select(
            (~pl.col(c).is_nan() & ~pl.col(c).is_between(0, 1)).any() for c in scores
        ).row(0)
        scores = [c for c, out in zip(scores, outside_any, strict=True) if out]
    for column in scores[:1]:
        score = pl.col(column)
        outside = frame.filter(~score.is_nan() & ~score.is_between(0, 1))
        if outside.height:
            raise DataError(
                path,
                "accuracy as a fraction from 0 to 1 (a percentage? divide it by 100)",
                got=outside[column][0],
                **place(path, int(outside["__line"][0]), column),
            )
    values = [c for c in dict.fromkeys(wanted) if c != log.step]
    log.frame = (
        frame.group_by(log.step, maintain_order=True)
        .agg(pl.col(c).drop_nulls().last() for c in values)
        .sort(log.step)
    )
    return log


def metric_log(path: Path, kind: str, options: dict, rows: pl.DataFrame | None = None) -> Loaded:
    log = read_metric_log(path, options.get("mapping"), rows)
    scores = log.scores()
    if log.accuracy and not scores.height:
        raise DataError(
            path,
            "a number in at least one accuracy column; every value is empty or NaN",
            column=next(iter(log.accuracy.values())),
        )
    if scores.height:
        scores = scores.with_columns(problems=pl.lit(None, pl.Int64)).select(list(SCORE_COLUMNS))
    notes = [f"convention: {log.convention or 'none'} ({log.kind})"]
    notes += log.said + log.roles()
    if log.k:
        ks = sorted(set(log.k.values()))
        notes.append(f"mean@k with k = {', '.join(map(str, ks))} samples per problem")
    for reason, columns in log.ignored.items():
        notes.append(f"ignored {len(columns)} columns ({reason}): {', '.join(columns[:4])}")
    tokens = log.token_lengths()
    return ScoreLog(
        path,
        kind,
        scores=scores if scores.height else None,
        tokens=tokens if tokens.height else None,
        notes=notes,
        order=list(log.accuracy),
        kind=log.kind,
        mapped="--map accuracy" in log.convention,
    )


# ---- the formats ------------------------------------------------------------------------------


def _read(path: Path, where) -> Loaded:
    return metric_log(path, where.kind, where.options)


def metric_error(ev) -> DataError | None:
    """None where the metric-log conventions recognise a CSV's header, else their DataError
    (computed once for every format that asks, and for the message where none does)."""

    def compute() -> DataError | None:
        try:
            recognise(ev.path, ev.header, ev.mapping)
        except DataError as e:
            return e
        return None

    return ev.once("metric_error", compute)


def _runs_table(path: Path, mapping: dict) -> list:
    """A table of several runs: a run per value of the run column(s), rows repeated exactly
    collapsed, said."""
    rows = read_rows(path)
    columns = long_tables.run_columns(path, rows, mapping or {})
    said = [f"runs named by {', '.join(columns)}"]
    found = []
    for name, part in long_tables.split(rows, columns):
        part, once = long_tables.collapsed(part)
        found.append((name, (), lambda t=part, s=said + once: (t, s)))
    return found


def _plain(ev) -> bool:
    """A CSV that is one run's per-step log by the conventions (not a table of runs)."""
    return long_tables.kind_of(ev) is None and metric_error(ev) is None


FORMATS = [
    Format(
        "tensorboard", "TensorBoard event files (scalars; Trainer/TRL tags train/... and eval/...)",
        rank=10, read=_read,
        folder=lambda ev: any(map(tfevents.is_event_file, ev.files)),
        magic=lambda ev: tfevents.is_event_file(ev.path),  # the name ends in the host's name
        runs=tfevents.store_runs, store_file=False, grows="tfrecords",
    ),
    Format(
        "trl", "TRL trainer_state.json (log_history)", rank=50, read=_read,
        document=lambda ev: isinstance(ev.document, dict)
        and isinstance(ev.document.get("log_history"), list),
    ),
    Format(
        "metrics-jsonl", "per-step metric log (JSON lines, one object per logged step)",
        rank=210, read=_read, line=lambda ev: bool(ev.keys & set(STEP_NAMES)), grows="lines",
    ),
    Format(
        "wandb", "W&B history export (CSV with _step; verl, TRL or any logger's metrics)",
        rank=230, read=_read,
        csv=lambda ev: _plain(ev) and "_step" in ev.header,
    ),
    Format(
        "metrics-csv", "per-step metric log (CSV with a step column)", rank=240, read=_read,
        csv=lambda ev: long_tables.kind_of(ev) == "metrics-csv" or _plain(ev),
    ),
    Format(
        "runs-table",
        "table of several runs (a row per run and step; the run named by a column: "
        + ", ".join(long_tables.RUN_NAMES) + ", or --map run=COLUMN)",
        rank=220, csv=lambda ev: long_tables.kind_of(ev) == "runs-table", runs=_runs_table,
    ),
]  # fmt: skip
