"""Command line: plot, compare, inspect and power (the choice of chart is in `choose`).

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
from pathlib import Path

from helpers.cli import compare, power, watch
from helpers.cli.shared import (
    check_output,
    command_parser,
    engine_arg,
    mapping,
    panels_per_row,
    reading_args,
    smoothing,
    unwritable,
    write_output,
)
from helpers.errors import DataError
from helpers.io import FORMATS, write_text_atomic
from helpers.runs.choose import fitting, unsized
from helpers.runs.describe import describe
from helpers.runs.drawable import MAX_PANELS
from helpers.runs.inputs import location

DESCRIPTION = """\
Recognise the format of FILE(s) from their content and write the chart that fits to OUT (.html,
.png, .svg, or .pdf with --size column|page for a paper; .csv writes the numbers behind the chart
instead; .tex a booktabs table of the accuracies; .json each run's results in the Every Eval Ever
schema, intervals included). `inspect` says what a file was read as, without drawing; `watch`
follows runs while they train.

Formats recognised:
  per-step metric logs: W&B history export or other CSV, JSON lines, TRL trainer_state.json
      (verl: val/test_score/<benchmark>, val-core/<source>/acc/mean@k, critic/scores/...,
      response_length/...; TRL: eval_<dataset>_accuracy; anything else with --map)
      -> per benchmark, accuracy in percent (Wilson band where the benchmark's size is known)
         above mean response length, over steps. A second log (a training export) supplies
         response length, matched to the nearest earlier step.
  per-sample evaluation output: Qwen2.5-Math / SkyThought JSONL, lm-eval samples_*.jsonl,
  lighteval details (.parquet), Inspect logs (.eval, .json), Every Eval Ever instance-level
  JSONL; verl's validation generations (W&B tables, MLflow artifacts val_step<N>.json)
      -> accuracy with 95% intervals by difficulty level, benchmark or file.
  aggregated results: lm-eval and lighteval results_*.json, Qwen2.5-Math *_metrics.json,
  Every Eval Ever aggregates (with their instance-level JSONL where it lies beside them)
  a folder of per-checkpoint files (checkpoint-N/..., Exp2_N/...)
      -> the curve over N (the step read from the folder names; --step-from-path).
  tidy per-sample table (.csv/.parquet, or a folder of Parquet files; columns step, benchmark,
  problem_id, sample_id, correct, response_tokens)
      -> the training grid with Wilson intervals, from any number of files.
  table of models (.csv: a model column, a benchmark per column or per row; sizes from a
  size column or the model names)
      -> accuracy against model size, one panel per benchmark; where a size is unknown, a
         leaderboard: models ranked per benchmark, tiers where a gap is separable.
  trackers' stores: W&B run folders, TensorBoard event files, MLflow (mlruns/ or mlflow.db),
  trackio databases, SwanLab folders (swanlog/: run-<id>.swanlab or backup.swanlab); a table
  of several runs (a condition, run, model or seed column);
  a store of several runs -> each run's accuracy, a colour per run (PATH#RUN: one run alone).
"""


def _progress(i: int, n: int, path: Path) -> None:
    if n > 1 and sys.stderr.isatty():  # nothing on a log that no one watches (CI, nbval)
        print(f"reading {i}/{n}: {path}", file=sys.stderr, flush=True)


class _OneLineParser(argparse.ArgumentParser):
    """argparse, but an argument it refuses is one `error:` line naming the command (as bad
    input is), not a usage block of 6-11 lines; --help still prints the whole usage."""

    def error(self, message: str):
        print(f"error: {self.prog}: {message} (see {self.prog} --help)", file=sys.stderr)
        raise SystemExit(2)


def main(argv: list[str] | None = None, *, loaded: dict | None = None) -> int:
    """The command line. `loaded`: runs read already, by the path as given (`watch` reads
    its runs as they grow), which `plot` and `compare` draw instead of reading them again."""
    command = Path(sys.argv[0]).name
    parser = _OneLineParser(
        prog=command if command == "reasoning-figures" else "python -m helpers",
        description="Charts of LLM reasoning runs, from your own logs.",
    )
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_OneLineParser)
    plot = command_parser(
        sub,
        "plot",
        "draw the chart that matches the input files",
        DESCRIPTION,
        ("files", location, "FILE", "input file(s) or folder(s)"),
    )
    reading_args(plot)
    plot.add_argument(
        "--columns", type=panels_per_row, default=4, help="panels per row (default 4)"
    )
    plot.add_argument(
        "--runs",
        nargs="+",
        metavar="RUN",
        help="of a store or table of several runs, draw these (in this order; at most 7); the "
        ".csv output holds every run",
    )
    plot.add_argument(
        "--smooth",
        type=smoothing,
        metavar="W",
        help="draw each training curve's moving average (EMA of weight W from 0 to 1, "
        "bias-corrected as TensorBoard smooths) over the points as logged, for noisy curves "
        "(by default 0.6 for curves of 50 logged values or more; 0: none)",
    )
    engine_arg(plot)
    compare.add_parser(sub)
    look = sub.add_parser(
        "inspect",
        help="say what each input was recognised as, without drawing",
        description="Print what each FILE (or folder) was read as: format, steps, benchmarks "
        "with their sizes and samples per problem, metrics, and what was ignored and why.",
    )
    look.add_argument("files", nargs="+", type=Path, metavar="FILE")
    reading_args(look)
    power.add_parser(sub)
    watch.add_parser(sub)
    args = parser.parse_args(argv)
    try:
        return _run(args, loaded or {})
    except DataError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2


def _inputs(args) -> list[Path]:
    return [p for _, p in args.runs] if args.command == "compare" else list(args.files)


def _run(args, loaded: dict) -> int:
    if args.command == "watch":
        return watch.run(args, main)
    if args.command == "power":
        return power.run(args)
    if args.command == "inspect":
        for f in args.files:
            lines = describe(
                f,
                step_pattern=args.step_from_path,
                mapping=mapping(args),
                problems=dict(args.problems or []),
            )
            print("\n".join(lines))
        return 0
    out: Path = args.output
    if out.suffix not in (*FORMATS, ".csv", ".json", ".tex"):
        raise DataError(
            out, "an output ending in .html, .png, .svg, .pdf, .csv, .json or .tex", got=out.suffix
        )
    if args.size is not None and out.suffix != ".pdf":
        raise DataError(out, "a .pdf output for --size (it sets a PDF's page)", got=out.suffix)
    check_output(out, _inputs(args))
    appendix = ""
    if out.suffix in (".json", ".tex"):
        return _results(args, out)
    if args.command == "compare":
        make, c = compare.run(args, loaded)
        table = c.differences
        if out.suffix == ".html":  # the methods caption under the chart, then the problems
            import html

            from helpers.render import problems

            caption = f'<p class="caption">{html.escape(c.caption())}</p>'
            appendix = caption + problems.section(c.problems)
    else:
        make, table = fitting(
            args.files,
            benchmarks=args.benchmarks,
            columns=args.columns,
            title=args.title,
            progress=_progress,
            mapping=mapping(args),
            problems=dict(args.problems or []),
            step_pattern=args.step_from_path,
            engine=args.engine,
            smooth=args.smooth,
            runs=args.runs,
            loaded=loaded,
        )
        bare = unsized(table)
        if bare:  # the chart says there is no band; the command says how to get one
            some = ", ".join(bare[:3]) + (f" and {len(bare) - 3} more" if bare[3:] else "")
            print(f"note: no interval for {some}: give sizes with --problems NAME=N")
        if not args.benchmarks and _benchmarks(table) > MAX_PANELS:  # the chart says which
            print(f"note: the chart draws {MAX_PANELS} panels at most; --benchmarks picks which")
    write_output(out, make, table, appendix, args)
    print(f"wrote {out}")
    return 0


def _benchmarks(table) -> int:
    """How many benchmarks (their mean among them) a table behind a chart holds."""
    if "benchmark" not in table.columns:
        return 0
    return table["benchmark"].n_unique()


def _results(args, out: Path) -> int:
    """`-o results.json`: each run's results in the Every Eval Ever schema; `-o table.tex`: a
    LaTeX table of a comparison or of runs' accuracies, its caption printed too."""
    from helpers.runs import presentation, readers, results_json

    if args.command == "compare":
        _, c = compare.run(args)
        if out.suffix == ".tex":
            _write_text(out, presentation.latex_table(c))
            print(f"caption: {c.caption()}\nwrote {out}")
            return 0
        named = results_json.for_comparison(c)
    else:
        runs = []
        for f in args.files:
            held = readers.load_runs(
                f,
                step_pattern=args.step_from_path,
                mapping=mapping(args),
                problems=dict(args.problems or []),
                benchmarks=args.benchmarks,
            )
            runs += [r for r in held if r.unread is None]
        if out.suffix == ".tex":
            names = [r.run or Path(r.path).name for r in runs]
            tables = [results_json.run_accuracies(r) for r in runs]
            _write_text(out, presentation.latex_accuracies(list(zip(names, tables, strict=True))))
            print(f"wrote {out}")
            return 0
        named = results_json.for_runs(runs)
    try:
        written = results_json.write(out, named)
    except OSError as e:
        raise unwritable(out, e) from None
    for path in written:
        print(f"wrote {path}")
    return 0


def _write_text(out: Path, text: str) -> None:
    try:
        write_text_atomic(out, text)
    except OSError as e:
        raise unwritable(out, e) from None


__all__ = ["describe", "main"]
