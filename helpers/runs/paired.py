"""One comparison of two runs on one benchmark, at one step each: paired over the problems they
share (per-sample logs), or unpaired from their scores (score-only logs). Each returns one row
of `compare`'s differences table."""

from __future__ import annotations

import polars as pl

from helpers import stats


def at_step(frame: pl.DataFrame, run: str, benchmark: str, step: int | None) -> pl.DataFrame:
    """One run's rows for one benchmark at one step (a null step: a log without steps)."""
    return frame.filter(
        pl.col("run") == run,
        pl.col("benchmark") == benchmark,
        pl.col("step").is_null() if step is None else pl.col("step") == step,
    )


def by_step(frame: pl.DataFrame) -> dict[tuple, pl.DataFrame]:
    """The rows of each run, benchmark and step, found by key (filtering the whole table once
    per step cost a comparison of 100 steps half a second)."""
    return frame.partition_by("run", "benchmark", "step", as_dict=True)


def shares(per_problem: pl.DataFrame) -> pl.DataFrame:
    """Each problem's share of correct samples (`share`) and, where a run logs rewards, its mean
    reward (`reward_share`; the share correct for a run without rewards)."""
    share = per_problem.with_columns(share=pl.col("c") / pl.col("n"))
    if "reward" not in share.columns:
        return share
    return share.with_columns(
        reward_share=pl.coalesce(pl.col("reward") / pl.col("n"), pl.col("share"))
    )


def partial(*rows: pl.DataFrame) -> bool:
    """Whether any of these per-problem rows holds a reward that is neither 0 nor 1 (counted
    per problem in `partial` by `query.problem_counts`; absent for logs without rewards)."""
    return any("partial" in r.columns and (r["partial"].fill_null(0) > 0).any() for r in rows)


def paired_row(
    a_rows: pl.DataFrame,
    b_rows: pl.DataFrame,
    *,
    reward: bool = False,
    seed_sd: float | None = None,
) -> tuple[dict, pl.DataFrame]:
    """The paired and unpaired comparison of two runs' per-problem rows at one step each.

    By default of accuracy (`share`: each problem's share of correct samples); with `reward`
    of mean reward (`reward_share`: each problem's mean reward, its share correct where a run
    logs no reward), by the same t over per-problem differences, `unit` "mean reward"; the
    columns keep their names (accuracy_a holds the baseline's mean reward).
    The numbers are `_at_once`'s for one pair; where the runs share no problem, unpaired."""
    value = "reward_share" if reward else "share"
    tagged = [rows.with_columns(pair=pl.lit(0, pl.Int64)) for rows in (a_rows, b_rows)]
    (found,) = _at_once(*tagged, 1, value=value, reward=reward, seed_sd=seed_sd)
    if found is not None:
        return found
    a = a_rows.group_by("problem_id").agg(accuracy_a=pl.col(value).mean(), k_a=pl.col("n").min())
    b = b_rows.group_by("problem_id").agg(accuracy_b=pl.col(value).mean(), k_b=pl.col("n").min())
    unpaired = stats.unpaired_difference(a["accuracy_a"], b["accuracy_b"])
    row: dict = {
        "problems_a": a.height,
        "problems_b": b.height,
        "problems": 0,
        "samples_a": int(a["k_a"].min()),
        "samples_b": int(b["k_b"].min()),
        **({"unit": "mean reward"} if reward else {}),
        "accuracy_a": float(a["accuracy_a"].mean()),
        "accuracy_b": float(b["accuracy_b"].mean()),
        "difference": unpaired.difference,
        "lo": unpaired.lo,
        "hi": unpaired.hi,
        "interval": unpaired.method + " (the runs share no problem ids)",
        "unpaired_lo": unpaired.lo,
        "unpaired_hi": unpaired.hi,
    }
    both = a.join(b, on="problem_id").sort("problem_id")
    return row, both.with_columns(difference=pl.lit(None, pl.Float64))


def _summaries(both: pl.DataFrame) -> pl.DataFrame:
    """Per pair of steps (`pair`) of `both` (each shared problem's accuracy_a and accuracy_b):
    what the paired and unpaired comparisons take (`stats.Paired`, `stats.Sample`), by one
    group-by for every pair (`paired_row` is the case of one)."""
    a, b = pl.col("accuracy_a"), pl.col("accuracy_b")
    d = b - a
    return both.group_by("pair").agg(
        n=pl.len(),
        mean_a=a.mean(),
        mean_b=b.mean(),
        var_a=a.var(),
        var_b=b.var(),
        sum_a=a.sum(),
        sum_b=b.sum(),
        binary_a=a.is_in([0.0, 1.0]).all(),
        binary_b=b.is_in([0.0, 1.0]).all(),
        mean=d.mean(),
        sd=d.std(),
        alike=d.min() == d.max(),
        only_b=((a == 0) & (b == 1)).sum(),
        only_a=((a == 1) & (b == 0)).sum(),
        won=(b > a).sum(),
        lost=(b < a).sum(),
        tied=(b == a).sum(),
    )


def _paired_numbers(row: dict, s: dict) -> stats.Difference:
    """Fill `row` with the paired and unpaired comparison of two runs on the problems they
    share, from their summary `s` (a row of `_summaries`), and return the paired one. Mean
    rewards that are not 0/1 take the t interval over per-problem differences too: on 10-60
    problems of partial credit it covers 95% where the percentile bootstrap covered 92-94%
    (`tests/test_verdict.py`)."""
    n = s["n"]
    paired = stats.paired_from(
        stats.Paired(
            problems=n,
            mean=s["mean"],
            sd=s["sd"],
            alike=s["alike"],
            binary=s["binary_a"] and s["binary_b"],
            only_b=s["only_b"],
            only_a=s["only_a"],
            answers=max(row["samples_a"], row["samples_b"]),
        )
    )
    unpaired = stats.unpaired_from(
        *(
            stats.Sample(n, s[f"mean_{x}"], s[f"var_{x}"], s[f"sum_{x}"], s[f"binary_{x}"])
            for x in "ab"
        )
    )
    row.update(
        accuracy_a=s["mean_a"],
        accuracy_b=s["mean_b"],
        difference=paired.difference,
        lo=paired.lo,
        hi=paired.hi,
        interval=paired.method,
        p_value=paired.p_value,
        paired_lo=paired.lo,
        paired_hi=paired.hi,
        unpaired_lo=unpaired.lo,
        unpaired_hi=unpaired.hi,
        won=s["won"],
        lost=s["lost"],
        tied=s["tied"],
        problem_variance=None if s["sd"] is None else s["sd"] ** 2 / n,
        _at_level=paired.at_level,
    )
    return paired


def paired_rows(
    share: pl.DataFrame,
    run_a: str,
    run_b: str,
    benchmark: str,
    pairs: list[tuple],
    seed_sd: float | None = None,
) -> list[tuple[dict, pl.DataFrame] | None] | None:
    """`paired_row` for many pairs of steps (step of run a, step of run b) at once, seeds
    included: the per-problem rows of every pair are found by one join instead of a group-by
    and a join per pair (a comparison of 13 benchmarks x 150 steps made 1,950 of each). The
    numbers are `paired_row`'s, by the same code (`_at_once`); a pair whose runs share no
    problem is None (`paired_row` says why). Where rewards are not 0/1, of mean reward
    (`paired_row`'s `reward`)."""
    mine = [
        share.filter(pl.col("run") == run, pl.col("benchmark") == benchmark)
        for run in (run_a, run_b)
    ]
    reward = partial(*mine)
    step = mine[0].schema["step"]
    keys = pl.DataFrame(
        {
            "pair": list(range(len(pairs))),
            "step_a": [sa for sa, _ in pairs],
            "step_b": [sb for _, sb in pairs],
        },
        schema={"pair": pl.Int64, "step_a": step, "step_b": step},
    )
    a_all, b_all = (
        keys.join(f, left_on=side, right_on="step", nulls_equal=True)
        for f, side in zip(mine, ("step_a", "step_b"), strict=True)
    )
    value = "reward_share" if reward else "share"
    return _at_once(a_all, b_all, len(pairs), value=value, reward=reward, seed_sd=seed_sd)


def _at_once(
    a_all: pl.DataFrame,
    b_all: pl.DataFrame,
    count: int,
    *,
    value: str,
    reward: bool,
    seed_sd: float | None = None,
) -> list[tuple[dict, pl.DataFrame] | None]:
    """Each pair's row of `paired_row` (and the shared problems' table, for the last pair),
    from each run's per-problem rows (`pair`, `seed`, `problem_id`, `n` and `value`) at the
    pair's step; None for a pair whose runs share no problem. A problem's accuracy is its
    mean over the run's seeds; with two seeds or more on either side (or `seed_sd`, a seed
    spread assumed), the verdict counts training randomness (`_seed_numbers`)."""
    sides = [f.select("pair", "seed", "problem_id", accuracy=value, k="n") for f in (a_all, b_all)]
    # a side of one seed is its own per-problem table (the mean of one value is that value):
    # the group-by is skipped, as it costs a comparison of 100 steps about 10 ms
    one_seed = [f["seed"].n_unique() < 2 for f in sides]
    per = [
        f.drop("seed")
        if one
        else f.group_by("pair", "problem_id").agg(pl.col("accuracy").mean(), pl.col("k").min())
        for f, one in zip(sides, one_seed, strict=True)
    ]
    size: dict[int, dict] = {}
    for x, f, problems, one in zip("ab", sides, per, one_seed, strict=True):
        counted = problems.group_by("pair").agg(pl.len(), pl.col("k").min())
        if one:
            counted = counted.with_columns(seed=pl.lit(1, pl.UInt32))
        else:
            counted = counted.join(f.group_by("pair").agg(pl.col("seed").n_unique()), on="pair")
        for r in counted.iter_rows(named=True):
            size.setdefault(r["pair"], {}).update(
                {f"problems_{x}": r["len"], f"samples_{x}": int(r["k"]), f"seeds_{x}": r["seed"]}
            )
    both = (
        per[0]
        .select("pair", "problem_id", accuracy_a="accuracy", k_a="k")
        .join(
            per[1].select("pair", "problem_id", accuracy_b="accuracy", k_b="k"),
            on=["pair", "problem_id"],
        )
        .sort("pair", "problem_id")
    )
    summary = {r["pair"]: r for r in _summaries(both).iter_rows(named=True)}
    seeded = [p for p in summary if max(size[p]["seeds_a"], size[p]["seeds_b"]) > 1]
    layouts = _seed_layouts(sides, both, seeded) if seeded else {}
    out: list[tuple[dict, pl.DataFrame] | None] = []
    for i in range(count):
        if i not in summary:  # no problem shared (or a step one run lacks)
            out.append(None)
            continue
        n = size[i]  # both runs have rows at this pair's steps
        row: dict = {
            "problems_a": n["problems_a"],
            "problems_b": n["problems_b"],
            "problems": summary[i]["n"],
            "samples_a": n["samples_a"],
            "samples_b": n["samples_b"],
        }
        if reward:
            row["unit"] = "mean reward"
        shared = both.filter(pl.col("pair") == i).drop("pair") if i == count - 1 else None
        _paired_numbers(row, summary[i])
        row.update(seeds_a=n["seeds_a"], seeds_b=n["seeds_b"])
        if i in layouts or seed_sd is not None:
            _seed_numbers(row, summary[i], *layouts.get(i, ([None, None], [None, None])), seed_sd)
        view = None
        if i == count - 1:  # the last pair's problems: the flipped ones are shown
            view = shared.with_columns(difference=pl.col("accuracy_b") - pl.col("accuracy_a"))
        out.append((row, view))
    return out


def _seed_layouts(sides, both: pl.DataFrame, pairs: list[int]) -> dict[int, tuple[list, list]]:
    """Per pair, each run's `stats.SeedLayout` (None for a run of one seed there) over the
    problems the runs share at that pair that every seed of the run answered (the variance of
    its seeds' accuracies and the seed x problem residual mean square), and each run's seed
    accuracies there, in seed order (None likewise)."""
    shared = both.filter(pl.col("pair").is_in(pairs)).select("pair", "problem_id")
    found = {p: ([None, None], [None, None]) for p in pairs}
    for x, f in enumerate(sides):
        y = pl.col("accuracy")
        table = (
            f.join(shared, on=["pair", "problem_id"], how="semi")
            .sort("pair", "seed", "problem_id")  # sums in one order, however many pairs
            .with_columns(seeds=pl.col("seed").n_unique().over("pair"))
            .filter(pl.len().over("pair", "problem_id") == pl.col("seeds"), pl.col("seeds") > 1)
            .with_columns(
                residual=y
                - y.mean().over("pair", "seed")
                - y.mean().over("pair", "problem_id")
                + y.mean().over("pair")
            )
        )
        per_seed = (
            table.group_by("pair", "seed")
            .agg(y.mean())
            .sort("pair", "seed")
            .group_by("pair", maintain_order=True)
            .agg(seed_var=y.var(), seed_means=y)
        )
        layouts = (
            table.group_by("pair")
            .agg(
                seeds=pl.col("seed").n_unique(),
                problems=pl.col("problem_id").n_unique(),
                squares=(pl.col("residual") ** 2).sum(),
            )
            .join(per_seed, on="pair")
            .filter(pl.col("problems") > 1)
        )
        for r in layouts.iter_rows(named=True):
            df = (r["seeds"] - 1) * (r["problems"] - 1)
            layouts_of, means_of = found[r["pair"]]
            layouts_of[x] = stats.SeedLayout(
                r["seeds"], r["problems"], r["seed_var"], r["squares"] / df
            )
            means_of[x] = r["seed_means"]
    return found


def _seed_numbers(row: dict, s: dict, layouts: list, means: list, seed_sd: float | None) -> None:
    """The verdict with training randomness counted (`stats.seeded_difference`): the paired
    t over per-problem differences whose variance adds each run's seed variance over its seed
    count, on Satterthwaite's degrees of freedom; and that variance's two parts, from seeds
    and from which problems the benchmark drew."""
    if s["n"] < 2 or s["sd"] is None or (all(x is None for x in layouts) and seed_sd is None):
        return
    if all(x is not None for x in means):  # the seeds' own interval, seed to seed only
        row.update(zip(("seed_lo", "seed_hi"), stats.welch_interval(*means), strict=True))
    d, seed_variance, _ = stats.seeded_difference(
        s["n"], s["mean"], s["sd"], *layouts, seed_sd=seed_sd,
        seeds_a=row["seeds_a"], seeds_b=row["seeds_b"],
    )  # fmt: skip
    if d.se == 0:
        return
    lo, hi = d.bounds()
    row.update(lo=lo, hi=hi, p_value=d.p_value(), interval=d.method, _at_level=d.bounds)
    row.update(paired_lo=lo, paired_hi=hi)
    row["seed_variance"] = seed_variance  # problem_variance is the paired row's already
    if seed_sd is not None:
        row["interval"] += f"; seed sd {seed_sd * 100:.3g} points assumed"


def score_row(seeds: pl.DataFrame, run_a, run_b, benchmark, step_a, step_b) -> dict:
    """The unpaired comparison of two runs' scores (means over seeds) at one step each."""
    a, b = at_step(seeds, run_a, benchmark, step_a), at_step(seeds, run_b, benchmark, step_b)
    d = stats.unpaired_scores(
        float(a["accuracy"].mean()),
        a["problems"][0],
        float(b["accuracy"].mean()),
        b["problems"][0],
    )
    row = {
        "accuracy_a": float(a["accuracy"].mean()),
        "accuracy_b": float(b["accuracy"].mean()),
        "problems_a": a["problems"][0],
        "problems_b": b["problems"][0],
        "difference": d.difference,
        "lo": d.lo,
        "hi": d.hi,
        "interval": d.method + "; paired needs per-sample logs",
        "unpaired_lo": d.lo,
        "unpaired_hi": d.hi,
        "seeds_a": a.height,
        "seeds_b": b.height,
    }
    seed_bounds = stats.welch_interval(a["accuracy"], b["accuracy"])
    if seed_bounds is not None:
        row.update(seed_lo=seed_bounds[0], seed_hi=seed_bounds[1])
    return row
