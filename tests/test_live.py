"""`helpers.watch` (issue 43): runs watched from a notebook's event loop. Each look that finds a
log grown redraws the output in place (the display's id updated, never a new output), the
last state is stored whole (spec and PNG) when the watch ends, and that last chart is what
`plot` or `compare` draws for the whole log. The writer is the simulated run of notebook 009,
in a process of its own."""

from __future__ import annotations

import asyncio
import json
from concurrent.futures import ThreadPoolExecutor

import pytest

import helpers
from helpers.errors import DataError
from helpers.render import export
from helpers.runs import simulated_training
from helpers.runs.choose import fitting
from helpers.runs.live import Watch
from helpers.runs.presentation import comparison_chart


class Shown:
    """IPython's `display` as a notebook front end sees it: each output, then its updates."""

    def __init__(self) -> None:
        self.outputs: list[list[dict]] = []

    def display(self, bundle, raw=True, display_id=True):
        history = [bundle]
        self.outputs.append(history)

        class Handle:
            def update(self, bundle, raw=True):
                history.append(bundle)

        return Handle()


@pytest.fixture
def shown(monkeypatch) -> Shown:
    import IPython.display

    s = Shown()
    monkeypatch.setattr(IPython.display, "display", s.display)
    return s


def _run(watched):
    """The coroutine function's run on an event loop of its own, in a thread of its own, as a
    notebook kernel's loop runs (this process may run another loop already: playwright's)."""
    with ThreadPoolExecutor(1) as thread:
        return thread.submit(asyncio.run, watched()).result()


def _spec_of(chart) -> dict:
    helpers.setup()
    return json.loads(json.dumps(chart.to_dict()))


def test_a_growing_log_is_redrawn_in_place_and_ends_as_plot_draws_it(tmp_path, shown):
    log = tmp_path / "metrics.jsonl"
    simulated_training.write(log, 1, 20)

    async def watched():
        w = helpers.watch(log, every=0.1, title="simulated")
        writer = simulated_training.start(log, 21, 40, every=0.05)  # a process of its own
        assert await asyncio.to_thread(writer.wait) == 0
        await asyncio.sleep(0.3)  # a look or more before the last
        w.stop()  # one last look
        return await w.wait()

    w = _run(watched)
    assert w.state == "stopped" and w.status().endswith("\nstopped")
    steps = [line.split()[2] for line in w.lines]
    assert steps == ["20", "30", "40"]  # the first look says the newest step, then each new one
    assert w.lines[-1].startswith("metrics: step 40  aime24 ") and "% [" in w.lines[-1]
    chart, status = shown.outputs  # two outputs, each updated in place: never a third
    assert len(chart) >= 2 and len(status) >= 2
    said = [b["text/plain"] for b in status]
    assert all(a != b for a, b in zip(said, said[1:], strict=False)), (
        said
    )  # updated only where it changed
    assert "image/png" in chart[0] and "image/png" in chart[-1]  # stored whole: first and last
    assert all("image/png" not in b for b in chart[1:-1])  # redrawn as a spec while watching
    first, last = (b[export.VEGALITE_MIME] for b in (chart[0], chart[-1]))
    assert first != last
    make, _ = fitting([log], title="simulated")
    plotted = _spec_of(make())  # plot's chart, its title saying the step it has reached
    plotted["title"]["text"] = "simulated, to step 40"
    assert last == export.notebook_spec(plotted)
    assert first["title"]["text"] == "simulated, to step 20"
    assert w._repr_mimebundle_() == chart[-1]
    assert status[-1]["text/plain"] == w.status()


def test_a_watch_ends_by_itself_when_no_log_grew_for_idle_exit(tmp_path, shown):
    log = tmp_path / "metrics.jsonl"
    simulated_training.write(log, 1, 10)

    async def idle():
        w = helpers.watch(log, every=0.05, idle_exit=1)
        simulated_training.write(log, 11, 20)  # seen at the next look, however slow the first
        assert w.state == "watching"
        return await w.wait()

    w = _run(idle)
    assert w.state == "stalled" and w.status().endswith("stalled: no log grew for 1 s")
    assert w.lines[-1].startswith("metrics: step 20 ")
    assert "image/png" in shown.outputs[0][-1]


def test_stop_takes_one_last_look_at_once(tmp_path, shown):
    log = tmp_path / "metrics.jsonl"
    simulated_training.write(log, 1, 10)

    async def stopped():
        w = helpers.watch(log, every=3600)  # only stop() brings the next look
        simulated_training.write(log, 11, 20)
        w.stop()
        return await asyncio.wait_for(w.wait(), 30)

    w = _run(stopped)
    assert w.state == "stopped" and w.lines[-1].startswith("metrics: step 20 ")


def test_two_runs_with_a_baseline_draw_the_comparison(tmp_path, shown):
    base, new = tmp_path / "base.jsonl", tmp_path / "new.jsonl"
    simulated_training.write(base, 1, 30)
    simulated_training.write(new, 1, 20)

    async def watched():
        w = helpers.watch(f"base={base}", ("new", new), baseline="base", every=0.1)
        simulated_training.write(new, 21, 30)
        w.stop()  # one last look, which reads what was written: no clock to race
        return await w.wait()

    w = _run(watched)
    assert any(line.startswith("  math500, step 30: new vs base:") for line in w.lines), w.lines
    c = w.watching.comparison()
    assert c.runs == ["base", "new"]
    spec = shown.outputs[0][-1][export.VEGALITE_MIME]
    drawn = _spec_of(comparison_chart(c))
    drawn["title"]["text"] += ", to step 30"
    assert spec == export.notebook_spec(drawn)


def test_a_log_unreadable_at_first_is_waited_for(tmp_path, shown):
    log = tmp_path / "metrics.jsonl"
    log.write_text('{"step": 1, "data": {"critic/rewar')  # a first line still being written

    async def watched():
        w = helpers.watch(log, every=0.1, idle_exit=1)
        assert shown.outputs[0][0] == {"text/plain": "no chart yet: no log could be read"}
        log.write_text("")
        simulated_training.write(log, 1, 10)
        return await w.wait()

    w = _run(watched)
    assert w.lines[0].startswith("metrics: waiting: ")
    assert w.lines[-1].startswith("metrics: step 10 ")
    assert export.VEGALITE_MIME in shown.outputs[0][-1]


def test_bad_calls_are_said_plainly(tmp_path):
    log = tmp_path / "metrics.jsonl"
    simulated_training.write(log, 1, 10)
    with ThreadPoolExecutor(1) as thread, pytest.raises(DataError, match="a notebook's kernel"):
        thread.submit(helpers.watch, log).result()  # no event loop: the terminal has a command
    with pytest.raises(DataError, match="one run or more"):
        Watch()
    with pytest.raises(DataError, match="more than 0"):
        Watch(log, every=0)
    with pytest.raises(DataError, match="one of the runs"):
        Watch(log, baseline="nope")


def test_the_simulated_writer_is_seeded_and_labelled():
    assert simulated_training.line(30) == simulated_training.line(30)
    data = json.loads(simulated_training.line(30))["data"]
    assert set(data) == {
        "critic/rewards/mean",
        "response_length/mean",
        "val-core/math500/acc/mean@1",
        "val-core/aime24/acc/mean@1",
    }
    assert (data["val-core/aime24/acc/mean@1"] * 30) % 1 < 1e-4  # a count of 30 problems
    assert "val-core" not in simulated_training.line(31)


def test_stop_during_a_look_takes_another_after_it(tmp_path, shown, monkeypatch):
    """A stop asked while a look is reading: that look may have read before the last lines
    were written, so one more is taken."""
    import time

    log = tmp_path / "metrics.jsonl"
    simulated_training.write(log, 1, 10)
    looked = Watch._look

    def slow(self):
        changed = looked(self)
        time.sleep(0.3)  # still looking when the writer finishes and the watch is stopped
        return changed

    async def stopped():
        w = helpers.watch(log, every=0.01)
        monkeypatch.setattr(Watch, "_look", slow)
        await asyncio.sleep(0.1)  # a look has begun
        simulated_training.write(log, 11, 20)
        w.stop()
        return await asyncio.wait_for(w.wait(), 30)

    w = _run(stopped)
    assert w.lines[-1].startswith("metrics: step 20 ")
