"""`python -m helpers power`: the smallest difference a benchmark can detect, from a design
(problems, accuracy, agreement, samples) or from two runs' logs."""

from __future__ import annotations

import math
from pathlib import Path

import polars as pl

from helpers.cli.shared import csv_text, fraction, points, run_arg
from helpers.errors import DataError
from helpers.io import write_text_atomic


def add_parser(sub) -> None:
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
        type=run_arg,
        metavar="RUN",
        help="NAME=PATH of two runs (as for compare): agreement and accuracy from their logs",
    )
    power.add_argument("--problems", type=int, metavar="N")
    power.add_argument("--accuracy", type=fraction, metavar="P")
    power.add_argument("--agreement", type=fraction, metavar="A")
    power.add_argument(
        "--samples",
        type=int,
        default=1,
        metavar="K",
        help="answers per problem, accuracy averaged over them (unpaired): prints the range "
        "from problems always-or-never solved (samples add nothing) to equally hard ones",
    )
    power.add_argument("--power", type=fraction, default=0.8, help="default 0.8")
    power.add_argument("--alpha", type=fraction, default=0.05, help="default 0.05")
    power.add_argument("-o", "--output", type=Path, metavar="OUT.csv", help="also write a CSV")


def run(args) -> int:

    if args.runs:
        rows = _power_of_runs(args)
    else:
        if args.problems is None or args.accuracy is None:
            raise DataError("power", "--problems N and --accuracy P, or two runs NAME=PATH")
        rows = _power_of_design(args)
    if args.output is not None:
        if args.output.suffix != ".csv":
            raise DataError(args.output, "an output ending in .csv", got=args.output.suffix)
        write_text_atomic(args.output, csv_text(pl.DataFrame(rows, infer_schema_length=None)))
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
            f"{r['benchmark']}, {r['at']}: {r['comparison']}: {points(d)} points on {n} problems, "
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
