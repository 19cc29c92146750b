"""Benchmark: a tracker's own store read as a user reads it, one whole process per reader, from
start to exit (interpreter start-up and imports included):

- TensorBoard: a log dir of 1M scalars (10,000 steps x 100 tags, one event per scalar, as
  `add_scalar` writes them; tags as Hugging Face's Trainer writes them, `eval/bench07_accuracy`),
  written once by tensorboardX's SummaryWriter (torch's if tensorboardX is missing, else
  TensorBoard's own event writer). Read by
  - ours: `python -m helpers plot LOGDIR -o out.csv` (every scalar is a row of the CSV);
  - tbparse: `SummaryReader(LOGDIR).scalars` (a pandas frame);
  - TensorBoard's own `EventAccumulator(LOGDIR, size_guidance={SCALARS: 0})` and `Reload()`,
    then every tag's `Scalars(tag)` (0 keeps every scalar: nothing is sampled away).
- W&B: an offline run of 10,000 steps x 200 keys (100 `val-core/<source>/acc/mean@4`, 100
  `response_length/<source>/mean`, as verl logs them), written once by wandb itself in offline
  mode (WANDB_MODE=offline: nothing sent). Read by ours: `python -m helpers plot RUNDIR -o
  out.csv`. wandb 0.31 ships no reader for an offline run (its history is only in the
  `run-<id>.wandb` transaction log, which the SDK writes but no longer reads back), so beside it
  is a floor, not a peer: a bare process that imports polars and reads the file's bytes.

Every reader must give back the numbers that were logged: for each, the count of values and
exact sums (math.fsum, at float32: TensorBoard stores float32, and the values logged to W&B are
float32 too) of the values, of value x step and of value x tag number, equal to those of the
values written, or no figures are printed. Peers are checked in one extra run each, which
computes these sums after reading (the timed runs only read); ours from the CSV it wrote.

Time is wall-clock; peak memory is the kernel's peak resident size of the process, measured
as `aggregate.py` measures it (a launcher process's wait4, never this process's own, whose
peak Linux would carry across fork and exec into the child). Readers alternate within each
repeat; medians over `--repeats` are printed with ratios against tbparse (TensorBoard) and the
floor (W&B). Ours writes a 1M-row CSV where the peers only hold their frames in memory.

    python benchmarks/trackers.py --repeats 5
"""

from __future__ import annotations

import argparse
import inspect
import json
import math
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from importlib.util import find_spec
from pathlib import Path

import numpy as np
import polars as pl

try:
    from benchmarks import aggregate
except ImportError:  # run as a script: benchmarks/ is the path's first entry
    import aggregate  # type: ignore[no-redef]

ROOT = Path(__file__).resolve().parent.parent


def sums(step, index, value) -> list:
    """Count and exact sums of the values, of value x step and of value x tag number, at float32
    (fsum is exact; a float32 times a step or tag number is exact in float64). The check runs of
    the peers run this same function (its source)."""
    value = np.asarray(value, dtype=np.float32).astype(np.float64)
    step = np.asarray(step, dtype=np.float64)
    index = np.asarray(index, dtype=np.float64)
    return [
        len(value),
        math.fsum(value.tolist()),
        math.fsum((value * step).tolist()),
        math.fsum((value * index).tolist()),
    ]


SUMS = "import math\nimport numpy as np\n\n" + inspect.getsource(sums)

TBPARSE = """
import sys
from tbparse import SummaryReader

frame = SummaryReader(sys.argv[1]).scalars
"""
TBPARSE_CHECK = """
import json
index = [int(t.split('bench', 1)[1][:{digits}]) for t in frame['tag']]
print(json.dumps(sums(frame['step'].to_numpy(), index, frame['value'].to_numpy())))
"""

ACCUMULATOR = """
import sys
from tensorboard.backend.event_processing import event_accumulator as ea

acc = ea.EventAccumulator(sys.argv[1], size_guidance={ea.SCALARS: 0})
acc.Reload()
scalars = {tag: acc.Scalars(tag) for tag in acc.Tags()['scalars']}
"""
ACCUMULATOR_CHECK = """
import json
rows = [(e.step, int(t.split('bench', 1)[1][:{digits}]), e.value)
        for t, events in scalars.items() for e in events]
print(json.dumps(sums(*zip(*rows))))
"""

FLOOR = """
import sys
import polars

with open(sys.argv[1], 'rb') as handle:
    handle.read()
"""


# ---- the stores, written once by the trackers' own writers -------------------------------------


def tensorboard_writer() -> str | None:
    """The SummaryWriter to use: tensorboardX's, torch's, TensorBoard's own event writer."""
    for name in ("tensorboardX", "torch", "tensorboard"):
        try:
            if find_spec(name) is not None:
                if name == "torch":
                    from torch.utils.tensorboard import SummaryWriter  # noqa: F401
                return name
        except ImportError:
            continue
    return None


def write_tensorboard(logdir: Path, steps: int, tags: int, seed: int = 0) -> np.ndarray:
    """`steps` x `tags` float32 scalars in [0, 1), one event each, step by step; the values."""
    values = np.random.default_rng(seed).random((steps, tags), dtype=np.float32)
    names = [f"eval/bench{t:0{len(str(tags - 1))}d}_accuracy" for t in range(tags)]
    writer = tensorboard_writer()
    if writer in ("tensorboardX", "torch"):
        if writer == "tensorboardX":
            from tensorboardX import SummaryWriter
        else:
            from torch.utils.tensorboard import SummaryWriter
        w = SummaryWriter(str(logdir), max_queue=1000)
        for step in range(steps):
            for tag, value in zip(names, values[step].tolist(), strict=True):
                w.add_scalar(tag, value, step)
        w.close()
    elif writer == "tensorboard":
        from tensorboard.compat.proto import event_pb2, summary_pb2
        from tensorboard.summary.writer.event_file_writer import EventFileWriter

        w = EventFileWriter(str(logdir))
        for step in range(steps):
            for tag, value in zip(names, values[step].tolist(), strict=True):
                summary = summary_pb2.Summary(
                    value=[summary_pb2.Summary.Value(tag=tag, simple_value=value)]
                )
                w.add_event(event_pb2.Event(step=step, wall_time=time.time(), summary=summary))
        w.close()
    else:
        raise RuntimeError("no TensorBoard writer installed (pip install -e '.[bench]')")
    return values


WANDB_WRITER = """
import sys
import numpy as np
import wandb

steps, keys, seed = (int(a) for a in sys.argv[2:5])
values = np.random.default_rng(seed).random((steps, keys), dtype=np.float32)
values[:, keys // 2 :] *= 2000  # response lengths
half, width = keys // 2, len(str(keys // 2 - 1))
names = [f"val-core/src{k:0{width}d}/acc/mean@4" for k in range(half)]
names += [f"response_length/src{k:0{width}d}/mean" for k in range(keys - half)]
run = wandb.init(project="bench", name="bench", dir=sys.argv[1], mode="offline")
for step in range(steps):
    run.log(dict(zip(names, values[step].tolist())), step=step)
run.finish()
"""


def write_wandb(folder: Path, steps: int, keys: int, seed: int = 1) -> tuple[Path, np.ndarray]:
    """An offline W&B run written by wandb itself (in a process of its own, offline and silent:
    wandb starts a service process); its folder and the values logged."""
    env = {**os.environ, "WANDB_MODE": "offline", "WANDB_SILENT": "true"}
    env.pop("WANDB_API_KEY", None)
    args = [str(folder), str(steps), str(keys), str(seed)]
    subprocess.run([sys.executable, "-c", WANDB_WRITER, *args], check=True, env=env, cwd=folder)
    [run] = (folder / "wandb").glob("offline-run-*")
    values = np.random.default_rng(seed).random((steps, keys), dtype=np.float32)
    values[:, keys // 2 :] *= 2000
    return run, values


def expected(values: np.ndarray) -> list:
    steps, tags = values.shape
    step = np.repeat(np.arange(steps), tags)
    index = np.tile(np.arange(tags), steps)
    return sums(step, index, values.ravel())


# ---- one whole process ----------------------------------------------------------------------


def measure(args: list[str]) -> dict:
    """Wall-clock seconds, peak resident MB and standard output of one process running
    `python ARGS` (`aggregate.measure_command`, as every benchmark here measures)."""
    return aggregate.measure_command([sys.executable, *args], printed=True)


def ours_sums(csv: Path, column: str) -> list:
    """The sums of one column of the CSV `plot` wrote (tag number from the benchmark name);
    the rows of the benchmarks' mean `plot` adds (`mean of 100 benchmarks`) are no logged
    value and are left out."""
    frame = pl.read_csv(csv, schema_overrides={column: pl.Float64}).drop_nulls(column)
    frame = frame.filter(pl.col("benchmark").str.contains(r"\d$"))
    index = frame["benchmark"].str.extract(r"(\d+)$").cast(pl.Int64)
    return sums(frame["step"].to_numpy(), index.to_numpy(), frame[column].to_numpy())


def check(name: str, got: list, want: list) -> None:
    if got != want:
        raise AssertionError(f"{name} read other numbers than were logged: {got} != {want}")


def run_readers(readers: dict[str, list[str]], repeats: int) -> dict[str, dict]:
    """Each reader `repeats` times, alternating; medians."""
    runs: dict[str, list[dict]] = {name: [] for name in readers}
    for _ in range(repeats):
        for name, args in readers.items():
            runs[name].append(measure(args))
    return {
        name: {key: statistics.median(r[key] for r in rs) for key in ("seconds", "peak_mb")}
        for name, rs in runs.items()
    }


def print_rows(store: str, results: dict[str, dict], base: str) -> None:
    print(f"{'store':22} {'reader':18} {'median s':>9} {'peak MB':>8} {'time':>7} {'memory':>7}")
    peer = results.get(base)
    for name, r in results.items():
        t = r["seconds"] / peer["seconds"] if peer else float("nan")
        m = r["peak_mb"] / peer["peak_mb"] if peer else float("nan")
        print(
            f"{store:22} {name:18} {r['seconds']:9.2f} {r['peak_mb']:8.0f} {t:6.2f}x {m:6.2f}x",
            flush=True,
        )


def tensorboard_part(tmp: Path, steps: int, tags: int, repeats: int) -> None:
    logdir = tmp / "tensorboard"
    writer = tensorboard_writer()
    if writer is None:
        print("TensorBoard: no writer installed (tensorboardX, torch or tensorboard): not run")
        return
    t0 = time.perf_counter()
    values = write_tensorboard(logdir, steps, tags)
    size = sum(f.stat().st_size for f in logdir.iterdir()) / 2**20
    print(
        f"TensorBoard: {values.size:,} scalars ({steps:,} steps x {tags} tags, {size:.0f} MB) "
        f"written by {writer} in {time.perf_counter() - t0:.0f} s"
    )
    want = expected(values)
    digits = len(str(tags - 1))
    out = tmp / "tensorboard.csv"
    readers = {"ours (plot)": ["-m", "helpers", "plot", str(logdir), "-o", str(out)]}
    checks = {}
    if find_spec("tbparse"):
        readers["tbparse"] = ["-c", TBPARSE, str(logdir)]
        checks["tbparse"] = SUMS + TBPARSE + TBPARSE_CHECK.format(digits=digits)
    if find_spec("tensorboard"):
        readers["EventAccumulator"] = ["-c", ACCUMULATOR, str(logdir)]
        checks["EventAccumulator"] = SUMS + ACCUMULATOR + ACCUMULATOR_CHECK.format(digits=digits)
    missing = {"tbparse", "EventAccumulator"} - set(readers)
    if missing:
        print(f"not installed here, not run: {', '.join(sorted(missing))} (.[bench])")
    # one untimed run each, which also warms the file cache: the numbers read
    measure(readers["ours (plot)"])
    check("ours", ours_sums(out, "score"), want)
    for name, code in checks.items():
        check(name, json.loads(measure(["-c", code, str(logdir)])["stdout"]), want)
    results = run_readers(readers, repeats)
    check("ours", ours_sums(out, "score"), want)
    print_rows(f"TensorBoard {values.size:,}", results, "tbparse")


def wandb_part(tmp: Path, steps: int, keys: int, repeats: int) -> None:
    if find_spec("wandb") is None:
        print("W&B: wandb is not installed (.[trackers]): not run")
        return
    t0 = time.perf_counter()
    run, values = write_wandb(tmp, steps, keys)
    [log] = run.glob("run-*.wandb")
    size = log.stat().st_size / 2**20
    print(
        f"W&B: an offline run of {steps:,} steps x {keys} keys ({size:.0f} MB .wandb) written by "
        f"wandb in {time.perf_counter() - t0:.0f} s; wandb ships no reader for it: a floor beside"
    )
    half = keys // 2
    out = tmp / "wandb.csv"
    readers = {
        "ours (plot)": ["-m", "helpers", "plot", str(run), "-o", str(out)],
        "floor (read bytes)": ["-c", FLOOR, str(log)],
    }
    measure(readers["ours (plot)"])
    for column, part in (("score", values[:, :half]), ("tokens", values[:, half:])):
        check(f"ours ({column})", ours_sums(out, column), expected(part))
    results = run_readers(readers, repeats)
    print_rows(f"W&B {steps:,} x {keys}", results, "floor (read bytes)")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--steps", type=int, default=10_000)
    parser.add_argument("--tags", type=int, default=100, help="TensorBoard tags")
    parser.add_argument("--keys", type=int, default=200, help="W&B keys")
    parser.add_argument("--stores", nargs="+", default=["tensorboard", "wandb"])
    args = parser.parse_args(argv)
    tmp = Path(tempfile.mkdtemp(prefix="bench-trackers-"))
    try:
        print(
            f"whole processes, median of {args.repeats}, readers alternating; ratios against "
            "tbparse (TensorBoard) and the floor (W&B)"
        )
        if "tensorboard" in args.stores:
            tensorboard_part(tmp, args.steps, args.tags, args.repeats)
        if "wandb" in args.stores:
            wandb_part(tmp, args.steps, args.keys, args.repeats)
        print("(every reader gave the values logged: count and exact sums at float32)")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
