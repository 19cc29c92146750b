"""Compare runs: is the method's gain over the baseline real?

Each run is one or more logs (several logs under one name are seeds of one method). Where two
runs' per-sample logs cover the same problems, the difference is measured problem by problem
(`stats.paired_difference`), which removes the problem-to-problem spread that an unpaired
interval has to carry; the unpaired interval is reported beside it. Where a log has scores
only, the comparison is unpaired, with intervals from the benchmark's size.

Two ways of choosing what to compare: the same step in both runs ("same"), or each run's best
checkpoint ("best"), whose selection overstates the picked score; the size of that
overstatement for the number of checkpoints and problems is reported with it.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import NamedTuple

import polars as pl

from helpers import stats
from helpers.errors import DataError
from helpers.runs import (
    checkpoints,
    engines,
    flipped,
    inputs,
    paired,
    readers,
    seed_curves,
    spark,
    summarise,
)
from helpers.runs.readers import distinct_inputs

CHECKPOINTS = ("same", "best")
# the columns of `Comparison.differences` (and of `compare -o x.csv`), always all of them
DIFFERENCE_COLUMNS = {
    "comparison": pl.String,
    "run_a": pl.String,
    "run_b": pl.String,
    "benchmark": pl.String,
    "at": pl.String,
    "step": pl.Int64,
    "step_a": pl.Int64,
    "step_b": pl.Int64,
    "unit": pl.String,
    "difference": pl.Float64,
    "lo": pl.Float64,
    "hi": pl.Float64,
    "interval": pl.String,
    "level": pl.Float64,
    "p_value": pl.Float64,
    "p_adjusted": pl.Float64,
    "separable": pl.Boolean,
    "paired_lo": pl.Float64,
    "paired_hi": pl.Float64,
    "unpaired_lo": pl.Float64,
    "unpaired_hi": pl.Float64,
    "seed_lo": pl.Float64,
    "seed_hi": pl.Float64,
    "seed_variance": pl.Float64,
    "problem_variance": pl.Float64,
    "accuracy_a": pl.Float64,
    "accuracy_b": pl.Float64,
    "problems": pl.Int64,
    "problems_a": pl.Int64,
    "problems_b": pl.Int64,
    "samples_a": pl.Int64,
    "samples_b": pl.Int64,
    "won": pl.Int64,
    "lost": pl.Int64,
    "tied": pl.Int64,
    "seeds_a": pl.Int64,
    "seeds_b": pl.Int64,
    "checkpoints_a": pl.Int64,
    "checkpoints_b": pl.Int64,
    "selection_bias_a": pl.Float64,
    "selection_bias_b": pl.Float64,
    "status_a": pl.String,  # a run that did not finish (an Inspect log cancelled), in words
    "status_b": pl.String,
}
KEYS = seed_curves.KEYS


@dataclass(frozen=True)
class Comparison:
    """Everything a comparison found, as tidy frames (accuracies and differences as fractions).

    - `curves`: one row per run, seed and benchmark and step (`kind` "seed"), and one per run
      across its seeds (`kind` "mean", with `lo`/`hi` the band that `band` names).
    - `differences`: one row per comparison, benchmark and step (or pair of checkpoints).
    - `problems`: the problems whose accuracy differs between the two runs, at the compared
      step (the last shared one, or the best checkpoints).
    - `notes`: what was assumed or could not be done, in words.
    - `logs`: each run's logs (file names, or URIs), one per seed, in the order given.
    """

    runs: list[str]
    checkpoint: str
    curves: pl.DataFrame
    differences: pl.DataFrame
    problems: pl.DataFrame
    notes: list[str] = field(default_factory=list)
    logs: dict[str, list[str]] = field(default_factory=dict)
    status: dict[str, str] = field(default_factory=dict)  # runs that did not finish, in words
    adjust: str = "holm"  # how the p-values were adjusted for the comparisons made
    # each run's logs' decoding settings, as read (`Loaded.decoding`; empty where not said)
    decoding: dict[str, list[dict]] = field(default_factory=dict)

    def lines(self) -> list[str]:
        """One line per comparison and benchmark, as `compare` prints it (`presentation`)."""
        from helpers.runs import presentation

        return presentation.lines(self)

    def said_notes(self) -> list[str]:
        """The notes `compare` prints after its lines: what was left out, and how rewards that
        are not 0/1 were compared (`presentation`)."""
        from helpers.runs import presentation

        return presentation.said_notes(self)

    def caption(self) -> str:
        """What a reader needs to trust the numbers, in one paragraph (`presentation`)."""
        from helpers.runs import presentation

        return presentation.caption(self)

    def chart(
        self, *, title: str | None = None, lead: str | None = None, columns: int | None = None
    ):
        """The comparison's chart, as `compare -o x.html` draws it (`presentation`)."""
        from helpers.runs import presentation

        return presentation.comparison_chart(self, title=title, lead=lead, columns=columns)


class _Log(NamedTuple):
    """One log of a run: the run's name, the seed it is (0, 1, ... in the order given), where
    it is (a path, `PATH#RUN`, or a cluster URI), and the run as read where it was read
    already (a tracker's store is read while its runs are named)."""

    name: str
    seed: int
    path: Path | str
    loaded: readers.Loaded | None = None


def _each_run(
    name: str, path: Path | str, options: dict, notes: list[str], opened: dict
) -> list[tuple[str, Path | str, readers.Loaded | None]]:
    """A tracker's store of several runs (a W&B folder, a TensorBoard log dir, an MLflow
    store, a trackio project, a table of runs) given as a bare PATH is each of its runs:
    PATH#RUN named RUN, and the runs of a table named `METHOD (seed=S)` are the seeds of
    METHOD. NAME=PATH names one run, so there a store of several is an error naming its
    runs. Each store is opened once (`opened`, by its path) and its runs come back read;
    any other input is read later, with the rest."""
    if not isinstance(path, Path):
        return [(name, path, None)]
    where, chosen = inputs.run_named(path)
    if where not in opened:
        opened[where] = readers.open_store(where, **options)
    if opened[where] is None:
        return [(name, path, None)]
    held = readers.load_runs(path, **options, store=opened[where])
    if chosen is not None or len(held) == 1:  # one run, or PATH#RUN: named after its run
        return [(chosen if chosen and name == path.stem else name, path, held[0])]
    runs = [r for r in held if r.unread is None]
    notes += [f"{path}#{r.run} not compared: {r.unread}" for r in held if r.unread is not None]
    if name not in (path.stem, str(path)):
        names = [r.run for r in runs]
        raise DataError(
            path,
            f"one run for {name}=PATH; PATH holds {len(held)} runs ({', '.join(names[:4])}"
            f"{' ...' if len(names) > 4 else ''}): give {name}=PATH#RUN for one, or PATH alone "
            "to compare them all",
        )
    seeded = [re.fullmatch(r"(.+) \(seed=[^,()]*\)", r.run) for r in runs]
    return [
        (m.group(1) if m else r.run, Path(f"{path}#{r.run}"), r)
        for r, m in zip(runs, seeded, strict=True)
    ]


def _entries(runs, options: dict, notes: list[str]) -> tuple[list[_Log], dict[str, int]]:
    """Each log (`_Log`): a mapping name -> path(s), or (name, path) pairs; a store of several
    runs given alone is each of its runs (`_each_run`); and the step each run given as
    PATH@STEP is pinned to."""
    pairs = runs.items() if isinstance(runs, Mapping) else runs
    out: list[_Log] = []
    pins: dict[str, set] = {}
    opened: dict = {}  # each tracker's store, opened once, with what was read of it
    for given, paths in pairs:
        for p in [paths] if isinstance(paths, str | Path | readers.Loaded) else paths:
            if isinstance(p, readers.Loaded):  # read already (a watch's)
                name = str(given)
                out.append(_Log(name, sum(1 for log in out if log.name == name), p.path, p))
                pins.setdefault(name, set()).add(None)
                continue
            p, step = inputs.pinned(p)
            for name, path, loaded in _each_run(
                str(given), inputs.location(p), options, notes, opened
            ):
                out.append(_Log(name, sum(1 for log in out if log.name == name), path, loaded))
                pins.setdefault(name, set()).add(step)
    for name in dict.fromkeys(log.name for log in out):  # a run's seeds: each log once
        seeds = [log.path for log in out if log.name == name and isinstance(log.path, Path)]
        distinct_inputs(seeds)
    for name, steps in pins.items():
        if len(steps) > 1:
            where = next(log.path for log in out if log.name == name)
            raise DataError(
                where, f"one @STEP for every log of run {name!r}", got=sorted(steps, key=str)
            )
    return out, {name: s for name, (s,) in pins.items() if s is not None}


def problem_counts(
    runs, benchmarks, options: dict, notes: list[str]
) -> tuple[list[_Log], pl.DataFrame | None]:
    """Each log of `runs` (as `compare` takes them) and the per-problem counts of its
    per-sample logs (run, seed, benchmark, step, problem_id, n, c), as `compare` reads them."""
    entries, _ = _entries(runs, options, notes)
    return entries, _read(entries, benchmarks, options)[0]


def _read(
    entries: list[_Log], benchmarks, options, engine: str = "polars"
) -> tuple[pl.DataFrame | None, pl.DataFrame | None, dict[str, list], dict[str, str], dict]:
    """Per-problem counts (run, seed, benchmark, step, problem_id, n, c) from per-sample logs,
    scores (run, seed, benchmark, step, score) from score-only logs, and per run the files of
    its first seed that hold problem texts (`Loaded.texts`), the runs that did not finish, and
    each run's logs' decoding settings (`Loaded.decoding`, one dict a log read here)."""
    per_problem, scores, texts, status = {}, [], {}, {}
    decoding: dict[str, list[dict]] = {}
    counted = summarise.problem_counts(
        [log.path for log in entries],
        benchmarks,
        options,
        engine=engine,
        loaded=[log.loaded for log in entries],
    )
    for (name, seed, path, _), (counts, loaded) in zip(entries, counted, strict=True):
        tag = {"run": pl.lit(name), "seed": pl.lit(seed, pl.Int64)}
        if engine == "spark":
            spark.collected(name, counts)
        if loaded is not None and name not in texts:
            texts[name] = loaded.texts
        if loaded is not None and loaded.status:
            status.setdefault(name, loaded.status)
        if loaded is not None:
            decoding.setdefault(name, []).append(loaded.decoding)
        if counts is not None:
            extra = [c for c in ("reward", "partial") if c in counts.columns]
            per_problem[name, seed] = (
                counts.select(**tag, benchmark="benchmark", step="step", problem_id="problem_id")
                .with_columns(counts.select("n", "c", *extra))
                .with_columns(pl.col("problem_id").cast(pl.String))
            )
        else:
            s = loaded.scores
            if s is None:
                raise DataError(path, "a run's scores or per-sample log", got=loaded.format)
            if benchmarks:
                s = s.filter(pl.col("benchmark").is_in(list(benchmarks)))
            scores.append(
                s.select(**tag, benchmark="benchmark", step="step", score="score", n="problems")
            )
    # sorted: group-by order is not stable, and every number and chart must be; each run's
    # counts come in order of benchmark, step and problem, so the runs are put in order of
    # name and seed. A run with rewards beside runs without: their columns null there
    pieces = [per_problem[key] for key in sorted(per_problem)]
    how = "vertical" if len({tuple(f.columns) for f in pieces}) < 2 else "diagonal_relaxed"
    return (
        pl.concat(pieces, how=how) if pieces else None,
        pl.concat(scores).sort(*KEYS, nulls_last=True) if scores else None,
        texts,
        status,
        decoding,
    )


# ---- differences --------------------------------------------------------------------------------


def _adjust(rows: list[dict], adjust: str) -> None:
    """Each row's adjusted p-value, its verdict (`separable`: adjusted p < 0.05) and its
    interval at the level that agrees with the verdict (`stats.adjusted_levels`: the interval
    excludes 0 exactly when the row is separable); a row without a test keeps its 95%."""
    p_values = [r.get("p_value") for r in rows]
    adjusted = stats.adjust_p(p_values, adjust)
    levels = stats.adjusted_levels(p_values, adjust)
    for r, p, level in zip(rows, adjusted, levels, strict=True):
        r.update(p_adjusted=p, separable=None if p is None else p < 0.05)
        bounds = r.get("_at_level")
        if level is not None and bounds is not None and level != 0.95:
            r["lo"], r["hi"] = bounds(level)
        has_interval = r.get("lo") is not None
        r["level"] = (level if level is not None else 0.95) if has_interval else None


def _selected(row: dict, verdict: dict, label: str, benchmark: str, notes: list[str]) -> None:
    """The best checkpoints' verdict with the picking counted replaces the plain paired one;
    what it could not count is said."""
    kept = verdict.pop("selection_problems")
    if kept != row["problems"]:
        notes.append(
            f"{label}: {benchmark}'s best checkpoints are tested on the {kept} problems "
            f"every checkpoint answered (of {row['problems']} the two picks share)"
        )
    if max(row["seeds_a"] or 1, row["seeds_b"] or 1) > 1:
        notes.append(
            f"{label}: {benchmark}: the best-checkpoint test resamples problems; the spread "
            "from seed to seed is not counted in it"
        )
    row.update(verdict)


def _seed_notes(rows: list[dict], seed_sd: float | None, notes: list[str]) -> None:
    """What was said of training randomness: not measured where every run has one seed (and
    no spread was assumed); borrowed where one run has one seed and the other several."""
    paired_rows = [r for r in rows if r.get("won") is not None]
    if not paired_rows:
        return
    if seed_sd is not None:
        notes.append(
            f"a spread of {seed_sd * 100:.3g} points from seed to seed is assumed "
            "(--seed-sd) and counted in every paired verdict"
        )
    elif all(r["seeds_a"] == r["seeds_b"] == 1 for r in paired_rows):
        notes.append(
            "one seed a run: training randomness is not measured, so the intervals count "
            "problems and answers only (give seeds, or --seed-sd SD to assume a spread)"
        )
    elif any(min(r["seeds_a"], r["seeds_b"]) == 1 for r in paired_rows):
        notes.append(
            "a run of one seed is taken to vary from seed to seed as the other run's seeds do"
        )


def compare(
    runs: Mapping[str, str | Path | Sequence[str | Path]] | Sequence[tuple[str, str | Path]],
    *,
    benchmarks: Sequence[str] | None = None,
    checkpoint: str = "same",
    baseline: str | None = None,
    problems: Mapping[str, int] | None = None,
    step_pattern: str | None = None,
    mapping: Mapping[str, str] | None = None,
    engine: str = "polars",
    adjust: str = "holm",
    seed_sd: float | None = None,
) -> Comparison:
    """Compare every run with the baseline (the first run named, or `baseline`).

    `runs` maps a name to a log (file or folder) or to several logs (seeds of one method), or
    to a run read already (a `readers.Loaded`: a watch's);
    `checkpoint` is "same" (every step both runs have) or "best" (each run's best checkpoint);
    `problems` overrides benchmark sizes (for score-only logs); `engine` "spark" counts
    per-sample Parquet logs on Spark (see `helpers.runs.query`), "polars" (default) here.
    `adjust` ("holm", the default, "bh" or "none") adjusts every p-value for all the
    comparisons made (run pairs x benchmarks x steps); `separable` is p_adjusted < 0.05, and
    each interval `lo`/`hi` is at the level (`level`) that agrees with it. With two seeds or
    more in either run, the verdict counts training randomness (each run's seed variance);
    `seed_sd` assumes a spread from seed to seed (one run's accuracy's standard deviation, a
    fraction) where the logs cannot measure one."""
    if adjust not in stats.ADJUSTMENTS:
        raise ValueError(f"adjust must be one of {stats.ADJUSTMENTS}; got {adjust!r}")
    if checkpoint not in CHECKPOINTS:
        raise ValueError(f"checkpoint must be one of {CHECKPOINTS}; got {checkpoint!r}")
    engines.check(engine)
    stores: list[str] = []  # what was said of the runs of a store given as one input
    options = {"step_pattern": step_pattern, "mapping": mapping, "problems": problems}
    entries, pins = _entries(runs, options, stores)
    names, first_path = _named(entries, baseline)
    per_problem, scores, texts, status, decoding = _read(entries, benchmarks, options, engine)
    per_problem = checkpoints.at_pins(per_problem, pins, first_path)
    scores = checkpoints.at_pins(scores, pins, first_path)
    seeds, means, curves, sample_runs = _curves(per_problem, scores, names, first_path)
    notes: list[str] = stores
    notes += [
        f"{run}: the run did not finish ({said}): its scores are partial"
        for run, said in status.items()
    ]
    pairing = _Pairing(
        share=paired.shares(per_problem) if per_problem is not None else None,
        seeds=seeds,
        means=means,
        best=checkpoints.best_steps(means) if checkpoint == "best" else None,
        pins=pins,
        sample_runs=sample_runs,
        status=status,
        seed_sd=seed_sd,
        notes=notes,
    )
    for other in names[1:]:
        pairing.compare(names[0], other, benchmarks, first_path[other])
    if not pairing.rows:
        raise DataError(first_path[names[1]], "a benchmark and step that both runs logged")
    return Comparison(
        runs=names,
        checkpoint=checkpoint,
        curves=curves,
        differences=_differences(pairing.rows, adjust, seed_sd, checkpoint, notes),
        problems=flipped.with_texts(flipped.view(pairing.flips, checkpoint), texts),
        notes=notes,
        logs={
            name: [
                log.path.name if isinstance(log.path, Path) else log.path
                for log in entries
                if log.name == name
            ]
            for name in names
        },
        status=status,
        adjust=adjust,
        decoding=decoding,
    )


def _named(entries: list[_Log], baseline: str | None) -> tuple[list[str], dict]:
    """The runs' names, the baseline first, and each run's first log (where errors point)."""
    names = list(dict.fromkeys(log.name for log in entries))
    if len(names) < 2:
        where = entries[0].path if entries else "(no input)"
        raise DataError(
            where, f"at least two runs to compare (NAME=PATH twice or more); got {names}"
        )
    baseline = baseline or names[0]
    if baseline not in names:
        raise DataError(entries[0].path, f"a baseline among the runs {names}", got=baseline)
    names = [baseline, *[n for n in names if n != baseline]]
    return names, {n: next(log.path for log in entries if log.name == n) for n in names}


def _curves(per_problem, scores, names: list[str], first_path: dict) -> tuple:
    """Each run's curve per seed and across its seeds (both in `curves`), and the runs read
    per sample."""
    # (the distinct names: a set of the column itself walked its 0.1M rows in Python)
    sample_runs = set(per_problem["run"].unique()) if per_problem is not None else set()
    score_runs = set(scores["run"].unique()) if scores is not None else set()
    mixed = sample_runs & score_runs
    if mixed:
        run = sorted(mixed)[0]
        raise DataError(first_path[run], f"seeds of one kind (per-sample or scores) in run {run!r}")
    seeds = seed_curves.seed_curves(per_problem, scores)
    missing = [n for n in names if seeds.filter(pl.col("run") == n).height == 0]
    if missing:
        raise DataError(first_path[missing[0]], "at least one benchmark with a value in the run")
    means = seed_curves.mean_curves(seeds)
    curves = pl.concat([seeds, means], how="diagonal_relaxed").sort(
        "kind", "run", "benchmark", "step", "seed", nulls_last=True
    )
    return seeds, means, curves, sample_runs


@dataclass
class _Pairing:
    """The comparisons of one `compare` as they are made: a row per run pair, benchmark and
    pair of steps (`rows`), the problems that flipped at each pair's last step (`flips`)."""

    share: pl.DataFrame | None  # each (run, seed, benchmark, step, problem)'s share right
    seeds: pl.DataFrame
    means: pl.DataFrame
    best: pl.DataFrame | None  # each run's best step per benchmark, with `checkpoint="best"`
    pins: dict
    sample_runs: set
    status: dict
    seed_sd: float | None
    notes: list[str]
    rows: list[dict] = field(default_factory=list)
    flips: list[pl.DataFrame] = field(default_factory=list)
    # each run's rows by (run, benchmark, step), for the pairs compared one at a time: split
    # when the first such pair comes (the split costs 0.1 ms per step and run)
    _at_step: dict | None = None

    def compare(self, baseline: str, other: str, benchmarks, where) -> None:
        """`other` against the baseline on every benchmark both logged."""
        label = f"{other} vs {baseline}"
        seeds = self.seeds
        got = {r: set(seeds.filter(pl.col("run") == r)["benchmark"]) for r in (baseline, other)}
        order = list(benchmarks) if benchmarks else sorted(set(seeds["benchmark"]))
        shared = [b for b in order if b in got[baseline] & got[other]]
        if not shared:
            raise DataError(
                where,
                f"a benchmark shared with the baseline {baseline!r} ({sorted(got[baseline])})",
                got=sorted(got[other]),
            )
        for only in sorted((got[baseline] | got[other]) - set(shared)):
            self.notes.append(f"{label}: {only} is in one run only, not compared")
        for b in shared:
            self._benchmark(baseline, other, b, label)

    def _steps(self, baseline: str, other: str, b: str, label: str) -> tuple[list, dict | None]:
        """The pairs of steps compared on `b` (the best ones, or every step both logged), and
        with `checkpoint="best"` each run's pick."""
        if self.best is not None:
            best = self.best
            pick = {
                r: best.filter(pl.col("run") == r, pl.col("benchmark") == b).row(0, named=True)
                for r in (baseline, other)
            }
            return [(pick[baseline]["step"], pick[other]["step"])], pick
        means = self.means
        steps = {
            r: set(means.filter(pl.col("run") == r, pl.col("benchmark") == b)["step"])
            for r in (baseline, other)
        }
        pairs = checkpoints.same_steps(
            steps[baseline], steps[other], self.pins.get(baseline), self.pins.get(other)
        )
        if not pairs:
            self.notes.append(f"{label}: {b} has no step in both runs, not compared")
        return pairs, None

    def _benchmark(self, baseline: str, other: str, b: str, label: str) -> None:
        pairs, pick = self._steps(baseline, other, b, label)
        if not pairs:
            return
        both_samples = baseline in self.sample_runs and other in self.sample_runs
        # every pair of steps at once (accuracy, or mean reward where rewards are not 0/1)
        fast = (
            paired.paired_rows(self.share, baseline, other, b, pairs, self.seed_sd)
            if both_samples
            else None
        )
        for i, (sa, sb) in enumerate(pairs):
            base = {"comparison": label, "run_a": baseline, "run_b": other, "benchmark": b}
            base.update(step=sb if sa is None else sa if sb in (None, sa) else None)
            base.update(step_a=sa, step_b=sb)
            if both_samples:
                row = self._paired(fast[i] if fast is not None else None, base, b, sa, sb,
                                   last=i == len(pairs) - 1)  # fmt: skip
            else:
                row = paired.score_row(self.seeds, baseline, other, b, sa, sb)
            if pick is not None:
                self._best(row, pick, baseline, other, b, pairs[0], label, both_samples)
            row.update(status_a=self.status.get(baseline), status_b=self.status.get(other))
            self.rows.append({**base, **row})

    def _paired(self, found, base: dict, b: str, sa, sb, last: bool) -> dict:
        """One paired comparison's row (computed here where the batch could not), and the
        problems that flipped where it is the last pair of steps."""
        baseline, other, label = base["run_a"], base["run_b"], base["comparison"]
        if found is None:
            self._at_step = self._at_step or paired.by_step(self.share)
            none = self.share.clear()
            a_rows = self._at_step.get((baseline, b, sa), none)
            b_rows = self._at_step.get((other, b, sb), none)
            reward = paired.partial(a_rows, b_rows)  # not 0/1: by mean reward
            found = paired.paired_row(a_rows, b_rows, reward=reward, seed_sd=self.seed_sd)
        row, view = found
        if row["problems"] == 0:
            self.notes.append(f"{label}: {b} shares no problem ids: compared unpaired")
        elif last:
            self.flips.append(view.with_columns(**{k: pl.lit(v) for k, v in base.items()}))
        return row

    def _best(self, row, pick, baseline, other, b, steps, label, both_samples) -> None:
        """A best-checkpoint row: the selection-aware verdict (per-sample runs) and each run's
        checkpoints and selection bias."""
        if both_samples:
            value = "reward_share" if row.get("unit") == "mean reward" else "share"
            verdict = checkpoints.best_verdict(self.share, baseline, other, b, steps, value)
            if verdict is not None:
                _selected(row, verdict, label, b, self.notes)
        row.update(
            checkpoints_a=pick[baseline]["checkpoints"],
            checkpoints_b=pick[other]["checkpoints"],
            selection_bias_a=pick[baseline]["selection_bias"],
            selection_bias_b=pick[other]["selection_bias"],
        )


def _differences(rows, adjust: str, seed_sd, checkpoint: str, notes: list[str]) -> pl.DataFrame:
    """The rows as `Comparison.differences`: p-values adjusted over them all, the seeds said,
    every column of DIFFERENCE_COLUMNS in its type."""
    _adjust(rows, adjust)
    _seed_notes(rows, seed_sd, notes)
    adjusted = [r["p_adjusted"] for r in rows]
    tested = sum(p is not None for p in adjusted)
    if tested > 1 and adjust != "none":
        how = {"holm": "Holm", "bh": "Benjamini-Hochberg"}[adjust]
        notes.append(f"p-values adjusted ({how}) for the {tested} comparisons tested")
    found = set().union(*rows) - {"_at_level"}
    rows = [{k: v for k, v in r.items() if k != "_at_level"} for r in rows]
    # accuracy differences are fractions; rewards that are not 0/1 say "mean reward"
    unit = pl.col("unit").fill_null("fraction") if "unit" in found else pl.lit("fraction")
    return (
        pl.DataFrame(rows, infer_schema_length=None)
        .with_columns(unit=unit)
        .with_columns(
            pl.col(c).cast(t) if c in found else pl.lit(None, t).alias(c)
            for c, t in DIFFERENCE_COLUMNS.items()
            if c not in ("at", "unit")
        )
        .with_columns(at=flipped.at_label(checkpoint))
        .select(list(DIFFERENCE_COLUMNS))
    )
