"""Command line: draw the project's charts from your own logs.

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
from pathlib import Path

from . import export, runs
from .errors import DataError
from .io import write_text_atomic

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
        default=runs.LENGTH_COLUMN,
        metavar="COLUMN",
        help=f"W&B column with mean response length (default {runs.LENGTH_COLUMN})",
    )
    plot.add_argument("--columns", type=int, default=4, help="panels per row (default 4)")
    plot.add_argument("--title", help="chart title")
    args = parser.parse_args(argv)
    out: Path = args.output
    if out.suffix not in (*export.FORMATS, ".csv"):
        parser.error(f"OUT must end in .html, .png, .svg or .csv; got {out.name}")
    try:
        chart, table = runs.chart_for(
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


if __name__ == "__main__":
    sys.exit(main())
