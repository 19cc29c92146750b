"""`python -m helpers power`: the smallest difference a benchmark can detect, from a design
(problems, accuracy, agreement, samples) or from two runs' logs."""

from __future__ import annotations

import functools
import math
from pathlib import Path

import polars as pl

from helpers.cli.shared import check_seed_sd, drawing_args, fraction, run_arg, write_output
from helpers.errors import DataError
from helpers.io import FORMATS
from helpers.runs.presentation import points


def add_parser(sub) -> None:
    power = sub.add_parser(
        "power",
        help="the smallest difference a benchmark of N problems can detect",
        description="The smallest difference in accuracy that two runs on the same N problems "
        "can show with the given power at two-sided level alpha: unpaired (two proportions, "
        "the normal approximation), and, given --agreement (the share of problems both runs "
        "answer alike), paired (McNemar's score test, the test compare uses; its power summed "
        "exactly up to 1,000 problems, Connor's approximation above). With --seeds S and "
        "--seed-sd, training randomness is added (seed variance / S per run). Given two runs "
        "with several samples or seeds per problem, or rewards that are not 0/1, the paired t "
        "test over per-problem differences (noncentral t).",
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
    power.add_argument(
        "--seeds",
        type=int,
        metavar="S",
        help="training seeds per run, each run's accuracy averaged over them: the variance is "
        "problem variance / N + seed variance / S per run (with --seed-sd, or read from two "
        "runs with several seeds each)",
    )
    power.add_argument(
        "--seed-sd",
        type=float,
        metavar="SD",
        help="standard deviation of a run's accuracy across training seeds (a fraction)",
    )
    power.add_argument(
        "--difference",
        type=float,
        metavar="D",
        help="also give the power at this difference (a fraction: 0.05 is 5 points; in reward "
        "units for rewards that are not 0/1), and say whether the benchmark can see it",
    )
    power.add_argument(
        "--budget",
        type=float,
        metavar="D",
        help="with two runs: split each run's accuracy's variance into answers, problems, "
        "seed x problem and training, and give the cheapest seeds x problems x answers per "
        "problem that detect D (a fraction)",
    )
    power.add_argument(
        "--seed-cost",
        type=float,
        default=10_000,
        metavar="C",
        help="with --budget: what training one seed costs, in answers generated (default 10,000)",
    )
    power.add_argument(
        "--max-problems",
        type=int,
        metavar="N",
        help="with --budget: problems there are (default: those the two runs share)",
    )
    power.add_argument("--power", type=fraction, default=0.8, help="default 0.8")
    power.add_argument("--alpha", type=fraction, default=0.05, help="default 0.05")
    power.add_argument(
        "-o",
        "--output",
        type=Path,
        metavar="OUT",
        help="also write the numbers (.csv) or the power against the difference, the smallest "
        "detectable difference marked on it (.html, .png, .svg, .pdf)",
    )
    drawing_args(power)


def run(args) -> int:
    if args.seeds is not None and args.seeds < 1:
        raise DataError("--seeds", "a positive number of seeds per run", got=args.seeds)
    check_seed_sd(args.seed_sd)
    if args.budget is not None:
        if len(args.runs) < 2:
            raise DataError("--budget", "two runs NAME=PATH to split the noise of")
        rows = _budget(args)
    elif args.runs:
        rows = _power_of_runs(args)
    else:
        if args.problems is None or args.accuracy is None:
            raise DataError("power", "--problems N and --accuracy P, or two runs NAME=PATH")
        rows = _power_of_design(args)
    if args.output is not None:
        out = args.output
        if out.suffix not in (".csv", *FORMATS) or (
            args.budget is not None and out.suffix != ".csv"
        ):
            expected = ".csv" if args.budget is not None else ".csv, .html, .png, .svg or .pdf"
            raise DataError(out, f"an output ending in {expected}", got=out.suffix)
        if args.size is not None and out.suffix != ".pdf":
            raise DataError(out, "a .pdf output for --size (it sets a PDF's page)", got=out.suffix)
        table = pl.DataFrame(rows, infer_schema_length=None)
        write_output(out, functools.partial(_chart, args, rows), table, "", args)
        print(f"wrote {out}")
    return 0


def _chart(args, rows: list[dict]):
    """Power against the difference: of the design asked for, or of each benchmark the two
    runs share."""
    from helpers import charts
    from helpers.runs import power_curves

    rewards = any(r.get("unit") == "mean reward" for r in rows)
    asked = ""
    if args.difference is not None:  # a fraction, or in reward units for rewards
        said = (
            f"{args.difference:g} in mean reward"
            if rewards
            else f"{args.difference * 100:g} points"
        )
        asked = f"; diamond: the {said} asked about"
    if args.runs:
        curves, marks = power_curves.run_curves(rows, args.difference)
        paired = [r.get("design") == "paired t" for r in rows]
        tests = [
            *(["McNemar's test on the problems the runs answer differently"] * (not all(paired))),
            *(["the paired t test over per-problem differences"] * any(paired)),
        ]
        return charts.power_against_difference(
            curves,
            marks,
            power=args.power,
            title="Could these runs be told apart? Power against difference",
            subtitle=[
                f"line: chance of a separable result at two-sided {args.alpha:g} on these "
                f"problems, as the runs answer them ({'; '.join(tests)})",
                f"circle: the smallest difference detected with {args.power:.0%} power{asked}",
                "dotted rule: the difference observed; grey dashed rule: the power asked for",
            ],
            unit="mean reward" if rewards else "percentage points",
            by_panel=True,  # a panel a benchmark
        )
    curves, marks = power_curves.design_curves(rows, args.difference)
    return charts.power_against_difference(
        curves,
        marks,
        power=args.power,
        title=f"What {args.problems:,} problems at {args.accuracy:.0%} accuracy can detect",
        subtitle=[
            f"line: chance that two runs this far apart come out separable at two-sided "
            f"{args.alpha:g}",
            f"circle: the smallest difference detected with {args.power:.0%} power{asked}",
            "grey dashed rule: the power asked for",
            *_paired_reach(rows),
        ],
    )


def _paired_reach(rows: list[dict]) -> list[str]:
    """Why a paired line stops short: runs that answer a share of the problems alike can
    differ by at most the rest."""
    return [
        f"the paired line ends at {(1 - r['agreement']) * 100:g} points: runs that answer "
        f"{r['agreement']:.0%} of the problems alike differ by at most the other "
        f"{1 - r['agreement']:.0%}"
        for r in rows
        if r.get("agreement") is not None
    ]


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
        one_answer = r["samples_a"] == r["samples_b"] == r["seeds_a"] == r["seeds_b"] == 1
        if not one_answer or r["unit"] == "mean reward" or args.seeds or args.seed_sd:
            rows.append(_t_power_of_runs(args, c, r))
            continue
        n, d = r["problems"], r["difference"]
        differing = (r["won"] + r["lost"]) / n
        # the paired size rests on the problems that differ; the accuracy is only checked, so
        # a baseline at 0% or 100% takes the runs' mean (kept inside 0-1)
        near = min(max((r["accuracy_a"] + r["accuracy_b"]) / 2, 1e-9), 1 - 1e-9)
        detectable = (
            stats.minimum_detectable_difference(
                n, near, agreement=1 - differing, alpha=args.alpha, power=args.power
            )
            if differing > 0
            else math.nan
        )
        # by the power that found `detectable`, so the two never contradict each other
        needed = stats.problems_for(
            d,
            differing,
            near=n,
            detectable=None if detectable != detectable else detectable,
            alpha=args.alpha,
            power=args.power,
        )
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
        can = "nothing" if detectable != detectable else f"{_pts(detectable)} points"
        need = "no difference to detect" if needed is None else f"about {needed:,} problems"
        line = (
            f"{r['benchmark']}, {r['at']}: {r['comparison']}: {points(d)} points on {n} problems, "
            f"{1 - differing:.0%} answered alike; {n} problems detect {can} with "
            f"{args.power:.0%} power; the observed difference needs {need}"
        )
        if args.difference is not None:
            at = (
                stats.mcnemar_power(n, differing, args.difference, args.alpha)
                if abs(args.difference) <= differing
                else None
            )
            rows[-1]["power_at_difference"] = at
            line += "; " + _can_see(args, at, n)
        print(line)
    return rows


def _difference_sd(c, r: dict) -> float:
    """The standard deviation of the per-problem differences behind a comparison's last row:
    its problems that moved (`Comparison.problems`, at the same steps) and the tied ones."""
    moved = c.problems
    if moved.height:
        moved = moved.filter(
            pl.col("comparison") == r["comparison"], pl.col("benchmark") == r["benchmark"]
        )
    squares = float((moved["difference"] ** 2).sum()) if moved.height else 0.0
    n = r["problems"]
    return math.sqrt(max(0.0, squares - n * r["difference"] ** 2) / (n - 1)) if n > 1 else 0.0


def _seed_sd(c, r: dict) -> float | None:
    """A run's accuracy's standard deviation from seed to seed, as the comparison's verdict
    counts it (`compare`'s `seed_variance`, each run's seed component over its seeds: the
    spread solved back to one run's); None where neither run has two seeds."""
    if r["seed_variance"] is None:
        return None
    return math.sqrt(r["seed_variance"] / (1 / r["seeds_a"] + 1 / r["seeds_b"]))


def _t_power_of_runs(args, c, r: dict) -> dict:
    """Runs with several samples (or seeds) per problem, or rewards that are not 0/1: the
    paired t test over per-problem differences, its detectable difference and the problems
    the observed one needs, with the seeds' variance where the runs (or --seed-sd) give it."""
    from helpers import stats

    n, d = r["problems"], r["difference"]
    sd = _difference_sd(c, r)
    seeds = args.seeds or min(r["seeds_a"], r["seeds_b"])
    seed_sd = args.seed_sd if args.seed_sd is not None else _seed_sd(c, r)
    options = {"seeds": seeds, "seed_sd": seed_sd or 0.0, "alpha": args.alpha, "power": args.power}
    spread = sd > 0 or (seed_sd or 0) > 0
    detectable = stats.paired_t_solve(sd, problems=n, **options) if n > 1 and spread else None
    needed = stats.paired_t_solve(sd, difference=d, **options) if spread else None
    reward = r["unit"] == "mean reward"

    def show(x: float) -> str:
        return f"{x:+.3f} mean reward" if reward else f"{x * 100:+.1f} points"

    can = "nothing measurable" if detectable is None else show(detectable).lstrip("+")
    need = "no difference to detect" if needed is None else f"about {needed:,} problems"
    if d and needed is None and seed_sd:
        need = "more seeds: the seeds' variance alone hides it"
    samples = min(r["samples_a"], r["samples_b"])
    seeded = f", {seeds} seeds per run (seed sd {seed_sd:.3f})" if seed_sd is not None else ""
    line = (
        f"{r['benchmark']}, {r['at']}: {r['comparison']}: {show(d)} on {n} problems "
        f"({samples} sample{'s' * (samples != 1)} per problem{seeded}), "
        f"per-problem differences sd {sd:.3f}; "
        f"{n} problems detect {can} with {args.power:.0%} power (paired t test); the "
        f"observed difference needs {need}"
    )
    at = None
    if args.difference is not None and n > 1 and spread:
        at = stats.paired_t_power(
            n, sd, args.difference, seeds=seeds, seed_sd=seed_sd or 0.0, alpha=args.alpha
        )
    if args.difference is not None:
        line += "; " + _can_see(args, at, n, unit="" if reward else None)
    print(line)
    return {
        **({"power_at_difference": at} if args.difference is not None else {}),
        "comparison": r["comparison"],
        "benchmark": r["benchmark"],
        "at": r["at"],
        "design": "paired t",
        "unit": r["unit"],
        "problems": n,
        "samples": samples,
        "seeds": seeds,
        "accuracy": r["accuracy_a"],
        "difference": d,
        "difference_sd": sd,
        "seed_sd": seed_sd,
        "power": args.power,
        "alpha": args.alpha,
        "minimum_detectable_difference": detectable,
        "problems_needed": needed,
    }


def _budget(args) -> list[dict]:
    """The noise budget of two runs (`runs.budget`), printed part by part, and its cheapest
    designs, one CSV row per design."""
    from helpers.runs import budget

    if args.budget == 0 or args.seed_cost < 0:
        raise DataError("--budget", "a difference other than 0, and a seed cost of 0 or more")
    found = budget.noise_budgets(
        args.runs,
        args.budget,
        seed_cost=args.seed_cost,
        max_problems=args.max_problems,
        alpha=args.alpha,
        power=args.power,
    )
    for line in budget.lines(found, args.budget, seed_cost=args.seed_cost, power=args.power):
        print(line)
    return budget.designs_table(found).to_dicts()


def _pts(x: float) -> str:
    """A difference in points, to one decimal, or to two significant digits below 0.1 (a
    benchmark of 10^12 problems detects about 0.00012 points, not "0.0")."""
    return f"{x * 100:.1f}" if abs(x) >= 0.001 else f"{x * 100:.2g}"


def _can_see(args, at: float | None, problems: int, unit: str | None = None) -> str:
    """Whether `problems` problems can see --difference, in words: its power there against the
    power asked for."""
    d = args.difference
    said = f"{d:+.3f} mean reward" if unit == "" else f"{d * 100:.1f} points"
    if at is None:
        return f"{said}: no power to give (more than the problems that differ allow)"
    verdict = (
        "yes"
        if at >= args.power
        else f"not reliably (below the {args.power:.0%} asked)"
        if at >= 0.5
        else "no: more often missed than found"
    )
    return f"can {problems} problems see {said}? {verdict}, with {at:.0%} power"


def _power_of_design(args) -> list[dict]:
    from helpers import stats

    if args.problems < 1:
        raise DataError("--problems", "a positive number of problems", got=args.problems)
    if args.samples < 1:
        raise DataError("--samples", "a positive number of answers per problem", got=args.samples)
    seeded = args.seeds is not None or args.seed_sd is not None
    if seeded and (args.seeds is None or args.seed_sd is None):
        raise DataError(
            "--seeds" if args.seeds is None else "--seed-sd",
            "--seeds S with --seed-sd SD (a run's accuracy's sd across seeds), or two runs "
            "NAME=PATH with several seeds each",
        )
    designs = [("unpaired", None)] + ([("paired", args.agreement)] if args.agreement else [])
    rows = []
    at = f"with {args.power:.0%} power at two-sided {args.alpha:g}"
    for design, agreement in designs:
        if design == "paired" and args.samples > 1:
            print("paired: with several samples per problem, give two runs' logs instead")
            continue
        options = {"agreement": agreement, "alpha": args.alpha, "power": args.power}
        formula = stats.minimum_detectable_difference
        if seeded:  # each run's variance: problem variance / N + seed variance / S
            formula = functools.partial(
                stats.seeded_detectable_difference, seeds=args.seeds, seed_sd=args.seed_sd
            )
        d = formula(args.problems, args.accuracy, samples=args.samples, **options)
        low = (
            formula(
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
                **({"seeds": args.seeds, "seed_sd": args.seed_sd} if seeded else {}),
                "power": args.power,
                "alpha": args.alpha,
                "minimum_detectable_difference": None if d != d else d,
                "if_problems_equally_hard": None if low != low else low,
            }
        )
        seen = ""
        if args.difference is not None:
            chance = stats.design_power(
                args.problems,
                args.accuracy,
                args.difference,
                agreement=agreement,
                seeds=args.seeds or 1,
                seed_sd=args.seed_sd or 0.0,
                alpha=args.alpha,
            )
            rows[-1]["power_at_difference"] = chance
            seen = "; " + _can_see(args, chance, args.problems)
            if agreement is None and args.samples > 1:
                seen += " (if the samples add nothing)"
        how = "" if agreement is None else f", {agreement:.0%} of problems answered alike"
        if seeded:
            how += f", {args.seeds} seeds per run (seed sd {args.seed_sd * 100:.1f} points)"
        if d != d:
            said = f"detect no difference {at}: the runs differ on too few problems"
        elif low < d:
            answers = f"{args.samples} samples"
            if seeded:  # equally hard problems: each seed's answers are fresh draws too
                answers = (
                    f"{args.seeds} seeds"
                    if args.samples == 1
                    else f"{args.samples} samples and {args.seeds} seeds"
                )
            said = (
                f"detect {_pts(d)} points {at} if {answers} add nothing "
                f"(problems always or never solved), {low * 100:.1f} if the problems are "
                "equally hard"
            )
        else:
            said = f"detect {_pts(d)} points ({d * args.problems:,.1f} problems) {at}"
        print(f"{design}{how}: {args.problems} problems at {args.accuracy:.0%} {said}{seen}")
    return rows
