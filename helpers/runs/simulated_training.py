"""A simulated reasoning-RL run that a writer grows while it is watched (notebook 009 and the
watch's tests): each step a line as verl's file logger writes it, the mean training reward and
response length, and every `EVAL_EVERY` steps the validation accuracy on two benchmarks of
MATH-500's and AIME 2024's sizes, each a count of problems solved drawn from a known truth.
Everything here is simulated, from a seed: the same steps always give the same lines.

Usage: python -m helpers.runs.simulated_training PATH FIRST LAST EVERY
(appends steps FIRST to LAST to PATH, one every EVERY seconds).
"""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

SEED = 9
EVAL_EVERY = 10
# benchmark -> (problems, accuracy at step 0, accuracy the run tends to)
BENCHMARKS = {"math500": (500, 0.52, 0.71), "aime24": (30, 0.10, 0.27)}


def line(step: int) -> str:
    """Step `step`'s line of the log (its values drawn from a generator seeded by the step).

    Examples
    --------
    >>> line(10)[:60]
    '{"step": 10, "data": {"critic/rewards/mean": 0.4314, "respon'
    """
    rng = np.random.default_rng([SEED, step])
    progress = 1 - np.exp(-step / 40)
    data = {
        "critic/rewards/mean": round(float(0.35 + 0.3 * progress + rng.normal(0, 0.03)), 4),
        "response_length/mean": round(float(900 + 1400 * progress + rng.normal(0, 60)), 1),
    }
    if step % EVAL_EVERY == 0:
        for name, (n, start, end) in BENCHMARKS.items():
            solved = rng.binomial(n, start + (end - start) * progress)
            data[f"val-core/{name}/acc/mean@1"] = round(solved / n, 6)
    return json.dumps({"step": step, "data": data})


def write(path: str | Path, first: int, last: int, every: float = 0.0) -> None:
    """Append steps `first` to `last` to the log at `path`, each line flushed as verl's file
    logger flushes it, `every` seconds apart."""
    with Path(path).open("a") as f:
        for step in range(first, last + 1):
            if every and step > first:
                time.sleep(every)
            f.write(line(step) + "\n")
            f.flush()


async def grow(path: str | Path, first: int, last: int, every: float) -> None:
    """Append steps `first` to `last` to `path`, one every `every` seconds, on the running
    event loop (a notebook's kernel: what else runs on it, a watch, runs in between)."""
    for step in range(first, last + 1):
        await asyncio.sleep(every)
        write(path, step, step)


def start(path: str | Path, first: int, last: int, every: float) -> subprocess.Popen:
    """The writer in a process of its own, as a training job is: it appends steps `first` to
    `last` to `path`, one every `every` seconds, and exits."""
    argv = [sys.executable, "-m", __name__, str(path), str(first), str(last), str(every)]
    return subprocess.Popen(argv, stdin=subprocess.DEVNULL)


if __name__ == "__main__":
    where, first, last, every = sys.argv[1:5]
    write(where, int(first), int(last), float(every))
