"""A noise budget from a user's own logs: each run's per-sample answers at the last step both
runs logged, as (seed, problem) cells (`stats.Cells`), split into the parts of its accuracy's
variance, and the cheapest design that detects a target difference (`stats.budget`)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path

import polars as pl

from helpers.errors import DataError
from helpers.stats import budget


def _cells(counts: pl.DataFrame) -> tuple[budget.Cells, list[str]]:
    """One run's cells on the problems every seed of it answered, seeds and problems in order;
    and those problems' ids."""
    seeds = sorted(set(counts["seed"]))
    full = (
        counts.group_by("problem_id")
        .agg(pl.col("seed").n_unique())
        .filter(pl.col("seed") == len(seeds))["problem_id"]
    )
    kept = counts.filter(pl.col("problem_id").is_in(full)).sort("seed", "problem_id")
    ids = sorted(set(full))
    n = kept["n"].to_list()
    share = (kept["c"] / kept["n"]).to_list()
    var = [None if k < 2 else p * (1 - p) * k / (k - 1) for k, p in zip(n, share, strict=True)]
    width = len(ids)
    rows = [slice(i * width, (i + 1) * width) for i in range(len(seeds))]
    return budget.Cells([n[r] for r in rows], [share[r] for r in rows], [var[r] for r in rows]), ids


def noise_budgets(
    runs: Mapping[str, str | Path | Sequence[str | Path]],
    difference: float,
    *,
    benchmarks: Sequence[str] | None = None,
    seed_cost: float = 10_000,
    max_problems: int | None = None,
    alpha: float = 0.05,
    power: float = 0.8,
) -> list[dict]:
    """Per benchmark of the first two runs (baseline first), at the last step both logged: each
    run's variance parts, the per-problem gain's variance, and the three cheapest designs
    (seeds, problems, answers per problem) that detect `difference` (at most `max_problems`
    problems: by default the problems the runs share, since a benchmark has no more)."""
    from helpers.runs import compare

    notes: list[str] = []
    reading = {"step_pattern": None, "mapping": None, "problems": None}
    entries, per_problem = compare.problem_counts(runs, benchmarks, reading, notes)
    names = list(dict.fromkeys(log.name for log in entries))
    first = entries[0].path
    if per_problem is None or len(names) < 2:
        raise DataError(first, "two runs' per-sample logs (NAME=PATH twice)")
    if "partial" in per_problem.columns and (per_problem["partial"].fill_null(0) > 0).any():
        raise DataError(first, "0/1 answers for the noise budget (rewards: not yet)")
    base, new = names[:2]
    out = []
    for (benchmark,), rows in per_problem.group_by("benchmark", maintain_order=True):
        steps = [set(rows.filter(pl.col("run") == r)["step"]) for r in (base, new)]
        shared = steps[0] & steps[1]
        if not shared:
            continue
        step = max(shared, key=lambda s: (s is not None, s or 0))
        at = rows.filter(pl.col("step").is_null() if step is None else pl.col("step") == step)
        made = [_cells(at.filter(pl.col("run") == r)) for r in (base, new)]
        parts = [budget.noise_budget(cells) for cells, _ in made]
        both = sorted(set(made[0][1]) & set(made[1][1]))
        means = [
            at.filter(pl.col("run") == r, pl.col("problem_id").is_in(both))
            .group_by("problem_id")
            .agg((pl.col("c") / pl.col("n")).mean())
            .sort("problem_id")["c"]
            for r in (base, new)
        ]
        observed = float((means[1] - means[0]).var()) if len(both) > 1 else 0.0
        gain = budget.gain_variance(*parts, observed)
        designs = budget.cheapest_designs(
            *parts,
            gain,
            difference,
            seed_cost=seed_cost,
            max_problems=max_problems or len(both),
            alpha=alpha,
            power=power,
        )
        out.append(
            {
                "benchmark": benchmark,
                "step": step,
                "runs": (base, new),
                "budgets": parts,
                "gain": gain,
                "problems": len(both),
                "limit": max_problems or len(both),
                "designs": designs[:3],
            }
        )
    if not out:
        raise DataError(first, "a benchmark and step both runs logged")
    return out


def lines(found: list[dict], difference: float, *, seed_cost: float, power: float) -> list[str]:
    """`noise_budgets` in words: per benchmark, each run's accuracy's sd by part (at its own
    design), the gain's spread, and the cheapest designs (what `power --budget` prints)."""
    out = []
    for f in found:
        at = "one evaluation" if f["step"] is None else f"step {f['step']}"
        out.append(f"{f['benchmark']}, {at}: where the noise in each run's accuracy comes from")
        for name, b in zip(f["runs"], f["budgets"], strict=True):
            out.append(f"  {name}: {_parts(b)}")
        out.append(
            f"  the method's per-problem gain varies by sd {f['gain'] ** 0.5 * 100:.1f} points"
        )
        aim = (
            f"  to detect {difference * 100:.1f} points with {power:.0%} power "
            f"(a seed's training costing {seed_cost:,.0f} answers), the cheapest"
        )
        out.append(f"{aim}:" if f["designs"] else f"{aim}: none within {f['limit']} problems")
        for d in f["designs"]:
            out.append(
                f"    {d.seeds} seed{'s' * (d.seeds > 1)} a run x {d.problems} problems x "
                f"{d.answers} answer{'s' * (d.answers > 1)} a problem: costs {d.cost:,.0f} "
                f"answers; the difference's sd {d.se * 100:.1f} points"
            )
        if any(b.training is None for b in f["budgets"]):
            out.append("  note: a run of one seed: training randomness is not measured (counted 0)")
        if any(b.answer is None for b in f["budgets"]):
            out.append(
                "  note: one answer a problem cannot tell answer-to-answer noise from the "
                "problems' (or seed x problem's): more answers are taken to help nothing"
            )
    return out


def designs_table(found: list[dict]) -> pl.DataFrame:
    """The proposed designs, one row each (what `power --budget -o x.csv` writes)."""
    rows = [
        {
            "benchmark": f["benchmark"],
            "seeds": d.seeds,
            "problems": d.problems,
            "answers": d.answers,
            "cost": d.cost,
            "difference_sd": d.se,
        }
        for f in found
        for d in f["designs"]
    ]
    schema = {"benchmark": pl.String, "seeds": pl.Int64, "problems": pl.Int64}
    schema |= {"answers": pl.Int64, "cost": pl.Float64, "difference_sd": pl.Float64}
    return pl.DataFrame(rows, schema=schema)


def _parts(b: budget.NoiseBudget) -> str:
    """A run's variance at its own design, part by part: each part's sd in points and share."""
    k = b.answers
    # one answer a problem cannot split the answers' part from the next part up
    lumped = " (answers in it)" if b.answer is None else ""
    parts = {
        "answers": None if b.answer is None else b.answer / (b.seeds * b.problems * k),
        f"problems{lumped if b.seeds == 1 else ''}": b.problem / b.problems,
        f"seed x problem{lumped}": None if b.seeds == 1 else b.interaction / (b.seeds * b.problems),
        "training": None if b.training is None else b.training / b.seeds,
    }
    total = sum(v for v in parts.values() if v is not None)
    said = [
        f"{name} {v**0.5 * 100:.1f} points" + (f" ({v / total:.0%})" if total else "")
        for name, v in parts.items()
        if v is not None
    ]
    design = (
        f"{b.seeds} seed{'s' * (b.seeds > 1)}, {b.problems} problems, "
        f"{k:.3g} answer{'s' * (k != 1)} each"
    )
    return f"sd of its accuracy by part: {', '.join(said)} ({design})"
