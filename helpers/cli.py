"""Command line, and the choice of chart for your own logs (shared with notebook 005).

    python -m helpers plot FILE... -o OUT
    python -m helpers compare NAME=PATH NAME=PATH... -o OUT

Examples:
    python -m helpers plot run_val.csv run_train.csv -o grid.html
    python -m helpers plot math500_samples.jsonl -o levels.png
    python -m helpers plot samples/ -o grid.svg --benchmarks aime24 math500
    python -m helpers plot scores.csv -o size.png --benchmarks GSM8K MMLU
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

import polars as pl

from . import aggregate, benchmarks, readers
from .errors import DataError
from .io import FORMATS, write_text_atomic
from .readers._common import reading

DESCRIPTION = """\
Recognise the format of FILE(s) from their content and write the chart that fits to OUT (.html,
.png or .svg; .csv writes the numbers behind the chart instead). `inspect` says what a file was
read as, without drawing.

Formats recognised:
  per-step metric logs: W&B history export or other CSV, JSON lines, TRL trainer_state.json
      (verl: val/test_score/<benchmark>, val-core/<source>/acc/mean@k, critic/scores/...,
      response_length/...; TRL: eval_<dataset>_accuracy; anything else with --map)
      -> one panel per benchmark: accuracy (Wilson band where the benchmark's size is known)
         and response length over steps. A second log (a training export) supplies response
         length, matched to the nearest earlier step.
  per-sample evaluation output: Qwen2.5-Math / SkyThought JSONL, lm-eval samples_*.jsonl,
  lighteval details (.parquet), Inspect logs (.json)
      -> accuracy with 95% intervals by difficulty level, benchmark or file.
  aggregated results: lm-eval and lighteval results_*.json, Qwen2.5-Math *_metrics.json
  a folder of per-checkpoint files (checkpoint-N/..., Exp2_N/...)
      -> the curve over N (the step read from the folder names; --step-from-path).
  tidy per-sample table (.csv/.parquet, or a folder of Parquet files; columns step, benchmark,
  problem_id, sample_id, correct, response_tokens)
      -> the training grid with Wilson intervals, from any number of files.
  scores table (.csv with a model-size column and accuracy columns)
      -> accuracy against model size, one panel per benchmark.
"""


def _samples(runs: list, benchmarks) -> pl.LazyFrame:
    frames = [r.samples for r in runs]
    if len(frames) > 1:  # one type for the keys across files (a categorical stays cheap alone)
        frames = [
            f.with_columns(
                pl.col("benchmark").cast(pl.String), pl.col("problem_id").cast(pl.String)
            )
            for f in frames
        ]
    lf = pl.concat(frames)
    return lf.filter(pl.col("benchmark").is_in(list(benchmarks))) if benchmarks else lf


def _band_note(table: pl.DataFrame) -> str:
    """What the bands of a score log are, and where there is none."""
    sizes = table.group_by("benchmark", maintain_order=True).agg(pl.col("problems").first())
    known = [f"{b} {n}" for b, n in sizes.iter_rows() if n is not None]
    unknown = [b for b, n in sizes.iter_rows() if n is None]
    note = f"bands: Wilson 95% over each benchmark's problems ({', '.join(known)})" if known else ""
    if unknown:
        note += ("; " if note else "") + (
            f"no band for {', '.join(unknown[:4])}{' ...' if len(unknown) > 4 else ''}: "
            "size unknown (--problems NAME=N)"
        )
    if table["k"].is_not_null().any():
        note += "; mean@k scores: the interval counts problems, not the k samples of each"
    return note


def _later(name: str, *args, **kwargs):
    """A chart to draw only when it is wanted: the chart code (and altair) load then, so a
    `.csv` output never pays for them."""

    def make():
        from . import charts

        return getattr(charts, name)(*args, **kwargs)

    return make


def chart_for(
    files: Sequence[str | Path],
    *,
    draw: bool = True,
    **options,
) -> tuple[object, pl.DataFrame]:
    """Read the inputs and build the chart that fits them, with the table behind it (see
    `_fitting`); with `draw=False` only the table (the chart is None)."""
    make, table = _fitting(files, **options)
    return (make() if draw else None), table


def _fitting(
    files: Sequence[str | Path],
    *,
    benchmarks: Sequence[str] | None = None,
    columns: int = 4,
    title: str | None = None,
    progress=None,
    mapping: dict[str, str] | None = None,
    problems: dict[str, int] | None = None,
    step_pattern: str | None = None,
    engine: str = "polars",
) -> tuple[object, pl.DataFrame]:
    """Read the inputs and build the chart that fits them, with the table behind it: the
    training grid (per-step logs, per-sample logs over steps, per-checkpoint folders),
    accuracy by level or by benchmark (one evaluation), or accuracy against model size
    (a scores table). Panels keep the log's order (or that of `benchmarks`). Returns a function
    that draws the chart, and the table."""
    if engine == "spark":
        return _spark_chart([str(f) for f in files], benchmarks, columns, title)
    uri = next((f for f in files if isinstance(f, str) and "://" in f), None)
    if uri:
        raise DataError(uri, "a local file or folder (a URI is read by --engine spark)")
    files = [Path(f) for f in files]
    progress = progress or (lambda i, n, path: None)
    runs = []
    for i, f in enumerate(files, 1):
        progress(i, len(files), f)
        runs.append(
            readers.load(
                f,
                step_pattern=step_pattern,
                mapping=mapping,
                problems=problems,
                benchmarks=benchmarks,
            )
        )
    kinds = {
        "models" if r.models is not None else "samples" if r.samples is not None else "scores"
        for r in runs
    }
    if len(kinds) > 1:
        detail = ", ".join(f"{r.path.name}: {r.format}" for r in runs)
        raise DataError(files[0], f"files of one format; got {detail}")
    kind = kinds.pop()
    if kind == "models":
        scores = pl.concat([r.models for r in runs])
        chart = _later(
            "accuracy_vs_size",
            scores,
            title=title or "Accuracy against model size",
            columns=columns,
        )
        return chart, scores
    if kind == "scores":
        curves, order, table = aggregate.score_curves(runs, benchmarks)
        if table["step"].is_null().all():  # one evaluation: a point per benchmark
            table = table.rename({"score": "accuracy"})
            chart = _later(
                "accuracy_by_group",
                table,
                "benchmark",
                title=title or f"Accuracy by benchmark ({files[0].stem})",
            )
            return chart, table
        training = all(r.kind == "training score" for r in runs if r.scores is not None)
        what = "training score (on training batches)" if training else "accuracy"
        has_tokens = "tokens" in table.columns
        band = (
            "training scores: no band (the log does not say how many prompts a batch held)"
            if training
            else _band_note(table)
        )
        subtitle = [band] + (
            ["response length matched to the nearest earlier step"] if has_tokens else []
        )
        chart = _later(
            "training_grid",
            curves,
            title=title
            or f"{files[0].stem}: {what}{' and response length' if has_tokens else ''} by step",
            subtitle=subtitle,
            x_title="Step",
            columns=columns,
            order=order,
            y_title="Training score" if training else "Accuracy",
        )
        return chart, table
    with reading(files[0] if len(files) == 1 else files[0].parent):
        return _samples_chart(runs, files, benchmarks, columns, title)


def _samples_chart(runs, files, benchmarks, columns, title) -> tuple[object, pl.DataFrame]:
    """The chart for per-sample logs: over steps, or (one evaluation) by level or benchmark."""
    lf = _samples(runs, benchmarks)
    left = f" for the benchmarks {list(benchmarks)}" if benchmarks else ""
    nothing = DataError(files[0], f"per-sample rows to chart{left}; there are none")
    # a tidy table has a step on every row; evaluation outputs may have none (one evaluation)
    steps = 1
    if any(r.format != "samples" for r in runs):
        rows, steps = lf.select(pl.len(), pl.col("step").drop_nulls().n_unique()).collect().row(0)
        if rows == 0:
            raise nothing
    if steps == 0:  # one evaluation: accuracy by difficulty level, or by benchmark or file
        if len(runs) == 1 and runs[0].format == "qwen-math":
            samples, group = readers.read_qwen_math(files[0]), "level"
        else:
            samples = pl.concat(
                [r.samples.collect().with_columns(file=pl.lit(r.path.stem)) for r in runs],
                how="diagonal_relaxed",
            )
            group = "benchmark" if samples["benchmark"].n_unique() > 1 else "file"
        table = aggregate.accuracy_table(samples, [group])
        overall = aggregate.accuracy_table(samples)
        chart = _later(
            "accuracy_by_group",
            table,
            group,
            title=title or f"Accuracy by {group} ({files[0].stem})",
            overall=overall,
        )
        every = pl.concat(
            [
                table.with_columns(pl.col(group).cast(pl.String)),
                overall.with_columns(pl.lit("all").alias(group)),
            ],
            how="diagonal_relaxed",
        )
        return chart, every
    return _steps_chart(aggregate.aggregate_samples(lf), nothing, benchmarks, columns, title)


def _steps_chart(summary, nothing, benchmarks, columns, title) -> tuple[object, pl.DataFrame]:
    """The training grid of a per-sample log's per-step summary."""
    if summary.height == 0:
        raise nothing
    chart = _later(
        "training_grid",
        aggregate.sample_curves(summary),
        title=title or "Accuracy and response length by step",
        subtitle="bands: Wilson 95% intervals over problems",
        x_title="Step",
        columns=columns,
        order=list(benchmarks) if benchmarks else None,
    )
    return chart, summary


def _spark_chart(files, benchmarks, columns, title) -> tuple[object, pl.DataFrame]:
    """The same per-sample aggregation on Spark: tidy per-sample Parquet files or folders (the
    inputs a cluster holds), read by Spark; only the per-step summary comes back."""
    from . import engine

    frame = engine.spark_samples(files)
    if benchmarks:
        frame = frame.filter(frame["benchmark"].isin(list(benchmarks)))
    summary = aggregate.aggregate_samples(frame, engine="spark")
    left = f" for the benchmarks {list(benchmarks)}" if benchmarks else ""
    nothing = DataError(files[0], f"per-sample rows to chart{left}; there are none")
    return _steps_chart(summary, nothing, benchmarks, columns, title)


def _progress(i: int, n: int, path: Path) -> None:
    if n > 1 and sys.stderr.isatty():  # nothing on a log that no one watches (CI, nbval)
        print(f"reading {i}/{n}: {path}", file=sys.stderr, flush=True)


COMPARE_DESCRIPTION = """\
Compare runs: is the method's gain over the baseline real? Each RUN is NAME=PATH (or a bare
PATH, named after its file); the same NAME given several times means several seeds of one
method. The first run named is the baseline (or --baseline NAME). PATH is anything `plot`
reads: a per-sample table or folder, Qwen2.5-Math/SkyThought or lm-eval JSONL (a folder of them
per checkpoint, checkpoint-N/..., becomes a curve over N), or a W&B export (scores only).

Where two runs' per-sample logs cover the same problems, the difference in accuracy gets a
95% interval that uses the pairing (Newcombe's paired interval for one answer per problem, a t
interval over per-problem differences otherwise), with the unpaired interval beside it and the
problems won, lost and tied. Score-only logs are compared unpaired, with intervals from the
benchmark's size. OUT: .html, .png or .svg for the charts; .csv for one row per comparison,
benchmark and step (differences as fractions).

examples:
  python -m helpers compare grpo=grpo/ mel=mel/ -o compare.html
  python -m helpers compare base=s1.parquet base=s2.parquet new=s3.parquet new=s4.parquet -o d.csv
  python -m helpers compare before.jsonl after.jsonl -o flips.png --benchmarks MATH500
  python -m helpers compare a=run_a/ b=run_b/ --checkpoint best -o best.csv
"""


def _output_args(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "-o",
        "--output",
        required=True,
        type=Path,
        metavar="OUT",
        help="output file: .html (interactive, self-contained), .png, .svg or .csv",
    )
    parser.add_argument(
        "--benchmarks",
        nargs="+",
        metavar="NAME",
        help="only these benchmarks (W&B: the part after val/test_score/)",
    )
    parser.add_argument("--title", help="chart title")


def _reading_args(parser: argparse.ArgumentParser) -> None:
    """How to read logs no convention covers: column mapping, benchmark sizes, steps."""
    parser.add_argument(
        "--map",
        action="append",
        metavar="ROLE=COLUMN",
        help="which column is what, for per-step logs no convention covers; ROLE is step, "
        "accuracy or tokens, and {benchmark} in COLUMN stands for the benchmark's name "
        "(e.g. --map step=global_step --map 'accuracy=eval/{benchmark}/acc'); for results "
        "files, accuracy=METRIC picks the metric",
    )
    parser.add_argument(
        "--problems",
        nargs="+",
        type=_size_arg,
        metavar="NAME=N",
        help="benchmark sizes for score-only logs (known: "
        + ", ".join(f"{b.name} {b.problems}" for b in benchmarks.BENCHMARKS)
        + ")",
    )
    parser.add_argument(
        "--step-from-path",
        metavar="REGEX",
        help="read the step from folder names with this pattern (one group: the step); "
        "default: checkpoint-N, ckpt_N, global_stepN, step=N, iter_N, ExpK_N",
    )


def _mapping(args) -> dict[str, str]:
    from .readers.metrics import parse_map

    try:
        return parse_map(args.map)
    except ValueError as e:
        raise DataError("--map", str(e)) from None


def _location(text: str) -> Path | str:
    """A local path, or a URI (s3a://..., file://...) kept as written, for Spark to read."""
    return text if "://" in text else Path(text)


def _run_arg(text: str) -> tuple[str, Path | str]:
    """NAME=PATH, or a bare PATH named after its file (a path may itself hold '=')."""
    name, sep, path = text.partition("=")
    if sep and name and "/" not in name and not Path(text).exists():
        return name, _location(path)
    return Path(text).stem or text, _location(text)


def _size_arg(text: str) -> tuple[str, int]:
    name, sep, n = text.rpartition("=")
    if not sep or not name or not n.isdigit() or int(n) < 1:
        raise argparse.ArgumentTypeError(f"expected NAME=N with N a positive count; got {text!r}")
    return name, int(n)


def _pct(x: float | None) -> str:
    return "?" if x is None else f"{x * 100:+.1f}"


def _summary(c) -> list[str]:
    """One line per comparison and benchmark, at the last row compared (the last shared step,
    or the best checkpoints)."""
    lines = []
    last = c.differences.group_by("comparison", "benchmark", maintain_order=True).last()
    for r in last.iter_rows(named=True):
        line = (
            f"{r['benchmark']}, {r['at']}: {r['comparison']}: {_pct(r['difference'])} points, "
            f"95% [{_pct(r['lo'])}, {_pct(r['hi'])}] ({r['interval']})"
        )
        if r["won"] is not None:
            line += (
                f"; unpaired [{_pct(r['unpaired_lo'])}, {_pct(r['unpaired_hi'])}]; "
                f"problems won {r['won']}, lost {r['lost']}, tied {r['tied']}"
            )
        if r["selection_bias_b"] is not None:
            line += (
                f"; picking the best of {r['checkpoints_b']} and {r['checkpoints_a']} checkpoints "
                f"can overstate each score by up to about {r['selection_bias_b'] * 100:.1f} and "
                f"{r['selection_bias_a'] * 100:.1f} points"
            )
        lines.append(line)
    return lines


def _compare(args) -> tuple[object, pl.DataFrame]:
    from . import compare as comparing

    c = comparing.compare(
        args.runs,
        benchmarks=args.benchmarks,
        checkpoint=args.checkpoint,
        baseline=args.baseline,
        problems=dict(args.problems or []),
        step_pattern=args.step_from_path,
        mapping=_mapping(args),
        engine=args.engine,
    )
    for line in _summary(c):
        print(line)
    for note in c.notes:
        print(f"note: {note}")
    chart = _later(
        "comparison",
        c.curves,
        c.differences,
        c.problems,
        c.runs,
        title=args.title or f"{', '.join(c.runs[1:])} against {c.runs[0]}",
        subtitle=f"baseline: {c.runs[0]}; compared at "
        + ("each run's best checkpoint" if c.checkpoint == "best" else "the same steps"),
        columns=args.columns,
    )
    return chart, c.differences


def describe(path: Path, label: str | None = None, **options) -> list[str]:
    """What a file or folder was read as, in words: format, steps, benchmarks (with sizes and
    samples per problem), metrics, and what was left out and why. `label` names the input in
    the first line (default: the path as given)."""
    run = readers.load(path, **options)
    lines = [f"{label or path}: {run.format}", *[f"  {n}" for n in run.notes]]
    if run.models is not None:
        m = run.models
        names = ", ".join(m["benchmark"].unique(maintain_order=True))
        lines.append(f"  {m['model'].n_unique()} models; benchmarks: {names}")
        return lines
    if run.samples is not None:
        per = (
            run.samples.group_by("benchmark", "step", "problem_id")
            .agg(n=pl.len())
            .group_by("benchmark")
            .agg(
                steps=pl.col("step").drop_nulls().unique().sort(),
                problems=pl.col("problem_id").n_unique(),
                k_min=pl.col("n").min(),
                k_max=pl.col("n").max(),
            )
            .sort("benchmark")
            .collect()
        )
        for r in per.iter_rows(named=True):
            k = f"{r['k_min']}" if r["k_min"] == r["k_max"] else f"{r['k_min']}-{r['k_max']}"
            lines.append(
                f"  {r['benchmark']}: {r['problems']} problems, {k} sample(s) per problem, "
                + _steps(r["steps"])
            )
        return lines
    table = run.scores
    for b in run.order or table["benchmark"].unique(maintain_order=True).to_list():
        rows = table.filter(pl.col("benchmark") == b)
        n = rows["problems"][0]
        size = (
            "scored on training batches"
            if run.kind == "training score"
            else f"{n} problems"
            if n is not None
            else "size unknown (--problems NAME=N)"
        )
        k = f", mean@{rows['k'][0]}" if rows["k"][0] is not None else ""
        steps = _steps(rows["step"].drop_nulls().to_list())
        lines.append(f"  {b}: {run.kind}, {size}{k}, {steps}")
    if run.tokens is not None:
        t = run.tokens["benchmark"].drop_nulls().n_unique()
        lines.append(
            "  response length: "
            + (f"per benchmark ({t})" if t else "overall mean")
            + f", {run.tokens['step'].n_unique()} steps"
        )
    return lines


def _steps(steps: list) -> str:
    if not steps:
        return "one evaluation (no step)"
    return f"{len(steps)} steps ({steps[0]}-{steps[-1]})" if len(steps) > 1 else f"step {steps[0]}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m helpers",
        description="Charts of LLM reasoning runs, from your own logs.",
    )
    sub = parser.add_subparsers(dest="command", required=True)
    plot = sub.add_parser(
        "plot",
        help="draw the chart that matches the input files",
        description=DESCRIPTION,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    plot.add_argument(
        "files", nargs="+", type=_location, metavar="FILE", help="input file(s) or folder(s)"
    )
    _output_args(plot)
    _reading_args(plot)
    plot.add_argument("--columns", type=int, default=4, help="panels per row (default 4)")
    _engine_arg(plot)
    comp = sub.add_parser(
        "compare",
        help="compare runs (baseline vs method, seeds, checkpoints) with paired statistics",
        description=COMPARE_DESCRIPTION,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    comp.add_argument(
        "runs", nargs="+", type=_run_arg, metavar="RUN", help="NAME=PATH, or PATH (see above)"
    )
    _output_args(comp)
    comp.add_argument(
        "--checkpoint",
        choices=["same", "best"],
        default="same",
        help="compare at every step both runs have (same, the default), or each run's best "
        "checkpoint per benchmark (best; its selection bias is reported)",
    )
    comp.add_argument("--baseline", metavar="NAME", help="the run the others are compared with")
    _reading_args(comp)
    comp.add_argument("--columns", type=int, default=3, help="panels per row (default 3)")
    _engine_arg(comp)
    look = sub.add_parser(
        "inspect",
        help="say what each input was recognised as, without drawing",
        description="Print what each FILE (or folder) was read as: format, steps, benchmarks "
        "with their sizes and samples per problem, metrics, and what was ignored and why.",
    )
    look.add_argument("files", nargs="+", type=Path, metavar="FILE")
    _reading_args(look)
    args = parser.parse_args(argv)
    try:
        return _run(parser, args)
    except DataError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2


def _engine_arg(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--engine",
        choices=["polars", "spark"],
        default="polars",
        help="who aggregates per-sample Parquet logs: polars on this machine (default), or Spark "
        "(local mode; SPARK_MASTER or SPARK_REMOTE point it at a cluster); needs the [spark] extra",
    )


def _inputs(args) -> list[Path]:
    return [p for _, p in args.runs] if args.command == "compare" else list(args.files)


def _csv(table: pl.DataFrame) -> str:
    """The table as CSV, floats to 12 significant digits: far beyond any interval here, and the
    same text whichever engine summed them (sums in another order differ in the last bits)."""
    import polars.selectors as cs

    return table.with_columns(cs.float().round_sig_figs(12)).write_csv()


def _check_output(out: Path, inputs: list[Path]) -> None:
    """The output never replaces or lands inside an input."""
    target = out.resolve()
    for p in inputs:
        if not isinstance(p, Path):  # a URI: not a local file the output could replace
            continue
        source = p.resolve()
        if target == source or source in target.parents:
            raise DataError(out, "an output path that is not one of the inputs", got=str(p))


def _run(parser: argparse.ArgumentParser, args) -> int:
    if args.command == "inspect":
        for f in args.files:
            lines = describe(
                f,
                step_pattern=args.step_from_path,
                mapping=_mapping(args),
                problems=dict(args.problems or []),
            )
            print("\n".join(lines))
        return 0
    out: Path = args.output
    if out.suffix not in (*FORMATS, ".csv"):
        parser.error(f"OUT must end in .html, .png, .svg or .csv; got {out.name}")
    _check_output(out, _inputs(args))
    if args.command == "compare":
        make, table = _compare(args)
        chart = make() if out.suffix != ".csv" else None
    else:
        chart, table = chart_for(
            args.files,
            draw=out.suffix != ".csv",
            benchmarks=args.benchmarks,
            columns=args.columns,
            title=args.title,
            progress=_progress,
            mapping=_mapping(args),
            problems=dict(args.problems or []),
            step_pattern=args.step_from_path,
            engine=args.engine,
        )
    try:
        if out.suffix == ".csv":
            write_text_atomic(out, _csv(table))
        else:
            from . import export

            export.save(chart.to_dict(), out)
    except OSError as e:
        raise DataError(out, "a place the output can be written", got=e.strerror) from None
    print(f"wrote {out}")
    return 0
