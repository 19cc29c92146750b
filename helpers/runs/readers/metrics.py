"""Per-step metric logs as the trainers write them: one row per step, one column per metric.

Files: a W&B history export or any CSV; JSON lines with one object per logged step (OpenRLHF,
plain loggers); TRL's `trainer_state.json` (its `log_history`); the rows other readers make of
a tracker's store or a framework's own log (`framework_logs`). Columns are recognised by the
naming conventions below, tried in order, or by a mapping the user gives (`--map`):

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

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

import polars as pl

from helpers.errors import DataError
from helpers.runs.readers import tfevents
from helpers.runs.readers._common import (
    csv_header,
    csv_lines,
    numeric,
    place,
    read_document,
    scan_jsonl_lines,
    text_only,
)

STEP_NAMES = ("_step", "step", "global_step", "train/global_step", "trainer/global_step")
# (convention, role, template), in the order they are tried for each role
CONVENTIONS = (
    ("verl val/test_score", "accuracy", "val/test_score/{benchmark}"),
    ("verl val-core acc", "accuracy", "val-core/{benchmark}/acc/mean@{k}"),
    ("TRL eval", "accuracy", "eval_{benchmark}_accuracy"),
    ("OpenRLHF eval pass1", "accuracy", "eval/eval_{benchmark}_pass1"),
    ("OpenRLHF eval pass1", "accuracy", "eval_eval_{benchmark}_pass1"),
    ("NeMo-RL validation accuracy", "accuracy", "validation/accuracy"),
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
ROLES = ("step", "accuracy", "tokens", "reward")


def _pattern(template: str) -> re.Pattern:
    """A column template as a regex: {benchmark} any text, {k} a number, {agent} one path
    part (prime-rl's agent)."""
    text = re.escape(template)
    text = text.replace(re.escape("{benchmark}"), "(?P<benchmark>.+?)")
    text = text.replace(re.escape("{agent}"), "(?P<agent>[^/]+)")
    text = text.replace(re.escape("{k}"), "(?P<k>[0-9]+)")
    return re.compile(f"^{text}$")


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
        k = pl.DataFrame(
            {"benchmark": list(self.accuracy), "k": [self.k.get(b) for b in self.accuracy]},
            schema={"benchmark": pl.String, "k": pl.Int64},
        )
        return self._long(self.accuracy, "score").join(
            k, on="benchmark", how="left", maintain_order="left"
        )

    def token_lengths(self) -> pl.DataFrame:
        """step, benchmark (null: every benchmark), tokens."""
        return self._long(self.tokens, "tokens") if self.tokens else pl.DataFrame()

    def _long(self, columns: Mapping[str | None, str], value: str) -> pl.DataFrame:
        """One row per step and benchmark from the benchmark -> column mapping, benchmarks in
        the mapping's order; NaN is how loggers write a missing value, and is treated as one."""
        names = list(columns)
        wide = self.frame.select(
            pl.col(self.step).cast(pl.Int64).alias("step"),
            *(pl.col(c).cast(pl.Float64).alias(str(i)) for i, c in enumerate(columns.values())),
        )
        position = pl.col("variable").cast(pl.Int64)
        return (
            wide.unpivot(index="step", value_name=value)
            .with_columns(pl.col(value).fill_nan(None))
            .drop_nulls(value)
            .with_columns(
                benchmark=position.replace_strict(
                    list(range(len(names))), names, return_dtype=pl.String
                ),
                _position=position,
            )
            .sort("_position", maintain_order=True)
            .select("step", "benchmark", value)
        )


# ---- reading the rows ---------------------------------------------------------------------------


def _rows_frame(path: Path, rows: list[tuple[int, dict]], where: str) -> pl.DataFrame:
    """Logged objects as one row per object, every value as text (cast later, per column)."""
    if not rows:
        raise DataError(path, f"at least one logged step in {where}", line=1)
    flat = [{k: v for k, v in r.items() if not isinstance(v, dict | list)} for _, r in rows]
    columns = list(dict.fromkeys(k for r in flat for k in r))
    return pl.DataFrame(
        {c: [None if r.get(c) is None else str(r[c]) for r in flat] for c in columns},
        schema={c: pl.String for c in columns},
    ).with_columns(__line=pl.Series([n for n, _ in rows], dtype=pl.Int64))


def read_rows(path: Path) -> pl.DataFrame:
    """A metric log's rows, every column as text; `__line` holds each row's line in the file
    (for JSON, the position in `log_history`; for TensorBoard, a record number)."""
    if path.is_dir() or tfevents.NAME_MARK in path.name:
        return tfevents.wide(path)
    if path.suffix == ".csv":
        header = csv_header(path)
        if len(set(header)) < len(header):
            dup = next(c for c in header if header.count(c) > 1)
            raise DataError(path, "each column name once", line=1, column=dup)
        text_only(path)
        frame = pl.read_csv(path, infer_schema=False)
        return frame.with_columns(__line=pl.Series(csv_lines(path, frame.height), dtype=pl.Int64))
    if path.suffix == ".json":
        try:
            state = json.loads(read_document(path))
        except (json.JSONDecodeError, UnicodeDecodeError) as e:
            line = getattr(e, "lineno", None)
            raise DataError(path, "a JSON document", line=line, got=str(e)[:80]) from None
        history = state.get("log_history") if isinstance(state, dict) else None
        if not isinstance(history, list):
            raise DataError(
                path, "a 'log_history' list (TRL trainer_state.json)", column="log_history"
            )
        bad = next((i for i, r in enumerate(history) if not isinstance(r, dict)), None)
        if bad is not None:
            raise DataError(path, "an object per log_history entry", column=f"log_history[{bad}]")
        return _rows_frame(path, list(enumerate(history)), "log_history")
    return _rows_frame(path, list(scan_jsonl_lines(path)), "the file")


# ---- recognising the columns --------------------------------------------------------------------


def parse_map(items: list[str] | None) -> dict[str, str]:
    """`role=template` items (roles: step, accuracy, tokens; reward for answer dumps) as a
    dict."""
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
    step = mapping.get("step") or next((s for s in STEP_NAMES if s in names), None)
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
        found = _match(mapping["accuracy"], names)
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


def read_metric_log(
    path: str | Path, mapping: Mapping[str, str] | None = None, rows: pl.DataFrame | None = None
) -> MetricLog:
    """Read and recognise a per-step metric log; numbers are checked cell by cell (a cell that
    is not a number is an error naming its line and column), and a step logged on several
    rows is merged (trainers log training and evaluation metrics on separate rows). `rows`:
    the log's rows where the caller read them already (a tracker's store)."""
    path = Path(path)
    rows = read_rows(path) if rows is None else rows
    log = recognise(path, rows.columns, mapping)
    wanted = [log.step, *log.accuracy.values(), *log.tokens.values()]
    frame = numeric(
        path, rows.select("__line", *dict.fromkeys(wanted)), list(dict.fromkeys(wanted))
    )
    missing = frame.filter(pl.col(log.step).is_null())
    if missing.height:
        raise DataError(
            path, "a step on every row", line=missing["__line"][0], column=log.step, got=""
        )
    step = pl.col(log.step)
    whole = step.is_finite() & (step == step.round()) & (step.abs() < 2.0**63)
    bad = frame.filter(~whole)
    if bad.height:  # 1.5 and 1.7 would both be step 1; 1e30 or inf is no step
        raise DataError(
            path,
            "a whole-number step",
            got=bad[log.step][0],
            **place(path, int(bad["__line"][0]), log.step),
        )
    if frame[log.step].is_duplicated().any() and path.suffix == ".csv":
        dup = frame.filter(pl.col(log.step).is_duplicated())
        raise DataError(
            path,
            f"each step once (also on line {dup['__line'][0]})",
            line=dup["__line"][1],
            column=log.step,
            got=dup[log.step][1],
        )
    # NaN is a value not logged; 57 is a percentage. One pass over every score column (a log
    # of 10,000 benchmarks took a filter per column: 50 s), then the first offender is found.
    scores = list(dict.fromkeys(log.accuracy.values()))
    if scores:
        outside_any = frame.select(
            (~pl.col(c).is_nan() & ~pl.col(c).is_between(0, 1)).any() for c in scores
        ).row(0)
        scores = [c for c, out in zip(scores, outside_any, strict=True) if out]
    for column in scores[:1]:
        score = pl.col(column)
        outside = frame.filter(~score.is_nan() & ~score.is_between(0, 1))
        if outside.height:
            raise DataError(
                path,
                "accuracy as a fraction from 0 to 1 (a percentage? divide it by 100)",
                got=outside[column][0],
                **place(path, int(outside["__line"][0]), column),
            )
    values = [c for c in dict.fromkeys(wanted) if c != log.step]
    log.frame = (
        frame.group_by(log.step, maintain_order=True)
        .agg(pl.col(c).drop_nulls().last() for c in values)
        .sort(log.step)
    )
    return log
