"""Which format a file is in, from its content (never from its name alone): each format of
the registry is asked in turn, by the evidence the input offers (a folder's files; a file's
first bytes; a Parquet file's columns, a JSON document, the first JSON line or a CSV header by
its suffix; any other file's lines)."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from helpers.errors import DataError
from helpers.runs.readers._common import regular_file
from helpers.runs.readers.format import Evidence
from helpers.runs.readers.formats.metric_columns import CONVENTIONS, STEP_NAMES
from helpers.runs.readers.formats.metrics import metric_error
from helpers.runs.readers.formats.tables import SAMPLE_COLUMNS
from helpers.runs.readers.registry import FORMATS, REGISTRY


def _first(ev: Evidence, sniff: str) -> str | None:
    """The first format whose sniff of this kind says yes."""
    for fmt in REGISTRY:
        test = getattr(fmt, sniff)
        if test is not None and test(ev):
            return fmt.name
    return None


def _closest(path: Path, tried: str, got: object) -> DataError:
    return DataError(path, f"one of the formats: {tried}", line=1, got=got)


def detect(path: str | Path, mapping: Mapping[str, str] | None = None) -> str:
    """The format of a file or folder (see FORMATS). An unrecognised file gets a DataError
    listing the formats tried and what the closest one lacked."""
    path = Path(path)
    if not path.exists():
        raise DataError(path, "an existing file or folder (not found)")
    ev = Evidence(path, dict(mapping or {}))
    if path.is_dir():  # walked once: a tracker's store first, else a folder of logs
        kind = _first(ev, "folder")
        if kind:
            return kind
        raise DataError(path, "a folder holding .parquet, .jsonl, .json or .csv logs; found none")
    regular_file(path)
    kind = _first(ev, "magic")  # by content: event files, W&B and SwanLab logs, zips, SQLite
    if kind:
        return kind
    suffix = path.suffix.lower()
    if suffix == ".parquet":
        return _first(ev, "parquet") or _no_parquet(ev)
    if suffix in (".json", ".jsonl"):
        if suffix == ".json" and ev.document is not None:
            kind = _first(ev, "document")
            if kind:
                return kind
        return _first_line(ev, suffix)
    if suffix == ".csv":
        return _first(ev, "csv") or _no_csv(ev)
    kind = _first(ev, "text")  # a log under any other name: by its lines
    if kind:
        return kind
    raise DataError(
        path,
        "a .csv, .json, .jsonl or .parquet file, a verl console log (lines 'step:N - "
        "key:value'), or a folder of them",
        got=path.suffix,
    )


def _no_parquet(ev: Evidence) -> str:
    missing = [c for c in SAMPLE_COLUMNS if c not in ev.names]
    raise DataError(
        ev.path,
        f"{FORMATS['samples']} or {FORMATS['lighteval-details']}; the per-sample table "
        f"lacks {missing}",
        got=list(ev.names)[:8],
    )


def _first_line(ev: Evidence, suffix: str) -> str:
    try:
        keys = ev.keys
    except DataError:
        if suffix == ".json":
            raise DataError(
                ev.path,
                "a TRL trainer_state.json, lm-eval or lighteval results, an Inspect log, "
                "or JSON lines",
            ) from None
        raise
    kind = _first(ev, "line")
    if kind:
        return kind
    raise _closest(
        ev.path,
        "Qwen2.5-Math JSONL (idx, score, code), lm-eval samples (doc_id, resps), a per-step "
        f"log (a step key: {', '.join(STEP_NAMES)}), TRL trainer_state.json (log_history), "
        "lm-eval/lighteval results (results), an Inspect log (eval, samples)",
        sorted(keys)[:8],
    )


def _no_csv(ev: Evidence) -> str:
    missing = [c for c in SAMPLE_COLUMNS if c not in ev.header]
    raise DataError(
        ev.path,
        "a per-step metric log (a step column and "
        + ", ".join(t for _, _, t in CONVENTIONS[:5])
        + f", or --map): {metric_error(ev).expected}; a per-sample table (lacks {missing}); "
        "or a table of models (a model column, or one with 'size' in its name)",
        line=1,
        got=ev.header[:8],
    )
