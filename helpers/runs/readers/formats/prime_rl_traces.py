"""prime-rl's rollout dumps: `rollouts/step_<N>/{train,eval}/{all,effective}/traces.jsonl`
under a run's output folder, one JSON line per episode, as its file monitor writes them
(PrimeIntellect-ai/prime-rl, src/prime_rl/monitors/file.py `FileMonitor.log_episodes`, writing
verifiers' `Episode.to_record()`): env {id, name}, task {data, key}, run {work {type, step}},
ok, traces (each with its nodes, the model's calls and `rewards` {name: {score, weight}}).

One row per episode: the benchmark is the environment's name, the problem the task's `key`
(a hash of its data), the step `run.work.step` (else the `step_<N>` folder); correct is the
reward named for correctness (`correct`, `accuracy`, ...) where it is 0 or 1, else the
weighted sum of the rewards where that is 0 or 1 (else `--map reward=NAME` reads a named
reward, or `--map reward=total` the weighted sum, as a mean reward). An episode whose rewards
were never computed (it errored) is left out and counted. The response length is the sum of
the calls' completion tokens. `all/` holds every episode, `effective/` the same ones again
(those kept): a folder's `effective/` files are left out, and so are `train/` files where
`eval/` ones are there.
"""

from __future__ import annotations

from pathlib import Path

import polars as pl

from helpers.errors import DataError
from helpers.runs.readers._common import scan_jsonl_lines
from helpers.runs.readers.format import Format, Where
from helpers.runs.readers.formats.evals import _frame
from helpers.runs.readers.formats.tables import SAMPLE_COLUMNS
from helpers.runs.readers.loaded import Loaded, SampleLog

KEYS = {"env", "task", "run", "traces"}
CORRECTNESS = ("correct", "correctness", "accuracy", "exact_match", "is_correct")
TOTAL = "total"  # --map reward=total: the weighted sum of every reward


def is_traces(keys: set[str]) -> bool:
    return keys >= KEYS


def _step(path: Path, record: dict, number: int) -> int | None:
    work = (record.get("run") or {}).get("work") or {}
    step = work.get("step")
    if step is None:
        for part in path.parts[::-1]:
            if part.startswith("step_") and part[5:].isdigit():
                return int(part[5:])
        return None
    if type(step) is not int or not 0 <= step < 2**63:
        raise DataError(path, "a whole step from 0", line=number, column="run.work.step", got=step)
    return step


def _rewards(trace: dict) -> dict[str, tuple[float, float]] | None:
    """name -> (score, weight) of the rewards computed; None where none was."""
    found = {
        name: (r["score"], r.get("weight", 1.0))
        for name, r in (trace.get("rewards") or {}).items()
        if isinstance(r, dict) and type(r.get("score")) in (int, float, bool)
    }
    return found or None


def _value(path: Path, number: int, rewards: dict, name: str) -> float:
    if name == TOTAL:
        return float(sum(score * weight for score, weight in rewards.values()))
    if name not in rewards:
        raise DataError(
            path,
            f"a reward named {name!r}",
            line=number,
            column="traces.rewards",
            got=sorted(rewards),
        )
    return float(rewards[name][0])


def _tokens(trace: dict) -> int | None:
    used = [
        (call.get("usage") or {}).get("completion_tokens")
        for call in trace.get("calls") or []
        if isinstance(call, dict)
    ]
    used = [u for u in used if type(u) is int]
    return sum(used) if used else None


def _generated(trace: dict) -> bool:
    """Whether the model wrote anything: a sampled assistant message with text."""
    for node in trace.get("nodes") or []:
        if not isinstance(node, dict):
            continue
        message = node.get("message")
        if node.get("sampled") and isinstance(message, dict) and message.get("role") == "assistant":
            content = message.get("content")
            if (content if isinstance(content, str) else str(content or "")).strip():
                return True
    return False


def read_traces(
    path: str | Path, metric: str | None = None, reward: str | None = None
) -> tuple[pl.DataFrame, str]:
    """A traces.jsonl as one row per episode in the per-sample columns (see the module), with
    `reward` kept where `--map reward=NAME` asks for one, and a note saying how correctness
    was read and what was left out."""
    path = Path(path)
    rows, seen, chosen, skipped, generated = [], {}, metric, 0, 0
    for number, record in scan_jsonl_lines(path):
        traces = record.get("traces")
        if not isinstance(traces, list) or not traces or not isinstance(traces[0], dict):
            raise DataError(path, "an episode's traces (a list)", line=number, column="traces")
        trace = traces[-1]  # the episode's last agent: the answer given
        rewards = _rewards(trace)
        if rewards is None:
            skipped += 1
            continue
        if chosen is None:
            named = [n for n in rewards if any(w in n.lower() for w in CORRECTNESS)]
            chosen = named[0] if named else TOTAL
        got = _value(path, number, rewards, reward) if reward is not None else None
        value = _value(path, number, rewards, chosen)
        if abs(value - round(value)) < 1e-9:  # weights 0.7 + 0.2 + 0.1 sum to 0.999...
            value = float(round(value))
        if reward is None and value not in (0, 1):
            raise DataError(
                path,
                "a correctness of 0 or 1 per episode (--map accuracy=NAME names a 0/1 reward; "
                "--map reward=NAME or reward=total compares a reward as a mean)",
                line=number,
                column=f"traces.rewards.{chosen}",
                got=value,
            )
        task = record.get("task") or {}
        key = task.get("key")
        if not isinstance(key, str) or not key:
            raise DataError(
                path, "the task's key (its id)", line=number, column="task.key", got=key
            )
        env = record.get("env") or {}
        benchmark = str(env.get("name") or env.get("id") or "validation")
        seen[benchmark, key] = seen.get((benchmark, key), -1) + 1
        generated += _generated(trace)
        correct = value == 1 if reward is None or chosen != reward else got == 1
        row = (_step(path, record, number), benchmark, key, seen[benchmark, key], correct)
        rows.append((*row, _tokens(trace)) + ((got,) if reward is not None else ()))
    if rows and not generated:
        raise DataError(
            path,
            "generated text to score; no episode holds any, so the dump has no generated text "
            "(a placeholder run), not 0% accuracy",
            column="traces.nodes",
        )
    said = (
        f"correctness from the reward {chosen!r}"
        if chosen != TOTAL
        else ("correctness from the rewards' weighted sum")
    )
    if reward is not None:
        said = f"reward from {reward!r}; {said}"
    if skipped:
        said += f"; {skipped} episode(s) with no reward computed (errored) left out"
    schema = {**SAMPLE_COLUMNS, **({"reward": pl.Float64} if reward is not None else {})}
    return _frame(path, rows, schema), said


def kept(files: list[Path], root: Path) -> tuple[list[Path], list[Path]]:
    """Of a folder's traces files: those to read (`all/`, of `eval/` where there is any) and
    those left out (`effective/`, which repeats `all/`; `train/` beside `eval/`), judged by
    the folders below `root` (a run kept under a folder named eval is no evaluation)."""

    def parts(f: Path) -> tuple[str, ...]:
        return f.relative_to(root).parts

    every = [f for f in files if "effective" not in parts(f)]
    evals = [f for f in every if "eval" in parts(f)]
    read = evals or every
    return read, [f for f in files if f not in read]


def _read(path: Path, where: Where) -> Loaded:
    frame, said = read_traces(path, where.metric, where.reward)
    return SampleLog(path, where.kind, samples=frame.lazy(), notes=[said])


FORMAT = Format(
    "prime-rl-traces",
    "prime-rl rollout dumps (rollouts/step_<N>/eval/all/traces.jsonl: an episode per line, "
    "task key, environment, rewards)",
    rank=170,
    read=_read,
    line=lambda ev: is_traces(ev.keys),
    per_sample=True,
)
