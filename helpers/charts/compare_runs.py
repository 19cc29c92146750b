"""Comparing runs: curves of several runs (seeds as a band), the paired differences over steps
with their intervals, and the problems that flipped. Drawn from `helpers.runs.compare`'s frames."""

from __future__ import annotations

import math
from collections.abc import Sequence

import altair as alt
import polars as pl

from helpers.charts import _compose as compose
from helpers.charts._common import panel_title
from helpers.charts._tooltips import tip, with_interval
from helpers.render.theme import COLOURS, RUN_COLOURS, RUN_SHAPES

# A difference of accuracies is in percentage points: "+28%" would read as a relative gain.
POINTS = "datum.value == 0 ? '0' : format(datum.value * 100, '+.0f')"  # signed; 0 as 0
POINTS_TITLE = "Difference in accuracy (percentage points)"
CHEVRON_UP, CHEVRON_DOWN = "M-1,0.4L0,-0.6L1,0.4", "M-1,-0.4L0,0.6L1,-0.4"  # a bar cut short
# rewards that are not 0/1 are compared as mean rewards, in their own units
REWARD_TITLE = "Difference in mean reward"


def _run_colour(runs: Sequence[str]) -> alt.Color:
    return (
        alt.Color("run:N")
        .scale(domain=list(runs), range=RUN_COLOURS[: len(runs)])
        .legend(title="run", orient="top", symbolOpacity=1)
    )


def _run_shape(field: str, names: Sequence[str], first: int = 0) -> alt.Shape:
    """A point shape per run (or comparison), beside its colour, so that runs are told apart
    in greyscale print too; titled as the colour's legend, so the two make one legend. (A dash
    per run as well drew each legend symbol with its line's dash around it, a broken
    triangle: the shapes on every point of a curve are enough.)"""
    title = "run" if field == "run" else "difference"
    return (
        alt.Shape(f"{field}:N")
        .scale(domain=list(names), range=RUN_SHAPES[first : first + len(names)])
        .legend(title=title, orient="top")
    )


def _panels(frame: pl.DataFrame, by: str = "benchmark") -> pl.DataFrame:
    """A `panel` number per value of `by` in the order first seen: panels are sorted by it,
    never by a list of names (Vega-Lite writes such a list into an expression)."""
    names = frame[by].unique(maintain_order=True).to_list()
    return frame.with_columns(panel=pl.col(by).replace_strict(names, list(range(len(names)))))


def _facet(chart: alt.Chart, columns: int, by: str = "benchmark") -> alt.FacetChart:
    return chart.facet(
        facet=alt.Facet(f"{by}:N", title=None).sort(field="panel", op="min"), columns=columns
    ).resolve_scale(y="independent", x="independent")


def run_curves(
    curves: pl.DataFrame, runs: Sequence[str], *, columns: int = 3, rewards: bool = False
) -> alt.FacetChart:
    """Accuracy of each run over steps, one panel per benchmark and one colour per run: the
    mean over seeds (line and points), its band (`band` says what it is: the range across
    seeds, or a Wilson interval over problems), and each seed as a faint line. A run evaluated
    once (no step) is a dashed level across the panel; when no run has steps, each run is a
    point with its interval."""
    data = _panels(
        curves.sort("benchmark", "run", "step", nulls_last=True).select(
            "run", "seed", "benchmark", "step", "kind", "accuracy", "lo", "hi", "band", "problems"
        )
    )
    colour = _run_colour(runs)
    what = "Mean reward" if rewards else "Accuracy"  # the values sit in `accuracy` either way
    y = alt.Y("accuracy:Q").title(what).axis(format="~g" if rewards else ".0%").scale(zero=False)
    tooltip = [
        tip("run:N", "Run"),
        tip("benchmark:N", "Benchmark"),
        tip("step:Q", "Step"),
        *with_interval("accuracy", ".3f", what),
        tip("band:N", "Band"),
        tip("problems:Q", "Problems"),
    ]
    mean = alt.datum.kind == "mean"
    if data["step"].is_null().all():
        x = alt.X("run:N").title(None).sort(list(runs)).axis(labelAngle=0)
        base = alt.Chart().transform_filter(mean).encode(x=x, color=colour)
        layers = [
            base.mark_rule(strokeWidth=2).encode(y="lo:Q", y2="hi:Q").properties(name="band"),
            base.mark_point(filled=True, size=80, opacity=1)
            .encode(y=y, tooltip=tooltip, shape=_run_shape("run", runs))
            .properties(name="mean"),
        ]
    else:
        x = alt.X("step:Q").title("Step")
        base = alt.Chart().encode(x=x, color=colour)
        # a run evaluated once (no step: a fixed model) is a level across the whole panel;
        # layers with no rows are left out (an empty layer makes Vega warn of an empty extent)
        once = mean & ~alt.expr.isValid(alt.datum.step)
        fixed = alt.Chart().transform_filter(once).encode(color=colour)
        means = data.filter(pl.col("kind") == "mean")
        layers = []
        if means["step"].null_count():
            layers += [
                fixed.mark_rect(opacity=0.12)
                .encode(y="lo:Q", y2="hi:Q")
                .properties(name="level band"),
                fixed.mark_rule(strokeDash=[6, 3], strokeWidth=2)
                .encode(y=y, tooltip=tooltip)
                .properties(name="level"),
            ]
        if means["lo"].is_not_null().any():
            layers.append(
                base.transform_filter(mean & alt.expr.isValid(alt.datum.lo))
                .mark_area(opacity=0.15)
                .encode(y=alt.Y("lo:Q").title(what), y2="hi:Q", detail="run:N")
                .properties(name="band")
            )
        if (data["kind"] == "seed").any():
            layers.append(
                base.transform_filter(alt.datum.kind == "seed")
                .mark_line(opacity=0.3, strokeWidth=1)
                .encode(y=y, detail="seed:N")
                .properties(name="seeds")
            )
        layers.append(
            base.transform_filter(mean)
            .mark_line(point=alt.OverlayMarkDef(filled=True, size=30))
            .encode(y=y, tooltip=tooltip, shape=_run_shape("run", runs))
            .properties(name="mean")
        )
    return _facet(compose.layer(*layers, data=data).properties(width=260, height=170), columns)


def paired_differences(
    differences: pl.DataFrame, *, columns: int = 3, rewards: bool = False
) -> alt.FacetChart:
    """Accuracy of each method minus the baseline, one panel per benchmark: the difference
    (points), its paired 95% interval (bars) and the unpaired one beside it (light bars),
    against a rule at zero. Over steps where the runs have them; else one point per pair."""
    data = _panels(
        differences.sort("benchmark", "comparison", "step_b", nulls_last=True).select(
            "comparison",
            "benchmark",
            "at",
            "step",
            "difference",
            "lo",
            "hi",
            "interval",
            "level",
            "p_adjusted",
            "separable",
            "unpaired_lo",
            "unpaired_hi",
            "won",
            "lost",
            "tied",
            "problems",
        )
    )
    compared = data["comparison"].unique(maintain_order=True).to_list()
    colour = (
        alt.Color("comparison:N")
        .scale(domain=compared, range=RUN_COLOURS[1 : 1 + len(compared)])
        .legend(title="difference", orient="top", symbolOpacity=1)
    )
    over_steps = data["step"].is_not_null().all()
    x = (
        alt.X("step:Q").title("Step")
        if over_steps
        else alt.X("at:N").title(None).axis(labelAngle=0, labelLimit=220)
    )
    limit = difference_limit(differences)
    # padded: the zero rule, where every difference is on one side, is clear of the axis line
    scale = (
        alt.Scale(padding=10) if limit is None else alt.Scale(domain=[-limit, limit], clamp=True)
    )
    y = alt.Y("difference:Q", **_difference_axis(rewards)).scale(scale)
    tooltip = [
        tip("comparison:N", "Comparison"),
        tip("at:N", "Compared at"),
        tip("difference:Q", REWARD_TITLE if rewards else "Difference in accuracy", "+.3f"),
        tip("lo:Q", "Interval, low (at the level below)", "+.3f"),
        tip("hi:Q", "Interval, high (at the level below)", "+.3f"),
        tip("interval:N", "Interval and test"),
        tip("level:Q", "Level of the interval (adjusted)", ".4p"),
        tip("p_adjusted:Q", "p-value, adjusted", ".2g"),
        tip("separable:N", "Separable"),
        tip("unpaired_lo:Q", "Unpaired 95% interval, low", "+.3f"),
        tip("unpaired_hi:Q", "Unpaired 95% interval, high", "+.3f"),
        tip("won:Q", "Problems won"),
        tip("lost:Q", "Problems lost"),
        tip("tied:Q", "Problems tied"),
        tip("problems:Q", "Problems"),
    ]
    base = alt.Chart().encode(x=x, color=colour)
    zero = (
        alt.Chart()
        .mark_rule(color=COLOURS["described"], strokeDash=[4, 3])
        .encode(y=alt.datum(0))
        .properties(name="zero")
    )
    unpaired = (
        base.mark_rule(strokeWidth=7, opacity=0.18)
        .encode(y="unpaired_lo:Q", y2="unpaired_hi:Q")
        .properties(name="unpaired")
    )
    paired = (
        base.mark_rule(strokeWidth=2)
        .encode(y=alt.Y("lo:Q").scale(scale), y2="hi:Q")
        .properties(name="paired")
    )
    points = (
        base.mark_point(filled=True, size=50, opacity=1)
        .encode(y=y, tooltip=tooltip, shape=_run_shape("comparison", compared, first=1))
        .properties(name="difference")
    )
    layers = [zero, unpaired, paired, points]
    if over_steps:
        layers.insert(3, base.mark_line(strokeWidth=1).encode(y=y).properties(name="line"))
    if limit is not None:  # a bar cut at the edge ends in a chevron pointing on (an open
        # mark: the differences themselves are filled shapes, a method's a triangle)
        for end, shape, at in (("hi", CHEVRON_UP, limit), ("lo", CHEVRON_DOWN, -limit)):
            past = f"datum.{end} {'>' if at > 0 else '<'} {at}"
            cut = base.transform_filter(past).mark_point(
                filled=False, size=60, strokeWidth=2, opacity=1
            )
            layers.append(
                cut.encode(y=alt.datum(at), shape=alt.value(shape)).properties(name=f"cut {end}")
            )
    facet = _facet(compose.layer(*layers, data=data).properties(width=260, height=170), columns)
    return facet.resolve_scale(y="shared") if limit is not None else facet


def difference_limit(differences: pl.DataFrame) -> float | None:
    """Where the difference panels' axis ends (both ways), when some paired interval would
    stretch it past use: a run of few seeds counts its seeds' spread with few degrees of
    freedom, and one such bar can be ten times the others. The axis holds every difference,
    every unpaired interval and the paired intervals of the last step compared (the verdict),
    with a tenth to spare, rounded up to 10 points (to 0.1 of a mean reward); longer bars are
    cut at its edge. None when every bar fits within it."""
    if not differences.height:
        return None
    last = differences.filter(
        pl.col("step_b").fill_null(-1) == pl.col("step_b").fill_null(-1).max().over("benchmark")
    )
    kept = [
        differences[c].abs().max()
        for c in ("difference", "unpaired_lo", "unpaired_hi")
        if c in differences.columns
    ] + [last[c].abs().max() for c in ("lo", "hi")]
    core = max((v for v in kept if v is not None), default=0.0) * 1.1
    limit = max(math.ceil(core * 10 - 1e-9), 1) / 10
    widest = max(differences["lo"].abs().max() or 0, differences["hi"].abs().max() or 0)
    return None if widest <= limit else round(limit, 6)


def _difference_axis(rewards: bool) -> dict:
    """How a difference is titled and labelled: accuracy in percentage points, a mean reward
    in its own units."""
    if rewards:
        return {"title": REWARD_TITLE, "axis": alt.Axis(format="+~g")}
    return {"title": POINTS_TITLE, "axis": alt.Axis(labelExpr=POINTS)}


def _better(runs: Sequence[str] | None) -> tuple[str, str]:
    """The legend's words for the run that did better on a problem: by name where two runs
    are compared (the method, then the baseline), else "method" and "baseline"."""
    if runs is not None and len(runs) == 2:
        return f"{runs[1]} better", f"{runs[0]} better"
    return "method better", "baseline better"


def problem_flips(
    problems: pl.DataFrame,
    *,
    columns: int = 3,
    rewards: bool = False,
    runs: Sequence[str] | None = None,
) -> alt.FacetChart:
    """Each problem on which two runs differ, ranked from the largest gain for the method to
    the largest loss: a bar from zero to the difference in the problem's accuracy, coloured by
    which run did better; hover for the problem id and both accuracies. One panel per
    benchmark (and per comparison, where there are several); `rewards`: mean rewards."""
    measure = "mean reward" if rewards else "accuracy"
    several = problems["comparison"].n_unique() > 1
    better = _better(runs)
    data = problems.sort("benchmark", "comparison", "rank").with_columns(
        where=pl.format("{}: {}", "benchmark", "comparison") if several else pl.col("benchmark"),
        better=pl.when(pl.col("difference") > 0)
        .then(pl.lit(better[0]))
        .otherwise(pl.lit(better[1])),
    )
    texts = [  # where the logs hold them
        c
        for c in ("question", "reference", "answer_a", "answer_b")
        if c in data.columns and data[c].null_count() < data.height
    ]
    data = _panels(data, "where").select(
        "where",
        "panel",
        "rank",
        "difference",
        "better",
        "problem_id",
        "comparison",
        "at",
        "outcome",
        "accuracy_a",
        "accuracy_b",
        *texts,
    )
    words = {
        "question": "Problem",
        "reference": "Reference answer",
        "answer_a": "Baseline's answer",
        "answer_b": "Method's answer",
    }
    colour = (
        alt.Color("better:N")
        .scale(domain=list(better), range=RUN_COLOURS[1::-1])
        .legend(title=None, orient="top")
    )
    x = alt.X("rank:Q").title("Problems that differ, largest gain first").axis(tickMinStep=1)
    base = alt.Chart().encode(x=x, color=colour)
    bars = (
        base.mark_rule(strokeWidth=2)
        .encode(y=alt.Y("zero:Q", **_difference_axis(rewards)), y2="difference:Q")
        .transform_calculate(zero="0")
        .properties(name="bars")
    )
    points = (
        base.mark_point(filled=True, size=25, opacity=1)
        .encode(
            y=alt.Y("difference:Q", axis=_difference_axis(rewards)["axis"]),
            tooltip=[
                tip("problem_id:N", "Problem"),
                tip("comparison:N", "Comparison"),
                tip("at:N", "Compared at"),
                tip("outcome:N", "Outcome"),
                tip("accuracy_a:Q", f"Baseline's {measure} on it", ".3f"),
                tip("accuracy_b:Q", f"Method's {measure} on it", ".3f"),
                tip("difference:Q", "Difference", "+.3f"),
                *(tip(f"{c}:N", words[c]) for c in texts),
            ],
        )
        .properties(name="problems")
    )
    chart = compose.layer(bars, points, data=data).properties(width=260, height=150)
    return _facet(chart, columns, "where")


def flip_counts(
    counts: pl.DataFrame,
    *,
    columns: int = 3,
    rewards: bool = False,
    runs: Sequence[str] | None = None,
) -> alt.FacetChart:
    """The problems on which two runs differ, counted by how much each moved (the difference in
    its accuracy, in percentage points) and coloured by which run did better: for panels with
    too many problems to draw one by one. One panel per benchmark (and comparison)."""
    several = counts["comparison"].n_unique() > 1
    better = _better(runs)
    data = _panels(
        counts.with_columns(
            where=pl.format("{}: {}", "benchmark", "comparison")
            if several
            else pl.col("benchmark"),
            better=pl.when(pl.col("difference") > 0)
            .then(pl.lit(better[0]))
            .otherwise(pl.lit(better[1])),
            moved=pl.col("difference").round(3)
            if rewards
            else (pl.col("difference") * 100).round(1),
        ),
        "where",
    )
    colour = (
        alt.Color("better:N")
        .scale(domain=list(better), range=RUN_COLOURS[1::-1])
        .legend(title=None, orient="top")
    )
    x = (
        alt.X("moved:O")
        .title(
            "Change in the problem's mean reward"
            if rewards
            else "Change in the problem's accuracy (percentage points)"
        )
        .sort("ascending")
        # every other label where they would touch (16 bins share a 260 px panel)
        .axis(
            labelExpr=f"format(datum.value, '{'+.2f' if rewards else '+.0f'}')",
            labelAngle=0,
            labelOverlap="parity",
        )
    )
    y = alt.Y("problems:Q").title("Problems")
    base = alt.Chart().encode(x=x, y=y)
    bars = (
        base.mark_bar()
        .encode(
            color=colour,
            tooltip=[
                tip("where:N", "Benchmark"),
                tip("at:N", "Compared at"),
                tip(
                    "moved:Q",
                    "Change" if rewards else "Change (pts)",
                    "+.3f" if rewards else "+.1f",
                ),
                tip("problems:Q", "Problems"),
            ],
        )
        .properties(name="bars")
    )
    numbers = (
        base.mark_text(dy=-6, color="#444444").encode(text="problems:Q").properties(name="counts")
    )
    chart = compose.layer(bars, numbers, data=data).properties(width=260, height=150)
    return _facet(chart, columns, "where")


def _no_flips() -> alt.Chart:
    """Where the runs answered every shared problem alike at the last step compared: said,
    where the flipped problems would be drawn (an empty panel would look like a failure)."""
    return (
        alt.Chart(alt.Data(values=[{}]))
        .mark_text(align="left", fontSize=12, color=COLOURS["described"])
        .encode(
            x=alt.value(0),
            y=alt.value(10),
            text=alt.value(
                "No problem flipped at the last step compared: the runs answered every "
                "shared problem alike."
            ),
        )
        .properties(width=520, height=20, name="no_flips")
    )


MAX_VERDICTS = 6  # lines under the differences' title; the CSV holds every row


def _interval_words(differences: pl.DataFrame) -> tuple[str, list[str]]:
    """What the dark bars are, and a line under it: the paired 95% interval, or the interval
    at each comparison's adjusted level (the one that agrees with its verdict), with the
    range of those levels and the number of comparisons adjusted for."""
    if "won" in differences.columns and differences["won"].is_null().all():
        return "unpaired 95% interval from scores and benchmark sizes (bars)", []  # no samples
    levels = differences["level"].drop_nulls() if "level" in differences.columns else []
    if len(levels) and (levels != 0.95).any():
        low, high = f"{levels.min():.1%}", f"{levels.max():.1%}"
        tested = differences["p_value"].drop_nulls().len()
        return "paired interval at the adjusted level (bars), unpaired 95% (light)", [
            f"each bar at its comparison's level, adjusted for the {tested} comparisons made: "
            + (low if low == high else f"{low} to {high}")
        ]
    return "paired 95% interval (bars), unpaired 95% (light)", []


def _cut_words(differences: pl.DataFrame, rewards: bool) -> list[str]:
    """What the difference axis cuts, where it cuts (`difference_limit`)."""
    limit = difference_limit(differences)
    if limit is None:
        return []
    edge = f"{limit:g} mean reward" if rewards else f"{limit * 100:.0f} points"
    return [f"axis cut at ±{edge}: a bar past it ends in a chevron at the edge"]


def _seed_words(differences: pl.DataFrame) -> list[str]:
    """Why a bar can be far wider than the light one, where runs have several seeds: the bar
    counts how the seeds differ, estimated from few of them; the light one counts problems
    only."""
    if "seeds_a" not in differences.columns:
        return []
    seeds = differences.select(pl.min_horizontal("seeds_a", "seeds_b")).to_series().drop_nulls()
    if not len(seeds) or seeds.max() < 2:
        return []
    return [
        f"bars count the seeds' spread, known from {int(seeds.min())} seeds a run "
        "(Satterthwaite's df, as few as 1):",
        "where the seeds disagree a bar is wide; light bars count problems only",
    ]


def verdict_lines(differences: pl.DataFrame, rewards: bool = False) -> list[str]:
    """Two lines per comparison and benchmark at its last row compared: the difference and
    its interval at the level shown; the adjusted p-value, the verdict in words and the
    problems won, lost and tied (short enough for a panel or two)."""
    if "separable" not in differences.columns:
        return []
    last = differences.group_by("comparison", "benchmark", maintain_order=True).last()
    scale, unit = (1, " mean reward") if rewards else (100, " points")
    lines = []
    for r in last.head(MAX_VERDICTS).iter_rows(named=True):
        line = (
            f"{r['benchmark']}, {r['at']}: {r['comparison']} {r['difference'] * scale:+.1f}{unit}"
        )
        if r["lo"] is not None:
            level = f"{r['level'] * 100:.4g}%" if r["level"] is not None else "95%"
            # "interval" named: a bare 99.64% beside points reads as a value
            line += f", {level} interval [{r['lo'] * scale:+.1f}, {r['hi'] * scale:+.1f}]"
        lines.append(line)
        said = []
        if r["separable"] is not None:
            verdict = "separable" if r["separable"] else "cannot tell apart at this size"
            # adjusted where there were several comparisons to adjust for; else the p itself
            adjusted = r["p_adjusted"] != r.get("p_value", r["p_adjusted"])
            said.append(f"p{' adjusted' * adjusted} = {r['p_adjusted']:.2g}: {verdict}")
        if r.get("won") is not None:
            said.append(f"problems won {r['won']}, lost {r['lost']}, tied {r['tied']}")
        if said:
            lines.append("    " + "; ".join(said))
    if last.height > MAX_VERDICTS:
        lines.append(f"and {last.height - MAX_VERDICTS} more comparisons (every row in the CSV)")
    return lines


def comparison(
    curves: pl.DataFrame,
    differences: pl.DataFrame,
    problems: pl.DataFrame,
    runs: Sequence[str],
    *,
    title: str,
    subtitle: str | list[str] = "",
    columns: int = 3,
    counts: pl.DataFrame | None = None,
    flips_said: Sequence[str] = (),
) -> alt.VConcatChart:
    """The whole comparison on one page: the runs' curves, the differences with their
    intervals, and (where the runs share problems) the problems that flipped, under a title
    with `flips_said` (what was left out of them) as its subtitle.

    Parameters
    ----------
    curves, differences, problems, counts : polars.DataFrame (counts optional)
        From `compare` or `drawable.comparison`; `counts` (`flip_counts`) counts flips by move.
    runs : sequence of str
        The runs, baseline first.
    title, subtitle, columns : str, str or list of str, int
        The chart's title and subtitle; panels per row in each part.

    Returns
    -------
    altair.VConcatChart

    Examples
    --------
    >>> from helpers.runs import compare, examples
    >>> c = compare.compare(examples.comparison_logs())  # notebook 007's simulated pair
    >>> len(comparison(c.curves, c.differences, c.problems, c.runs, title="t").vconcat)
    3
    """
    bands = sorted(set(curves["band"].drop_nulls())) if "band" in curves.columns else []
    bars, levels_said = _interval_words(differences)
    evaluated_once = curves["step"].is_null().all()  # bars and points, not bands and lines
    # every comparison a mean reward (rewards that are not 0/1): said so on every axis
    rewards = bool(differences.height) and (differences["unit"] == "mean reward").all()
    parts = [
        run_curves(curves, runs, columns=columns, rewards=rewards).properties(
            title=panel_title(
                f"{'Mean reward' if rewards else 'Accuracy'} of each run",
                # a run evaluated once is drawn with bars, a curve with a shaded band
                subtitle=(
                    # where a band spans seeds, the line (or point) is their mean
                    (
                        f"{'point' if evaluated_once else 'line'}: the seeds' mean; "
                        if any("seeds" in b for b in bands)
                        else ""
                    )
                    + f"{'bars' if evaluated_once else 'shaded'}: "
                    + "; ".join(bands)
                )
                if bands
                else "",
            )
        ),
        paired_differences(differences, columns=columns, rewards=rewards).properties(
            title=panel_title(
                f"Difference from the baseline: {bars}",
                subtitle=[
                    *levels_said,
                    *_seed_words(differences),
                    *_cut_words(differences, rewards),
                    *verdict_lines(differences, rewards),
                ],
            )
        ),
    ]
    # over steps, the flips are those of the last step compared; of one evaluation, its own
    once = "step" not in differences.columns or differences["step"].is_null().all()
    when = "" if once else " at the last step compared"
    if counts is not None and counts.height:
        parts.append(
            flip_counts(counts, columns=columns, rewards=rewards, runs=runs).properties(
                title=panel_title(
                    f"Problems that flipped{when}, by how much they moved",
                    subtitle=list(flips_said),
                )
            )
        )
    elif problems.height:
        parts.append(
            problem_flips(problems, columns=columns, rewards=rewards, runs=runs).properties(
                title=panel_title(f"Problems that flipped{when}", subtitle=list(flips_said))
            )
        )
    elif "won" in differences.columns and differences["won"].is_not_null().any():
        parts.append(_no_flips())
    return (
        compose.vconcat(*parts)
        .resolve_scale(color="independent", shape="independent")
        .properties(title=alt.Title(title, subtitle=subtitle))
    )
