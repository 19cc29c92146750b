"""`python -m helpers watch` (issue 43, first slice): a log that grows while it is watched gets
a line per newly evaluated step, a half-written line is waited for, OUT is what `plot` writes
for the log so far, and the watch ends on --idle-exit (saying the run stalled) or on Ctrl-C
with OUT whole."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from helpers.cli import main

KEY = "val-core/math500/acc/mean@1"


def _log(path: Path, steps, gain: float = 0.001) -> None:
    with path.open("a") as f:
        for s in steps:
            f.write(json.dumps({"step": s, "data": {KEY: round(0.4 + gain * s, 4)}}) + "\n")


def _watch(*args: str, cwd: Path) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "-m", "helpers", "watch", *args],
        cwd=cwd,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def _wait_for(path: Path, text: str, process: subprocess.Popen) -> None:
    """Until the watch has written `text` in its output file, or ended."""
    for _ in range(300):
        if path.exists() and text in path.read_text() or process.poll() is not None:
            return
        time.sleep(0.05)


def test_a_growing_log_gets_a_line_per_new_step_and_out_follows(tmp_path):
    log, out = tmp_path / "metrics.jsonl", tmp_path / "live.csv"
    _log(log, (0, 10))
    watch = _watch(str(log), "-o", str(out), "--every", "0.1", "--idle-exit", "1.5", cwd=tmp_path)
    _wait_for(out, "\n10,", watch)
    _log(log, (20,))
    with log.open("a") as f:  # a line still being written: waited for, never an error
        f.write('{"step": 30, "data": {"val-core/')
    _wait_for(out, "\n20,", watch)
    with log.open("a") as f:
        f.write('math500/acc/mean@1": 0.43}}\n')
    said, err = watch.communicate(timeout=60)
    assert watch.returncode == 0, err
    lines = said.splitlines()
    for step in (10, 20, 30):  # the first look says the newest step; then each new one
        (line,) = [x for x in lines if f": step {step} " in x]
        assert line.startswith("metrics: step") and "math500 " in line and "% [" in line
    assert not any(": step 0 " in x for x in lines)
    assert lines[-1].startswith("metrics: stalled: no growth for")
    assert main(["plot", str(log), "-o", str(tmp_path / "plot.csv")]) == 0
    assert out.read_bytes() == (tmp_path / "plot.csv").read_bytes()


def test_with_a_baseline_each_new_step_says_the_difference(tmp_path):
    base, new = tmp_path / "base.jsonl", tmp_path / "new.jsonl"
    _log(base, (0, 10), gain=0.0)
    _log(new, (0, 10), gain=0.01)
    watch = _watch(
        f"base={base}", f"new={new}", "--baseline", "base", "--every", "0.1",
        "--idle-exit", "1", cwd=tmp_path,
    )  # fmt: skip
    said, err = watch.communicate(timeout=60)
    assert watch.returncode == 0, err
    assert "base: step 10  math500 40.0%" in said and "new: step 10  math500 50.0%" in said
    assert "  math500, step 10: new vs base: +10.0 points" in said


def test_seeds_of_one_run_are_each_followed_on_their_own(tmp_path):
    """Two logs under one name (seeds of a method) are two logs to follow: each says its own
    accuracy, not the other's."""
    a, b = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    _log(a, (0, 10), gain=0.0)
    _log(b, (0, 10), gain=0.01)
    watch = _watch(f"base={a}", f"base={b}", "--every", "0.1", "--idle-exit", "1", cwd=tmp_path)
    said, err = watch.communicate(timeout=60)
    assert watch.returncode == 0, err
    steps = sorted(x for x in said.splitlines() if ": step 10 " in x)
    assert steps == ["base: step 10  math500 40.0% [35.8%, 44.4%]",
                     "base: step 10  math500 50.0% [45.6%, 54.4%]"]  # fmt: skip


def test_a_tensorboard_run_a_writer_grows_is_said_step_by_step(tmp_path):
    """tensorboardX's SummaryWriter adds a step every 0.6 s (flushing twice a second) while
    the watch looks every 0.5 s: every step is said, and the watch's CSV is plot's."""
    from tensorboardX import SummaryWriter

    run, out = tmp_path / "runs" / "grpo", tmp_path / "live.csv"
    writer = SummaryWriter(str(run), flush_secs=0.5)
    writer.add_scalar("eval/math500_accuracy", 0.4, 0)
    writer.flush()
    watch = _watch(str(run), "-o", str(out), "--every", "0.5", "--idle-exit", "4", cwd=tmp_path)
    _wait_for(out, "\n0,", watch)
    steps = range(10, 90, 10)
    for step in steps:
        writer.add_scalar("eval/math500_accuracy", 0.4 + step / 1000, step)
        time.sleep(0.6)
    writer.close()
    said, err = watch.communicate(timeout=60)
    assert watch.returncode == 0, err
    for step in steps:
        assert sum(f"grpo: step {step}  math500 " in x for x in said.splitlines()) == 1, said
    assert said.splitlines()[-1].startswith("grpo: stalled: no growth for")
    assert main(["plot", str(run), "-o", str(tmp_path / "plot.csv")]) == 0
    assert out.read_bytes() == (tmp_path / "plot.csv").read_bytes()


def test_ctrl_c_ends_the_watch_with_out_whole(tmp_path):
    log, out = tmp_path / "m.jsonl", tmp_path / "live.csv"
    _log(log, (0, 10, 20))
    watch = _watch(str(log), "-o", str(out), "--every", "0.1", cwd=tmp_path)
    _wait_for(out, "\n20,", watch)
    watch.send_signal(signal.SIGINT)
    said, err = watch.communicate(timeout=60)
    assert watch.returncode == 0
    assert err.strip().endswith(f"stopped; {out} is whole")
    assert out.read_text().count("\n") == 4  # the header and three steps


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["--every", "0"], "expected seconds, more than 0"),
        (["--baseline", "nope"], "expected one of the runs"),
    ],
)
def test_bad_arguments_are_one_error_line(tmp_path, args, words):
    log = tmp_path / "m.jsonl"
    _log(log, (0,))
    done = subprocess.run(
        [sys.executable, "-m", "helpers", "watch", str(log), *args],
        capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert done.returncode == 2 and done.stderr.count("\n") == 1 and words in done.stderr
