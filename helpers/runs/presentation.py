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
    if _mean_rewards(c):
        notes.append(f"{MEAN_REWARD}: every value of theirs is a mean reward")
    return notes


MEAN_REWARD = "rewards that are not 0/1 are compared as mean rewards, not accuracy"


def said_notes(c) -> list[str]:
    """The notes `compare` prints after its lines: what was left out, and how rewards that are
    not 0/1 were compared."""
    said = list(c.notes)
    if _mean_rewards(c):
        said.append(f"{MEAN_REWARD} (t over per-problem differences)")
    return said


def _mean_rewards(c) -> bool:
    """Whether any of the comparison's rows compares mean rewards (rewards not 0/1)."""
    return bool((c.differences["unit"] == "mean reward").any())


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
        "flips_said": drawn.flip_notes,
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


# ---- for a paper: the methods caption and a LaTeX table ----------------------------------------

ADJUSTED = {"holm": "Holm's method", "bh": "the Benjamini-Hochberg method"}
_LATEX = {
    "\\": r"\textbackslash{}", "&": r"\&", "%": r"\%", "$": r"\$", "#": r"\#", "_": r"\_",
    "{": r"\{", "}": r"\}", "~": r"\textasciitilde{}", "^": r"\textasciicircum{}",
}  # fmt: skip


def latex(text: object) -> str:
    """Text with LaTeX's special characters escaped (a run or benchmark name)."""
    return "".join(_LATEX.get(ch, ch) for ch in str(text))


def _counts(values, what: str, one: str | None = None) -> str:
    """'500 problems', or '30-500 problems' where the rows differ, `one` where every row has
    one; '' where none is known."""
    found = sorted({int(v) for v in values if v is not None})
    if not found:
        return ""
    if found == [1] and one:
        return one
    span = f"{found[0]:,}" if len(found) == 1 else f"{found[0]:,}-{found[-1]:,}"
    return f"{span} {what}"


def caption(c) -> str:
    """The methods behind a comparison's numbers, for a table's or figure's caption: the test
    and interval, the problems per benchmark, answers per problem, seeds per run, the
    decoding settings where the logs give them, the best-checkpoint selection, and the
    adjustment over how many tests."""
    d = c.differences
    others = ", ".join(c.runs[1:])
    said = [f"Difference in accuracy (percentage points) of {others} from the baseline {c.runs[0]}"]
    methods = list(dict.fromkeys(m for m in d["interval"] if m))
    levels = sorted({round(v, 6) for v in d["level"] if v is not None})
    level = (
        "95% intervals"
        if levels in ([], [0.95])
        else "intervals at the level that agrees with each adjusted test "
        f"({levels[0] * 100:.4g}% to {levels[-1] * 100:.4g}%)"
    )
    said.append(f"{level}: {'; '.join(methods)}" if methods else level)
    per = [
        f"{b}: {_counts(part['problems'], 'problems')}"
        for (b,), part in d.group_by("benchmark", maintain_order=True)
        if _counts(part["problems"], "problems")
    ]
    if per:
        said.append("paired on " + ", ".join(per))
    answers = _counts(
        [*d["samples_a"], *d["samples_b"]], "answers per problem", "one answer per problem"
    )
    seeds = _counts([*d["seeds_a"], *d["seeds_b"]], "seeds per run", "one seed per run")
    said += [x for x in (answers, seeds) if x]
    said.append(decoding(c.runs, c.decoding))
    if c.checkpoint == "best":
        said.append(
            "each run at its best checkpoint, the picking counted by a max-statistic bootstrap "
            "over problems"
        )
    tested = sum(p is not None for p in d["p_adjusted"])
    if tested == 1:
        said.append("one test, so no adjustment for several")
    elif tested > 1 and c.adjust in ADJUSTED:
        said.append(f"p-values adjusted by {ADJUSTED[c.adjust]} over {tested} tests")
    elif tested > 1:
        said.append(f"p-values not adjusted over {tested} tests")
    return "; ".join(said) + "."


def decoding(runs: list[str], logs: dict[str, list[dict]]) -> str:
    """How the answers were generated, as the runs' logs say: one phrase where every run
    says the same, else run by run; what no log says, said so."""

    def phrase(settings: dict) -> str:
        words = []
        if "temperature" in settings:
            t = settings["temperature"]
            words.append(f"temperature {t:g}" + (" (greedy)" if t == 0 else ""))
        if "top_p" in settings:
            words.append(f"top-p {settings['top_p']:g}")
        if "max_tokens" in settings:
            words.append(f"at most {settings['max_tokens']:,.0f} tokens")
        return ", ".join(words)

    said = {}
    for run in runs:
        phrases = {phrase(d) for d in logs.get(run, [])}
        said[run] = (
            phrases.pop() if len(phrases) == 1 else "differing across its logs" if phrases else ""
        )
    if not any(said.values()):
        return "decoding settings not in the logs"
    if len(set(said.values())) == 1:
        return f"decoding (every run): {said[runs[0]]}"
    parts = [f"{run} {words}" for run, words in said.items() if words]
    silent = [run for run, words in said.items() if not words]
    if silent:
        parts.append(f"not in the logs of {', '.join(silent)}")
    return "decoding: " + "; ".join(parts)


def latex_table(c) -> str:
    """The comparison as a booktabs table (no other package): per comparison, benchmark and
    step, both runs' accuracy (%), the difference and its interval (points, one decimal, as
    the CSV's values rounded), the adjusted p-value and the verdict; the caption says how."""
    d = c.differences
    several = d["comparison"].n_unique() > 1
    head = ["Comparison"] if several else []
    head += ["Benchmark", "Step", "Baseline" if several else latex(c.runs[0])]
    head += ["Run" if several else latex(c.runs[1]), "Difference [interval]", "$p$ (adj.)"]
    head.append("Verdict")
    rows = []
    for r in d.iter_rows(named=True):
        cells = [latex(r["comparison"])] if several else []
        step = r["step"] if r["step"] is not None else "--"
        cells += [latex(r["benchmark"]), latex(step)]
        cells += [_percent(r["accuracy_a"]), _percent(r["accuracy_b"])]
        cells.append(f"{points(r['difference'])} [{points(r['lo'])}, {points(r['hi'])}]")
        cells.append("--" if r["p_adjusted"] is None else f"{r['p_adjusted']:.2g}")
        cells.append({True: "separable", False: "not separable"}.get(r["separable"], "no test"))
        rows.append(cells)
    return _booktabs(caption(c), "l" * (len(head) - 5) + "rrrrl", head, rows)


def _percent(x: float | None) -> str:
    return "--" if x is None else f"{x * 100:.1f}"


def latex_accuracies(named: list[tuple[str, pl.DataFrame]]) -> str:
    """Runs' accuracies as a booktabs table: per run, benchmark and step, the accuracy and its
    Wilson 95% interval over problems (%, one decimal) and the problems counted (`named`:
    (run, table) as `results_json.run_accuracies` gives them)."""
    several = len(named) > 1
    head = (["Run"] if several else []) + ["Benchmark", "Step", "Accuracy [95\\% interval]"]
    head.append("Problems")
    problems = [n for _, t in named for n in t["problems"]]
    said = "Accuracy (%) with Wilson 95% score intervals counting problems"
    if any(n is None for n in problems):
        said += " (none where the log does not say how many problems)"
    caption = said + (f"; {_counts(problems, 'problems')}." if _counts(problems, "") else ".")
    rows = []
    for run, table in named:
        for r in table.iter_rows(named=True):
            cells = [latex(run)] if several else []
            cells += [latex(r["benchmark"]), "--" if r["step"] is None else latex(r["step"])]
            interval = "" if r["lo"] is None else f" [{_percent(r['lo'])}, {_percent(r['hi'])}]"
            cells += [
                _percent(r["accuracy"]) + interval,
                "--" if r["problems"] is None else str(r["problems"]),
            ]
            rows.append(cells)
    return _booktabs(caption, "l" * (len(head) - 2) + "rr", head, rows)


def _booktabs(caption_text: str, align: str, head: list[str], rows: list[list[str]]) -> str:
    """A table environment with a booktabs tabular (no other package): the caption (escaped
    here), the head, and the rows, whose cells are LaTeX already."""
    lines = [
        r"\begin{table}",
        r"\centering",
        r"\caption{" + latex(caption_text) + "}",
        r"\begin{tabular}{" + align + "}",
        r"\toprule",
        " & ".join(head) + r" \\",
        r"\midrule",
        *(" & ".join(cells) + r" \\" for cells in rows),
        r"\bottomrule",
        r"\end{tabular}",
        r"\end{table}",
    ]
    return "\n".join(lines) + "\n"
