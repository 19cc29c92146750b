"""What `power -o chart` draws: for each design, or each pair of runs' benchmark, the power to
tell two runs apart against how far apart they are, from the same formula that found the
smallest detectable difference `power` prints (so the curve crosses the power asked for at
that difference), and the points that matter on it.

Differences are drawn in percentage points, or in reward units for rewards that are not 0/1.
"""

from __future__ import annotations

import polars as pl

from helpers import stats

STEPS = 120  # points along each curve


def design_curves(rows: list[dict], difference: float | None) -> tuple[pl.DataFrame, pl.DataFrame]:
    """Curves and marks for `power`'s design rows (`--problems N --accuracy P`, unpaired and,
    with `--agreement`, paired; with `--seeds`, the seeds' variance added)."""
    curves, marks = [], []
    for r in rows:
        name = _design_name(r)
        seeds, seed_sd = r.get("seeds") or 1, r.get("seed_sd") or 0.0

        def at(d: float, r=r, seeds=seeds, seed_sd=seed_sd) -> float | None:
            return stats.design_power(
                r["problems"], r["accuracy"], d, agreement=r["agreement"], seeds=seeds,
                seed_sd=seed_sd, alpha=r["alpha"],
            )  # fmt: skip

        smallest = r["minimum_detectable_difference"]
        limit = 1 - r["agreement"] if r["agreement"] is not None else 1.0
        curves += _curve(name, at, _reach(smallest, difference, limit), 100)
        marks += _marks(name, smallest, r["power"], difference, at, 100, "asked")
    return _curves(curves), _frame(marks)


def run_curves(rows: list[dict], difference: float | None) -> tuple[pl.DataFrame, pl.DataFrame]:
    """Curves and marks for `power`'s rows of two runs: per benchmark, McNemar's power at the
    share of problems the runs answer differently, or the paired t test's at the spread of the
    per-problem differences (several answers per problem, seeds, rewards)."""
    curves, marks = [], []
    for r in rows:
        reward = r.get("unit") == "mean reward"
        scale = 1 if reward else 100
        name = f"{r['benchmark']}: {r['comparison']} ({r['problems']:,} problems"
        if r.get("design") != "paired t":  # what McNemar's curve rests on
            name += f", {r['agreement']:.0%} answered alike"
        name += ")"
        if r.get("design") == "paired t":
            sd, seeds, seed_sd = r["difference_sd"], r["seeds"], r["seed_sd"] or 0.0

            def at(d: float, r=r, sd=sd, seeds=seeds, seed_sd=seed_sd) -> float | None:
                if r["problems"] < 2 or (sd <= 0 and seed_sd <= 0):
                    return None
                return stats.paired_t_power(
                    r["problems"], sd, d, seeds=seeds, seed_sd=seed_sd, alpha=r["alpha"]
                )

            limit = 1.0 if not reward else max(abs(r["difference"]) * 4, 1e-9)
        else:

            def at(d: float, r=r) -> float | None:
                return stats.design_power(
                    r["problems"], r["accuracy"], d, agreement=r["agreement"], alpha=r["alpha"]
                )

            limit = 1 - r["agreement"]
        smallest = r["minimum_detectable_difference"]
        reach = _reach(smallest, abs(r["difference"]), limit)
        curves += _curve(name, at, reach, scale)
        marks += _marks(name, smallest, r["power"], abs(r["difference"]), at, scale, "observed")
        if difference is not None:
            marks += _marks(name, None, r["power"], difference, at, scale, "asked")
    return _curves(curves), _frame(marks)


def _design_name(r: dict) -> str:
    name = r["design"]
    if r["agreement"] is not None:
        name += f", {r['agreement']:.0%} answered alike"
    if r.get("seeds"):
        name += f", {r['seeds']} seeds a run"
    return name


def _reach(smallest: float | None, other: float | None, limit: float) -> float:
    """How far along the difference axis a curve runs: past the smallest detectable difference
    and the difference asked or observed, within what the problems allow."""
    far = max([2 * v for v in (smallest, other) if v] or [0.1])
    return min(max(far, 0.02), limit)


def _curve(name: str, at, reach: float, scale: float) -> list[tuple]:
    points = []
    for i in range(STEPS + 1):
        d = reach * i / STEPS
        power = at(d)
        if power is not None:
            points.append((name, d * scale, power))
    return points


def _marks(name: str, smallest, target: float, other, at, scale: float, what: str) -> list[tuple]:
    marks = []
    if smallest is not None:
        marks.append((name, "smallest detectable", smallest * scale, target))
    if other is not None:
        power = at(other)
        if power is not None:
            marks.append((name, what, other * scale, power))
    return marks


def _curves(points: list[tuple]) -> pl.DataFrame:
    schema = {"series": pl.String, "difference": pl.Float64, "power": pl.Float64}
    return pl.DataFrame(points, schema=schema, orient="row")


def _frame(marks: list[tuple]) -> pl.DataFrame:
    return pl.DataFrame(
        marks,
        schema={
            "series": pl.String,
            "point": pl.String,
            "difference": pl.Float64,
            "power": pl.Float64,
        },
        orient="row",
    )
