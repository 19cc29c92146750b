"""One run's logs in one shape, whatever wrote them: per-sample rows where the log has them,
per-step scores where it has only those. This is what curves and comparisons start from."""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

import polars as pl

from helpers import benchmark_sizes
from helpers.errors import DataError
from helpers.runs.readers import (
    answer_dumps,
    evals,
    framework_logs,
    mlflow_sqlite,
    mlflow_store,
    results,
    tfevents,
    trackio_store,
    wandb_store,
)
from helpers.runs.readers._common import files_in, reading
from helpers.runs.readers.detect import FORMATS, detect
from helpers.runs.readers.metrics import read_metric_log
from helpers.runs.readers.tables import SAMPLE_COLUMNS, read_scores, scan_samples, scan_table

# checkpoint-120, ckpt_120, global_step120, step=120, iter_120; Exp2_120 (an experiment number,
# then the step)
STEP_PATTERN = r"(?i)^(?:.*[^a-z])?(?:checkpoint|ckpt|global_step|step|iter|iteration)[-_=]?(\d+)$"
EXP_PATTERN = r"(?i)^exp\d*[-_](\d+)$"
SCORE_COLUMNS = {
    "step": pl.Int64,
    "benchmark": pl.String,
    "score": pl.Float64,
    "problems": pl.Int64,
    "k": pl.Int64,
}
PER_SAMPLE = ("samples", "qwen-math", "lm-eval", "lighteval-details", "inspect")


@dataclass
class Loaded:
    """What one input holds: `samples` (lazy; SAMPLE_COLUMNS, step null where the log has
    none; `level` too where the log gives one), `scores` (SCORE_COLUMNS: a score as a
    fraction, the problems it counts where known, k samples per problem where the log says),
    `tokens` (step, benchmark or null for every benchmark, tokens) or `models` (a scores
    table: one row per model). `notes` say what was recognised and what was left out, for
    `python -m helpers inspect`."""

    path: Path
    format: str
    samples: pl.LazyFrame | None = None
    scores: pl.DataFrame | None = None
    tokens: pl.DataFrame | None = None
    models: pl.DataFrame | None = None
    notes: list[str] = field(default_factory=list)
    order: list[str] = field(default_factory=list)  # benchmarks in the log's own order
    kind: str = "validation"  # or "training score": what `scores` measure
    # per-sample files that hold problem texts: (path, format, step, benchmark), read only
    # when asked (`problem_texts.read_texts`), so that plotting a run never pays for its text
    texts: list[tuple[Path, str, int | None, str]] = field(default_factory=list)
    run: str | None = None  # the run's name in a tracker's store (`load_runs`, PATH#RUN)
    unread: str | None = None  # why this run of a store of several could not be read


def step_from_path(
    parts: list[str], pattern: str | None = None, path: Path | None = None
) -> int | None:
    """The training step named by a path part (nearest first), e.g. `checkpoint-120` or
    `Exp2_120`; `pattern` (one group: the step) replaces the default patterns. A step past
    what a 64-bit integer holds is a DataError naming `path`."""
    patterns = [pattern] if pattern else [STEP_PATTERN, EXP_PATTERN]
    for part in parts:
        for p in patterns:
            m = re.search(p, part)
            if m:
                if not m.group(1).isdigit() or int(m.group(1)) >= 2**63:
                    raise DataError(
                        path or part,
                        "a step from 0 to 2**63 - 1 in the folder name",
                        column="path",
                        got=m.group(1),
                    )
                return int(m.group(1))
    return None


def check_step_pattern(pattern: str | None) -> None:
    """A --step-from-path pattern must compile and hold one group (the step)."""
    if pattern is None:
        return
    try:
        groups = re.compile(pattern).groups
    except re.error as e:
        raise DataError(
            "--step-from-path", "a regular expression", got=f"{pattern} ({e})"
        ) from None
    if groups != 1:
        raise DataError(
            "--step-from-path",
            "a regular expression with one group, the step (e.g. 'epoch(\\d+)')",
            got=pattern,
        )


def _samples_frame(frame: pl.DataFrame, step: int | None, benchmark: str) -> pl.DataFrame:
    """An evaluation's answers in SAMPLE_COLUMNS, keeping what else the reader found that a
    chart groups by (the difficulty `level` of Qwen2.5-Math outputs)."""
    return frame.select(
        pl.lit(step, pl.Int64).alias("step"),
        pl.lit(benchmark, pl.String).alias("benchmark"),
        "problem_id",
        "sample_id",
        "correct",
        pl.lit(None, pl.Int64).alias("response_tokens"),
        *[c for c in ("level",) if c in frame.columns],
    )


def _scores_frame(rows: pl.DataFrame, step: int | None) -> pl.DataFrame:
    return rows.select(
        step=pl.lit(step, pl.Int64),
        benchmark="benchmark",
        score="score",
        problems="problems",
        k=pl.lit(None, pl.Int64),
    )


def _verifiers_env(path: Path) -> str:
    """The environment a vf-eval run evaluated: `env` or `env_id` in metadata.json beside it,
    else its folder's name (`outputs/evals/<env>--<model>/<run id>/`)."""
    meta = path.parent / "metadata.json"
    try:
        doc = json.loads(meta.read_text(encoding="utf-8")) if meta.is_file() else {}
    except (OSError, ValueError):
        doc = {}
    env = doc.get("env") or doc.get("env_id") if isinstance(doc, dict) else None
    return str(env) if env else path.parent.parent.name.split("--")[0]


def _file(path: Path, kind: str, parts: list[str], options: dict) -> Loaded:
    """One file; `parts` are the path parts that may name its step and benchmark, nearest
    first (the file's name, then its folders up to the input given)."""
    step = step_from_path(parts[1:], options.get("step_pattern"), path)
    name = benchmark_sizes.in_path(parts)
    metric = options.get("mapping", {}).get("accuracy")
    if kind == "samples":
        return Loaded(path, kind, samples=scan_samples([path]))
    if kind in ("qwen-math", "lm-eval"):
        frame = evals.read_qwen_math(path) if kind == "qwen-math" else evals.read_lm_eval(path)
        benchmark = name or path.stem
        samples = _samples_frame(frame, step, benchmark).lazy()
        return Loaded(path, kind, samples=samples, texts=[(path, kind, step, benchmark)])
    if kind == "trl-completions":  # the step is in the data
        frame = answer_dumps.read_trl_completions(path, metric)
        samples = frame.select(
            "step", "benchmark", "problem_id", "sample_id", "correct",
            pl.lit(None, pl.Int64).alias("response_tokens"),
        )  # fmt: skip
        return Loaded(path, kind, samples=samples.lazy())
    if kind in answer_dumps.STEP_DUMPS:  # verl, SkyRL, NeMo-RL: a file per validation step
        reward = options.get("mapping", {}).get("reward")
        frame, said = answer_dumps.read_step_dump(path, kind, parts, step, metric, reward)
        pairs = frame.select("step", "benchmark").unique(maintain_order=True).rows()
        texts = [(path, kind, s, b) for s, b in pairs]
        return Loaded(path, kind, samples=frame.lazy(), notes=[said], texts=texts)
    if kind in answer_dumps.BESIDE_DUMPS:
        raise DataError(path, answer_dumps.BESIDE_DUMPS[kind], got=kind)
    if kind == "verifiers":
        frame = answer_dumps.read_verifiers(path, metric)
        benchmark = name or _verifiers_env(path)
        samples = _samples_frame(frame, step, benchmark).lazy()
        return Loaded(path, kind, samples=samples, texts=[(path, kind, step, benchmark)])
    if kind == "lighteval-details":
        frame = evals.read_lighteval_details(path, metric)
        task = re.sub(r"^details_", "", path.stem).split("|")
        benchmark = benchmark_sizes.canonical(task[1] if len(task) > 2 else name or path.stem)
        return Loaded(path, kind, samples=_samples_frame(frame, step, benchmark).lazy())
    if kind == "inspect":
        log = results.load_json(path)
        benchmark = benchmark_sizes.canonical(evals.inspect_task(log))
        if log.get("samples"):
            frame = evals.read_inspect_samples(path, log, metric)
            return Loaded(path, kind, samples=_samples_frame(frame, step, benchmark).lazy())
        score, n, scorer = evals.read_inspect_results(path, log)
        rows = pl.DataFrame({"benchmark": [benchmark], "score": [score], "problems": [n]})
        notes = [f"no samples in the log: the accuracy of scorer {scorer!r} over {n} samples"]
        return Loaded(path, kind, scores=_scores_frame(rows, step), notes=notes)
    if kind == "qwen-math-metrics":
        rows = results.read_qwen_math_metrics(path, name or path.stem)
        return Loaded(path, kind, scores=_scores_frame(rows, step), notes=["acc (percent)"])
    if kind in ("lm-eval-results", "lighteval-results"):
        read = (
            results.read_lm_eval_results
            if kind == "lm-eval-results"
            else results.read_lighteval_results
        )
        rows = read(path, metric)
        notes = [f"{r['benchmark']}: {r['metric']}" for r in rows.iter_rows(named=True)]
        return Loaded(path, kind, scores=_scores_frame(rows, step), notes=notes)
    if kind in ("wandb", "metrics-csv", "metrics-jsonl", "trl", "tensorboard"):
        return _metric_log(path, kind, options)
    if kind in framework_logs.KINDS:  # verl's and prime-rl's own logs, read as rows
        rows, said = framework_logs.read(path, kind)
        loaded = _metric_log(path, kind, options, rows)
        loaded.notes += said
        return loaded
    if kind == "scores":
        return Loaded(path, kind, models=read_scores(path, benchmarks=options.get("benchmarks")))
    raise DataError(path, "a run's log", got=kind)


def _metric_log(path: Path, kind: str, options: dict, rows: pl.DataFrame | None = None) -> Loaded:
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
    notes += log.roles()
    if log.k:
        ks = sorted(set(log.k.values()))
        notes.append(f"mean@k with k = {', '.join(map(str, ks))} samples per problem")
    for reason, columns in log.ignored.items():
        notes.append(f"ignored {len(columns)} columns ({reason}): {', '.join(columns[:4])}")
    tokens = log.token_lengths()
    return Loaded(
        path,
        kind,
        scores=scores if scores.height else None,
        tokens=tokens if tokens.height else None,
        notes=notes,
        order=list(log.accuracy),
        kind=log.kind,
    )


def _folder(path: Path, options: dict) -> Loaded:
    """Every log in a folder: a hive-partitioned per-sample table, or one file per checkpoint
    (and benchmark), the step read from the folder names."""
    files, links = files_in(path, (".parquet", ".json", ".jsonl"))
    if files and all(p.suffix == ".parquet" for p in files):
        names = scan_table(path).collect_schema().names()  # hive partitions included
        if set(SAMPLE_COLUMNS) <= set(names):
            return Loaded(path, "samples", samples=scan_samples([path]), notes=links)
    kinds = {f: detect(f, options.get("mapping")) for f in files}
    beside = [f for f, k in kinds.items() if k in answer_dumps.BESIDE_DUMPS]
    if beside and len(beside) < len(kinds):  # a dump's averages, training rollouts: not read
        kinds = {f: k for f, k in kinds.items() if f not in beside}
        files = [f for f in files if f not in beside]
        names = ", ".join(str(f.relative_to(path)) for f in beside[:2])
        links = [*links, f"left out {len(beside)} file(s) beside the dumps (not read): {names}"]
    bad = next((f for f, k in kinds.items() if k in ("samples", "scores")), None)
    if bad is not None:
        raise DataError(bad, "one checkpoint's evaluation file in a folder of them", got=kinds[bad])
    # where per-sample files are there, the harness's summaries beside them are not needed
    summaries = [f for f, k in kinds.items() if k == "qwen-math-metrics"]
    if summaries and any(k in PER_SAMPLE for k in kinds.values()):
        kinds = {f: k for f, k in kinds.items() if k != "qwen-math-metrics"}
    loaded = [
        _file(f, k, [f.name, *reversed(f.relative_to(path).parent.parts)], options)
        for f, k in kinds.items()
    ]
    if not loaded:
        raise DataError(path, "log files (.parquet, .json, .jsonl) in the folder; found none")
    run = combine(path, loaded)
    run.notes += links
    if len(kinds) < len(files):
        run.notes.append(
            f"{len(summaries)} *_metrics.json summaries left out: per-sample files read"
        )
    return run


def combine(path: Path, loaded: list[Loaded]) -> Loaded:
    """Several logs of one run (one per checkpoint or benchmark) as one. The same benchmark
    evaluated twice at one step is averaged (for scores) and said so."""
    kinds = sorted({x.format for x in loaded})
    per_sample = [x for x in loaded if x.samples is not None]
    scored = [x for x in loaded if x.scores is not None]
    if per_sample and scored:
        raise DataError(path, "logs of one kind (per-sample or scores) in the folder", got=kinds)
    notes = [f"{len(loaded)} files: {', '.join(kinds)}"]
    if per_sample:
        samples = pl.concat([x.samples for x in per_sample])
        texts = [t for x in per_sample for t in x.texts]
        return Loaded(path, "folder", samples=samples, notes=notes, texts=texts)
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
    return Loaded(path, "folder", scores=scores, notes=notes)


# ---- trackers' stores: one run or several ------------------------------------------------------

STORES = ("mlflow", "mlflow-sqlite", "trackio", "wandb-run")  # and a folder of event files
_NO_ROWS = pl.DataFrame(schema={"step": pl.Int64, "__line": pl.Int64})
_memo: dict | None = None


@dataclass
class _Stored:
    """One run in a tracker's store: its name, what else `PATH#RUN` may call it (its id,
    its folder), and its rows and notes, read when first asked."""

    name: str
    aliases: tuple[str, ...]
    read: Callable[[], tuple[pl.DataFrame, list[str]]]
    _rows: tuple[pl.DataFrame, list[str]] | None = None

    def rows(self) -> tuple[pl.DataFrame, list[str]]:
        if self._rows is None:
            self._rows = self.read()
        return self._rows


@contextmanager
def remembering() -> Iterator[None]:
    """Within this block each store is read once, however many of its runs are loaded (a
    comparison loads a store's runs one by one as PATH#RUN); outside it nothing is kept, so
    a run that goes on logging is read anew."""
    global _memo
    outer = _memo
    _memo = {} if outer is None else outer
    try:
        yield
    finally:
        _memo = outer


def _tensorboard_run(folder: Path, files: list[Path]) -> Callable:
    return lambda: (tfevents.wide(folder, files), [])


def _stored(path: Path, kind: str) -> list[_Stored]:
    """The runs in a tracker's store that logged anything, each with a name unique in it (a
    name two runs share gets the run's id)."""
    key = (str(path.resolve()), kind)
    if _memo is not None and key in _memo:
        return _memo[key]
    found: list[tuple[str, tuple[str, ...], Callable]] = []
    if kind in ("mlflow", "mlflow-sqlite"):
        store = mlflow_store if kind == "mlflow" else mlflow_sqlite
        for root, table, said in store.tables(path):
            found.append((root.name, (root.run_id,), lambda t=table, s=said: (t, s)))
    elif kind == "trackio":
        for name, run_id, table, said in trackio_store.tables(path):
            found.append((name, (run_id,), lambda t=table, s=said: (t, s)))
    elif kind == "wandb-run":
        for name, run_id, files in wandb_store.runs(path):
            folders = tuple(dict.fromkeys(f.parent.name for f in files))
            read = lambda f=files: wandb_store.wide(path, f)  # noqa: E731
            found.append((name or folders[-1], (run_id, *folders), read))
    else:  # a folder of TensorBoard event files: a run per folder that holds scalars
        for folder, files in tfevents.runs(path):
            table = tfevents.wide(folder, files)
            if table.height:
                name = folder.relative_to(path).as_posix() if folder != path else folder.name
                found.append((name, (), lambda t=table: (t, [])))
    counts: dict[str, int] = {}
    for name, _, _ in found:
        counts[name] = counts.get(name, 0) + 1
    stored = [
        _Stored(
            name if counts[name] == 1 or not aliases else f"{name} ({aliases[0][:8]})",
            (name, *aliases),
            read,
        )
        for name, aliases, read in found
    ]
    if _memo is not None:
        _memo[key] = stored
    return stored


def _run_named(path: Path) -> tuple[Path, str | None]:
    """`PATH#RUN`: one run of a store of several, by its name or id. A path that exists as
    given is never split."""
    text = str(path)
    if "#" not in text or path.exists():
        return path, None
    store, _, run = text.rpartition("#")
    return Path(store), run


def _pick(path: Path, stored: list[_Stored], chosen: str) -> _Stored:
    exact = [s for s in stored if s.name == chosen]
    picked = exact or [s for s in stored if chosen in s.aliases]
    if len(picked) == 1:
        return picked[0]
    names = [s.name for s in stored]
    said = "several runs have that name; give one of" if picked else "a run named so among"
    raise DataError(
        path,
        f"the run {chosen!r} of PATH#RUN; {said} {', '.join(names[:6])}"
        + (" ..." if len(names) > 6 else ""),
    )


def _from_store(
    path: Path, kind: str, options: dict, chosen: str | None, every: bool
) -> list[Loaded]:
    """The runs of a tracker's store: the one `chosen` (PATH#RUN), else every run (`every`),
    else its one run (several are an error naming them)."""
    stored = _stored(path, kind)
    if chosen is not None:
        stored = [_pick(path, stored, chosen)]
    elif len(stored) > 1 and not every:
        names = [s.name for s in stored]
        raise DataError(
            path,
            f"one run; the store holds {len(stored)} runs ({', '.join(names[:4])}"
            f"{' ...' if len(names) > 4 else ''}): give one as PATH#RUN (plot, compare and "
            "inspect take them all)",
        )
    if not stored and kind in ("mlflow-sqlite", "trackio"):
        raise DataError(path, "a run that logged metrics; the database holds none")
    runs: list[Loaded] = []
    errors: list[DataError] = []
    for s in stored or [_Stored("", (), lambda: (_NO_ROWS, []))]:
        rows, said = s.rows()
        try:
            loaded = _metric_log(path, kind, options, rows)
        except DataError as e:
            if len(stored) < 2:
                raise
            errors.append(e)
            loaded = Loaded(path, kind, unread=str(e))
        loaded.notes[:0] = [FORMATS[kind], *said]
        loaded.run = s.name or None
        runs.append(loaded)
    if errors and len(errors) == len(runs):
        raise errors[0]
    if kind == "tensorboard":
        others = files_in(path, (".parquet", ".json", ".jsonl", ".csv"))[0]
        if others:
            for loaded in runs:
                loaded.notes.append(
                    f"left out {len(others)} other log file(s) in the folder (read them on "
                    f"their own): {', '.join(str(f.relative_to(path)) for f in others[:2])}"
                    + (" ..." if len(others) > 2 else "")
                )
    return runs


def store_runs(path: str | Path, **options) -> list[Loaded]:
    """The runs of an input that is a tracker's store of several (a W&B folder, a
    TensorBoard log dir, an MLflow store, a trackio project), as `load_runs` reads them;
    for any other input (one run, a log file, `PATH#RUN`) an empty list, read no further
    than its format. Within `remembering()` the store is read once for this and its runs."""
    path = Path(path)
    if "#" in str(path) and not path.exists():
        return []
    with reading(path):
        kind = detect(path, dict(options.get("mapping") or {}))
    if kind not in STORES and not (kind == "tensorboard" and path.is_dir()):
        return []
    runs = load_runs(path, **options)
    return runs if len(runs) > 1 else []


def _load(path: str | Path, options: dict, every: bool) -> list[Loaded]:
    path, chosen = _run_named(Path(path))
    check_step_pattern(options["step_pattern"])
    with reading(path):
        kind = detect(path, options["mapping"])
        if kind in STORES or (kind == "tensorboard" and path.is_dir()):
            found = _from_store(path, kind, options, chosen, every)
        elif chosen is not None:
            raise DataError(path, f"a tracker's store of runs to pick {chosen!r} from", got=kind)
        elif kind == "folder":
            found = [_folder(path, options)]
        else:
            loaded = _file(path, kind, [path.name, path.parent.name], options)
            loaded.notes.insert(0, FORMATS[kind])
            found = [loaded]
    for loaded in found:
        if loaded.scores is None:
            continue
        # sizes: the user's, else the log's, else the known ones
        names = loaded.scores["benchmark"]
        given = [benchmark_sizes.override(b, options["problems"]) for b in names]
        loaded.scores = loaded.scores.with_columns(
            problems=pl.coalesce(
                pl.Series(given, dtype=pl.Int64),
                "problems",
                pl.Series([benchmark_sizes.size(b) for b in names], dtype=pl.Int64),
            )
        )
    return found


def _options(step_pattern, mapping, problems, benchmarks) -> dict:
    return {
        "step_pattern": step_pattern,
        "mapping": dict(mapping or {}),
        "problems": dict(problems or {}),
        "benchmarks": benchmarks,
    }


def load(
    path: str | Path,
    *,
    step_pattern: str | None = None,
    mapping: Mapping[str, str] | None = None,
    problems: Mapping[str, int] | None = None,
    benchmarks=None,
) -> Loaded:
    """Read one input (file or folder) into a `Loaded` run. `mapping` names columns no
    convention knows (see `readers.metrics`); `problems` gives benchmark sizes. A tracker's
    store of several runs is an error naming them: `PATH#RUN` reads one, `load_runs` all."""
    options = _options(step_pattern, mapping, problems, benchmarks)
    (loaded,) = _load(path, options, every=False)
    return loaded


def load_runs(
    path: str | Path,
    *,
    step_pattern: str | None = None,
    mapping: Mapping[str, str] | None = None,
    problems: Mapping[str, int] | None = None,
    benchmarks=None,
) -> list[Loaded]:
    """Every run an input holds: one for a log or one run's files; for a tracker's store of
    several (a `wandb/` folder, a TensorBoard log dir with a folder per run, an MLflow store,
    a trackio project) one per run, named in `Loaded.run`. A run of several that cannot be
    read (no metric recognised) is kept with `unread` saying why, unless none can be."""
    options = _options(step_pattern, mapping, problems, benchmarks)
    return _load(path, options, every=True)


__all__ = [
    "PER_SAMPLE",
    "SAMPLE_COLUMNS",
    "SCORE_COLUMNS",
    "Loaded",
    "load",
    "load_runs",
    "remembering",
    "store_runs",
    "step_from_path",
]
