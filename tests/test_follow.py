"""Reading a run as it grows (`readers.follow.Follow`, issue 43): after every growth a look
gives what `load` reads of the file as it stands, while parsing only what was written since
the last look; a line or record being written is waited for; a file replaced or cut shorter
is read again; an event file that appears in a run's folder is read. The logs are written as
verl's FileLogger and console logger and prime-rl's file monitor write them, and by
tensorboardX's own SummaryWriter."""

from __future__ import annotations

import os
import time
from pathlib import Path

import polars as pl
import pytest

from helpers import DataError
from helpers.runs import readers
from helpers.runs.readers.follow import Follow
from helpers.runs.readers.trackers import tfevents
from tests.test_framework_logs import prime_rl_line, verl_console_line, verl_file_line

KEY = "val-core/math500/acc/mean@1"


def _same(followed: readers.Loaded, path) -> None:
    """The followed run is what a full read gives: scores, tokens, their order, its name."""
    whole = readers.load(path)
    for part in ("scores", "tokens"):
        a, b = getattr(followed, part), getattr(whole, part)
        assert (a is None) == (b is None), part
        if a is not None:
            assert a.equals(b), (part, a, b)
    assert (followed.order, followed.run, followed.kind) == (whole.order, whole.run, whole.kind)
    assert followed.notes[0] == whole.notes[0]  # the format, named alike


WRITERS = {
    "verl-file": lambda s: verl_file_line(s, {KEY: 0.4 + s / 1000, "actor/loss": 0.5}),
    "verl-console": lambda s: verl_console_line(s, {KEY: 0.4 + s / 1000, "actor/loss": 0.5}),
    "prime-rl": lambda s: prime_rl_line(
        s, 10.0 * s, {"eval/math500/all/avg@1": 0.4 + s / 1000, "time/step": 1.5}
    ),
    "metrics-jsonl": lambda s: f'{{"step": {s}, "{KEY}": {0.4 + s / 1000}}}\n',
}


@pytest.mark.parametrize("kind", list(WRITERS))
def test_a_growing_log_is_read_as_a_whole_read_reads_it_parsing_only_the_new_lines(tmp_path, kind):
    log = tmp_path / ("run.log" if kind == "verl-console" else "metrics.jsonl")
    write = WRITERS[kind]
    with log.open("w") as f:
        f.write("".join(write(s) for s in range(0, 200, 10)))
    follow = Follow(log)
    _same(follow.look(), log)
    assert follow.kind == kind and follow.read == 20
    with log.open("a") as f:  # ten more steps: ten more lines read, not 30
        f.write("".join(write(s) for s in range(200, 300, 10)))
    _same(follow.look(), log)
    assert follow.read == 30
    line = write(300)
    with log.open("a") as f:  # a line being written: the steps so far, the line waited for
        f.write(line[:25])
    seen = follow.look()
    assert seen.scores["step"].max() == 290
    with log.open("a") as f:
        f.write(line[25:])
    _same(follow.look(), log)
    assert follow.look().scores["step"].max() == 300


def test_a_whole_last_line_with_no_end_of_line_is_read_and_read_again(tmp_path):
    log = tmp_path / "metrics.jsonl"
    log.write_text(verl_file_line(0, {KEY: 0.4}) + verl_file_line(10, {KEY: 0.5}).rstrip("\n"))
    follow = Follow(log)
    _same(follow.look(), log)
    with log.open("a") as f:
        f.write("\n" + verl_file_line(20, {KEY: 0.6}))
    _same(follow.look(), log)
    assert follow.look().scores["step"].to_list() == [0, 10, 20]


def test_a_log_replaced_or_cut_shorter_is_read_again(tmp_path):
    log = tmp_path / "metrics.jsonl"
    log.write_text("".join(verl_file_line(s, {KEY: 0.4}) for s in range(0, 50, 10)))
    follow = Follow(log)
    follow.look()
    fresh = tmp_path / "new.jsonl"  # rotated: a new file under the old name
    fresh.write_text("".join(verl_file_line(s, {KEY: 0.7}) for s in range(100, 130, 10)))
    os.replace(fresh, log)
    _same(follow.look(), log)
    assert follow.look().scores["score"].to_list() == [0.7] * 3
    log.write_text(verl_file_line(5, {KEY: 0.1}))  # the same file, cut shorter and rewritten
    _same(follow.look(), log)
    assert follow.look().scores["step"].to_list() == [5]


def _scalars(writer, steps, value=0.5):
    """Two scalars a step, flushed until they are on disk (tensorboardX writes from a thread
    of its own, and a flush writes out only what that thread has taken)."""
    for s in steps:
        writer.add_scalar("eval/math500_accuracy", value + s / 1000, s)
        writer.add_scalar("train/loss", 1.0 - s / 1000, s)
    last = 1.0 - steps[-1] / 1000
    for _ in range(400):
        writer.flush()
        for f in Path(writer.logdir).glob("events.out.tfevents.*"):
            found = tfevents.read_scalars(f).filter(pl.col("step") == steps[-1], tag="train/loss")
            if found.height and found["value"][0] == pytest.approx(last):
                return
        time.sleep(0.025)
    raise AssertionError(f"tensorboardX did not write step {steps[-1]}")


def test_an_event_file_tensorboardx_writes_is_followed_record_by_record(tmp_path):
    from tensorboardX import SummaryWriter

    run = tmp_path / "runs" / "grpo"
    writer = SummaryWriter(str(run))
    _scalars(writer, range(0, 100, 10))
    (events,) = run.glob("events.out.tfevents.*")
    for i, path in enumerate((run, events)):  # the run's folder, and its one event file
        follow = Follow(path)
        _same(follow.look(), path)
        before = follow.read
        _scalars(writer, range(100 * (i + 1), 100 * (i + 1) + 10))
        _same(follow.look(), path)
        assert follow.read - before == 20  # two scalars a step, a record each
    ends = [end for _, _, end in tfevents.records_from(events)]
    last = events.read_bytes()[ends[-2] : ends[-1]]
    with events.open("ab") as f:  # a record cut short while it is written: waited for
        f.write(last[:-5])
    follow = Follow(run)
    seen = follow.look()
    assert seen.scores["step"].max() == 209
    writer.close()


def test_a_new_event_file_in_the_runs_folder_is_read(tmp_path):
    """A run restarted into its folder: a second event file, whose values for a step replace
    the first's (as a full read takes them; the files are ordered by the time in their names,
    then by name: here the same second, so by the suffix)."""
    from tensorboardX import SummaryWriter

    run = tmp_path / "grpo"
    with SummaryWriter(str(run), filename_suffix=".a") as writer:
        _scalars(writer, range(0, 50, 10))
    follow = Follow(run)
    _same(follow.look(), run)
    with SummaryWriter(str(run), filename_suffix=".b") as writer:
        _scalars(writer, range(40, 80, 10), value=0.6)
    assert len(list(run.glob("events.out.tfevents.*"))) == 2
    _same(follow.look(), run)
    scores = follow.look().scores.filter(pl.col("step") == 40)
    assert scores["score"].to_list() == [pytest.approx(0.64, abs=1e-6)]  # float32 on disk


def test_a_store_of_several_runs_is_read_whole_at_each_look(tmp_path):
    from tensorboardX import SummaryWriter

    for name in ("a", "b"):
        with SummaryWriter(str(tmp_path / "logs" / name)) as writer:
            _scalars(writer, range(0, 30, 10))
    follow = Follow(tmp_path / "logs" / "a")
    _same(follow.look(), tmp_path / "logs" / "a")
    with pytest.raises(DataError, match="give one as PATH#RUN"):
        Follow(tmp_path / "logs").look()  # several runs, as load says
    follow = Follow(f"{tmp_path / 'logs'}#b")
    _same(follow.look(), f"{tmp_path / 'logs'}#b")
    assert follow.read == 0  # read whole, by load
