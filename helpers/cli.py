"""Command line: plot, compare and inspect (the choice of chart is in `choose`).

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
import math
import sys
from pathlib import Path

import polars as pl

from helpers import benchmark_sizes
from helpers.errors import DataError
from helpers.io import FORMATS, write_text_atomic
from helpers.runs import drawable
from helpers.runs.choose import chart_for, later
from helpers.runs.describe import describe
from helpers.runs.spark import location

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
95% interval that uses the pairing (Tango's score interval for one answer per problem, a t
interval over per-problem differences otherwise; each excludes 0 exactly when its test gives
p < 0.05), with the unpaired interval beside it and the problems won, lost and tied. The
p-values are adjusted for every comparison made (--adjust; Holm by default), and 'separable'
is decided on the adjusted value. Score-only logs are compared unpaired, with intervals from
the benchmark's size. OUT: .html, .png or .svg for the charts; .csv for one row per comparison,
benchmark and step (differences as fractions).

examples:
  python -m helpers compare grpo=grpo/ mel=mel/ -o compare.html
  python -m helpers compare base=s1.parquet base=s2.parquet new=s3.parquet new=s4.parquet -o d.csv
  python -m helpers compare before.jsonl after.jsonl -o flips.png --benchmarks MATH500
  python -m helpers compare a=run_a/ b=run_b/ --checkpoint best -o best.csv
"""


def _command(sub, name: str, help: str, description: str, inputs: tuple) -> argparse.ArgumentParser:
    """A subcommand that reads inputs (positional: name, type, metavar, help) and writes OUT."""
    parser = sub.add_parser(
        name,
        help=help,
        description=description,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    dest, kind, metavar, text = inputs
    parser.add_argument(dest, nargs="+", type=kind, metavar=metavar, help=text)
    _output_args(parser)
    return parser


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
        + ", ".join(f"{b.name} {b.problems}" for b in benchmark_sizes.BENCHMARKS)
        + ")",
    )
    parser.add_argument(
        "--step-from-path",
        metavar="REGEX",
        help="read the step from folder names with this pattern (one group: the step); "
        "default: checkpoint-N, ckpt_N, global_stepN, step=N, iter_N, ExpK_N",
    )


def _mapping(args) -> dict[str, str]:
    from helpers.runs.readers.metrics import parse_map

    try:
        return parse_map(args.map)
    except ValueError as e:
        raise DataError("--map", str(e)) from None


def _run_arg(text: str) -> tuple[str, Path | str]:
    """NAME=PATH, or a bare PATH named after its file (a path may itself hold '=')."""
    name, sep, path = text.partition("=")
    if sep and name and "/" not in name and not Path(text).exists():
        return name, location(path)
    return Path(text).stem or text, location(text)


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
        if r["p_value"] is not None:
            adjusted = (
                "" if r["p_adjusted"] == r["p_value"] else f", adjusted {r['p_adjusted']:.2g}"
            )
            verdict = "separable" if r["separable"] else "not separable"
            line += f"; p = {r['p_value']:.2g}{adjusted}: {verdict}"
        if r["won"] is not None:
            line += (
                f"; unpaired [{_pct(r['unpaired_lo'])}, {_pct(r['unpaired_hi'])}]; "
                f"problems won {r['won']}, lost {r['lost']}, tied {r['tied']}"
            )
        if r["seed_variance"] is not None and r["problem_variance"] is not None:
            seeds, problems = r["seed_variance"] ** 0.5, r["problem_variance"] ** 0.5
            which = "training randomness" if seeds > problems else "problem sampling"
            line += (
                f"; spread from seeds ({r['seeds_a']} and {r['seeds_b']}) {seeds * 100:.1f} "
                f"points, from problems {problems * 100:.1f}: {which} dominates"
            )
        if r["selection_bias_b"] is not None:
            line += (
                f"; picking the best of {r['checkpoints_b']} and {r['checkpoints_a']} checkpoints "
                f"can overstate each score by up to about {r['selection_bias_b'] * 100:.1f} and "
                f"{r['selection_bias_a'] * 100:.1f} points"
            )
        lines.append(line)
    return lines


PROBLEM_COLUMNS = [
    "comparison", "benchmark", "at", "step_a", "step_b", "problem_id", "outcome",
    "accuracy_a", "accuracy_b", "difference", "question", "reference", "answer_a", "answer_b",
]  # fmt: skip


def _problems_out(c, out: Path, inputs: list) -> None:
    """The flipped problems, whole, as CSV (largest gain first in each comparison)."""
    if out.suffix != ".csv":
        raise DataError(out, "a --problems-out file ending in .csv", got=out.suffix)
    _check_output(out, inputs)
    table = c.problems if c.problems.height else pl.DataFrame(schema=PROBLEM_COLUMNS)
    present = [col for col in PROBLEM_COLUMNS if col in table.columns]
    write_text_atomic(out, _csv(table.select(present)))
    print(f"wrote {out} ({table.height} problems that flipped)")


def _compared_at(c) -> str:
    """What was compared with what, in words, for the chart's subtitle."""
    if c.checkpoint == "best":
        return "compared at each run's best checkpoint"
    d = c.differences
    if d["step_a"].is_null().all() and d["step_b"].is_null().all():
        return "one evaluation of each run"
    return "compared at the same steps"


def _compare(args) -> tuple[object, object]:
    from helpers.runs import compare

    c = compare.compare(
        args.runs,
        benchmarks=args.benchmarks,
        checkpoint=args.checkpoint,
        baseline=args.baseline,
        problems=dict(args.problems or []),
        step_pattern=args.step_from_path,
        mapping=_mapping(args),
        engine=args.engine,
        adjust=args.adjust,
    )
    for line in _summary(c):
        print(line)
    if args.problems_out is not None:
        _problems_out(c, args.problems_out, [p for _, p in args.runs])
    for note in c.notes:
        print(f"note: {note}")
    drawn = drawable.comparison(c)
    chart = later(
        "comparison",
        drawn.curves,
        drawn.differences,
        drawn.problems,
        c.runs,
        title=args.title or f"{', '.join(c.runs[1:])} against {c.runs[0]}",
        subtitle=drawable.subtitle(f"baseline: {c.runs[0]}; " + _compared_at(c), drawn.notes),
        columns=args.columns,
    )
    return chart, c


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m helpers",
        description="Charts of LLM reasoning runs, from your own logs.",
    )
    sub = parser.add_subparsers(dest="command", required=True)
    plot = _command(
        sub,
        "plot",
        "draw the chart that matches the input files",
        DESCRIPTION,
        ("files", location, "FILE", "input file(s) or folder(s)"),
    )
    _reading_args(plot)
    plot.add_argument("--columns", type=int, default=4, help="panels per row (default 4)")
    _engine_arg(plot)
    comp = _command(
        sub,
        "compare",
        "compare runs (baseline vs method, seeds, checkpoints) with paired statistics",
        COMPARE_DESCRIPTION,
        ("runs", _run_arg, "RUN", "NAME=PATH, or PATH (see above)"),
    )
    comp.add_argument(
        "--checkpoint",
        choices=["same", "best"],
        default="same",
        help="compare at every step both runs have (same, the default), or each run's best "
        "checkpoint per benchmark (best; its selection bias is reported)",
    )
    comp.add_argument("--baseline", metavar="NAME", help="the run the others are compared with")
    comp.add_argument(
        "--problems-out",
        type=Path,
        metavar="FILE.csv",
        help="also write the problems that flipped: each one's text, reference answer and "
        "both runs' answers where the logs hold them, whole",
    )
    comp.add_argument(
        "--adjust",
        choices=["holm", "bh", "none"],
        default="holm",
        help="adjust p-values for every comparison made (run pairs x benchmarks x steps): "
        "Holm (default), Benjamini-Hochberg (bh), or none; 'separable' is decided on the "
        "adjusted value",
    )
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
    _power_args(sub)
    args = parser.parse_args(argv)
    try:
        return _run(args)
    except DataError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2


def _fraction(text: str) -> float:
    value = float(text)
    if not 0 < value < 1:
        raise argparse.ArgumentTypeError(f"expected a fraction between 0 and 1; got {text}")
    return value


def _power_args(sub) -> None:
    power = sub.add_parser(
        "power",
        help="the smallest difference a benchmark of N problems can detect",
        description="The smallest difference in accuracy that two runs on the same N problems "
        "can show with the given power at two-sided level alpha: unpaired (two proportions, "
        "the normal approximation), and, given --agreement (the share of problems both runs "
        "answer alike), paired (McNemar's score test, the test compare uses; its power summed "
        "exactly up to 1,000 problems, Connor's approximation above).",
    )
    power.add_argument(
        "runs",
        nargs="*",
        type=_run_arg,
        metavar="RUN",
        help="NAME=PATH of two runs (as for compare): agreement and accuracy from their logs",
    )
    power.add_argument("--problems", type=int, metavar="N")
    power.add_argument("--accuracy", type=_fraction, metavar="P")
    power.add_argument("--agreement", type=_fraction, metavar="A")
    power.add_argument(
        "--samples",
        type=int,
        default=1,
        metavar="K",
        help="answers per problem, accuracy averaged over them (unpaired): prints the range "
        "from problems always-or-never solved (samples add nothing) to equally hard ones",
    )
    power.add_argument("--power", type=_fraction, default=0.8, help="default 0.8")
    power.add_argument("--alpha", type=_fraction, default=0.05, help="default 0.05")
    power.add_argument("-o", "--output", type=Path, metavar="OUT.csv", help="also write a CSV")


def _power(args) -> int:

    if args.runs:
        rows = _power_of_runs(args)
    else:
        if args.problems is None or args.accuracy is None:
            raise DataError("power", "--problems N and --accuracy P, or two runs NAME=PATH")
        rows = _power_of_design(args)
    if args.output is not None:
        if args.output.suffix != ".csv":
            raise DataError(args.output, "an output ending in .csv", got=args.output.suffix)
        write_text_atomic(args.output, _csv(pl.DataFrame(rows, infer_schema_length=None)))
        print(f"wrote {args.output}")
    return 0


def _power_of_runs(args) -> list[dict]:
    """For each benchmark two runs share (at their last shared step): the agreement and the
    difference observed, what their benchmark can detect, and how many problems the observed
    difference would need."""
    from helpers import stats
    from helpers.runs import compare

    c = compare.compare(args.runs, adjust="none")
    last = c.differences.group_by("comparison", "benchmark", maintain_order=True).last()
    rows = []
    for r in last.iter_rows(named=True):
        if r["won"] is None:
            print(f"{r['benchmark']}: {r['comparison']}: scores only, no agreement to read")
            continue
        n, d = r["problems"], r["difference"]
        differing = (r["won"] + r["lost"]) / n
        detectable = (
            stats.minimum_detectable_difference(
                n, r["accuracy_a"], agreement=1 - differing, alpha=args.alpha, power=args.power
            )
            if differing > 0
            else math.nan
        )
        needed = stats.problems_needed(d, differing, args.alpha, args.power)
        rows.append(
            {
                "comparison": r["comparison"],
                "benchmark": r["benchmark"],
                "at": r["at"],
                "problems": n,
                "accuracy": r["accuracy_a"],
                "agreement": 1 - differing,
                "difference": d,
                "power": args.power,
                "alpha": args.alpha,
                "minimum_detectable_difference": None if detectable != detectable else detectable,
                "problems_needed": needed,
            }
        )
        can = "nothing" if detectable != detectable else f"{detectable * 100:.1f} points"
        need = "no difference to detect" if needed is None else f"about {needed:,} problems"
        print(
            f"{r['benchmark']}, {r['at']}: {r['comparison']}: {_pct(d)} points on {n} problems, "
            f"{1 - differing:.0%} answered alike; {n} problems detect {can} with "
            f"{args.power:.0%} power; the observed difference needs {need}"
        )
    return rows


def _power_of_design(args) -> list[dict]:
    from helpers import stats

    if args.problems < 1:
        raise DataError("--problems", "a positive number of problems", got=args.problems)
    if args.samples < 1:
        raise DataError("--samples", "a positive number of answers per problem", got=args.samples)
    designs = [("unpaired", None)] + ([("paired", args.agreement)] if args.agreement else [])
    rows = []
    at = f"with {args.power:.0%} power at two-sided {args.alpha:g}"
    for design, agreement in designs:
        if design == "paired" and args.samples > 1:
            print("paired: with several samples per problem, give two runs' logs instead")
            continue
        options = {"agreement": agreement, "alpha": args.alpha, "power": args.power}
        d = stats.minimum_detectable_difference(
            args.problems, args.accuracy, samples=args.samples, **options
        )
        low = (
            stats.minimum_detectable_difference(
                args.problems, args.accuracy, samples=args.samples, equally_hard=True, **options
            )
            if agreement is None
            else d
        )
        rows.append(
            {
                "design": design,
                "problems": args.problems,
                "accuracy": args.accuracy,
                "agreement": agreement,
                "samples": args.samples,
                "power": args.power,
                "alpha": args.alpha,
                "minimum_detectable_difference": None if d != d else d,
                "if_problems_equally_hard": None if low != low else low,
            }
        )
        how = "" if agreement is None else f", {agreement:.0%} of problems answered alike"
        if d != d:
            said = f"detect no difference {at}: the runs differ on too few problems"
        elif low < d:
            said = (
                f"detect {d * 100:.1f} points {at} if {args.samples} samples add nothing "
                f"(problems always or never solved), {low * 100:.1f} if the problems are "
                "equally hard"
            )
        else:
            said = f"detect {d * 100:.1f} points ({d * args.problems:.1f} problems) {at}"
        print(f"{design}{how}: {args.problems} problems at {args.accuracy:.0%} {said}")
    return rows


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


def _run(args) -> int:
    if args.command == "power":
        return _power(args)
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
        raise DataError(out, "an output ending in .html, .png, .svg or .csv", got=out.suffix)
    _check_output(out, _inputs(args))
    appendix = ""
    if args.command == "compare":
        make, c = _compare(args)
        table = c.differences
        chart = make() if out.suffix != ".csv" else None
        if out.suffix == ".html":
            from helpers.render import problems

            appendix = problems.section(c.problems)
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
            from helpers.render import export, theme

            theme.enable()
            export.save(chart.to_dict(), out, appendix)
    except OSError as e:
        raise DataError(out, "a place the output can be written", got=e.strerror) from None
    print(f"wrote {out}")
    return 0
