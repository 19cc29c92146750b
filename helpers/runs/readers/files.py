"""One run's files into a `Loaded`: a log file of any format `detect` names (read by its
format's reader, see `registry`), or a folder of per-checkpoint files (the step from the folder
names), combined into one run."""

from __future__ import annotations

from pathlib import Path

import polars as pl

from helpers.errors import DataError
from helpers.runs.readers._common import files_in
from helpers.runs.readers.detect import detect
from helpers.runs.readers.format import Where
from helpers.runs.readers.formats import prime_rl_traces
from helpers.runs.readers.formats.tables import SAMPLE_COLUMNS, scan_samples, scan_table
from helpers.runs.readers.loaded import (
    SCORE_COLUMNS,
    Loaded,
    SampleLog,
    ScoreLog,
    decoding_alike,
    shared,
)
from helpers.runs.readers.registry import BESIDE, PER_SAMPLE, RESULTS, get
from helpers.runs.readers.stated import checked


def read_file(path: Path, kind: str, parts: list[str], options: dict) -> Loaded:
    """One file (or a folder its format reads whole); `parts` are the path parts that may
    name its step and benchmark, nearest first (the file's name, then its folders up to the
    input given)."""
    fmt = get(kind)
    if fmt.read is None:
        raise DataError(path, "a run's log", got=kind)
    return fmt.read(path, Where(path, kind, parts, options))


def read_folder(path: Path, options: dict) -> Loaded:
    """Every log in a folder: a hive-partitioned per-sample table, or one file per checkpoint
    (and benchmark), the step read from the folder names."""
    files, links = files_in(path, (".parquet", ".json", ".jsonl"))
    if files and all(p.suffix == ".parquet" for p in files):
        names = scan_table(path).collect_schema().names()  # hive partitions included
        if set(SAMPLE_COLUMNS) <= set(names):
            return SampleLog(path, "samples", samples=scan_samples([path]), notes=links)
    kinds = {f: detect(f, options.get("mapping")) for f in files}
    beside = [f for f, k in kinds.items() if k in BESIDE]
    if beside and len(beside) < len(kinds):  # a dump's averages, training rollouts: not read
        kinds = {f: k for f, k in kinds.items() if f not in beside}
        files = [f for f in files if f not in beside]
        names = ", ".join(str(f.relative_to(path)) for f in beside[:2])
        links = [*links, f"left out {len(beside)} file(s) beside the dumps (not read): {names}"]
    traces = [f for f, k in kinds.items() if k == "prime-rl-traces"]
    if traces:  # effective/ repeats all/; train/ beside eval/: read one set
        _, out = prime_rl_traces.kept(traces, path)
        if out:
            kinds = {f: k for f, k in kinds.items() if f not in out}
            names = ", ".join(str(f.relative_to(path).parent) for f in out[:2])
            links = [*links, f"left out {len(out)} traces file(s) (repeats, or training): {names}"]
    bad = next((f for f, k in kinds.items() if k in ("samples", "scores")), None)
    if bad is not None:
        raise DataError(bad, "one checkpoint's evaluation file in a folder of them", got=kinds[bad])
    # where per-sample files are there, the harness's summaries beside them are checked
    # against them, not read as scores
    summaries = {f: k for f, k in kinds.items() if k in RESULTS}
    if summaries and any(k in PER_SAMPLE for k in kinds.values()):
        kinds = {f: k for f, k in kinds.items() if k not in RESULTS}
    else:
        summaries = {}

    def read(f: Path, k: str) -> Loaded:
        return read_file(f, k, [f.name, *reversed(f.relative_to(path).parent.parts)], options)

    loaded = [read(f, k) for f, k in kinds.items()]
    if not loaded:
        raise DataError(path, "log files (.parquet, .json, .jsonl) in the folder; found none")
    run = combine(path, loaded)
    run.notes += links
    if summaries:
        options = {**options, "summary": True}
        run.notes += checked(run.samples, [read(f, k) for f, k in summaries.items()])
    return run


def combine(path: Path, loaded: list[Loaded]) -> Loaded:
    """Several logs of one run (one per checkpoint or benchmark) as one. The same benchmark
    evaluated twice at one step is averaged (for scores) and said so."""
    kinds = sorted({x.format for x in loaded})
    per_sample = [x for x in loaded if x.holds == "samples"]
    scored = [x for x in loaded if x.scores is not None]
    if per_sample and scored:
        raise DataError(path, "logs of one kind (per-sample or scores) in the folder", got=kinds)
    notes = [f"{len(loaded)} files: {', '.join(kinds)}"]
    decoding = decoding_alike([x.decoding for x in loaded])
    model = shared(x.model for x in loaded)  # where every file names the same one
    kind = shared((x.kind for x in loaded), "validation")  # training scores where all are
    if per_sample:
        samples = pl.concat([x.samples for x in per_sample])
        texts = [t for x in per_sample for t in x.texts]
        return SampleLog(
            path, "folder", samples=samples, notes=notes, texts=texts, decoding=decoding,
            model=model, kind=kind,
        )  # fmt: skip
    scores = pl.concat([x.scores.with_columns(folder=pl.lit(str(x.path.parent))) for x in scored])
    repeats = (
        scores.group_by("step", "benchmark")
        .agg(pl.len(), folders=pl.col("folder").n_unique())
        .filter(pl.col("len") > 1)
    )
    unread = repeats.filter(pl.col("step").is_null(), pl.col("folders") > 1)
    if unread.height:
        raise DataError(
            path,
            f"a step in each folder's name ({unread['benchmark'][0]} is evaluated in "
            f"{unread['folders'][0]} folders with no step read from their names); give the "
            "pattern with --step-from-path REGEX",
        )
    if repeats.height:
        notes.append(
            f"{repeats.height} benchmark-step pairs evaluated more than once: scores averaged"
        )
        scores = scores.group_by("step", "benchmark").agg(
            pl.col("score").mean(), pl.col("problems").first(), pl.col("k").first()
        )
    scores = scores.sort("benchmark", "step").select(list(SCORE_COLUMNS))
    return ScoreLog(path, "folder", scores=scores, notes=notes, decoding=decoding, model=model)
