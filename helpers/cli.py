"""Command line, and the choice of chart for your own logs (shared with notebook 005).

    python -m helpers plot FILE... -o OUT

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
    plot.add_argument(
        "-o",
        "--output",
        required=True,
        type=Path,
        metavar="OUT",
        help="output file: .html (interactive, self-contained), .png, .svg or .csv",
    )
    plot.add_argument(
        "--benchmarks",
        nargs="+",
        metavar="NAME",
        help="only these benchmarks (W&B: the part after val/test_score/)",
    )
    plot.add_argument(
        "--length-column",
        default=wandb.LENGTH_COLUMN,
        metavar="COLUMN",
        help=f"W&B column with mean response length (default {wandb.LENGTH_COLUMN})",
    )
    plot.add_argument("--columns", type=int, default=4, help="panels per row (default 4)")
    plot.add_argument("--title", help="chart title")
    args = parser.parse_args(argv)
    out: Path = args.output
    if out.suffix not in (*export.FORMATS, ".csv"):
        parser.error(f"OUT must end in .html, .png, .svg or .csv; got {out.name}")
    try:
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
