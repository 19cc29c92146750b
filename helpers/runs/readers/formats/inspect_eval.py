"""Inspect AI's `.eval` logs (its default log format since 0.3.46): a zip holding
`_journal/start.json` (the eval's spec, written first), `samples/<id>_epoch_<n>.json` (each
sample as it completes), `_journal/summaries/*.json`, and once the run has ended `header.json`
(status, results, stats), `summaries.json` and `reductions.json`. Read with `zipfile` and
`json`; members that Inspect compresses with Zstandard (zip method 93, every member since
2026) are decompressed with the `zstandard` package, as Python's own zipfile reads them only
from 3.14. The log comes back shaped as Inspect's JSON log (`eval`, `status`, `results`,
`samples`), so one reader serves both, with how many samples were planned and completed.

A log without `header.json` is a run still going or killed ("started"), as Inspect's own
reader says; its samples are those flushed so far."""

from __future__ import annotations

import io
import json
import struct
import zipfile
from pathlib import Path

import polars as pl

from helpers.errors import DataError
from helpers.runs.readers.format import Format, Where
from helpers.runs.readers.formats.evals import SAMPLE_SCHEMA, _binary, _frame
from helpers.runs.readers.loaded import (
    Loaded,
    SampleLog,
    ScoreLog,
    decoding_of,
    samples_frame,
    scores_frame,
)

SUFFIX = ".eval"
ZSTD = 93  # the zip compression method Inspect writes


def is_eval_log(path: Path) -> bool:
    """A `.eval` file that is a zip holding Inspect's start record or header."""
    if path.suffix != SUFFIX or not zipfile.is_zipfile(path):
        return False
    try:
        with zipfile.ZipFile(path) as zf:
            names = set(zf.namelist())
    except (zipfile.BadZipFile, OSError):
        return False
    return bool({"header.json", "_journal/start.json"} & names)


def _member(path: Path, zf: zipfile.ZipFile, name: str) -> object:
    """One member of the log, decoded as JSON (a DataError naming the member otherwise)."""
    info = zf.getinfo(name)
    try:
        if info.compress_type != ZSTD:
            data = zf.read(name)
        else:
            import zstandard

            zf.fp.seek(info.header_offset)
            header = zf.fp.read(30)
            if header[:4] != b"PK\x03\x04":
                raise zipfile.BadZipFile("a local file header")
            name_length, extra_length = struct.unpack("<HH", header[26:30])
            zf.fp.seek(info.header_offset + 30 + name_length + extra_length)
            raw = zf.fp.read(info.compress_size)
            reader = zstandard.ZstdDecompressor().stream_reader(
                io.BytesIO(raw), read_across_frames=True
            )  # frames may lack their size, and a member may be several frames
            data = reader.read()
        return json.loads(data)
    except (zipfile.BadZipFile, OSError, ValueError, EOFError) as e:
        got = str(e).splitlines()[0][:80] if str(e) else type(e).__name__
        raise DataError(path, f"a readable Inspect log member {name!r}", got=got) from None


def read_eval_log(path: Path) -> dict:
    """The log as Inspect's JSON log would hold it: `eval`, `status` ("started" where the
    run has not written its header), `results`, `error`, and `samples` (those that completed
    with a score; those that failed are counted in `failed`)."""
    try:
        zf = zipfile.ZipFile(path)
    except (zipfile.BadZipFile, OSError) as e:
        raise DataError(path, "an Inspect .eval log (a zip)", got=str(e)[:80]) from None
    with zf:
        names = zf.namelist()
        finished = "header.json" in names
        head = _member(path, zf, "header.json" if finished else "_journal/start.json")
        if not isinstance(head, dict) or not isinstance(head.get("eval"), dict):
            raise DataError(path, "an Inspect header with 'eval'", column="header.json")
        samples, failed = [], 0
        for name in sorted(n for n in names if n.startswith("samples/") and n.endswith(".json")):
            sample = _member(path, zf, name)
            if isinstance(sample, dict) and (sample.get("error") or not sample.get("scores")):
                failed += 1  # it did not complete: no answer to count
                continue
            samples.append(sample)
    spec = head["eval"]
    return {
        "eval": spec,
        "plan": head.get("plan"),
        "status": head.get("status", "success") if finished else "started",
        "results": head.get("results"),
        "error": head.get("error"),
        "samples": samples,
        "failed": failed,
    }


def planned(spec: object) -> int | None:
    """The samples a run set out to answer: its sample ids (a `limit` keeps fewer than the
    dataset holds), else the dataset's size, times its epochs; None where the log does not
    say."""
    spec = spec if isinstance(spec, dict) else {}
    dataset = spec.get("dataset") if isinstance(spec.get("dataset"), dict) else {}
    config = spec.get("config") if isinstance(spec.get("config"), dict) else {}
    ids = dataset.get("sample_ids")
    size = len(ids) if isinstance(ids, list) and ids else dataset.get("samples")
    epochs = config.get("epochs") or 1
    return size * epochs if isinstance(size, int) and isinstance(epochs, int) else None


def unfinished(log: dict) -> str | None:
    """What to say of an Inspect log (JSON or .eval) that did not finish: its status and how
    many samples of how many planned it holds ("cancelled: 112 samples of 792 planned");
    None for a finished run."""
    status = log.get("status", "success")
    if status == "success":
        return None
    samples = log.get("samples") if isinstance(log.get("samples"), list) else []
    results = log.get("results") if isinstance(log.get("results"), dict) else {}
    done = len(samples) or results.get("completed_samples") or 0
    aimed = planned(log.get("eval"))
    of = f" of {aimed:,} planned" if aimed else ""
    return f"{status}: {done:,} samples{of}"


# ---- Inspect's JSON log, and the .eval log read as one -----------------------------------------


def load_inspect(path: Path) -> dict:
    """An Inspect log, `.eval` (zip) or JSON, as the JSON log's dict; samples that did not
    complete (an `error`, no scores) are left out and counted in `failed`."""
    from helpers.runs.readers.formats import results

    if path.suffix == SUFFIX:
        return read_eval_log(path)
    log = results.load_json(path)
    if isinstance(log, dict) and isinstance(log.get("samples"), list):
        kept = [
            s
            for s in log["samples"]
            if not (isinstance(s, dict) and (s.get("error") or s.get("scores") == {}))
        ]
        log = {**log, "samples": kept, "failed": len(log["samples"]) - len(kept)}
    return log


def inspect_task(log: dict) -> str:
    """The task an Inspect log evaluated ('inspect_evals/gsm8k' -> 'gsm8k')."""
    spec = log.get("eval")
    task = str(spec.get("task", "task")) if isinstance(spec, dict) else "task"
    return task.rsplit("/", 1)[-1]


def _whole(value) -> bool:
    return type(value) is int or (type(value) is float and value.is_integer())


def read_inspect_samples(path: Path, log: dict, scorer: str | None = None) -> pl.DataFrame:
    """An Inspect AI log's samples as one row per answer: problem_id (the sample id),
    sample_id (the epoch), correct (the scorer's value: C/I, true/false or 1/0)."""
    if not isinstance(log["samples"], list):
        raise DataError(
            path, "a list of samples", column="samples", got=type(log["samples"]).__name__
        )
    rows = []
    for i, sample in enumerate(log["samples"]):
        if not isinstance(sample, dict):
            raise DataError(path, "a sample object", column=f"samples[{i}]", got=sample)
        if type(sample.get("id")) not in (int, str):
            raise DataError(path, "a sample id", column=f"samples[{i}].id", got=sample.get("id"))
        epoch = sample.get("epoch", 1)
        if not _whole(epoch) or not 1 <= epoch < 2**31:
            raise DataError(
                path, "an epoch counted from 1", column=f"samples[{i}].epoch", got=epoch
            )
        scores = sample.get("scores") or {}
        if not isinstance(scores, dict):
            raise DataError(path, "a score per sample", column=f"samples[{i}].scores", got=scores)
        name = scorer or next(iter(scores), None)
        if name is None or name not in scores:
            raise DataError(path, "a score per sample", column=f"samples[{i}].scores", got=scores)
        value = scores[name].get("value") if isinstance(scores[name], dict) else scores[name]
        where = f"samples[{i}].scores.{name}.value"
        rows.append((str(sample["id"]), int(epoch) - 1, _binary(path, value, where)))
    return _frame(path, rows, SAMPLE_SCHEMA)


def read_inspect_results(path: Path, log: dict) -> tuple[float, int | None, str]:
    """An Inspect log without samples: its accuracy metric, the samples it completed, and
    the scorer's name."""
    results = log.get("results") or {}
    scores = results.get("scores", []) if isinstance(results, dict) else None
    if not isinstance(scores, list):
        raise DataError(path, "a list of scores", column="results.scores", got=scores)
    for i, score in enumerate(scores):
        metrics = score.get("metrics") if isinstance(score, dict) else None
        if isinstance(metrics, dict) and "accuracy" in metrics:
            where = f"results.scores[{i}].metrics.accuracy.value"
            entry = metrics["accuracy"]
            value = entry.get("value") if isinstance(entry, dict) else entry
            if type(value) not in (int, float) or not 0 <= value <= 1:  # NaN fails too
                raise DataError(path, "an accuracy from 0 to 1", column=where, got=value)
            completed = results.get("completed_samples") or results.get("total_samples")
            if completed is not None and (not _whole(completed) or completed < 1):
                raise DataError(
                    path,
                    "a positive whole count of samples",
                    column="results.completed_samples",
                    got=completed,
                )
            return (
                float(value),
                None if completed is None else int(completed),
                str(score.get("name")),
            )
    raise DataError(path, "samples, or an accuracy metric in results.scores", column="results")


# ---- the format -------------------------------------------------------------------------------


def _read(path: Path, where: Where) -> Loaded:
    """An Inspect log's samples (or, where it logged none, its results' accuracy), a run
    that did not finish said to be partial."""
    from helpers import benchmark_sizes

    log = load_inspect(path)
    benchmark = benchmark_sizes.canonical(inspect_task(log))
    status = unfinished(log)
    said = [f"the run did not finish ({status})"] if status else []
    ended = log.get("status", "success") != "started"  # cancelled and error ended too
    run = {"status": status, "ended": ended, "decoding": _decoding(log)}
    if log.get("samples"):
        frame = read_inspect_samples(path, log, where.metric)
        samples = samples_frame(frame, where.step, benchmark).lazy()
        return SampleLog(path, where.kind, samples=samples, notes=said, **run)
    if status and not isinstance(log.get("results"), dict):
        raise DataError(path, "a completed sample or results", got=status)
    score, n, scorer = read_inspect_results(path, log)
    rows = pl.DataFrame({"benchmark": [benchmark], "score": [score], "problems": [n]})
    notes = [f"no samples in the log: the accuracy of scorer {scorer!r} over {n} samples"]
    scores = scores_frame(rows, where.step)
    return ScoreLog(path, where.kind, scores=scores, notes=said + notes, **run)


def _decoding(log: dict) -> dict[str, float]:
    """The generation settings the model ran with: its own config, then the eval's (which
    Inspect's `eval(..., temperature=...)` writes into the plan)."""
    spec, plan = log.get("eval"), log.get("plan")
    model = spec.get("model_generate_config") if isinstance(spec, dict) else None
    return decoding_of(model, plan.get("config") if isinstance(plan, dict) else None)


FORMAT = Format(
    "inspect",
    "Inspect AI log (.eval, or JSON: eval, samples or results)",
    rank=70,
    read=_read,
    magic=lambda ev: is_eval_log(ev.path),  # a zip holding Inspect's start record or header
    document=lambda ev: (
        isinstance(ev.document, dict)
        and isinstance(ev.document.get("eval"), dict)
        and ("samples" in ev.document or "results" in ev.document)
    ),
    per_sample=True,
)
