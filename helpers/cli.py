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

from . import aggregate, charts, export, readers
from .errors import DataError
from .io import write_text_atomic
from .readers import wandb

DESCRIPTION = """\
Recognise the format of FILE(s) and write the matching chart to OUT (.html, .png or .svg;
.csv writes the aggregated numbers behind the chart instead).

Formats recognised:
  W&B history export (.csv with a _step column)
      -> one panel per validation benchmark (columns val/test_score/<benchmark>), accuracy and
         mean response length over training steps. Give the training-metrics export as a second
         file to take response length from it (matched to the nearest earlier step).
  per-sample evaluation output (.jsonl: Qwen2.5-Math harness, or lm-eval samples_*.jsonl)
      -> accuracy with 95% intervals by difficulty level (one file), or by file (several).
  tidy per-sample table (.csv/.parquet, or a folder of Parquet files; columns step, benchmark,
  problem_id, sample_id, correct, response_tokens)
      -> the training grid with Wilson intervals, from any number of files.
  scores table (.csv with a model-size column and accuracy columns)
      -> accuracy against model size, one panel per benchmark.
"""


def chart_for(
    files: Sequence[str | Path],
    *,
    benchmarks: Sequence[str] | None = None,
    length_column: str = wandb.LENGTH_COLUMN,
    columns: int = 4,
    title: str | None = None,
    progress=None,
) -> tuple[object, pl.DataFrame]:
    """Recognise the inputs' format and build the matching chart and the table behind it:
    the training grid (W&B export, tidy per-sample tables), accuracy by level (per-sample
    JSONL), or accuracy against model size (scores table)."""
    files = [Path(f) for f in files]
    progress = progress or (lambda i, n, path: None)
    kinds = {f: readers.detect(f) for f in files}
    found = set(kinds.values())
    if len(found) > 1:
        detail = ", ".join(f"{f.name}: {k}" for f, k in kinds.items())
        raise DataError(files[0], f"files of one format; got {detail}")
    kind = found.pop()
    if kind == "wandb":
        val = [f for f in files if wandb.benchmark_names(f)]
        train = [f for f in files if f not in val]
        if len(val) != 1 or len(train) > 1:
            raise DataError(
                files[0],
                "one export with validation columns and at most one training-metrics export",
            )
        curves = aggregate.wandb_curves(
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
        read = readers.read_qwen_math if kind == "qwen-math" else readers.read_lm_eval
        for i, f in enumerate(files, 1):
            progress(i, len(files), f)
        frames = [read(f).with_columns(file=pl.lit(f.stem)) for f in files]
        samples = pl.concat(frames, how="diagonal")
        group = "level" if len(files) == 1 and "level" in samples.columns else "file"
        table = aggregate.accuracy_table(samples, [group])
        overall = aggregate.accuracy_table(samples) if len(files) == 1 else None
        chart = charts.accuracy_by_group(
            table, group, title=title or f"Accuracy by {group} ({files[0].stem})", overall=overall
        )
        return chart, table
    if kind == "samples":
        lf = readers.scan_samples(files, progress=progress)
        if benchmarks:
            lf = lf.filter(pl.col("benchmark").is_in(benchmarks))
        summary = aggregate.aggregate_samples(lf)
        chart = charts.training_grid(
            aggregate.sample_curves(summary),
            title=title or "Accuracy and response length by step",
            subtitle="bands: Wilson 95% intervals over problems",
            x_title="Step",
            columns=columns,
        )
        return chart, summary
    scores = pl.concat([readers.read_scores(f, benchmarks=benchmarks) for f in files])
    chart = charts.accuracy_vs_size(
        scores, title=title or "Accuracy against model size", columns=columns
    )
    return chart, scores


def _progress(i: int, n: int, path: Path) -> None:
    if n > 1:
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


def _run_arg(text: str) -> tuple[str, Path]:
    """NAME=PATH, or a bare PATH named after its file (a path may itself hold '=')."""
    name, sep, path = text.partition("=")
    if sep and name and "/" not in name and not Path(text).exists():
        return name, Path(path)
    return Path(text).stem or text, Path(text)


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
    )
    for line in _summary(c):
        print(line)
    for note in c.notes:
        print(f"note: {note}")
    chart = charts.comparison(
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
        "files", nargs="+", type=Path, metavar="FILE", help="input file(s) or folder(s)"
    )
    _output_args(plot)
    plot.add_argument(
        "--length-column",
        default=wandb.LENGTH_COLUMN,
        metavar="COLUMN",
        help=f"W&B column with mean response length (default {wandb.LENGTH_COLUMN})",
    )
    plot.add_argument("--columns", type=int, default=4, help="panels per row (default 4)")
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
    comp.add_argument(
        "--problems",
        nargs="+",
        type=_size_arg,
        metavar="NAME=N",
        help="benchmark sizes for score-only logs (known ones: MATH500 500, AIME24 30, ...)",
    )
    comp.add_argument(
        "--step-from-path",
        metavar="REGEX",
        help="read the step from folder names with this pattern (one group: the step); "
        "default: checkpoint-N, ckpt_N, global_stepN, step=N, iter_N, ExpK_N",
    )
    comp.add_argument("--columns", type=int, default=3, help="panels per row (default 3)")
    args = parser.parse_args(argv)
    out: Path = args.output
    if out.suffix not in (*export.FORMATS, ".csv"):
        parser.error(f"OUT must end in .html, .png, .svg or .csv; got {out.name}")
    try:
        if args.command == "compare":
            chart, table = _compare(args)
        else:
            chart, table = chart_for(
                args.files,
                benchmarks=args.benchmarks,
                length_column=args.length_column,
                columns=args.columns,
                title=args.title,
                progress=_progress,
            )
    except DataError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    if out.suffix == ".csv":
        write_text_atomic(out, table.write_csv())
    else:
        export.save(chart.to_dict(), out)
    print(f"wrote {out}")
    return 0
