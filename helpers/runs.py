"""Bring your own run: read training and evaluation logs into the tidy frames the charts take.

Formats (see `detect`):
- ``wandb``: a Weights & Biases history export (CSV, one row per step, wide metric columns).
- ``qwen-math``: per-sample JSONL from the Qwen2.5-Math evaluation harness (`idx`, `level`,
  `score: list[bool]`, `code: list[str]`).
- ``lm-eval``: lm-evaluation-harness `samples_*.jsonl` (`doc_id`, `resps`, a metric per line).
- ``samples``: a tidy per-sample table, CSV or Parquet, one file or a hive-partitioned folder,
  with columns step, benchmark, problem_id, sample_id, correct, response_tokens.
- ``scores``: a table with one row per model, a model-size column and accuracy columns.

Large inputs stay lazy (polars scan + streaming engine) and are aggregated before anything
reaches a chart.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from pathlib import Path

import polars as pl

from . import analysis, charts, stats
from .errors import DataError

VAL_PREFIX = "val/test_score/"
LENGTH_COLUMN = "response_length/mean"
SAMPLE_COLUMNS = {
    "step": pl.Int64,
    "benchmark": pl.String,
    "problem_id": pl.String,
    "sample_id": pl.Int64,
    "correct": pl.Boolean,
    "response_tokens": pl.Int64,
}
TOKEN_BIN = 16  # response-length percentiles are exact to this many tokens (histogram based)


# ---- format detection ---------------------------------------------------------------------------


def _first_json(path: Path) -> dict:
    for _, record in _scan_jsonl_lines(path):
        return record
    raise DataError(path, "at least one JSON line; the file is empty", line=1)


def _json_line(path: Path, number: int, raw: bytes) -> dict:
    try:
        value = json.loads(raw)
    except (json.JSONDecodeError, UnicodeDecodeError) as e:
        column = getattr(e, "colno", None)
        raise DataError(
            path,
            "one JSON object per line",
            line=number,
            column=f"character {column}" if column else None,
            got=raw[:60].decode("utf-8", "replace"),
        ) from None
    if not isinstance(value, dict):
        raise DataError(path, "a JSON object on every line", line=number, got=type(value).__name__)
    return value


def _csv_header(path: Path) -> list[str]:
    try:
        return pl.read_csv(path, n_rows=0, infer_schema=False).columns
    except pl.exceptions.NoDataError:
        raise DataError(path, "a CSV header row; the file is empty", line=1) from None


def detect(path: str | Path) -> str:
    """Which of the supported formats a file (or hive-partitioned folder) is in."""
    path = Path(path)
    if not path.exists():
        raise DataError(path, "an existing file or folder (not found)")
    if path.is_dir() or path.suffix == ".parquet":
        return "samples"
    if path.suffix in (".jsonl", ".json"):
        keys = set(_first_json(path))
        if {"idx", "score", "code"} <= keys:
            return "qwen-math"
        if {"doc_id", "resps"} <= keys or {"doc_id", "filtered_resps"} <= keys:
            return "lm-eval"
        raise DataError(
            path,
            "Qwen2.5-Math (idx, score, code) or lm-eval (doc_id, resps) keys",
            line=1,
            got=sorted(keys)[:8],
        )
    if path.suffix == ".csv":
        header = _csv_header(path)
        if "_step" in header:
            return "wandb"
        if set(SAMPLE_COLUMNS) <= set(header):
            return "samples"
        if any("size" in c.lower() for c in header):
            return "scores"
        raise DataError(
            path,
            "a W&B export (_step column), a per-sample table "
            f"({', '.join(SAMPLE_COLUMNS)}) or a scores table (a size column)",
            line=1,
            got=header[:8],
        )
    raise DataError(
        path, "a .csv, .jsonl or .parquet file, or a folder of Parquet files", got=path.suffix
    )


# ---- W&B history exports ---------------------------------------------------------------


def _numeric(path: Path, frame: pl.DataFrame, columns: Sequence[str]) -> pl.DataFrame:
    """Cast columns to Float64; a non-numeric cell raises DataError with its line and column."""
    out = {}
    for c in columns:
        cast = frame[c].cast(pl.Float64, strict=False)
        bad = frame[c].is_not_null() & cast.is_null()
        if bad.any():
            row = int(bad.arg_true()[0])
            raise DataError(path, "a number", line=row + 2, column=c, got=frame[c][row])
        out[c] = cast
    return frame.with_columns(**out)


def _wandb_frame(path: Path, wanted: Iterable[str]) -> pl.DataFrame:
    header = _csv_header(path)
    if "_step" not in header:
        raise DataError(path, "a '_step' column (a W&B history export)", line=1, column="_step")
    columns = ["_step", *[c for c in header if c in set(wanted)]]
    frame = pl.read_csv(path, columns=columns, infer_schema=False)
    frame = _numeric(path, frame, columns)
    if frame["_step"].is_null().any():
        row = int(frame["_step"].is_null().arg_true()[0])
        raise DataError(path, "a step number on every row", line=row + 2, column="_step", got="")
    dup = frame["_step"].is_duplicated()
    if dup.any():
        rows = dup.arg_true().to_list()
        raise DataError(
            path,
            f"each step once (also on line {rows[0] + 2})",
            line=rows[1] + 2,
            column="_step",
            got=frame["_step"][rows[1]],
        )
    return frame.with_columns(pl.col("_step").cast(pl.Int64)).rename({"_step": "step"})


def wandb_benchmarks(path: str | Path, prefix: str = VAL_PREFIX) -> list[str]:
    """Benchmark names in an export: the validation columns without their prefix."""
    return [c.removeprefix(prefix) for c in _csv_header(Path(path)) if c.startswith(prefix)]


def read_wandb_scores(
    path: str | Path, *, prefix: str = VAL_PREFIX, benchmarks: Sequence[str] | None = None
) -> pl.DataFrame:
    """Validation scores as step, benchmark, score (one row per logged value)."""
    path = Path(path)
    names = wandb_benchmarks(path, prefix)
    if benchmarks is not None:
        unknown = sorted(set(benchmarks) - set(names))
        if unknown:
            raise DataError(path, f"benchmarks among {names}", line=1, column=prefix + unknown[0])
        names = [n for n in names if n in set(benchmarks)]
    if not names:
        raise DataError(path, f"validation columns named '{prefix}<benchmark>'", line=1)
    frame = _wandb_frame(path, [prefix + n for n in names])
    return (
        frame.unpivot(index="step", variable_name="benchmark", value_name="score")
        .with_columns(pl.col("benchmark").str.strip_prefix(prefix))
        .drop_nulls("score")
        .sort("benchmark", "step", maintain_order=True)
    )


def read_wandb_metric(path: str | Path, column: str = LENGTH_COLUMN) -> pl.DataFrame:
    """One training metric as step, value."""
    path = Path(path)
    if column not in _csv_header(path):
        raise DataError(path, f"a '{column}' column", line=1, column=column)
    return _wandb_frame(path, [column]).rename({column: "value"}).drop_nulls("value").sort("step")


def join_nearest_earlier(
    left: pl.DataFrame, right: pl.DataFrame, on: str = "step", value: str = "value"
) -> pl.DataFrame:
    """Attach to each row of `left` the `right` value logged at the nearest step at or before it
    (validation and training metrics are logged at different steps)."""
    return left.sort(on).join_asof(right.select(on, value).sort(on), on=on, strategy="backward")


def wandb_curves(
    val: str | Path,
    train: str | Path | None = None,
    *,
    benchmarks: Sequence[str] | None = None,
    length_column: str = LENGTH_COLUMN,
) -> pl.DataFrame:
    """Curves for `charts.training_grid` from a W&B export: each benchmark's validation score,
    and (from `train`, or from `val` if it has the column) the mean response length, matched to
    the validation steps by nearest earlier step. Scores carry no sample counts, so no band."""
    scores = read_wandb_scores(val, benchmarks=benchmarks)
    source = train if train is not None else val
    if length_column in _csv_header(Path(source)):
        length = read_wandb_metric(source, length_column).rename({"value": "tokens"})
        scores = join_nearest_earlier(scores, length, value="tokens")
    return analysis.curves(
        scores,
        iteration="step",
        accuracy="score",
        tokens="tokens" if "tokens" in scores.columns else None,
    )


# ---- per-sample evaluation outputs ------------------------------------------------------------


def _scan_jsonl_lines(path: Path) -> Iterable[tuple[int, dict]]:
    with path.open("rb") as handle:
        for number, raw in enumerate(handle, 1):
            if raw.strip():
                yield number, _json_line(path, number, raw)


def read_qwen_math(path: str | Path) -> pl.DataFrame:
    """Qwen2.5-Math harness output as one row per sample: problem_id, level, sample_id,
    correct, response_chars (the harness stores no token counts)."""
    path = Path(path)
    rows = []
    for number, record in _scan_jsonl_lines(path):
        for key in ("idx", "score", "code"):
            if key not in record:
                raise DataError(path, f"a '{key}' key on every line", line=number, column=key)
        scores, codes = record["score"], record["code"]
        if not isinstance(scores, list) or not all(isinstance(s, bool) for s in scores):
            raise DataError(
                path, "a list of true/false values", line=number, column="score", got=scores
            )
        if not isinstance(codes, list) or len(codes) != len(scores):
            raise DataError(
                path,
                f"a list of {len(scores)} responses, one per score",
                line=number,
                column="code",
                got=type(codes).__name__,
            )
        level = record.get("level")
        for i, (ok, text) in enumerate(zip(scores, codes, strict=True)):
            rows.append(
                (str(record["idx"]), level, i, ok, len(text) if isinstance(text, str) else None)
            )
    if not rows:
        raise DataError(path, "at least one JSON line; the file is empty", line=1)
    return pl.DataFrame(
        rows,
        schema={
            "problem_id": pl.String,
            "level": pl.Int64,
            "sample_id": pl.Int64,
            "correct": pl.Boolean,
            "response_chars": pl.Int64,
        },
        orient="row",
    )


def read_lm_eval(path: str | Path, metric: str | None = None) -> pl.DataFrame:
    """lm-evaluation-harness samples file as one row per document: problem_id, sample_id,
    correct (the metric's value above 0.5), score (the metric's value)."""
    path = Path(path)
    rows = []
    for number, record in _scan_jsonl_lines(path):
        name = metric or next(iter(record.get("metrics", [])), None)
        if name is None or name not in record:
            raise DataError(
                path,
                "a metric value on every line (e.g. exact_match or acc)",
                line=number,
                column=name or "metrics",
            )
        try:
            value = float(record[name])
        except (TypeError, ValueError):
            raise DataError(path, "a number", line=number, column=name, got=record[name]) from None
        rows.append((str(record.get("doc_id")), 0, value > 0.5, value))
    return pl.DataFrame(
        rows,
        schema={
            "problem_id": pl.String,
            "sample_id": pl.Int64,
            "correct": pl.Boolean,
            "score": pl.Float64,
        },
        orient="row",
    )


def accuracy_table(samples: pl.DataFrame, by: Sequence[str] = ()) -> pl.DataFrame:
    """Accuracy per group (and overall): problems, samples per problem, mean accuracy over
    problems, a Wilson 95% interval counting problems (samples of one problem are not
    independent), and unbiased pass@k for k = samples per problem where several exist."""
    per_problem = samples.group_by([*by, "problem_id"], maintain_order=True).agg(
        n=pl.len(), c=pl.col("correct").sum()
    )
    grouped = per_problem.group_by(list(by), maintain_order=True) if by else None
    aggs = [
        pl.len().alias("problems"),
        pl.col("n").min().alias("samples_per_problem"),
        (pl.col("c") / pl.col("n")).mean().alias("accuracy"),
    ]
    table = grouped.agg(aggs) if grouped is not None else per_problem.select(aggs)
    bounds = [
        stats.wilson_interval(a * p, p)
        for a, p in zip(table["accuracy"], table["problems"], strict=True)
    ]
    table = table.with_columns(
        lo=pl.Series([b[0] for b in bounds]), hi=pl.Series([b[1] for b in bounds])
    )
    k = per_problem["n"].min()
    if k and k > 1:
        passk = per_problem.with_columns(pass_k=_pass_at_k_expr(pl.col("n"), pl.col("c"), k))
        pk = (
            passk.group_by(list(by), maintain_order=True).agg(pl.col("pass_k").mean())
            if by
            else passk.select(pl.col("pass_k").mean())
        )
        table = table.join(pk, on=list(by)) if by else table.with_columns(pk["pass_k"])
        table = table.rename({"pass_k": f"pass@{k}"})
    return table.sort(list(by)) if by else table


# ---- tidy per-sample tables, at any size -----------------------------------------------


def scan_samples(paths: Sequence[str | Path], *, progress=None) -> pl.LazyFrame:
    """Lazy scan of one or many tidy per-sample tables (CSV or Parquet files, or hive-partitioned
    folders), checked for the required columns. `progress(i, n, path)` is called per file."""
    frames = []
    for i, raw in enumerate(paths, 1):
        path = Path(raw)
        if progress is not None:
            progress(i, len(paths), path)
        if path.is_dir():
            lf = pl.scan_parquet(path / "**" / "*.parquet", hive_partitioning=True)
        elif path.suffix == ".parquet":
            lf = pl.scan_parquet(path)
        elif path.suffix == ".csv":
            lf = pl.scan_csv(path, schema_overrides={"problem_id": pl.String})
        else:
            raise DataError(path, "a .csv or .parquet per-sample table, or a folder of Parquet")
        names = lf.collect_schema().names()
        missing = [c for c in SAMPLE_COLUMNS if c not in names]
        if missing:
            raise DataError(path, f"the columns {list(SAMPLE_COLUMNS)}", line=1, column=missing[0])
        # problem ids keep their own type (casting 50M ids to text costs more than the query)
        frames.append(
            lf.select(
                pl.col(c) if c in ("problem_id", "benchmark") else pl.col(c).cast(t)
                for c, t in SAMPLE_COLUMNS.items()
            )
        )
    if len(frames) == 1:  # keep the file's own types (a categorical benchmark stays cheap)
        return frames[0]
    return pl.concat(
        [
            f.with_columns(
                pl.col("benchmark").cast(pl.String), pl.col("problem_id").cast(pl.String)
            )
            for f in frames
        ]
    )


def aggregate_samples(
    samples: pl.LazyFrame,
    *,
    percentiles: Sequence[float] = (0.5, 0.9),
    bin_tokens: int = TOKEN_BIN,
    rows_per_pass: int = 1_000_000,
) -> pl.DataFrame:
    """Per step and benchmark: problems, samples, accuracy (mean over problems of the share of
    correct samples) with a Wilson 95% interval counting problems, unbiased pass@k in `pass_k`
    (k in column `k`: the fewest samples any problem has in that step and benchmark; null where
    k is 1), and mean and percentile response length.

    Built for logs larger than memory. Steps are taken in consecutive ranges of about
    `rows_per_pass` rows (groups never span steps), so memory is bounded by one range's
    per-problem table, whatever the log's size; logs written in step order (as trainers write
    them) let each pass read only its own Parquet row groups. Each pass streams the per-problem
    group-by into the per-benchmark one, and a histogram of response lengths in
    `bin_tokens`-token bins from which percentiles are read (each reported as its bin's upper
    edge, so exact to `bin_tokens`); an exact per-group quantile would hold every length.
    """
    keys = ["step", "benchmark"]
    counts = samples.group_by("step").agg(rows=pl.len()).collect(engine="streaming").sort("step")
    ranges, start, filled = [], None, 0
    for step, rows in counts.iter_rows():
        if start is None:
            start = step
        filled += rows
        if filled >= rows_per_pass:
            ranges.append((start, step))
            start, filled = None, 0
    if start is not None:
        ranges.append((start, counts["step"][-1]))
    summary = pl.concat(
        [
            _aggregate_pass(
                samples.filter(pl.col("step").is_between(lo, hi)), keys, bin_tokens, percentiles
            )
            for lo, hi in ranges
        ]
    )
    summary = summary.with_columns(
        pass_k=pl.when(pl.col("k") > 1).then(pl.col("any_correct")).otherwise(None)
    )
    uneven = summary.filter(pl.col("k") > 1, pl.col("k") != pl.col("k_max"))
    if uneven.height:
        per_problem = samples.group_by([*keys, "problem_id"]).agg(
            n=pl.len(), c=pl.col("correct").sum().cast(pl.Int64)
        )
        summary = _pass_at_k_uneven(per_problem, summary, uneven, keys)
    bounds = [
        stats.wilson_interval(a * p, p)
        for a, p in zip(summary["accuracy"], summary["problems"], strict=True)
    ]
    return (
        summary.with_columns(
            pl.col("benchmark").cast(pl.String),
            lo=pl.Series([b[0] for b in bounds], dtype=pl.Float64),
            hi=pl.Series([b[1] for b in bounds], dtype=pl.Float64),
        )
        .drop("k_max", "any_correct")
        .sort(keys)
    )


def _aggregate_pass(
    samples: pl.LazyFrame, keys: list[str], bin_tokens: int, percentiles: Sequence[float]
) -> pl.DataFrame:
    """One streaming pass over a range of steps: the per-benchmark summary, with response-length
    percentiles read from a histogram."""
    per_problem = samples.group_by([*keys, "problem_id"]).agg(
        n=pl.len(), c=pl.col("correct").sum().cast(pl.Int64), tokens=pl.col("response_tokens").sum()
    )
    summary_lf = per_problem.group_by(keys).agg(
        problems=pl.len(),
        samples=pl.col("n").sum(),
        k=pl.col("n").min(),
        k_max=pl.col("n").max(),
        accuracy=(pl.col("c") / pl.col("n")).mean(),
        # with k = n samples for every problem, unbiased pass@k is the share with any correct
        any_correct=(pl.col("c") > 0).mean(),
        mean_tokens=pl.col("tokens").sum() / pl.col("n").sum(),
    )
    hist_lf = samples.group_by([*keys, (pl.col("response_tokens") // bin_tokens).alias("bin")]).agg(
        count=pl.len()
    )
    summary, hist = pl.collect_all([summary_lf, hist_lf], engine="streaming")
    hist = hist.sort([*keys, "bin"]).with_columns(
        cum=pl.col("count").cum_sum().over(keys), total=pl.col("count").sum().over(keys)
    )
    for q in percentiles:
        name = f"p{round(q * 100)}_tokens"
        first = (
            hist.filter(pl.col("cum") >= q * pl.col("total"))
            .group_by(keys)
            .agg(pl.col("bin").min())
            .select(*keys, ((pl.col("bin") + 1) * bin_tokens).alias(name))
        )
        summary = summary.join(first, on=keys, how="left")
    return summary


def _pass_at_k_uneven(
    per_problem: pl.LazyFrame, summary: pl.DataFrame, uneven: pl.DataFrame, keys: list[str]
) -> pl.DataFrame:
    """pass@k for groups whose problems have different sample counts (k = the fewest)."""
    ks = sorted(set(uneven["k"].to_list()))
    rows = per_problem.join(uneven.lazy().select(*keys, "k"), on=keys, how="semi").join(
        uneven.lazy().select(*keys, "k"), on=keys
    )
    value = pl.lit(None, pl.Float64)
    for kv in ks:
        value = (
            pl.when(pl.col("k") == kv)
            .then(_pass_at_k_expr(pl.col("n"), pl.col("c"), kv))
            .otherwise(value)
        )
    fixed = rows.group_by(keys).agg(value.mean().alias("fixed")).collect(engine="streaming")
    return (
        summary.join(fixed, on=keys, how="left")
        .with_columns(pass_k=pl.coalesce("fixed", "pass_k"))
        .drop("fixed")
    )


def _pass_at_k_expr(n: pl.Expr, c: pl.Expr, k: int) -> pl.Expr:
    """Unbiased pass@k, 1 - C(n-c, k) / C(n, k), as a product (no large binomials)."""
    # prod_{i=0}^{k-1} (n - c - i) / (n - i); zero once n - c < k
    term = pl.lit(1.0)
    for i in range(k):
        term = term * ((n - c - i).clip(lower_bound=0) / (n - i))
    return 1 - term


def sample_curves(summary: pl.DataFrame) -> pl.DataFrame:
    """Curves for `charts.training_grid` from `aggregate_samples`."""
    return analysis.curves(
        summary, iteration="step", accuracy="accuracy", tokens="mean_tokens", lo="lo", hi="hi"
    )


# ---- scores tables ------------------------------------------------------------------------------


def read_scores(
    path: str | Path,
    *,
    size: str | None = None,
    family: str | None = None,
    model: str | None = None,
    benchmarks: Sequence[str] | None = None,
) -> pl.DataFrame:
    """A one-row-per-model table as long rows: model, family, size_b, benchmark, accuracy.

    Columns are found by name where not given: the first with 'size' in its name, one with
    'family', one named 'model' (else the first column). Benchmarks default to the numeric
    columns whose values all lie between 0 and 1 (accuracies as fractions)."""
    path = Path(path)
    header = _csv_header(path)
    size = size or next((c for c in header if "size" in c.lower()), None)
    if size is None:
        raise DataError(path, "a model-size column", line=1, column="size")
    family = family or next((c for c in header if "family" in c.lower()), None)
    model = model or next((c for c in header if c.lower() == "model"), header[0])
    frame = pl.read_csv(path, infer_schema=False)
    if benchmarks is None:
        benchmarks = []
        for c in header:
            if c in {size, family, model}:
                continue
            values = frame[c].cast(pl.Float64, strict=False)
            numeric = values.is_not_null().sum() == frame[c].is_not_null().sum() > 0
            if numeric and values.min() >= 0 and values.max() <= 1:
                benchmarks.append(c)
    missing = [b for b in benchmarks if b not in header]
    if missing:
        raise DataError(
            path, f"the benchmark columns {list(benchmarks)}", line=1, column=missing[0]
        )
    scores = list(benchmarks)
    frame = _numeric(path, frame, [size, *scores])
    return (
        frame.unpivot(
            index=[c for c in (model, family, size) if c],
            on=scores,
            variable_name="benchmark",
            value_name="accuracy",
        )
        .rename({model: "model", size: "size_b", **({family: "family"} if family else {})})
        .drop_nulls("accuracy")
    )


def chart_for(
    files: Sequence[str | Path],
    *,
    benchmarks: Sequence[str] | None = None,
    length_column: str = LENGTH_COLUMN,
    columns: int = 4,
    title: str | None = None,
    progress=None,
) -> tuple[object, pl.DataFrame]:
    """Recognise the inputs' format and build the matching chart and the table behind it:
    the training grid (W&B export, tidy per-sample tables), accuracy by level (per-sample
    JSONL), or accuracy against model size (scores table)."""
    files = [Path(f) for f in files]
    progress = progress or (lambda i, n, path: None)
    kinds = {f: detect(f) for f in files}
    found = set(kinds.values())
    if len(found) > 1:
        detail = ", ".join(f"{f.name}: {k}" for f, k in kinds.items())
        raise DataError(files[0], f"files of one format; got {detail}")
    kind = found.pop()
    if kind == "wandb":
        val = [f for f in files if wandb_benchmarks(f)]
        train = [f for f in files if f not in val]
        if len(val) != 1 or len(train) > 1:
            raise DataError(
                files[0],
                "one export with validation columns and at most one training-metrics export",
            )
        curves = wandb_curves(
            val[0],
            train[0] if train else None,
            benchmarks=benchmarks,
            length_column=length_column,
        )
        chart = charts.training_grid(
            curves,
            title=title or f"{val[0].stem}: validation score and response length",
            subtitle="W&B export; response length matched to the nearest earlier step",
            x_title="Step",
            columns=columns,
        )
        return chart, curves
    if kind in ("qwen-math", "lm-eval"):
        read = read_qwen_math if kind == "qwen-math" else read_lm_eval
        for i, f in enumerate(files, 1):
            progress(i, len(files), f)
        frames = [read(f).with_columns(file=pl.lit(f.stem)) for f in files]
        samples = pl.concat(frames, how="diagonal")
        group = "level" if len(files) == 1 and "level" in samples.columns else "file"
        table = accuracy_table(samples, [group])
        overall = accuracy_table(samples) if len(files) == 1 else None
        chart = charts.accuracy_by_group(
            table, group, title=title or f"Accuracy by {group} ({files[0].stem})", overall=overall
        )
        return chart, table
    if kind == "samples":
        lf = scan_samples(files, progress=progress)
        if benchmarks:
            lf = lf.filter(pl.col("benchmark").is_in(benchmarks))
        summary = aggregate_samples(lf)
        chart = charts.training_grid(
            sample_curves(summary),
            title=title or "Accuracy and response length by step",
            subtitle="bands: Wilson 95% intervals over problems",
            x_title="Step",
            columns=columns,
        )
        return chart, summary
    scores = pl.concat([read_scores(f, benchmarks=benchmarks) for f in files])
    chart = charts.accuracy_vs_size(
        scores, title=title or "Accuracy against model size", columns=columns
    )
    return chart, scores
