"""Which columns of a per-step metric log are what (`metrics` reads the log): the naming
conventions below, tried in order, or a mapping the user gives (`--map`):

    step      the first of _step, step, global_step, train/global_step, trainer/global_step
    accuracy  val/test_score/{benchmark}                 verl (older)
              val-core/{benchmark}/acc/mean@{k}          verl (current; k samples per problem,
                                                         the largest k is used)
              eval_{benchmark}_accuracy                  TRL with several eval datasets
              eval/eval_{benchmark}_pass1                OpenRLHF (eval_eval_... in TensorBoard
                                                         as read here)
              validation/accuracy                        NeMo-RL (one validation set)
              eval/{benchmark}/all/{agent}/avg@{k}       prime-rl (the mean reward of k samples
                                                         per problem; before 2026-08,
                                                         eval/{benchmark}/all/avg@{k})
              critic/scores/{benchmark}/mean             verl training scores, when a log has
                                                         no validation accuracy
    tokens    per benchmark: response_length/{benchmark}/mean (verl),
              eval/eval_{benchmark}_response_length_mean (OpenRLHF),
              eval/{benchmark}/all/num_output_tokens/mean (prime-rl);
              else one for all: response_length/mean (verl), validation/avg_length (NeMo-RL),
              eval/eval_response_length_mean (OpenRLHF), train/agg/all/num_output_tokens/mean
              (prime-rl), completions/mean_length or completion_length (TRL)

Other statistics are never read as accuracy, and `inspect` says why each is left out (LEFT_OUT):
verl's best@k, worst@k, maj@k and std, a reward (verl's val-core/{benchmark}/reward/mean@{k}:
a reward need not be 1 for a correct answer and 0 otherwise), pass@k, prime-rl's effective
subset (errored rollouts dropped).

A mapping is `role=template`, a template being a column name, with `{benchmark}` standing for
the benchmark part of several columns:
`--map step=global_step --map "accuracy=eval/{benchmark}/acc"`.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

import polars as pl

from helpers.errors import DataError

STEP_NAMES = ("_step", "step", "global_step", "train/global_step", "trainer/global_step")
# (convention, role, template), in the order they are tried for each role
CONVENTIONS = (
    ("verl val/test_score", "accuracy", "val/test_score/{benchmark}"),
    ("verl val-core acc", "accuracy", "val-core/{benchmark}/acc/mean@{k}"),
    ("TRL eval", "accuracy", "eval_{benchmark}_accuracy"),
    ("OpenRLHF eval pass1", "accuracy", "eval/eval_{benchmark}_pass1"),
    ("OpenRLHF eval pass1", "accuracy", "eval_eval_{benchmark}_pass1"),
    ("NeMo-RL validation accuracy", "accuracy", "validation/accuracy"),
    ("a column named accuracy", "accuracy", "accuracy"),
    ("prime-rl eval avg@k", "accuracy", "eval/{benchmark}/all/{agent}/avg@{k}"),
    ("prime-rl eval avg@k", "accuracy", "eval/{benchmark}/all/avg@{k}"),
    ("verl training scores", "accuracy", "critic/scores/{benchmark}/mean"),
    ("verl response length", "tokens", "response_length/{benchmark}/mean"),
    ("OpenRLHF response length", "tokens", "eval/eval_{benchmark}_response_length_mean"),
    ("OpenRLHF response length", "tokens", "eval_eval_{benchmark}_response_length_mean"),
    ("prime-rl output tokens", "tokens", "eval/{benchmark}/all/num_output_tokens/mean"),
    ("mean response length", "tokens", "response_length/mean"),
    ("NeMo-RL validation length", "tokens", "validation/avg_length"),
    ("OpenRLHF response length", "tokens", "eval/eval_response_length_mean"),
    ("OpenRLHF response length", "tokens", "eval_eval_response_length_mean"),
    ("prime-rl output tokens", "tokens", "train/agg/all/num_output_tokens/mean"),
    ("TRL completion length", "tokens", "completions/mean_length"),
    ("TRL completion length", "tokens", "completion_length"),
)
# columns no convention reads, on purpose: why each is left out (for `inspect`), first match
LEFT_OUT = (
    (
        r"/(?:best|worst|maj)@\d+/(?:mean|std)$",
        "best@k, worst@k or maj@k: a statistic over k samples, not an accuracy",
    ),
    (r"/std(?:@\d+)?$", "a standard deviation, not a mean"),
    (
        r"^val-(?:core|aux)/.+/reward/mean@\d+$",
        "a reward, not an accuracy; if it is 1 for a correct answer and 0 otherwise: "
        "--map 'accuracy=val-core/{benchmark}/reward/mean@{k}'",
    ),
    (
        r"(?:^|[/_])pass(?:@|\^|_)?(?:[2-9]|[1-9][0-9]+|k)$",
        "pass@k or pass^k over several samples, not an accuracy",
    ),
    (r"^eval/.+/effective/", "prime-rl's effective subset (errored rollouts dropped); all is read"),
)
# reward: answer dumps only (verl, SkyRL, NeMo-RL), a per-generation key read as a reward
ROLES = ("step", "accuracy", "tokens", "reward", "run", "benchmark", "model", "size")


def _pattern(template: str) -> re.Pattern:
    """A column template as a regex: {benchmark} any text, {k} a number, {agent} one path
    part (prime-rl's agent)."""
    text = re.escape(template)
    text = text.replace(re.escape("{benchmark}"), "(?P<benchmark>.+?)")
    text = text.replace(re.escape("{agent}"), "(?P<agent>[^/]+)")
    text = text.replace(re.escape("{k}"), "(?P<k>[0-9]+)")
    return re.compile(f"^{text}$")


# Benchmarks a per-step log's long table keeps as parts of their own (above it, one part): a
# lookup by benchmark (its size, its k) runs once a part, so 10,000 benchmarks in 10,000 parts
# took 15 s in those lookups, and one part 0.1 s; kept apart, a 200 MB W&B log's 100 parts
# peaked 30-40 MB lower (the whole command: 440-463 MB against 474-500 MB, five runs each).
PARTS = 256


@dataclass
class MetricLog:
    """What a per-step log was recognised as: which column is the step, which columns are
    each benchmark's accuracy (and k samples per problem where the name says), which are
    response length, and which were left out and why."""

    path: Path
    frame: pl.DataFrame
    step: str
    accuracy: dict[str, str] = field(default_factory=dict)  # benchmark -> column
    k: dict[str, int] = field(default_factory=dict)
    tokens: dict[str | None, str] = field(default_factory=dict)  # benchmark (None: all) -> col
    convention: str = ""
    kind: str = "validation"
    ignored: dict[str, list[str]] = field(default_factory=dict)  # reason -> columns
    said: list[str] = field(default_factory=list)  # how a long table was read (`long_tables`)

    def roles(self) -> list[str]:
        """Which logged key became which role, in words (for `inspect`): the first few of
        each, with the benchmark each stands for where that is not the key itself."""

        def said(columns: Mapping[str | None, str]) -> str:
            named = [c if b in (c, None) else f"{c} ({b})" for b, c in columns.items()]
            more = f" and {len(named) - 3} more" if len(named) > 3 else ""
            return ", ".join(named[:3]) + more

        lines = [f"step: {self.step}"]
        if self.accuracy:
            lines.append(f"{self.kind}: {said(self.accuracy)}")
        per = {b: c for b, c in self.tokens.items() if b is not None}
        overall = [f"{self.tokens[None]} (every benchmark)"] if None in self.tokens else []
        if self.tokens:
            lines.append(
                "response length (tokens): " + ", ".join(([said(per)] if per else []) + overall)
            )
        return lines

    def scores(self) -> pl.DataFrame:
        """step, benchmark, score (a fraction), k: one row per logged value, in the log's
        benchmark order."""
        if not self.accuracy:
            return pl.DataFrame()
        names = list(self.accuracy)
        k = pl.col("benchmark").replace_strict(
            names, [self.k.get(b) for b in names], default=None, return_dtype=pl.Int64
        )
        return self._long(self.accuracy, "score").with_columns(k=k)

    def token_lengths(self) -> pl.DataFrame:
        """step, benchmark (null: every benchmark), tokens."""
        return self._long(self.tokens, "tokens") if self.tokens else pl.DataFrame()

    def _long(self, columns: Mapping[str | None, str], value: str) -> pl.DataFrame:
        """One row per step and benchmark from the benchmark -> column mapping, benchmarks in
        the mapping's order; NaN is how loggers write a missing value, and is treated as one."""
        wide = self.frame.select(
            pl.col(self.step).cast(pl.Int64).alias("step"),
            *(pl.col(c).cast(pl.Float64).alias(str(i)) for i, c in enumerate(columns.values())),
        )
        # the columns stacked in the mapping's order, each beside the steps and its benchmark's
        # name, as a part each (unpivot's order is unspecified, and sorting what it gave cost
        # twice this; a select per part took 2 ms each on a log of 10,000 columns)
        names = pl.Series("benchmark", list(columns), pl.String)
        long = pl.DataFrame(
            [
                pl.concat([wide["step"]] * len(names)),
                pl.concat([names.new_from_index(i, wide.height) for i in range(len(names))]),
                pl.concat([wide[str(i)] for i in range(len(names))]).alias(value),
            ]
        )
        if len(names) > PARTS:  # one part: later lookups by benchmark run once a part
            long = long.rechunk()
        return long.with_columns(pl.col(value).fill_nan(None)).drop_nulls(value)


# ---- recognising the columns --------------------------------------------------------------------


def parse_map(items: list[str] | None) -> dict[str, str]:
    """`role=template` items (roles: step, accuracy, tokens; reward for answer dumps; run and
    benchmark for long tables, see `long_tables`) as a dict."""
    out = {}
    for item in items or []:
        role, sep, template = item.partition("=")
        if not sep or role not in ROLES or not template:
            raise ValueError(f"--map expects ROLE=COLUMN with ROLE one of {ROLES}; got {item!r}")
        out[role] = template
    return out


def _match(template: str, columns: list[str]) -> dict[str, tuple[str, int | None]]:
    """benchmark -> (column, k) for the columns a template matches ('' without {benchmark});
    where a benchmark is logged for several agents, each is its own: `benchmark/agent`."""
    pattern = _pattern(template)
    matches = [(c, m.groupdict()) for c in columns if (m := pattern.match(c))]
    agents: dict[str, set] = {}
    for _, groups in matches:
        agents.setdefault(groups.get("benchmark") or "", set()).add(groups.get("agent"))
    found = {}
    for c, groups in matches:
        name = groups.get("benchmark") or ""
        if len(agents[name]) > 1:
            name = f"{name}/{groups['agent']}"
        k = int(groups["k"]) if "k" in groups else None
        if name not in found or (k or 0) > (found[name][1] or 0):
            found[name] = (c, k)
    return found


def step_column(columns: list[str]) -> str | None:
    """The step column: the first of STEP_NAMES, in that order, its case ignored ('Step' as
    a tracker's table export writes it)."""
    lowered = {}
    for c in columns:
        lowered.setdefault(c.lower(), c)
    return next((lowered[s] for s in STEP_NAMES if s in lowered), None)


def _header(path: Path) -> dict:
    """Where column names are, for DataError: line 1 of a CSV or JSON lines file; a JSON
    document or a TensorBoard log has no header line."""
    return {"line": 1} if path.suffix in (".csv", ".jsonl") else {}


def recognise(
    path: Path, columns: list[str], mapping: Mapping[str, str] | None = None
) -> MetricLog:
    """Which columns are what, by the mapping first, then the conventions. No accuracy and no
    tokens column: DataError naming what was looked for."""
    mapping = dict(mapping or {})
    names = [c for c in columns if c != "__line"]
    step = mapping.get("step") or step_column(names)
    if step is None or step not in names:
        raise DataError(
            path,
            f"a step column ({', '.join(STEP_NAMES)}, or --map step=COLUMN)",
            **_header(path),
            column=mapping.get("step", "step"),
            got=names[:6],
        )
    log = MetricLog(path, pl.DataFrame(), step)
    if "accuracy" in mapping:
        found = _match(mapping["accuracy"], [c for c in names if c != step])
        if not found:
            raise DataError(
                path, f"columns matching --map accuracy={mapping['accuracy']}", **_header(path)
            )
        log.accuracy = {b or mapping["accuracy"]: c for b, (c, _) in found.items()}
        log.convention = f"--map accuracy={mapping['accuracy']}"
    else:
        candidates = []
        for convention, role, template in CONVENTIONS:
            found = _match(template, names) if role == "accuracy" else {}
            if found:
                candidates.append((convention, found))
        validation = [c for c in candidates if c[0] != "verl training scores"]
        if len({c[0] for c in validation}) > 1:
            options = "; ".join(f"{c}: {next(iter(f.values()))[0]}" for c, f in validation)
            raise DataError(
                path,
                "one naming of validation accuracy; the file has several "
                f"({options}): choose with --map accuracy=TEMPLATE, e.g. "
                f"--map 'accuracy={_template_of(validation[0])}'",
                **_header(path),
            )
        chosen = (validation or candidates)[:1]
        for convention, found in chosen:
            log.accuracy = {b or c: c for b, (c, _) in found.items()}  # one set: its column
            log.k = {b or c: k for b, (c, k) in found.items() if k}
            log.convention = convention
            log.kind = "training score" if convention == "verl training scores" else "validation"
        for convention, found in candidates[len(chosen) :]:
            log.ignored.setdefault(f"{convention}: another naming, not used", []).extend(
                c for c, _ in found.values()
            )
    if "tokens" in mapping:
        found = _match(mapping["tokens"], names)
        log.tokens = {(b or None): c for b, (c, _) in found.items()}
    else:
        for _, role, template in CONVENTIONS:  # per benchmark: the first naming found
            if role == "tokens" and "{benchmark}" in template:
                for b, (c, _) in _match(template, names).items():
                    if b in log.accuracy:
                        log.tokens.setdefault(b, c)
        overall = next(
            (
                t
                for _, role, t in CONVENTIONS
                if role == "tokens" and "{benchmark}" not in t and t in names
            ),
            None,
        )
        if overall:
            log.tokens[None] = overall
    if not log.accuracy and not log.tokens:
        raise DataError(
            path,
            "accuracy or response-length columns: "
            + ", ".join(t for _, _, t in CONVENTIONS)
            + " (or --map accuracy=TEMPLATE)",
            **_header(path),
            got=names[:6],
        )
    used = {step, *log.accuracy.values(), *log.tokens.values()}
    used |= {c for cols in log.ignored.values() for c in cols}
    for c in names:
        if c not in used:
            why = next((w for p, w in LEFT_OUT if re.search(p, c)), None)
            log.ignored.setdefault(why or "not an accuracy or length column", []).append(c)
    return log


def _template_of(candidate) -> str:
    convention, _ = candidate
    return next(t for c, role, t in CONVENTIONS if c == convention and role == "accuracy")
