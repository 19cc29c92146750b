"""A comparison in words and as a chart: the lines `compare` prints, what its chart's subtitle
says, and the chart itself, made here once for the command line and notebook 007 alike."""

from __future__ import annotations

import polars as pl

from helpers.runs import drawable


def points(x: float | None) -> str:
    """A difference (a fraction) in signed percentage points: +5.2."""
    return "?" if x is None else f"{x * 100:+.1f}"


def lines(c) -> list[str]:
    """One line per comparison and benchmark, at the last row compared (the last shared step,
    or the best checkpoints)."""
    lines = []
    last = c.differences.group_by("comparison", "benchmark", maintain_order=True).last()
    for r in last.iter_rows(named=True):
        reward = r["unit"] == "mean reward"  # rewards that are not 0/1: in their own units
        show = reward_value if reward else points
        line = (
            f"{r['benchmark']}, {r['at']}: {r['comparison']}: {show(r['difference'])} "
            f"{'mean reward' if reward else 'points'}, "
            f"{level_text(r['level'])} [{show(r['lo'])}, {show(r['hi'])}] ({r['interval']})"
        )
        if r["p_value"] is not None:
            adjusted = (
                ""
                if r["p_adjusted"] == r["p_value"]
                else f", adjusted {p_text(r['p_adjusted'], r['interval'])}"
            )
            line += f"; p {p_text(r['p_value'], r['interval'])}{adjusted}: {verdict(r)}"
        if r["won"] is not None:
            line += (
                f"; unpaired [{show(r['unpaired_lo'])}, {show(r['unpaired_hi'])}]; "
                f"problems won {r['won']}, lost {r['lost']}, tied {r['tied']}"
            )
        if r["seed_variance"] is not None and r["problem_variance"] is not None:
            seeds, problems = r["seed_variance"] ** 0.5, r["problem_variance"] ** 0.5
            which = "training randomness" if seeds > problems else "problem sampling"
            scale, unit = (1, "") if reward else (100, " points")
            line += (
                f"; spread from seeds ({r['seeds_a']} and {r['seeds_b']}) "
                f"{seeds * scale:.{3 if reward else 1}f}{unit}, from problems "
                f"{problems * scale:.{3 if reward else 1}f}: {which} dominates"
            )
        for run in (r["run_a"], r["run_b"]):
            if run in c.status:
                line += f"; {run} did not finish ({c.status[run]}): a partial score"
        if r["selection_bias_b"] is not None:
            line += (
                f"; picking the best of {r['checkpoints_b']} and {r['checkpoints_a']} checkpoints "
                f"can overstate each score by up to about {r['selection_bias_b'] * 100:.1f} and "
                f"{r['selection_bias_a'] * 100:.1f} points"
            )
        lines.append(line)
    return lines


def level_text(level: float | None) -> str:
    """An interval's level in words: 95%, or the adjusted level (98.33%)."""
    return "95%" if level is None else f"{level * 100:.4g}%"


def p_text(p: float, method: str = "") -> str:
    """`= 0.012`, or `< 0.0001` for a bootstrap's p of 0 (it is below one in its resamples)."""
    from helpers.stats import BOOTSTRAP_RESAMPLES

    if p == 0 and "resamples" in method:  # every bootstrap here draws BOOTSTRAP_RESAMPLES
        return f"< {1 / BOOTSTRAP_RESAMPLES:.2g}"
    return f"= {p:.2g}"


def verdict(r: dict) -> str:
    """The verdict in words a newcomer reads right: not separable is not "no difference"."""
    if r["separable"] is None:
        return "no test"
    return "separable" if r["separable"] else "not separable (cannot tell apart at this size)"


def reward_value(x: float | None) -> str:
    return "?" if x is None else f"{x:+.3f}"


def compared_at(c) -> str:
    """What was compared with what, in words, for the chart's subtitle."""
    if c.checkpoint == "best":
        return "compared at each run's best checkpoint"
    d = c.differences
    if d["step_a"].is_null().all() and d["step_b"].is_null().all():
        return "one evaluation of each run"
    differ = d.filter(pl.col("step_a") != pl.col("step_b"))
    if differ.height:  # a run pinned to a checkpoint (PATH@STEP)
        pairs = differ.select("step_a", "step_b").unique(maintain_order=True).rows()
        said = ", ".join(f"step {b} vs step {a}" for a, b in pairs[:3])
        return f"compared at the checkpoints given: {said}" + (" ..." if len(pairs) > 3 else "")
    return "compared at the same steps"


def partial_notes(c) -> list[str]:
    """What the chart says of runs that did not finish, and of rewards that are not 0/1."""
    notes = [f"{run} did not finish ({said}): a partial score" for run, said in c.status.items()]
    if (c.differences["unit"] == "mean reward").any():
        notes.append(f"{MEAN_REWARD}: every value of theirs is a mean reward")
    return notes


MEAN_REWARD = "rewards that are not 0/1 are compared as mean rewards, not accuracy"


def chart_arguments(
    c, *, title: str | None = None, lead: str | None = None, columns: int | None = None
):
    """The arguments of `charts.comparison` for a comparison: its frames fitted to what the
    chart can show, the title (by default the runs against the baseline) and a subtitle that
    opens with `lead` (by default what was compared with what) and says what was left out;
    `columns` panels a row (by default the chart's)."""
    drawn = drawable.comparison(c)  # fitted to what the chart can show (long runs thinned)
    drawn.notes += partial_notes(c)
    if lead is None:  # the default title names the baseline already
        lead = compared_at(c) if title is None else f"baseline: {c.runs[0]}; {compared_at(c)}"
    args = (drawn.curves, drawn.differences, drawn.problems, c.runs)
    return args, {
        "title": title or f"{', '.join(c.runs[1:])} against {c.runs[0]}",
        "subtitle": drawable.subtitle(lead, drawn.notes),
        "counts": drawn.counts,  # set where too many problems flipped to draw one by one
    } | ({} if columns is None else {"columns": columns})


def comparison_chart(
    c, *, title: str | None = None, lead: str | None = None, columns: int | None = None
):
    """The comparison's chart (`charts.comparison`): each run's curve with its band, the
    differences with their intervals, the problems that flipped.

    >>> from helpers.runs import compare, examples
    >>> c = compare.compare(examples.comparison_logs())
    >>> comparison_chart(c).to_dict()["title"]["text"]
    'method against baseline'
    """
    from helpers import charts

    args, options = chart_arguments(c, title=title, lead=lead, columns=columns)
    return charts.comparison(*args, **options)
