"""Benchmark: what watching a run costs (issue 43), against reading it whole once.

A verl file log of 20,000 steps (`{"step": N, "data": {...}}` a line, as verl's FileLogger
writes it: 30 training metrics a step, MATH500 and AIME24 validation every 10 steps) is
watched by `python -m helpers watch LOG -o out.csv --every 0.25`. Once the watch has written
out.csv for the log as it stands, ten more steps are appended, one every 0.5 s, each with its
validation scores. Measured, per repeat:

- the watcher's CPU time (user + system, from /proc) from before the first append until it has
  written out.csv with the tenth: reading the new lines, saying them, writing OUT ten times,
  and its polling in between;
- one `python -m helpers plot LOG -o plot.csv` of the whole grown log, start to exit: its CPU
  time (the children's rusage);
- each step's delay: from the append (written and flushed) to the watch's line for it.

The watch's final out.csv must equal plot's, byte for byte, or nothing is printed. Medians
over `--repeats`, the two measured alternately within each repeat.

    python benchmarks/watch.py --repeats 5
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TICKS = os.sysconf("SC_CLK_TCK")


def line(step: int) -> str:
    data = {f"actor/metric_{i:02d}": round(0.5 + (step * 7 + i) % 97 / 1000, 6) for i in range(30)}
    if step % 10 == 0:
        data["val-core/math500/acc/mean@1"] = round(0.4 + step / 100_000, 6)
        data["val-core/aime24/acc/mean@1"] = round(0.1 + step / 200_000, 6)
    return json.dumps({"step": step, "data": data}, separators=(",", ":")) + "\n"


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICKS  # utime, stime


def _wait(path: Path, text: str, seconds: float = 120) -> None:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if path.exists() and text in path.read_text():
            return
        time.sleep(0.02)
    raise SystemExit(f"the watch did not write {text!r} to {path} in {seconds} s")


def watch_once(folder: Path, steps: int) -> tuple[float, list[float], Path]:
    log, out = folder / "metrics.jsonl", folder / "out.csv"
    log.write_text("".join(line(s) for s in range(steps)))
    argv = [sys.executable, "-m", "helpers", "watch", str(log), "-o", str(out), "--every", "0.25"]
    watcher = subprocess.Popen(argv, cwd=ROOT, stdout=subprocess.PIPE, text=True)
    said: dict[int, float] = {}

    def listen():
        for text in watcher.stdout:
            if " step " in text:
                said.setdefault(int(text.split(" step ")[1].split()[0]), time.monotonic())

    threading.Thread(target=listen, daemon=True).start()
    _wait(out, f"\n{steps - 10},")  # the log as it stands, read and written
    time.sleep(0.5)
    before = cpu_seconds(watcher.pid)
    appended = {}
    for s in range(steps, steps + 10):
        with log.open("a") as f:
            f.write(line(s * 10 - steps * 9))  # steps go on by 10: each has validation scores
        appended[s * 10 - steps * 9] = time.monotonic()
        time.sleep(0.5)
    last = max(appended)
    _wait(out, f"\n{last},")
    spent = cpu_seconds(watcher.pid) - before
    watcher.terminate()
    watcher.wait(30)
    delays = [said[s] - t for s, t in appended.items() if s in said]
    if len(delays) != 10:
        raise SystemExit(f"the watch said {len(delays)} of the 10 steps")
    return spent, delays, out


def plot_once(folder: Path) -> tuple[float, Path]:
    out = folder / "plot.csv"
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    argv = [sys.executable, "-m", "helpers", "plot", str(folder / "metrics.jsonl"), "-o", str(out)]
    subprocess.run(argv, cwd=ROOT, check=True, capture_output=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime), out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--steps", type=int, default=20_000)
    args = parser.parse_args()
    watched, plotted, delays = [], [], []
    for _ in range(args.repeats):
        with tempfile.TemporaryDirectory() as tmp:
            spent, delay, out = watch_once(Path(tmp), args.steps)
            whole, plot_out = plot_once(Path(tmp))
            if out.read_bytes() != plot_out.read_bytes():
                raise SystemExit("the watch's out.csv differs from plot's")
        watched.append(spent)
        plotted.append(whole)
        delays += delay
    w, p = statistics.median(watched), statistics.median(plotted)
    print(f"verl file log of {args.steps:,} steps, 10 steps appended, {args.repeats} repeats")
    print(f"  watch, CPU for the 10 steps: {w:.2f} s (median)")
    print(f"  plot of the whole log, CPU:  {p:.2f} s (median)")
    print(f"  ratio watch / plot: {w / p:.2f}")
    print(
        f"  delay from append to the watch's line: median {statistics.median(delays):.2f} s, "
        f"max {max(delays):.2f} s ({len(delays)} steps)"
    )


if __name__ == "__main__":
    main()
