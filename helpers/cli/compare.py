"""`python -m helpers compare`: runs compared with paired statistics, printed line by line, drawn,
and the flipped problems written out."""

from __future__ import annotations

from pathlib import Path

import polars as pl

from helpers.cli.shared import (
    check_output,
    check_seed_sd,
    command_parser,
    engine_arg,
    mapping,
    panels_per_row,
    reading_args,
    run_arg,
    write_csv,
)
from helpers.errors import DataError
from helpers.runs.choose import later

DESCRIPTION = """\
Compare runs: is the method's gain over the baseline real? Each RUN is NAME=PATH (or a bare
PATH, named after its file); the same NAME given several times means several seeds of one
method. The first run named is the baseline (or --baseline NAME). PATH is anything `plot`
reads: a per-sample table or folder, Qwen2.5-Math/SkyThought or lm-eval JSONL (a folder of them
per checkpoint, checkpoint-N/..., becomes a curve over N), or a W&B export (scores only). A
tracker's store of several runs (a wandb/ folder, a TensorBoard log dir, mlflow.db, a trackio
database) given as a bare PATH is each of its runs, named by run name; one of them is
NAME=PATH#RUN.

Where two runs' per-sample logs cover the same problems, the difference in accuracy gets a
95% interval that uses the pairing (Tango's score interval for one answer per problem, a t
interval over per-problem differences otherwise; each excludes 0 exactly when its test gives
p < 0.05), with the unpaired interval beside it and the problems won, lost and tied. Rewards
that are not 0/1 (a per-sample table's `reward` column; --map reward=KEY for answer dumps) are
compared by mean reward, by the same t interval over per-problem differences. With two seeds
or more in either run, the verdict counts training randomness (each run's seed variance over
its seeds, Satterthwaite's degrees of freedom); with one seed a run it cannot, and says so
(--seed-sd assumes a spread). --checkpoint best tests the picked checkpoints with the picking
counted (a max-statistic bootstrap over problems). The p-values are adjusted for every
comparison made (--adjust; Holm by default), 'separable' is decided on the adjusted value, and
each interval is printed at the level that agrees with it (its level is named, and is the CSV's
`level`). Score-only logs are compared unpaired, with intervals from
the benchmark's size. OUT: .html, .png, .svg or .pdf (--size column|page) for the charts; .csv
for one row per comparison, benchmark and step (differences as fractions); .tex for a booktabs
table under a caption naming the methods; .json for each run's results in the Every Eval Ever
schema.

examples:
  python -m helpers compare grpo=grpo/ mel=mel/ -o compare.html
  python -m helpers compare base=s1.parquet base=s2.parquet new=s3.parquet new=s4.parquet -o d.csv
  python -m helpers compare before.jsonl after.jsonl -o flips.png --benchmarks MATH500
  python -m helpers compare a=run_a/ b=run_b/ --checkpoint best -o best.csv
  python -m helpers compare mlflow.db --baseline grpo -o d.csv
"""


def add_parser(sub) -> None:
    parser = command_parser(
        sub,
        "compare",
        "compare runs (baseline vs method, seeds, checkpoints) with paired statistics",
        DESCRIPTION,
        ("runs", run_arg, "RUN", "NAME=PATH, or PATH (see above)"),
    )
    parser.add_argument(
        "--checkpoint",
        choices=["same", "best"],
        default="same",
        help="compare at every step both runs have (same, the default), or each run's best "
        "checkpoint per benchmark (best; its selection bias is reported)",
    )
    parser.add_argument("--baseline", metavar="NAME", help="the run the others are compared with")
    parser.add_argument(
        "--seed-sd",
        type=float,
        metavar="SD",
        help="assume a run's accuracy varies by SD (a fraction) from training seed to seed, "
        "and count it in every verdict (for runs of one seed, where the logs cannot tell)",
    )
    parser.add_argument(
        "--problems-out",
        type=Path,
        metavar="FILE.csv",
        help="also write the problems that flipped: each one's text, reference answer and "
        "both runs' answers where the logs hold them, whole",
    )
    parser.add_argument(
        "--adjust",
        choices=["holm", "bh", "none"],
        default="holm",
        help="adjust p-values for every comparison made (run pairs x benchmarks x steps): "
        "Holm (default), Benjamini-Hochberg (bh), or none; 'separable' is decided on the "
        "adjusted value",
    )
    reading_args(parser)
    parser.add_argument(
        "--columns", type=panels_per_row, default=3, help="panels per row (default 3)"
    )
    engine_arg(parser)


PROBLEM_COLUMNS = [
    "comparison", "benchmark", "at", "step_a", "step_b", "problem_id", "outcome",
    "accuracy_a", "accuracy_b", "difference", "question", "reference", "answer_a", "answer_b",
]  # fmt: skip


def _problems_out(c, out: Path, inputs: list) -> None:
    """The flipped problems, whole, as CSV (largest gain first in each comparison)."""
    if out.suffix != ".csv":
        raise DataError(out, "a --problems-out file ending in .csv", got=out.suffix)
    check_output(out, inputs)
    table = c.problems if c.problems.height else pl.DataFrame(schema=PROBLEM_COLUMNS)
    present = [col for col in PROBLEM_COLUMNS if col in table.columns]
    write_csv(out, table.select(present))
    print(f"wrote {out} ({table.height} problems that flipped)")


def run(args, loaded: dict | None = None) -> tuple[object, object]:
    """The comparison, its lines printed, and its chart to draw; `loaded` holds runs read
    already, by the path as given (a watch's)."""
    from helpers.runs import compare, presentation

    check_seed_sd(args.seed_sd)
    loaded = loaded or {}
    c = compare.compare(
        [(name, loaded.get(str(path), path)) for name, path in args.runs],
        benchmarks=args.benchmarks,
        checkpoint=args.checkpoint,
        baseline=args.baseline,
        problems=dict(args.problems or []),
        step_pattern=args.step_from_path,
        mapping=mapping(args),
        engine=args.engine,
        adjust=args.adjust,
        seed_sd=args.seed_sd,
    )
    for line in c.lines():
        print(line)
    if args.problems_out is not None:
        _problems_out(c, args.problems_out, [p for _, p in args.runs])
    for note in c.said_notes():
        print(f"note: {note}")
    chart_args, options = presentation.chart_arguments(c, title=args.title, columns=args.columns)
    return later("comparison", *chart_args, **options), c
