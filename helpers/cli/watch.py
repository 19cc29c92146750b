"""`python -m helpers watch`: follow runs while they train. Every few seconds it looks at each
input; one that grew is read on from where it was (`readers.follow`), each newly evaluated
step is said in one line (the accuracies with their intervals; with a baseline, the difference
and its verdict as `compare` gives them), and OUT is written again, whole, as `plot` or
`compare` would write it for the logs so far (from the runs as read, not read again). It ends
after --idle-exit seconds with no growth, saying which runs stalled, or on Ctrl-C, OUT whole
either way."""

from __future__ import annotations

import argparse
import contextlib
import io
import sys
import time
from pathlib import Path

from helpers.cli.shared import mapping, number, reading_args, run_arg
from helpers.errors import DataError

DESCRIPTION = """\
Follow runs while they train: RUN is NAME=PATH, or a bare PATH, anything `plot` reads that can
grow (verl's file logger and console logs, TensorBoard event files, W&B and SwanLab run folders,
MLflow stores, trackio, prime-rl metrics, answer-dump folders, per-sample tables). Every
--every seconds each input is looked at; one that grew is read on from where it was (a log
written by appending: its new lines or records, one still being written waited for; a file
replaced, read anew; a store of runs or a database, read whole), and each newly evaluated
step gets a line:

  grpo: step 120  math500 56.2% [51.8%, 60.5%]; aime24 13.3% [5.3%, 29.7%]

With --baseline NAME (and two runs or more) the difference from the baseline follows, as
`compare` prints it. -o OUT (.html, .png, .svg, .pdf, .csv) is written again, whole, after
every change: what `plot` (one run) or `compare` (several) would write for the logs so far. The
watch ends when every run's log says it ended (W&B's exit record, SwanLab's end record, an
Inspect log's final status), after --idle-exit seconds without growth (saying which runs
stalled), or on Ctrl-C.

examples:
  python -m helpers watch outputs/metrics.jsonl -o live.html
  python -m helpers watch grpo=runs/grpo/ mel=runs/mel/ --baseline grpo --every 30 -o d.csv
"""


def _seconds(text: str) -> float:
    expected = f"expected seconds, more than 0; got {text!r}"
    return number(text, float, lambda v: 0 < v <= 86400, expected)


def add_parser(sub) -> None:
    parser = sub.add_parser(
        "watch",
        help="follow runs while they train: a line per new step, OUT kept up to date",
        description=DESCRIPTION,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("runs", nargs="+", type=run_arg, metavar="RUN", help="NAME=PATH or PATH")
    parser.add_argument("-o", "--output", type=Path, metavar="OUT", help="kept up to date")
    parser.add_argument("--baseline", metavar="NAME", help="compare the others with this run")
    parser.add_argument(
        "--every", type=_seconds, default=15.0, metavar="SECONDS", help="look every (15)"
    )
    parser.add_argument(
        "--idle-exit",
        type=_seconds,
        metavar="SECONDS",
        help="end after this long with no input growing (default: watch until Ctrl-C)",
    )
    parser.add_argument("--benchmarks", nargs="+", metavar="NAME", help="only these benchmarks")
    reading_args(parser)


def _quietly(main, argv: list[str], loaded: dict) -> None:
    """OUT written by `plot` or `compare` themselves (`main`, the command line's, given the
    runs as read so far; their lines kept out of the watch's)."""
    err = io.StringIO()
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(err):
        code = main(argv, loaded=loaded)
    if code != 0:
        raise DataError(argv[-1], "an output written from the logs so far", got=err.getvalue())


def _output_argv(args, names: list[str]) -> list[str]:
    options = []
    for m in args.map or []:
        options += ["--map", m]
    if args.problems:
        options += ["--problems", *(f"{n}={k}" for n, k in args.problems)]
    if args.step_from_path:
        options += ["--step-from-path", args.step_from_path]
    if args.benchmarks:
        options += ["--benchmarks", *args.benchmarks]
    if len(args.runs) > 1:
        runs = [f"{name}={path}" for name, path in args.runs]
        baseline = ["--baseline", args.baseline] if args.baseline else []
        return ["compare", *runs, *baseline, *options, "-o", str(args.output)]
    return ["plot", str(args.runs[0][1]), *options, "-o", str(args.output)]


def run(args, main) -> int:
    """The watch; `main` is the command line's, which writes OUT as `plot` or `compare`."""
    from helpers.runs.watch import Watching

    watching = Watching(
        args.runs,
        baseline=args.baseline,
        benchmarks=args.benchmarks,
        mapping=mapping(args),
        problems=dict(args.problems or []),
        step_pattern=args.step_from_path,
    )
    names = [name for name, _ in args.runs]
    started = time.monotonic()
    try:
        while True:
            now = time.monotonic()
            grown, said = watching.look(now)
            for line in said:
                print(line, flush=True)
            if grown and args.output is not None and watching.readable:
                _quietly(main, _output_argv(args, names), watching.loaded)
            if watching.ended():  # every log says its run ended: nothing more to come
                for w in watching.watched:
                    print(f"{w.name}: ended", flush=True)
                return 0
            if args.idle_exit is not None and watching.quiet_for(now, started) >= args.idle_exit:
                for w in watching.watched:
                    said = "ended" if w.ended else "stalled"
                    print(f"{w.name}: {said}: no growth for {now - (w.grew_at or started):.0f} s")
                return 0
            time.sleep(args.every)
    except KeyboardInterrupt:
        print("stopped" + (f"; {args.output} is whole" if args.output else ""), file=sys.stderr)
        return 0
